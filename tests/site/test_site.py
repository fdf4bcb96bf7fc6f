"""End to end: the seeds built with `mkdocs build --strict` through the CLI, checked page by page."""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import frontmatter
import pytest

from generator.errors import Report
from generator.sources.markup import segments
from generator.sources.readers import read_inputs
from helpers import SEEDS, corpus_file, run_cli


class Page(HTMLParser):
    """The parts of a built page the tests look at: text per region, links, scripts."""

    def __init__(self, html: str):
        super().__init__()
        self.regions: dict[str, list[str]] = {}
        self.links: list[tuple[str, str]] = []  # (region, href)
        self.assets: list[str] = []
        self.strong: list[str] = []
        self._stack: list[str] = []
        self._in_strong = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        region = next((c for c in classes if c.startswith("paper-") or c in ("md-nav", "arithmatex")), None)
        if tag not in ("br", "img", "meta", "link", "input", "hr"):
            self._stack.append(region or (self._stack[-1] if self._stack else "page"))
        if tag == "a" and "href" in attrs:
            self.links.append((self._stack[-1] if self._stack else "page", attrs["href"]))
        if tag == "script" and attrs.get("src"):
            self.assets.append(attrs["src"])
        if tag == "link" and attrs.get("rel") in ("stylesheet", "icon", "preload"):
            self.assets.append(attrs["href"])
        self._in_strong = tag == "strong"

    def handle_endtag(self, tag):
        self._in_strong = False
        if self._stack and tag not in ("br", "img", "meta", "link", "input", "hr"):
            self._stack.pop()

    def handle_data(self, data):
        region = self._stack[-1] if self._stack else "page"
        self.regions.setdefault(region, []).append(data)
        if self._in_strong:
            self.strong.append(data)

    def text(self, region: str) -> str:
        return " ".join("".join(self.regions.get(region, [])).split())


def paper_pages(site: Path) -> dict[Path, Page]:
    return {path: Page(path.read_text(encoding="utf-8")) for path in sorted((site / "papers").glob("*/index.html"))}


def test_every_seed_abstract_has_exactly_one_page_with_its_full_text(seeds_site):
    site, _ = seeds_site
    pages = paper_pages(site)
    records = read_inputs([SEEDS], Report())
    assert len(pages) == len(records) == 38
    for record in records:
        pieces = [" ".join(s.value.split()) for s in segments(record.abstract) if s.kind == "text"]
        pieces = ["".join(c for c in p if not "\ue000" <= c <= "\ue003").strip(" ,.;()") for p in pieces]
        pieces = [p for p in pieces if len(p) > 25]
        holders = [path for path, page in pages.items() if all(p in page.text("paper-abstract") for p in pieces)]
        assert len(holders) == 1, (record.origin.where(), pieces[0][:60], holders)


def test_every_paper_page_has_all_derived_fields(seeds_site):
    _, docs = seeds_site
    required = {"id", "title", "summary", "tags", "keyphrases", "area", "links", "related", "source"}
    pages = sorted((docs / "papers").glob("*.md"))
    assert len(pages) == 38
    carried: dict[str, int] = {}
    for path in pages:
        meta = frontmatter.load(path).metadata
        assert required <= set(meta), path
        assert len(meta["tags"]) <= 8 and meta["keyphrases"], (path, meta["tags"])
        for tag in meta["tags"]:
            carried[tag] = carried.get(tag, 0) + 1
        assert len(meta["related"]) == 5
        assert all(0 < r["score"] <= 1 and isinstance(r["strong"], bool) for r in meta["related"]), meta["related"]
        strengths = [r["strength"] for r in meta["related"]]
        assert strengths == sorted(strengths, reverse=True), path  # listed by strength, strongest first
        assert meta["source"]["file"].endswith(".txt") and meta["source"]["record"] >= 1
        assert meta["generated_by"] == "abstracts-site"
    # Every tag groups papers (issue 33): the seeds give no keywords, so no tag is on one page only.
    assert carried and min(carried.values()) >= 2, carried


