"""What the search index of the built seeds site holds (Pagefind, written by the plugin).

Each Pagefind fragment is one indexed page as a reader sees it in the results: its URL, its
title and the text that was indexed (gzip, "pagefind_dcd" then JSON). The browser tests
(test_browser.py) search through the site's own search box.
"""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import frontmatter
import pytest

MAX_FILE = 150_000  # bytes: no single search file comes near a one-file index (14.6 MB at 4,200 papers)


def fragments(site: Path) -> dict[str, dict]:
    """Indexed pages by URL."""
    pages = {}
    for path in (site / "pagefind" / "fragment").iterdir():
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(b"pagefind_dcd"), path
        page = json.loads(data[len(b"pagefind_dcd") :])
        pages[page["url"]] = page
    return pages


@pytest.fixture(scope="module")
def indexed(seeds_site) -> dict[str, dict]:
    return fragments(seeds_site[0])


def paper(docs: Path, prefix: str) -> dict:
    return frontmatter.load(next((docs / "papers").glob(f"{prefix}*.md"))).metadata


def test_every_paper_is_indexed_with_its_title_summary_tags_and_abstract(seeds_site, indexed):
    site, docs = seeds_site
    papers = [frontmatter.load(path) for path in sorted((docs / "papers").glob("*.md"))]
    assert len(papers) == 38
    for page in papers:
        fragment = indexed["/" + page["url"]]
        assert fragment["meta"]["title"] == page["title"]
        assert page["summary"] in fragment["content"]
        assert all(tag in fragment["content"] for tag in page["tags"])
    patchsae = indexed["/" + paper(docs, "patchsae-")["url"]]
    assert "interpretable concepts at granular levels" in patchsae["content"]


def test_paper_pages_leave_out_related_papers_and_boilerplate(seeds_site, indexed):
    _, docs = seeds_site
    ppa = paper(docs, "ppa-")
    content = indexed["/" + ppa["url"]]["content"]
    for boilerplate in ("Related papers", "Shared:", "Cite and source", "Source record", "Key phrases", "¶", ppa["area"]):
        assert boilerplate not in content
    for related in ppa["related"]:
        assert related["title"] not in content


def test_listing_pages_are_indexed_by_title_and_introduction_only(seeds_site, indexed):
    _, docs = seeds_site
    tag = indexed["/tags/large-language-models/"]
    assert tag["meta"]["title"] == "large language models"
    assert tag["content"].startswith("large language models. Papers tagged large language models.")
    assert paper(docs, "ppa-")["title"] not in tag["content"]  # one of its 16 papers
    assert "Acronyms defined in the abstracts" in indexed["/glossary/"]["content"]
    assert "/" not in indexed and "/404.html" not in indexed  # the home and missing-page pages


def test_the_index_is_chunked_and_replaces_materials_one_file_index(seeds_site, indexed):
    site, _ = seeds_site
    bundle = site / "pagefind"
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["en"]
    assert entry["languages"]["en"]["page_count"] == len(indexed)
    assert list((bundle / "index").glob("*.pf_index"))
    assert not (site / "search").exists()  # Material's search plugin is off
    sizes = {path.relative_to(site).as_posix(): path.stat().st_size for path in bundle.rglob("*") if path.is_file()}
    assert max(sizes.values()) <= MAX_FILE, sizes
    assert not [name for name in sizes if "-ui" in name or "highlight" in name], "Pagefind's own UIs are not used"
    assert not list(site.glob(".pagefind-*")), "the index is built beside the site and moved in whole"


