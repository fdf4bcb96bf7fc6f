"""Search: Pagefind's chunked index in Material's search box (generator/plugin/theme/assets/javascripts/search.js)."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from browsing import CHROMIUM, EFM, IN_CI, Tab, expect, math_rendered, search, serve
from helpers import SEEDS, run_cli

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]


def test_math_renders_and_no_tex_source_shows(tab):
    page = tab.open(EFM)
    math_rendered(page)
    assert page.locator(".paper-abstract .katex").count() >= 1
    text = page.locator(".paper-abstract").inner_text()
    assert "$" not in text and "\\mathbf" not in text and "\\(" not in text, text
    tab.settle()
    tab.assert_clean()


@pytest.mark.parametrize(
    ("query", "slug"),
    [
        ("PatchSAE", "papers/patchsae-"),
        ("PPA", "papers/ppa-proactive-privacy-amnesia"),
        ("Proactive Privacy Amnesia", "papers/ppa-proactive-privacy-amnesia"),
        # Words of an abstract, not of its title: the paper is the page that holds them, whatever its title.
        ("dominance of local over global information", None),
    ],
)
def test_search_finds_the_paper_first_and_opens_it(tab, published, query, slug):
    if slug is None:
        _, docs, _ = published
        holder = next(p for p in sorted((docs / "papers").glob("*.md")) if query in p.read_text(encoding="utf-8"))
        slug = f"papers/{holder.stem}/"
    page = tab.open("tags/")
    first = search(page, query).locator("a").first
    expect(first).to_have_attribute("href", re.compile(re.escape(slug)))
    first.click()
    expect(page).to_have_url(re.compile(re.escape(tab.base + slug)))
    expect(page.locator(".paper h1")).to_be_visible()
    tab.assert_clean()


def test_search_results_look_like_materials_and_work_from_the_keyboard(tab):
    page = tab.open("")
    page.keyboard.press("/")  # as in Material: "/" anywhere opens the search
    expect(page.locator(".md-search__input")).to_be_focused()
    page.keyboard.type("flow matching")
    expect(page.locator(".md-search-result__list")).to_have_attribute("aria-busy", "false")
    first = page.locator(".md-search-result__item").first
    expect(first.locator("a.md-search-result__link > article.md-search-result__article > h1")).to_be_visible()
    expect(first.locator("article > p mark").first).to_be_visible()  # the matched words, highlighted
    expect(page.locator(".md-search-result__meta")).to_have_text(re.compile(r"^\d+ matching documents?$"))
    href = first.locator("a").get_attribute("href")

    page.keyboard.press("Escape")
    assert page.evaluate("document.getElementById('__search').checked") is False
    expect(page.locator(".md-search-result__list")).to_be_hidden()

    page.locator(".md-search__input").click()  # the query is still there; Enter opens the best result
    page.keyboard.press("Enter")
    expect(page).to_have_url(href)
    tab.assert_clean()


def test_search_opens_from_the_header_button_on_a_phone(browser, base):
    context = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
    try:
        tab = Tab(context, base)
        page = tab.open("")
        page.locator("label.md-header__button[for=__search]").tap()
        expect(page.locator(".md-search__input")).to_be_focused()
        page.keyboard.type("PatchSAE")
        first = page.locator(".md-search-result__item").first
        expect(first).to_be_visible()
        expect(first.locator("a")).to_have_attribute("href", re.compile(r"/papers/patchsae-"))
        page.locator(".md-search__form label[for=__search]").tap()  # the back arrow
        expect(first).to_be_hidden()
        tab.assert_clean()
    finally:
        context.close()


def test_search_keeps_working_across_instant_navigation(tab):
    page = tab.open("")
    page.evaluate("window.__sameDocument = true")
    search(page, "PatchSAE").locator("a").click()
    expect(page).to_have_url(re.compile(r"/papers/patchsae-"))
    first = search(page, "Proactive Privacy Amnesia").locator("a")
    expect(first).to_have_attribute("href", re.compile(r"/papers/ppa-proactive-privacy-amnesia"))
    first.click()
    expect(page.locator(".paper h1")).to_contain_text("Proactive Privacy Amnesia")
    assert page.evaluate("window.__sameDocument") is True, "a search result made a full page load"
    tab.assert_clean()


def test_search_works_from_the_404_page_at_any_depth(tab, base):
    tab.expected_404.add(base + "no/such/paper/")
    page = tab.open("no/such/paper/")
    first = search(page, "PatchSAE").locator("a")
    expect(first).to_have_attribute("href", re.compile("^" + re.escape(base + "papers/patchsae-")))
    tab.assert_clean()


def test_search_works_when_the_site_is_served_under_a_sub_path(browser, site, tmp_path):
    """A GitHub Pages project site lives at https://user.github.io/repo/: nothing may assume /."""
    (tmp_path / "repo").symlink_to(site, target_is_directory=True)
    server, url = serve(tmp_path)
    context = browser.new_context()
    paths = []
    context.on("request", lambda request: paths.append(urlsplit(request.url).path))
    try:
        tab = Tab(context, url + "repo/")
        page = tab.open("tags/")
        first = search(page, "PatchSAE").locator("a")
        expect(first).to_have_attribute("href", re.compile("^" + re.escape(url + "repo/papers/patchsae-")))
        first.click()
        expect(page.locator(".paper h1")).to_contain_text("PatchSAE")
        assert [path for path in paths if not path.startswith("/repo/")] == []
        assert any(path.startswith("/repo/pagefind/") for path in paths)
        tab.assert_clean()
    finally:
        context.close()
        server.shutdown()