def test_every_internal_link_and_anchor_resolves(seeds_site):
    site, _ = seeds_site
    ids: dict[Path, set[str]] = {}

    def anchors(page: Path) -> set[str]:
        if page not in ids:
            ids[page] = set(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))
        return ids[page]

    checked = 0
    for path in sorted(site.rglob("*.html")):
        page = Page(path.read_text(encoding="utf-8"))
        base = path.parent.relative_to(site).as_posix()
        for _, href in page.links:
            if href.startswith(("http://", "https://", "mailto:", "javascript:")) or not href:
                assert not href.startswith("javascript:"), (path, href)
                continue
            address, _, fragment = href.partition("#")
            address = address.partition("?")[0]  # a query is for the page's script (map/?paper=...)
            if address:
                # The 404 page links from the site root (it is served at any depth).
                target = posixpath.normpath(address.lstrip("/") if address.startswith("/") else posixpath.join(base, address))
                resolved = site / target
                assert resolved.exists() and (resolved.is_file() or (resolved / "index.html").exists()), (path, href)
                resolved = resolved / "index.html" if resolved.is_dir() else resolved
            else:
                resolved = path
            if fragment and resolved.suffix == ".html":
                assert fragment in anchors(resolved), (path, href)
            checked += 1
    assert checked > 500


def test_related_papers_are_listed_with_reasons_and_the_weaker_ones_apart(seeds_site):
    site, docs = seeds_site
    strong_in_all = weaker_in_all = reasons_in_all = 0
    for path, page in paper_pages(site).items():
        meta = frontmatter.load(docs / "papers" / f"{path.parent.name}.md").metadata
        strong = sum(r["strong"] for r in meta["related"])
        related = [href for region, href in page.links if region == "paper-related"]
        assert len(related) == 5, path  # never a page with no way onward
        html = path.read_text(encoding="utf-8")
        assert ("Related papers</h2>" in html) == (strong > 0) and ("Also near in this collection</h2>" in html) == (strong < 5), path
        if 0 < strong < 5:
            assert html.index("Related papers</h2>") < html.index("Also near in this collection</h2>"), path
        explained = [bool(r["reasons"]) for r in meta["related"]]
        strong_explained = sum(e for e, r in zip(explained, meta["related"]) if r["strong"])
        assert page.text("paper-reasons").count("Shared:") == strong_explained
        assert page.text("paper-reasons").count("shared:") == sum(explained) - strong_explained
        strong_in_all += strong
        reasons_in_all += sum(explained)
        weaker_in_all += 5 - strong
    assert strong_in_all and weaker_in_all  # the seeds show both kinds
    assert reasons_in_all >= 0.8 * 5 * len(paper_pages(site))  # most links say what the two share


def test_seed_acceptance_examples_render(seeds_site):
    site, _ = seeds_site
    pages = {path.parent.name: page for path, page in paper_pages(site).items()}
    remedy = next(page for name, page in pages.items() if name.startswith("remedy"))
    assert ["RE", "ME", "DY"] == remedy.strong[:3]
    assert "textbf" not in remedy.text("paper-abstract")
    efm = next(page for name, page in pages.items() if name.startswith("efm"))
    assert "\\mathbf x" in efm.text("arithmatex")
    android = next(page for name, page in pages.items() if name.startswith("androidworld"))
    assert ("paper-abstract", "https://github.com/google-research/android_world") in android.links


