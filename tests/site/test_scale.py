"""No quadratic surprises: a paper page's HTML and the navigation do not grow with the
number of papers (structure, not timing; timing lives in bench/bench.py)."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

from generator.explore.authors import person_key
from helpers import corpus_file, run_cli

# Bytes of a paper page's HTML, whatever the corpus and the record: 40,000 until the names of a
# record's (at most 200) authors became links to their pages, 12 KB more at 200 (issue 35).
PAGE_BUDGET = 48_000


def build(tmp_path: Path, count: int) -> Path:
    lines = corpus_file("colm2025.jsonl").read_text(encoding="utf-8").splitlines()[:count]
    source = tmp_path / f"colm{count}.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    site = tmp_path / f"site{count}"
    result = run_cli("build", str(source), "--site", str(site))
    assert result.returncode == 0, result.stderr[-2000:]
    return site


def page_sizes(site: Path, slugs: set[str]) -> dict[str, int]:
    return {p.parent.name: p.stat().st_size for p in (site / "papers").glob("*/index.html") if p.parent.name in slugs}


def index_bytes(site: Path) -> int:
    """Bytes of the search index's chunks and result fragments (Pagefind's code excluded)."""
    return sum(p.stat().st_size for folder in ("index", "fragment") for p in (site / "pagefind" / folder).iterdir())


def nav_links(html: str) -> int:
    nav = html[html.index('<nav class="md-nav md-nav--primary') :]
    nav = nav[: nav.index("</nav>")]
    return len(re.findall(r"<a ", nav))


@pytest.mark.slow
def test_page_html_and_nav_stay_bounded_as_the_corpus_grows(tmp_path):
    small, large = build(tmp_path, 60), build(tmp_path, 400)
    shared = {p.parent.name for p in (small / "papers").glob("*/index.html")} & {
        p.parent.name for p in (large / "papers").glob("*/index.html")
    }
    assert len(shared) >= 50
    before, after = page_sizes(small, shared), page_sizes(large, shared)
    # The same papers' pages weigh the same whatever the corpus size (related lists,
    # tags and mentions are capped), within a few percent.
    assert statistics.mean(after.values()) <= 1.05 * statistics.mean(before.values())
    assert max(after.values()) <= PAGE_BUDGET
    paper = next(iter(shared))
    small_html = (small / "papers" / paper / "index.html").read_text(encoding="utf-8")
    large_html = (large / "papers" / paper / "index.html").read_text(encoding="utf-8")
    assert nav_links(small_html) == nav_links(large_html) <= 20
    # What does grow is the search index, linearly: bytes per paper stay alike. It stays in
    # chunks (a search fetches a few), none of them near a one-file index of every page.
    per_paper = [index_bytes(site) / n for site, n in ((small, 60), (large, 400))]
    assert per_paper[1] <= 1.2 * per_paper[0]
    assert len(list((large / "pagefind" / "index").iterdir())) > 1
    assert max(p.stat().st_size for p in (large / "pagefind").rglob("*") if p.is_file()) <= 150_000
    assert json.loads((large / "papers.json").read_text())["papers"]


LETTER_PAGE_BUDGET = 600_000  # bytes of one letter's page of the Authors index (S at 20,000 authors: ~2,000 names)


@pytest.mark.slow
def test_a_site_of_three_conferences_with_authors_builds_and_files_every_author_once(tmp_path):
    """IJCAI 2024, COLM 2025 and CoRL 2025 (1,725 papers, about 8,000 authors) build strictly; the
    Authors index is split by letter, and each author (spellings that differ only in accents, case
    or a trailing mark are one person, issue 52) is on one letter's page and in its JSON with all
    their papers (issue 35)."""
    sources = [corpus_file(name) for name in ("ijcai2024.jsonl", "colm2025.jsonl", "corl2025.jsonl")]
    site = tmp_path / "site"
    result = run_cli("build", *map(str, sources), "--site", str(site))
    assert result.returncode == 0, result.stderr[-2000:]
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    assert len(papers) > 1700
    expected: dict[str, list[str]] = {}  # per person, their papers' pages
    for paper in papers:
        for key in dict.fromkeys(person_key(name) for name in paper["authors"]):
            expected.setdefault(key, []).append(paper["url"])
    assert len(expected) > 7000
    filed: dict[str, list[str]] = {}
    shown: list[str] = []
    for shard in (site / "authors").glob("*.json"):
        if shard.name == "names.json":
            continue
        data = json.loads(shard.read_text(encoding="utf-8"))
        for name, numbers in data["authors"].items():
            key = person_key(name)
            assert key not in filed, name
            assert data["people"][key] == name
            filed[key] = [f"papers/{data['papers'][str(n)][1]}/" for n in numbers]
            shown.append(name)
    assert filed == expected
    names = json.loads((site / "authors" / "names.json").read_text(encoding="utf-8"))["authors"]
    assert sorted(name for name, _ in names) == sorted(shown)
    letter_pages = [page for page in (site / "authors").glob("*/index.html") if page.parent.name != "author"]
    assert len(letter_pages) >= 20
    assert all(page.stat().st_size <= LETTER_PAGE_BUDGET for page in letter_pages)
    listed = sum(page.read_text(encoding="utf-8").count('<li><a href="../author/?name=') for page in letter_pages)
    assert listed == len(expected)