def test_the_first_search_downloads_only_a_few_index_files(browser, base):
    """The issue's target is <= 1 MB before the first result at ~4,200 papers (measured by
    bench/search_bench.py); here: the search fetches Pagefind's files only, not one index."""
    context = browser.new_context()
    finished = []
    context.on("requestfinished", lambda request: finished.append(request))
    try:
        tab = Tab(context, base)
        page = tab.open("")
        tab.settle()
        before = len(finished)
        expect(search(page, "PatchSAE")).to_be_visible()
        fetched = {urlsplit(r.url).path: r.sizes()["responseBodySize"] for r in finished[before:]}
        assert fetched and all(path.startswith("/pagefind/") for path in fetched), fetched
        assert any(path.endswith(".pf_index") for path in fetched) and any(path.endswith(".pf_fragment") for path in fetched)
        assert sum(fetched.values()) <= 1_000_000
        tab.assert_clean()
    finally:
        context.close()


@pytest.fixture(scope="module")
def parted(tmp_path_factory):
    """The seeds site with its search index in parts (as a site of more than 6,000 pages has
    it, generator/plugin/searchindex.py), served: its base URL."""
    from generator.plugin import newsite

    folder = tmp_path_factory.mktemp("parted")
    config = folder / "mkdocs.yml"
    text = newsite.site_config("Seeds", [str(SEEDS)])
    config.write_text(text.replace("  - abstracts:\n", "  - abstracts:\n      search_part_pages: 30\n"), encoding="utf-8")
    site = folder / "site"
    result = run_cli("build", str(SEEDS), "--site", str(site), "--config", str(config))
    assert result.returncode == 0, result.stderr
    assert len(json.loads((site / "pagefind" / "parts.json").read_text())["parts"]) >= 2
    server, url = serve(site)
    yield url
    server.shutdown()


def test_search_over_an_index_in_parts_finds_what_one_index_finds(browser, base, parted):
    """Each part holds a share of the pages; search.js merges them: the same papers are found,
    the best first, and the count covers every part."""
    found = {}
    for url in (base, parted):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            tab = Tab(context, url)
            page = tab.open("")
            for query in ("PatchSAE", "Proactive Privacy Amnesia", "language models", "flow matching"):
                first = search(page, query).locator("a")
                meta = page.locator(".md-search-result__meta").inner_text()
                listed = [a.get_attribute("href").removeprefix(url) for a in page.locator(".md-search-result__item a").all()]
                found[url, query] = (first.get_attribute("href").removeprefix(url), meta, listed)
            tab.assert_clean()
        finally:
            context.close()
    assert found[parted, "PatchSAE"][0].startswith("papers/patchsae-")
    assert found[parted, "Proactive Privacy Amnesia"][0].startswith("papers/ppa-proactive-privacy-amnesia")
    # Words every part holds: the same count ("N matching documents") as one index.
    assert found[parted, "language models"][1] == found[base, "language models"][1]
    # Words only some parts hold ('flow' is on two of the seeds' pages): every page one index
    # finds is found, the best first; a part that holds none of the words may add a loose match
    # (Pagefind's own search of that part), as a site of 6,000+ pages in parts rarely has.
    assert found[parted, "flow matching"][0] == found[base, "flow matching"][0]
    assert set(found[base, "flow matching"][2]) <= set(found[parted, "flow matching"][2])
