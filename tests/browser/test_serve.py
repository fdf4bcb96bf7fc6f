"""`mkdocs serve` as an author runs it: edit an abstract, and the open page shows the change.

The server runs on a copy of the project (config, hand-written docs and seeds) so the
repository is never touched; the theme and the plugin come from the installed package.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import frontmatter
import pytest
from serving import copy_project, fetch, mkdocs_serve, wait_for_text

from browsing import CHROMIUM, IN_CI, search, sync_api

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]

SENTENCE = "Editors see this sentence appear while the page is open (live-reload-7f3a)."


@pytest.fixture
def served_project(tmp_path):
    """(project folder, base URL, log) of `mkdocs serve --livereload` running on a copy of the project."""
    config = copy_project(tmp_path / "project")
    log = tmp_path / "serve.log"
    with mkdocs_serve(config, log) as base:
        yield config.parent, base, log


def seeds_file(project: Path, paper: dict) -> Path:
    """The input file a paper came from (its front matter names it absolutely or relatively)."""
    name = paper["source"]["file"]
    candidates = [project / name, project / "seeds" / name]  # an absolute name stays absolute
    return next((path for path in candidates if path.is_file()), candidates[0])


def append_to_abstract(project: Path, paper: dict, sentence: str) -> None:
    """Add a sentence to the end of the paper's paragraph in its seeds file."""
    source = seeds_file(project, paper)
    lines = source.read_text(encoding="utf-8").split("\n")
    last = paper["source"]["line"] - 1  # first line of the paragraph, 0-based
    assert lines[last].strip(), f"{source}:{last + 1} is not the start of the abstract"
    while last + 1 < len(lines) and lines[last + 1].strip():
        last += 1
    lines[last] = f"{lines[last].rstrip()} {sentence}"
    source.write_text("\n".join(lines), encoding="utf-8")


def pages_indexed(page, base: str) -> int:
    entry = json.loads(page.request.get(base + "pagefind/pagefind-entry.json").text())
    return entry["languages"]["en"]["page_count"]


def find(browser, base: str, query: str, timeout: float = 30) -> list[str]:
    """URLs Pagefind finds for `query` in the index as it is now (in a new page: the search
    loads the index once per page); under serve the index is built in the background."""
    page = browser.new_page()
    try:
        deadline = time.monotonic() + timeout
        while not page.request.get(base + "pagefind/pagefind.js").ok:
            assert time.monotonic() < deadline, "no search index"
            time.sleep(0.2)
        page.goto(base)
        return page.evaluate(
            """async (url) => {
                const pagefind = await import(url);
                const search = await pagefind.search(%s);
                return Promise.all(search.results.map(async (result) => (await result.data()).url));
            }"""  # noqa: UP031
            % json.dumps(query),
            base + "pagefind/pagefind.js",
        )
    finally:
        page.close()


def test_editing_an_abstract_updates_the_open_page_without_a_manual_reload(served_project, browser):
    project, base, log = served_project
    page_file = next((project / "docs" / "papers").glob("patchsae-*.md"))
    paper = frontmatter.load(page_file).metadata
    assert seeds_file(project, paper).resolve().is_relative_to(project.resolve()), "the server must read the copy"
    page = browser.new_page()
    try:
        page.goto(base + paper["url"])
        abstract = page.locator(".paper-abstract")
        sync_api.expect(abstract).to_contain_text("PatchSAE")
        assert SENTENCE not in abstract.inner_text()
        assert find(browser, base, "PatchSAE") == ["/" + paper["url"]]
        indexed_before = pages_indexed(page, base)
        assert indexed_before > 38

        append_to_abstract(project, paper, SENTENCE)
        # No page.reload(): mkdocs' live-reload script reloads the page after the rebuild.
        sync_api.expect(abstract).to_contain_text(SENTENCE, timeout=30_000)
        assert page.url == base + paper["url"]
        # The dirty rebuild rendered a few pages; the search index, rebuilt in the background
        # from the whole site folder, still holds every page and finds the new sentence.
        deadline = time.monotonic() + 30
        while (found := find(browser, base, "live-reload-7f3a")) != ["/" + paper["url"]] and time.monotonic() < deadline:
            time.sleep(0.5)
        assert found == ["/" + paper["url"]]
        # Every page is still indexed (the edit may add one: a tag the longer abstract now earns).
        assert pages_indexed(page, base) >= indexed_before
        assert "error" not in log.read_text().lower() and "aborted" not in log.read_text().lower()
    except AssertionError:
        print(log.read_text()[-3000:])
        raise
    finally:
        page.close()


def test_an_edit_builds_once_and_hand_written_pages_are_still_watched(served_project):
    project, base, log = served_project
    paper = frontmatter.load(next((project / "docs" / "papers").glob("patchsae-*.md"))).metadata
    builds_before = log.read_text().count("Building documentation")
    append_to_abstract(project, paper, "Built-once-check 91c2.")
    wait_for_text(base + paper["url"], "Built-once-check 91c2.")
    time.sleep(3)  # a second build, if the generator's own writes triggered one, would start by now
    assert log.read_text().count("Building documentation") == builds_before + 1, log.read_text()[-2000:]

    about = project / "docs" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\n\nHand-written-edit 5d0e.\n", encoding="utf-8")
    wait_for_text(base + "about/", "Hand-written-edit 5d0e.")


def test_serve_indexes_a_large_site_in_parts_and_searching_finds_an_edit_in_any_part(tmp_path, browser):
    """Under serve the site folder is indexed in the background: a site of more than
    `search_part_pages` pages in parts, as a one-off build has them (one Pagefind process of
    1.6 GB at 12,000 papers otherwise). The search box merges them, and an edit is found."""
    config = copy_project(tmp_path / "project")
    text = config.read_text(encoding="utf-8")
    assert "  - abstracts:\n" in text
    config.write_text(text.replace("  - abstracts:\n", "  - abstracts:\n      search_part_pages: 30\n", 1), encoding="utf-8")
    project, log = config.parent, tmp_path / "serve.log"

    def listed_parts(base: str) -> list[str]:
        try:
            return json.loads(fetch(base + "pagefind/parts.json"))["parts"]
        except OSError:  # not indexed yet
            return []

    def first_result(browser, base: str, query: str) -> str | None:
        page = browser.new_page()
        try:
            page.goto(base)
            item = search(page, query)
            return item.locator("a").get_attribute("href") if item.count() else None
        finally:
            page.close()

    with mkdocs_serve(config, log) as base:
        try:
            deadline = time.monotonic() + 60
            while not (parts := listed_parts(base)):
                assert time.monotonic() < deadline, "no search index in parts"
                time.sleep(0.5)
            assert len(parts) >= 2, parts
            assert first_result(browser, base, "PatchSAE").removeprefix(base).startswith("papers/patchsae-")
            paper = frontmatter.load(next((project / "docs" / "papers").glob("ppa-*.md"))).metadata
            append_to_abstract(project, paper, "Searchable in parts: quokkalumen.")
            # The rebuild reloads open pages: a search typed before it lands would be cut short.
            wait_for_text(base + paper["url"], "quokkalumen")
            deadline = time.monotonic() + 60
            while (found := first_result(browser, base, "quokkalumen")) is None or not found.removeprefix(base).startswith(paper["url"]):
                assert time.monotonic() < deadline, f"the edit was not found: {found}"
                time.sleep(0.5)
            assert "error" not in log.read_text().lower()
        except AssertionError:
            print(log.read_text()[-3000:])
            raise