def test_a_build_indexes_what_it_wrote_though_pages_were_streamed_while_rendering(tmp_path):
    """Builds send each page to Pagefind as MkDocs renders it. Pages written without passing
    through (404.html) are indexed from the site folder, and a page changed after it was sent
    (another plugin rewriting the HTML) is indexed as written."""
    from generator.plugin.searchindex import Stream

    def page(title: str, words: str) -> str:
        return f"<!doctype html><html lang='en'><head><title>{title}</title></head><body><main data-pagefind-body><h1>{title}</h1><p>{words}</p></main></body></html>"

    site = tmp_path / "site"
    pages = {
        "alpha/index.html": page("Alpha", "zebra crossings"),
        "beta/index.html": page("Beta", "yak herding"),
        "404.html": page("Missing", "nowhere"),
    }
    for path, html in pages.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(html, encoding="utf-8")

    stream = Stream()
    stream.add("alpha/index.html", pages["alpha/index.html"])
    stream.add("beta/index.html", pages["beta/index.html"])
    assert stream.finish(site) == 3
    assert {url: p["content"] for url, p in fragments(site).items()} == {
        "/alpha/": "Alpha. zebra crossings.",
        "/beta/": "Beta. yak herding.",
        "/404.html": "Missing. nowhere.",
    }

    stream = Stream()
    stream.add("alpha/index.html", pages["alpha/index.html"])
    stream.add("beta/index.html", pages["beta/index.html"])
    (site / "beta/index.html").write_text(page("Beta", "llama grooming rewritten"), encoding="utf-8")
    assert stream.finish(site) == 3
    assert fragments(site)["/beta/"]["content"] == "Beta. llama grooming rewritten."
    assert not list(site.glob(".pagefind*"))  # the new bundle replaced the old one in one move


ANIMALS = ["zebra", "yak", "llama", "otter", "heron", "bison", "lynx", "moose", "okapi"]


def animal_site(site: Path) -> dict[str, str]:
    """A site of nine pages, one per animal: their HTML by site path."""
    pages = {
        f"{word}/index.html": f"<html lang='en'><body><main data-pagefind-body><h1>{word.title()}</h1><p>{word} facts</p></main></body></html>"
        for word in ANIMALS
    }
    for path, html in pages.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(html, encoding="utf-8")
    return pages


