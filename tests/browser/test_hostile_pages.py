"""Titles, summaries and given fields come from input: the pages show them as text and never run them."""

from __future__ import annotations

import json
from urllib.parse import quote, urlsplit

import pytest

from browsing import CHROMIUM, CLICKED_PAGES, DATA_PAGES_READY, HOSTILE, IN_CI, Tab, expect, meta, serve, sync_api
from helpers import run_cli

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]


@pytest.fixture(scope="module")
def hostile(browser, tmp_path_factory):
    """A tab factory on a site built from a record whose title and summary carry markup."""
    folder = tmp_path_factory.mktemp("hostile")
    second = {"abstract": "A second abstract about large language models and transformers, so that links exist."}
    (folder / "hostile.jsonl").write_text(f"{json.dumps(HOSTILE)}\n{json.dumps(second)}\n", encoding="utf-8")
    result = run_cli("build", str(folder / "hostile.jsonl"), "--site", str(folder / "site"))
    assert result.returncode == 0, result.stderr
    server, url = serve(folder / "site")
    context = browser.new_context()
    paper = next(p.name for p in (folder / "site" / "papers").iterdir() if p.name.startswith("quotes"))
    yield lambda: (Tab(context, url), f"papers/{paper}/")
    context.close()
    server.shutdown()


def test_hostile_titles_and_summaries_are_shown_not_run(hostile):
    tab, paper = hostile()
    page = tab.open(paper)
    assert page.evaluate("window.__ran") is None
    assert meta(page, "description") == meta(page, "og:description") == HOSTILE["tldr"]
    assert meta(page, "og:title") == HOSTILE["title"]
    assert page.title().startswith(HOSTILE["title"])
    assert page.locator(".paper h1").inner_text() == HOSTILE["title"]
    assert page.locator("[data-md-component=header-topic]").inner_text().strip() == HOSTILE["title"]
    tab.assert_clean()
    tab.page.close()


def test_search_results_show_hostile_titles_as_text(hostile):
    tab, paper = hostile()
    page = tab.open("")
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially("Quotes here")
    first = page.locator(".md-search-result__item").first
    expect(first).to_be_visible()
    assert page.evaluate("window.__ran") is None, "a title in the search results ran as HTML"
    expect(first.locator("h1")).to_have_text(HOSTILE["title"])
    # The excerpt shows the markup as text too: only the highlights are elements.
    expect(first.locator("p mark").first).to_be_visible()
    assert first.locator("img, script").count() == 0
    assert "<img src=x" in first.locator("p").inner_text()
    tab.assert_clean()
    tab.page.close()


def test_hostile_abstracts_open_no_dialog_and_run_no_script(browser, tmp_path_factory):
    """Every page built from the bad-input matrix's hostile abstracts, loaded in Chromium:
    no alert/confirm dialog opens, no script from the input runs, nothing is fetched."""
    from test_bad_input import HOSTILE, hostile_file

    folder = tmp_path_factory.mktemp("hostile-abstracts")
    source = hostile_file(folder)
    result = run_cli("build", str(source), "--site", str(folder / "site"))
    assert result.returncode == 0, result.stderr
    server, url = serve(folder / "site")
    context = browser.new_context()
    dialogs: list[str] = []
    context.on("page", lambda page: page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss())))
    tab = Tab(context, url)
    tab.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    pages = sorted(p.name for p in (folder / "site" / "papers").iterdir())
    assert len(pages) == len(HOSTILE) + 3
    for slug in ["", "glossary/", "map/", *[f"papers/{s}/" for s in pages]]:
        tab.open(slug)
        tab.page.wait_for_load_state("load")
    assert dialogs == []
    tab.assert_clean()
    context.close()
    server.shutdown()