def test_site_loads_nothing_from_elsewhere_and_the_nav_lists_no_papers(seeds_site):
    site, _ = seeds_site
    for path in [site / "index.html", next((site / "papers").glob("*/index.html"))]:
        page = Page(path.read_text(encoding="utf-8"))
        assert page.assets and all(not a.startswith(("http:", "https:", "//")) for a in page.assets), page.assets
        assert not [href for region, href in page.links if region == "md-nav" and "papers/" in href]
    css = "".join(p.read_text() for p in site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "@import url(http" not in css


def test_papers_json_is_published_at_the_site_root(seeds_site):
    site, _ = seeds_site
    data = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert len(data["papers"]) == 38
    first = data["papers"][0]
    assert {"id", "title", "summary", "tags", "keyphrases", "area", "links", "related", "source"} <= set(first)
    assert all((site / p["url"] / "index.html").exists() for p in data["papers"])


def test_home_tag_area_and_collection_pages_exist(seeds_site):
    site, _ = seeds_site
    home = Page((site / "index.html").read_text(encoding="utf-8")).text("page")
    assert "38 papers" in home
    assert (site / "areas/generative-models/index.html").exists()
    assert (site / "tags/large-language-models/index.html").exists()
    assert (site / "collections/iclr-2025-papers/index.html").exists()
    assert (site / "glossary/index.html").exists()


@pytest.mark.slow
def test_a_whole_corpus_file_builds_into_any_folder(tmp_path):
    corpus = corpus_file("colm2025.jsonl")
    result = run_cli("build", str(corpus), "--site", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(list((tmp_path / "site" / "papers").glob("*/index.html"))) == 418
    assert "site built in" in result.stdout


def test_topic_map_data_places_every_paper_and_names_its_regions(seeds_site):
    site, _ = seeds_site
    data = json.loads((site / "map.json").read_text(encoding="utf-8"))
    assert len(data["slug"]) == len(set(data["slug"])) == 38
    assert all((site / "papers" / slug / "index.html").exists() for slug in data["slug"])
    points = list(zip(data["x"], data["y"]))
    assert len(set(points)) > 30 and all(0 <= x <= 10000 and 0 <= y <= 10000 for x, y in points)  # spread out
    assert all(0 <= a < len(data["areas"]) for a in data["area"]) and len(data["title"]) == len(data["summary"]) == 38
    # Two levels of regions, named from the papers' own tags and key phrases.
    terms = {t for p in json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"] for t in p["tags"] + p["keyphrases"]}
    assert 3 <= len(data["broad"]) and len(data["fine"]) >= 5
    assert all(set(r["label"].split(" · ")) <= terms for r in data["broad"] + data["fine"])
    labels = [r["label"] for r in data["broad"]]
    assert len(labels) == len(set(labels))  # finer topics at first view (first_view) repeat no broad name
    # The map page itself does not grow with the papers: they are in map.json only.
    html = (site / "map" / "index.html").read_text(encoding="utf-8")
    assert "../map.json" in html and data["title"][0] not in html


def test_browse_index_is_compact_and_names_every_paper(seeds_site):
    site, _ = seeds_site
    index = json.loads((site / "browse.json").read_text(encoding="utf-8"))
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    assert (site / "browse.json").stat().st_size * 5 < (site / "papers.json").stat().st_size
    assert sorted(f"papers/{p[1]}/" for p in index["papers"]) == sorted(p["url"] for p in papers)
    by_slug = {p[1]: p for p in index["papers"]}
    for paper in papers:
        title, _, area, collection, tags, authors = by_slug[paper["url"].split("/")[1]]
        assert (title, index["areas"][area], index["collections"][collection]) == (paper["title"], paper["area"], paper["collection"])
        assert {index["tags"][t] for t in tags} == set(paper["tag_urls"])
        assert [index["authors"][a] for a in authors] == paper["authors"]  # none in the seeds: see test_author_filing


def test_tag_pages_rank_papers_by_the_tag(seeds_site):
    site, docs = seeds_site
    papers = {p["url"].split("/")[1]: p for p in json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]}
    page = (docs / "tags" / "large-language-models.md").read_text(encoding="utf-8")
    assert "come first" in page and "sort-toggle" in page
    slugs = re.findall(r"\]\(\.\./papers/([^)]+)\.md\)", page)
    assert set(slugs) == {s for s, p in papers.items() if "large language models" in p["tags"]}
    # Most about the tag first: its evidence in each abstract (the same papers, derived again).
    from generator.enrich.paper import enrich_batch
    from generator.enrich.tags import centrality
    from generator.link.corpus import link

    linked = {p.slug: p for p in link(enrich_batch(read_inputs([SEEDS], Report())), 5)}
    order = sorted(slugs, key=lambda s: (centrality(linked[s], "large language models"), linked[s].title.casefold()))
    assert slugs == order and dict(linked[slugs[0]].tag_choice.scores)["large language models"] > dict(
        linked[slugs[-1]].tag_choice.scores
    ).get("large language models", 0)


def test_the_tag_index_groups_tags_under_their_areas_with_a_filter(seeds_site):
    _, docs = seeds_site
    page = (docs / "tags" / "index.md").read_text(encoding="utf-8")
    assert "table-filter" in page
    sections = re.findall(r"^## (.+)$", page, flags=re.M)
    assert len(sections) >= 3 and len(set(sections)) == len(sections)


def test_each_collection_has_a_valid_atom_feed(seeds_site):
    import xml.etree.ElementTree as ElementTree

    site, _ = seeds_site
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ElementTree.parse(site / "feeds" / "iclr-2025-papers.xml").getroot()
    assert feed.tag == f"{atom}feed" and feed.find(f"{atom}title").text == "ICLR 2025 Papers"
    entries = feed.findall(f"{atom}entry")
    assert len(entries) == 38
    for entry in entries:
        assert entry.find(f"{atom}title").text and entry.find(f"{atom}summary").text
        href = entry.find(f"{atom}link").get("href")
        assert (site / "feeds" / href / "index.html").resolve().exists()
    collection = Page((site / "collections/iclr-2025-papers/index.html").read_text(encoding="utf-8"))
    assert any(href.endswith("feeds/iclr-2025-papers.xml") for _, href in collection.links)


def test_a_site_of_two_collections_shows_which_tags_grew_and_shrank(tmp_path):
    """The seeds split into two collections: home lists rising and falling tags, each tag page
    gives the share of each collection's papers with the tag."""
    seeds = sorted(SEEDS.glob("*.txt"))
    for number, path in enumerate(seeds):
        lines = path.read_text(encoding="utf-8").splitlines()
        name = "Early 2025" if number < len(seeds) // 2 else "Late 2025"
        (tmp_path / "in").mkdir(exist_ok=True)
        (tmp_path / "in" / path.name).write_text("\n".join([f"# {name}", *lines[1:]]) + "\n", encoding="utf-8")
    result = run_cli("build", str(tmp_path / "in"), "--site", str(tmp_path / "site"), "--docs", str(tmp_path / "docs"))
    assert result.returncode == 0, result.stderr[-2000:]
    home = (tmp_path / "docs" / "index.md").read_text(encoding="utf-8")
    assert "## Rising and falling tags" in home and "Early 2025 → Late 2025" in home
    assert "▲" in home and "▼" in home
    tag_page = (tmp_path / "docs" / "tags" / "large-language-models.md").read_text(encoding="utf-8")
    assert "Share of each collection" in tag_page and tag_page.count("%</span>") == 2


def test_the_navigation_names_authors_only_when_the_records_do(tmp_path):
    """The plugin's navigation (a site whose mkdocs.yml has no nav) links the Authors index when
    some record names its authors, and leaves it out when none does (strict builds both)."""
    abstracts = [
        "We propose a graph neural network for molecule property prediction with message passing.",
        "Message passing graph neural networks predict molecule properties; we study their depth.",
    ]
    navs = {}
    for named in (False, True):
        source = tmp_path / f"named-{named}.jsonl"
        rows = [{"abstract": a, **({"authors": ["Ann Lee", f"Bo Chen {i}"]} if named else {})} for i, a in enumerate(abstracts)]
        source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        site = tmp_path / f"site-{named}"
        result = run_cli("build", str(source), "--site", str(site))
        assert result.returncode == 0, result.stderr[-2000:]
        home = (site / "index.html").read_text(encoding="utf-8")
        navs[named] = re.findall(r'class="md-tabs__link"[^>]*>\s*([^<]+?)\s*<', home)
        assert (site / "authors" / "index.html").exists() == named
    assert "Browse" in navs[False] and "Authors" not in navs[False]
    assert navs[True] == [*navs[False][:4], "Authors", *navs[False][4:]]