def parts_hold_every_page_once(site: Path, *, parts: list[str], part_pages: int) -> dict[str, tuple[str, str]]:
    """The bundle lists `parts` for search.js, each part (the bundle first) holds at most
    `part_pages` pages and no page twice: by URL, each indexed page's part and content."""
    bundle = site / "pagefind"
    assert json.loads((bundle / "parts.json").read_text(encoding="utf-8"))["parts"] == parts
    indexed = {}
    for part in ["", *parts]:
        for path in (bundle / part / "fragment").iterdir():
            page = json.loads(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :])
            assert page["url"] not in indexed, page["url"]
            indexed[page["url"]] = (part, page["content"])
        entry = json.loads((bundle / part / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert 0 < entry["languages"]["en"]["page_count"] <= part_pages
    # A merged part is searched with the bundle's own script and wasm: it holds none.
    assert not [path.name for part in parts for path in (bundle / part).iterdir() if path.suffix in (".js", ".pagefind")]
    return indexed


def test_a_large_site_is_indexed_in_parts_that_hold_every_page_once(tmp_path):
    """Pagefind holds a whole index in memory while writing it (1.5 GB at 12,000 papers): past
    `part_pages` pages the site is indexed in parts, one process each, written one at a time.
    The first part is the bundle search.js loads, the others are listed for it to merge."""
    from generator.plugin.searchindex import Stream

    site = tmp_path / "site"
    pages = animal_site(site)
    stream = Stream(pages=len(pages), part_pages=4)
    for path, html in pages.items():
        stream.add(path, html)
    assert stream.finish(site) == len(ANIMALS)
    indexed = parts_hold_every_page_once(site, parts=["part-1/", "part-2/"], part_pages=4)  # 9 pages, at most 4 a part
    assert {url: content for url, (_, content) in indexed.items()} == {f"/{word}/": f"{word.title()}. {word} facts." for word in ANIMALS}


def test_the_site_folder_is_indexed_in_the_same_parts_and_pages_gone_meanwhile_are_left_out(tmp_path):
    """Under `mkdocs serve` (and when a build's pages changed after they were streamed) the
    index is made from the site folder: in parts too, laid out as a streamed build's (each
    page in the same part), so a large site never has one Pagefind process hold it all
    (1.6 GB at 12,000 papers). A page listed but gone when read (a rebuild meanwhile; here a
    link to nothing) is left out."""
    from generator.plugin.searchindex import Stream, build

    site = tmp_path / "site"
    pages = animal_site(site)
    (site / "gone").mkdir()
    (site / "gone" / "index.html").symlink_to(tmp_path / "removed.html")
    assert build(site, part_pages=4) == len(ANIMALS)
    from_folder = parts_hold_every_page_once(site, parts=["part-1/", "part-2/"], part_pages=4)

    stream = Stream(pages=len(pages), part_pages=4)
    for path, html in pages.items():
        stream.add(path, html)
    assert stream.finish(site) == len(ANIMALS)
    assert parts_hold_every_page_once(site, parts=["part-1/", "part-2/"], part_pages=4) == from_folder


def test_a_site_in_one_part_says_so_to_the_search_script(seeds_site):
    site, _ = seeds_site
    assert json.loads((site / "pagefind" / "parts.json").read_text(encoding="utf-8")) == {"parts": []}


def test_pagefind_is_sent_only_each_pages_article_and_indexes_the_site_the_same(seeds_site, tmp_path):
    """A build streams only a page's <article> (where the theme marks what is indexed): a third
    of the bytes, and the same index as Pagefind makes reading the whole pages from the folder.
    A page with a mark outside its article (a site's own template) is sent whole."""
    import shutil

    from generator.plugin.searchindex import Stream, build, indexed_region

    site = tmp_path / "site"
    shutil.copytree(seeds_site[0], site, ignore=shutil.ignore_patterns("pagefind"))
    pages = sorted(site.rglob("*.html"))
    paper = next(path for path in pages if "papers/patchsae-" in path.as_posix()).read_text(encoding="utf-8")
    assert len(indexed_region(paper)) < len(paper) / 2
    marked = paper.replace("<head>", "<head><meta data-pagefind-meta='author:Ada'>", 1)
    assert indexed_region(marked) == marked

    build(site)
    whole = fragments(site)
    stream = Stream()
    for path in pages:
        stream.add(path.relative_to(site).as_posix(), path.read_text(encoding="utf-8"))
    stream.finish(site)
    assert fragments(site) == whole


def test_a_background_index_that_fails_once_is_made_again(tmp_path, monkeypatch):
    """Under serve the index is made in a thread after each build; one that finds its bundle
    incomplete is made again, else search would miss the last edit until the next one."""
    calls = []

    def flaky(site_dir, **options):
        calls.append(site_dir)
        if len(calls) == 1:
            raise ValueError("Expecting value: line 1 column 1 (char 0)")

    from generator.plugin import searchindex

    monkeypatch.setattr(searchindex, "build", flaky)
    indexer = searchindex.Indexer(background=True)
    indexer.index(tmp_path)
    deadline = time.monotonic() + 10
    while indexer._worker is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls == [tmp_path, tmp_path]


def test_a_site_is_indexed_again_only_when_a_page_was_added_removed_or_rendered_otherwise():
    from generator.plugin.searchindex import Seen

    seen = Seen()

    def build(pages: list[str], rendered: dict[str, str]) -> bool:
        seen.build_starts(pages)
        for path, html in rendered.items():
            seen.rendered(path, html)
        changed = seen.changed()
        if changed:
            seen.indexing()
        return changed

    assert build(["a.html", "b.html"], {"a.html": "A", "b.html": "B"})  # the first build
    assert not build(["a.html", "b.html"], {})  # --dirty: nothing rendered
    assert not build(["a.html", "b.html"], {"a.html": "A"})  # rendered again, the same
    assert build(["a.html", "b.html"], {"b.html": "B2"})
    assert not build(["a.html", "b.html"], {"a.html": "A"})
    assert build(["a.html"], {})  # a page removed
    assert build(["a.html", "c.html"], {})  # a page that no build rendered: cannot be vouched for
    assert build(["a.html", "c.html"], {})
    assert build(["a.html", "c.html"], {"c.html": "C"})
    assert not build(["a.html", "c.html"], {})