def test_every_link_on_pages_built_from_hostile_given_fields_stays_on_http(browser, hostile_site):
    """Each paper page, the map and the indexes of a site built from hostile given fields, in
    Chromium: every link in their content is clicked. No dialog opens, no script from the input
    runs, and no click leaves http(s). Links off the site get a stand-in page, not the network."""
    site, records, _ = hostile_site
    server, url = serve(site)
    context = browser.new_context()
    dialogs: list[str] = []
    requested: list[str] = []

    def off_site(route) -> None:
        requested.append(route.request.url)
        route.fulfill(status=200, content_type="text/plain", body="a page off the site")

    context.route(lambda address: urlsplit(address).hostname != "127.0.0.1", off_site)
    tab = Tab(context, url)
    tab.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    assert len(papers) == len(records)

    # The watch works: a javascript: link put in by the test is seen when clicked.
    tab.open("")
    tab.page.evaluate("""() => { const a = document.createElement("a"); a.href = "javascript:alert('probe')";
        a.id = "probe"; a.textContent = "probe"; document.body.append(a); }""")
    tab.page.locator("#probe").dispatch_event("click")
    tab.page.wait_for_timeout(200)
    assert dialogs == ["probe"]
    dialogs.clear()

    links = {}  # href -> the page it was found on: each target clicked once
    for path in CLICKED_PAGES + [p["url"] for p in papers]:
        tab.open(path)
        tab.page.wait_for_function("[...document.querySelectorAll('.arithmatex')].every(e => e.dataset.rendered)")
        tab.page.wait_for_function(DATA_PAGES_READY)
        # Once the page's scripts ran (KaTeX too): nothing from the input became an element or attribute.
        assert tab.page.locator("x-injected, [data-injected], [onerror], [onload], [onclick]").count() == 0, path
        # Not the browse page's results: the script makes them from slugs, one per paper (its
        # titles are checked as text in test_the_map_and_browse_show_hostile_titles_as_text).
        for href in tab.page.eval_on_selector_all(
            ".md-content a[href]:not(.browse__results a)", "links => links.map(a => a.getAttribute('href'))"
        ):
            # Not the headings' permalinks (a '#' to the page itself): the theme's, not the input's.
            # Nor each paper's "where it sits" link (map/?paper=<slug>): made from the slug, one
            # per paper, and each would load the whole map again; the map page is clicked through above.
            if urlsplit(href)._replace(fragment="").geturl() not in (url + path, "") and "map/?paper=" not in href:
                links.setdefault(href, path)
    assert any(href.startswith("https://example.org/") for href in links)  # the one http(s) url given
    tabs = [tab]
    for href, path in links.items():
        for attempt in range(3):
            try:
                page = tabs[-1].open(path, wait_until="domcontentloaded", timeout=15_000)
                break
            except sync_api.Error:
                # The last click's navigation can end late and interrupt, or now and then stall,
                # this load in the same tab: load the page again in a new tab (never a third time).
                if attempt == 2:
                    raise
                tabs.append(Tab(context, url))
                tabs[-1].page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.locator(f".md-content a[href={json.dumps(href)}]").first.dispatch_event("click")
        page.wait_for_timeout(100)  # a click starts its navigation (or runs its script) meanwhile
        page.wait_for_load_state("domcontentloaded")
        assert urlsplit(page.url).scheme in ("http", "https"), (path, href, page.url)
    assert dialogs == [], dialogs
    assert all(urlsplit(address).scheme in ("http", "https") for address in requested), requested
    errors = [error for t in tabs for error in t.errors]
    assert not errors, errors
    context.close()
    server.shutdown()


def test_the_map_and_browse_show_hostile_titles_as_text(browser, hostile_site):
    site, _, _ = hostile_site
    data = json.loads((site / "map.json").read_text(encoding="utf-8"))
    server, url = serve(site)
    context = browser.new_context()
    tab = Tab(context, url)
    try:
        page = tab.open("map/")
        page.wait_for_function(DATA_PAGES_READY)
        page.locator(".topic-map canvas").focus()  # shows the paper nearest the middle
        assert page.locator(".topic-map__tip strong").text_content() in data["title"]
        page.locator(".topic-map__search").fill("a")
        page = tab.open("browse/")
        page.wait_for_function(DATA_PAGES_READY)
        shown = page.locator(".browse__results a").all_text_contents()
        assert shown and set(shown) <= set(data["title"])
        assert page.locator(".md-content x-injected, .md-content img, [onerror], [onload]").count() == 0
        assert page.evaluate("window.__ran") is None
        tab.assert_clean()
    finally:
        context.close()
        server.shutdown()


def test_search_shows_hostile_given_titles_as_text(browser, hostile_site):
    site, records, _ = hostile_site
    server, url = serve(site)
    context = browser.new_context()
    tab = Tab(context, url)
    page = tab.open("")
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially("Method5")
    first = page.locator(".md-search-result__item").first
    expect(first).to_be_visible()
    expect(first.locator("h1")).to_have_text(" ".join(records[5]["title"].split()))
    assert page.locator(".md-search-result x-injected, .md-search-result img, .md-search-result svg[onload]").count() == 0
    tab.assert_clean()
    context.close()
    server.shutdown()


def test_author_pages_show_hostile_names_as_text(browser, hostile_site):
    """Every given author's page (filled in the browser from the JSON of their letter) and the
    Browse facet name them as text and run nothing (issue 35)."""
    site, records, _ = hostile_site
    server, url = serve(site)
    context = browser.new_context()
    tab = Tab(context, url)
    try:
        for record in records:
            name = " ".join(record["authors"][0].split())
            page = tab.open(f"authors/author/?name={quote(name)}")
            page.wait_for_function("document.querySelector('.author-page')?.dataset.ready === 'true'")
            expect(page.locator(".md-content h1")).to_have_text(name)
            assert page.locator(".author-papers > li > a").all_text_contents() == [" ".join(record["title"].split())]
            assert "Ann Lee" in page.locator(".author-coauthors a").all_text_contents()
            assert page.locator(".md-content x-injected, .md-content img, [data-injected]").count() == 0
            assert page.evaluate("window.__ran") is None
        page = tab.open("browse/")
        page.wait_for_function(DATA_PAGES_READY)
        page.get_by_label("Find an author").fill("a")
        assert page.locator(".browse__choices--authors label").count() > 0
        assert page.locator(".md-content x-injected, .md-content img, [onerror], [onload], [data-injected]").count() == 0
        assert page.evaluate("window.__ran") is None
        tab.assert_clean()
    finally:
        context.close()
        server.shutdown()
