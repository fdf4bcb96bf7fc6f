"""The built seeds site in a real browser, the way readers use it.

One http.server thread serves the site on 127.0.0.1 (answering a missing path with
404.html, as GitHub Pages does) and one headless Debian Chromium, driven by
Playwright, visits it. Every tab records console errors and any request to a host
other than 127.0.0.1; axe-core comes from npm (`make setup`).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import frontmatter
import pytest
from conftest import ROOT, SEEDS, run_cli

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Under CI (.ci/run sets CI) a missing browser or axe-core fails these tests instead of skipping
# them: `make test` installs both, so a skip there would hide a broken setup.
IN_CI = bool(os.environ.get("CI"))
EFM = "papers/efm-energy-weighted-flow-matching/"
PAGE_TYPES = {
    "home": "",
    "paper": EFM,
    "tag": "tags/large-language-models/",
    "area": "areas/generative-models/",
    "collection": "collections/iclr-2025-papers/",
    "glossary": "glossary/",
    "map": "map/",
    "browse": "browse/",
    "404": "no/such/paper/",
}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]


def launch_chromium(playwright):
    """Debian's Chromium: Playwright never downloads a browser here."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files like a Pages host: quiet, and a missing path gets the site's 404.html."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class Tab:
    """A browser tab on the site that remembers what went wrong while it was open."""

    def __init__(self, context, base: str):
        self.base = base
        self.page = context.new_page()
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.expected_404: set[str] = set()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        context.on("request", self._request)

    def _console(self, message) -> None:
        # A missing page is answered with 404.html and status 404; Chromium logs that status.
        if message.type == "error" and message.location.get("url") not in self.expected_404:
            self.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def _request(self, request) -> None:
        if urlsplit(request.url).hostname != "127.0.0.1" and not request.url.startswith(("data:", "blob:")):
            self.foreign.append(request.url)

    def open(self, path: str, **options):
        self.response = self.page.goto(self.base + path, **options)
        return self.page

    def settle(self) -> None:
        """Wait until the page has fetched all it will (late fonts and scripts included)."""
        self.page.wait_for_load_state("networkidle")

    def forget(self) -> None:
        self.errors.clear()
        self.foreign.clear()
        self.expected_404.clear()

    def assert_clean(self) -> None:
        assert not self.errors, self.errors
        assert not self.foreign, self.foreign


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> tuple[Path, Path, str]:
    """The seeds built for the address they are served at: (site, docs, base URL).

    Material's instant navigation only takes over links to pages listed in sitemap.xml
    under site_url, so the site is built with SITE_URL set to this server's address,
    as the Pages workflow does for the published site.
    """
    folder = tmp_path_factory.mktemp("published")
    site, docs = folder / "site", folder / "docs"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(site)))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("SITE_URL", url)
            result = run_cli("build", str(SEEDS), "--site", str(site), "--docs", str(docs))
        assert result.returncode == 0, result.stderr
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield site, docs, url
        server.shutdown()
    finally:
        server.server_close()


@pytest.fixture(scope="module")
def site(published) -> Path:
    return published[0]


@pytest.fixture(scope="module")
def base(published) -> str:
    return published[2]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def tab(browser, base):
    """A fresh tab (own storage, light scheme, desktop size) that must stay clean."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    tab = Tab(context, base)
    yield tab
    context.close()


def paper_meta(published, slug_prefix: str) -> dict:
    _, docs, _ = published
    path = next(p for p in sorted((docs / "papers").glob("*.md")) if p.name.startswith(slug_prefix))
    return frontmatter.load(path).metadata


def headings(page) -> list[tuple[int, str]]:
    return [
        (int(tag[1]), text)
        for tag, text in page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "els => els.map(e => [e.tagName, e.textContent.trim()])")
    ]


def axe_violations(page, impacts=("serious", "critical")) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
    return [
        {"rule": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [" ".join(n["target"]) for n in v["nodes"]][:5]}
        for v in violations
        if v["impact"] in impacts
    ]


def meta(page, key: str) -> str | None:
    attribute = "property" if key.startswith("og:") else "name"
    element = page.query_selector(f'head meta[{attribute}="{key}"]')
    return element.get_attribute("content") if element else None


def math_rendered(page) -> None:
    page.wait_for_function("[...document.querySelectorAll('.arithmatex')].every(e => e.dataset.rendered)")


# 1 and 8: every page type loads cleanly, from 127.0.0.1 only, accessible, with its reader metadata.
# Dark mode shares the theme's CSS with light mode; its contrast is checked on one page of each layout.
CHECKS = [(kind, "light") for kind in PAGE_TYPES] + [(kind, "dark") for kind in ("home", "paper", "glossary")]


@pytest.fixture(scope="module")
def schemes(browser, base):
    """One tab per colour scheme, shared by the page-type checks (each starts with no errors)."""
    contexts = {scheme: browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme) for scheme in ("light", "dark")}
    yield {scheme: Tab(context, base) for scheme, context in contexts.items()}
    for context in contexts.values():
        context.close()


@pytest.mark.skipif(not AXE.exists() and not IN_CI, reason="axe-core not installed (npm ci, in make setup)")
@pytest.mark.parametrize(("kind", "scheme"), CHECKS, ids=[f"{k}-{s}" for k, s in CHECKS])
def test_each_page_type_is_clean_local_and_accessible(schemes, base, kind, scheme):
    tab = schemes[scheme]
    tab.forget()
    if kind == "404":
        tab.expected_404.add(base + PAGE_TYPES[kind])
    page = tab.open(PAGE_TYPES[kind])
    assert tab.response.status == (404 if kind == "404" else 200)
    tab.settle()
    math_rendered(page)
    assert axe_violations(page) == []

    levels = headings(page)
    assert [level for level, _ in levels].count(1) == 1 and levels[0][0] == 1, levels
    assert all(b <= a + 1 for (a, _), (b, _) in zip(levels, levels[1:])), f"heading levels skip: {levels}"

    assert meta(page, "description") and meta(page, "og:description") == meta(page, "description")
    assert meta(page, "og:title") and meta(page, "og:type") == ("article" if kind == "paper" else "website")
    tab.assert_clean()


def test_paper_pages_describe_themselves_with_their_summary(tab, published):
    efm = paper_meta(published, "efm-")
    page = tab.open(EFM)
    assert meta(page, "description") == meta(page, "og:description") == efm["summary"]
    assert meta(page, "og:title") == efm["title"]
    assert meta(page, "og:url").endswith("/" + EFM)
    assert page.title() == f"{efm['title']} - ICLR 2025 Papers"
    tab.assert_clean()


def test_a_missing_page_gets_the_sites_404_page_with_a_way_home(tab, base):
    tab.expected_404.add(base + "papers/renamed-paper/")
    page = tab.open("papers/renamed-paper/")
    expect(page.locator("article h1")).to_have_text("Page not found")
    assert page.title().startswith("Page not found")
    # Styled by the theme (its stylesheet loaded from the site root, at any depth).
    assert page.eval_on_selector(".md-header", "e => getComputedStyle(e).position") == "sticky"
    assert page.get_by_role("link", name="the home page").evaluate("a => a.href") == tab.base
    page.locator("article").get_by_role("link", name="areas").click()
    expect(page).to_have_url(tab.base + "areas/")
    expect(page.locator("article h1")).to_contain_text("Areas")
    tab.assert_clean()


def test_the_sitemap_lists_every_page_at_its_published_address(tab, site):
    response = tab.page.request.get(tab.base + "sitemap.xml")
    assert response.ok
    spaces = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locations = [loc.text for loc in ET.fromstring(response.body()).findall("s:url/s:loc", spaces)]
    pages = [p for p in site.rglob("index.html")]
    assert len(locations) == len(pages)
    assert tab.base + EFM in locations


def test_the_citation_is_copied_with_one_click(browser, base, published):
    efm = paper_meta(published, "efm-")
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    tab = Tab(context, base)
    try:
        page = tab.open(EFM)
        citation = page.locator(".paper-citation code").inner_text()
        assert citation == f"{efm['title']}. {efm['collection']}. {base}{EFM}"
        page.locator(".paper-citation").hover()
        page.locator(".paper-citation button[data-md-type=copy]").click()
        assert page.evaluate("navigator.clipboard.readText()") == citation
        source = page.locator(".paper-source").inner_text()
        assert efm["source"]["file"] in source and f"record {efm['source']['record']}" in source
        tab.assert_clean()
    finally:
        context.close()


# 2: math renders with the vendored KaTeX.


def test_math_renders_and_no_tex_source_shows(tab):
    page = tab.open(EFM)
    math_rendered(page)
    assert page.locator(".paper-abstract .katex").count() >= 1
    text = page.locator(".paper-abstract").inner_text()
    assert "$" not in text and "\\mathbf" not in text and "\\(" not in text, text
    tab.settle()
    tab.assert_clean()


# 3: search: Pagefind's chunked index in Material's search box (generator/plugin/theme/assets/javascripts/search.js).


def search(page, query: str):
    """Type `query` into the header's search box; the first result's item once shown."""
    box = page.locator(".md-search__input")
    box.click()
    box.fill("")
    box.press_sequentially(query)
    results = page.locator(".md-search-result__list")
    expect(results).to_have_attribute("aria-busy", "false")  # the results of the whole query
    return results.locator("> .md-search-result__item").first


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
    scripts/search_bench.py); here: the search fetches Pagefind's files only, not one index."""
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
    config.write_text(text.replace("  - abstracts:\n", "  - abstracts:\n      search_part_pages: 40\n"), encoding="utf-8")
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
                found[url, query] = (first.get_attribute("href").removeprefix(url), meta)
            tab.assert_clean()
        finally:
            context.close()
    assert found[parted, "PatchSAE"][0].startswith("papers/patchsae-")
    assert found[parted, "Proactive Privacy Amnesia"][0].startswith("papers/ppa-proactive-privacy-amnesia")
    for query in ("language models", "flow matching"):
        assert found[parted, query][1] == found[base, query][1], query  # "N matching documents"


# 4: light/dark toggle.


def test_the_dark_toggle_switches_and_survives_a_reload(tab):
    page = tab.open(EFM)
    body = page.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", "default")
    page.get_by_title("Switch to dark mode").click()
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    stored = page.evaluate("Object.keys(localStorage).filter(k => k.endsWith('__palette')).map(k => localStorage[k])")
    assert stored and json.loads(stored[0])["color"]["scheme"] == "slate"
    page.reload()
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    page.get_by_title("Switch to light mode").click()
    expect(body).to_have_attribute("data-md-color-scheme", "default")
    tab.assert_clean()


# 5: phones.

MEASURE = """async () => {
    await document.fonts.ready;  // KaTeX's fonts change the width of math
    const root = document.documentElement;
    const rendered = [...document.querySelectorAll(".arithmatex")].every(e => e.dataset.rendered);
    return [rendered, root.scrollWidth, root.clientWidth];
}"""


def test_no_page_scrolls_sideways_on_a_375px_phone(browser, base, site):
    context = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
    tab = Tab(context, base)
    paths = [f"papers/{p.name}/" for p in sorted((site / "papers").iterdir()) if p.is_dir()]
    paths += [path for kind, path in PAGE_TYPES.items() if kind not in ("paper", "404")]
    wide = {}
    try:
        for path in paths:
            page = tab.open(path)
            rendered, scroll, client = page.evaluate(MEASURE)
            if not rendered or scroll > client:
                wide[path] = {"math rendered": rendered, "scrollWidth": scroll, "clientWidth": client}
        assert len(paths) > 38 and wide == {}
        tab.assert_clean()
    finally:
        context.close()


# 6: instant navigation.


def test_instant_navigation_keeps_links_and_math_working(tab):
    page = tab.open("")
    page.evaluate("window.__sameDocument = true")  # survives only while no full page load happens

    page.locator("article a[href*='papers/']").first.click()
    expect(page).to_have_url(re.compile(r"/papers/[^/]+/$"))
    related = page.locator(".paper-related a").first
    title = related.inner_text()
    related.click()
    expect(page.locator(".paper h1")).to_have_text(title)

    page.locator(".md-tabs").get_by_role("link", name="Areas").click()
    page.locator("article a[href*='areas/generative-models']").click()
    page.locator(f"article a[href$='{EFM}']").click()
    expect(page).to_have_url(tab.base + EFM)
    math_rendered(page)
    assert page.locator(".paper-abstract .katex").count() >= 1
    assert "\\mathbf" not in page.locator(".paper-abstract").inner_text()

    page.locator(".paper-related a").first.click()
    expect(page).to_have_url(re.compile(r"/papers/[^/]+/$"))
    expect(page).not_to_have_url(tab.base + EFM)
    assert page.evaluate("window.__sameDocument") is True, "a link made a full page load: instant navigation broke"
    tab.assert_clean()


# The topic map and the browse page: drawn from map.json and browse.json by the site's scripts.

DATA_PAGES_READY = "!document.querySelector('.topic-map:not([data-ready=true]), .browse:not([data-ready=true])')"
YELLOW_PIXELS = """() => { const c = document.querySelector('.topic-map canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 240 && d[i + 1] > 190 && d[i + 2] < 60 && d[i + 3] > 128) n += 1; return n; }"""


def map_labels(page, level: str) -> list[dict]:
    page.wait_for_function(f"document.querySelector('.topic-map').dataset.level === '{level}'")
    return json.loads(page.get_attribute(".topic-map", "data-labels"))


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    return [
        (a["label"], b["label"])
        for n, a in enumerate(boxes)
        for b in boxes[n + 1 :]
        if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]
    ]


def test_the_map_names_regions_apart_and_zooming_in_names_finer_topics(tab, site):
    data = json.loads((site / "map.json").read_text(encoding="utf-8"))
    page = tab.open("map/")
    broad = map_labels(page, "broad")
    canvas = page.locator(".topic-map canvas").bounding_box()
    assert len(broad) >= 4 and overlaps(broad) == []
    assert {b["label"] for b in broad} <= {r["label"] for r in data["broad"]}
    assert all(0 <= b["left"] and b["right"] <= canvas["width"] and 0 <= b["top"] and b["bottom"] <= canvas["height"] for b in broad)
    page.locator(".topic-map canvas").focus()
    # Pan to the largest finer topic (an arrow moves the view an eighth of the map), then zoom
    # in: which topics sit in the middle depends on the papers.
    region = data["fine"][0]
    for key, steps in (("ArrowRight", round((region["x"] / 10000 - 0.5) * 8)), ("ArrowDown", round((region["y"] / 10000 - 0.5) * 8))):
        for _ in range(abs(steps)):
            page.keyboard.press(key if steps > 0 else {"ArrowRight": "ArrowLeft", "ArrowDown": "ArrowUp"}[key])
    for _ in range(3):
        page.keyboard.press("+")
    fine = map_labels(page, "fine")
    assert fine and overlaps(fine) == [] and {b["label"] for b in fine} <= {r["label"] for r in data["fine"]}
    # The keyboard shows the paper nearest the cross, and Enter opens it.
    title = page.locator(".topic-map__tip strong").inner_text()
    page.keyboard.press("Enter")
    expect(page.locator("article h1")).to_have_text(title)
    tab.assert_clean()


def test_map_search_highlights_matches_and_a_dot_opens_its_paper(tab, site):
    data = json.loads((site / "map.json").read_text(encoding="utf-8"))
    page = tab.open("map/")
    map_labels(page, "broad")
    assert page.evaluate(YELLOW_PIXELS) == 0
    expected = sum("language" in title.lower() for title in data["title"])
    page.locator(".topic-map__search").fill("Language")
    expect(page.locator(".topic-map__found")).to_have_text(f"{expected} papers found")
    assert expected > 1
    page.wait_for_function(f"({YELLOW_PIXELS})() > {20 * expected}")  # drawn in the next frame

    page.locator(".topic-map canvas").scroll_into_view_if_needed()
    box = page.locator(".topic-map canvas").bounding_box()
    side = min(box["width"], box["height"])
    x = box["x"] + (data["x"][0] / 10000 - 0.5) * side + box["width"] / 2
    y = box["y"] + (data["y"][0] / 10000 - 0.5) * side + box["height"] / 2
    page.mouse.move(x, y)
    tip = page.locator(".topic-map__tip")
    expect(tip).to_be_visible()
    title = tip.locator("strong").inner_text()
    assert title in data["title"] and data["summary"][data["title"].index(title)] in tip.inner_text()
    page.mouse.click(x, y)
    expect(page.locator("article h1")).to_have_text(title)
    tab.assert_clean()


def test_the_legend_filters_areas_and_a_paper_page_shows_where_it_sits(tab, published):
    page = tab.open(EFM)
    title = page.locator("article h1").inner_text()
    page.locator(".paper-map-link").click()
    expect(page.locator(".topic-map__tip strong")).to_have_text(title)
    expect(page.locator(".topic-map")).to_have_attribute("data-level", "fine")  # set when the zoom settles: wait for it
    page.locator(".topic-map__search").fill(title)
    expect(page.locator(".topic-map__found")).to_have_text("1 paper found")
    page.wait_for_function(f"({YELLOW_PIXELS})() > 0")
    for box in page.locator(".topic-map__area").all():
        box.uncheck()
    page.wait_for_function(f"({YELLOW_PIXELS})() === 0")  # the match's area is hidden
    tab.assert_clean()


def test_the_map_works_by_touch_on_a_phone(browser, base, site):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    tab = Tab(context, base)
    try:
        page = tab.open("map/")
        labels = map_labels(page, "broad")
        assert len(labels) >= 3 and overlaps(labels) == []
        data = json.loads((site / "map.json").read_text(encoding="utf-8"))
        page.locator(".topic-map canvas").scroll_into_view_if_needed()
        box = page.locator(".topic-map canvas").bounding_box()
        side = min(box["width"], box["height"])
        page.touchscreen.tap(
            box["x"] + (data["x"][5] / 10000 - 0.5) * side + box["width"] / 2,
            box["y"] + (data["y"][5] / 10000 - 0.5) * side + box["height"] / 2,
        )
        expect(page).to_have_url(re.compile(r"/papers/[^/]+/$"))
        tab.assert_clean()
    finally:
        context.close()


def test_browse_filters_combine_count_as_the_index_says_and_answer_at_once(tab, site):
    index = json.loads((site / "browse.json").read_text(encoding="utf-8"))
    papers = index["papers"]
    page = tab.open("browse/")
    page.wait_for_function(DATA_PAGES_READY)
    status = page.locator(".browse__status")
    expect(status).to_have_text(f"{len(papers)} papers")

    area = max(range(len(index["areas"])), key=lambda a: sum(p[2] == a for p in papers))
    in_area = [p for p in papers if p[2] == area]
    tag = max(range(len(index["tags"])), key=lambda t: sum(t in p[4] for p in in_area))
    expected_tag_count = sum(tag in p[4] for p in in_area)
    page.locator(f".browse__facet--areas input[value='{area}']").check()
    expect(status).to_have_text(f"{len(in_area)} paper{'s' if len(in_area) != 1 else ''}")
    # Each tag's count is what checking it would leave.
    expect(
        page.locator(
            f".browse__facet--tags input[value='{tag}'] + .browse__count, "
            f".browse__facet--tags label:has(input[value='{tag}']) .browse__count"
        )
    ).to_have_text(f"({expected_tag_count})")
    elapsed = page.evaluate(f"""() => {{ const box = document.querySelector(".browse__facet--tags input[value='{tag}']");
        const start = performance.now(); box.click(); return performance.now() - start; }}""")
    expect(status).to_have_text(f"{expected_tag_count} paper{'s' if expected_tag_count != 1 else ''}")
    assert elapsed < 100
    word = next(w for w in papers[0][0].lower().split() if len(w) > 4)
    page.locator(".browse__words").fill(word)
    expected = sum(p[2] == area and tag in p[4] and word in p[0].lower() for p in papers)
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    assert page.locator(".browse__results li").count() == min(expected, 50)
    page.locator(".browse__clear").click()
    expect(status).to_have_text(f"{len(papers)} papers")
    first = page.locator(".browse__results a").first
    title = first.inner_text()
    first.click()
    expect(page.locator("article h1")).to_have_text(title)
    tab.assert_clean()


def test_browse_choices_are_kept_in_the_address_to_share_and_come_back_to(tab, site):
    index = json.loads((site / "browse.json").read_text(encoding="utf-8"))
    papers = index["papers"]
    area = max(range(len(index["areas"])), key=lambda a: sum(p[2] == a for p in papers))
    tag = max(range(len(index["tags"])), key=lambda t: sum(p[2] == area and t in p[4] for p in papers))
    expected = sum(p[2] == area and tag in p[4] for p in papers)
    query = urlencode({"area": index["areas"][area], "tag": index["tags"][tag]})
    # A shared link opens with its choices made.
    page = tab.open(f"browse/?{query}")
    page.wait_for_function(DATA_PAGES_READY)
    status = page.locator(".browse__status")
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    expect(page.locator(f".browse__facet--areas input[value='{area}']")).to_be_checked()
    # A change is written back to the address; a paper opened from the list, then Back, returns to it.
    page.locator(f".browse__facet--areas input[value='{area}']").uncheck()
    expected = sum(tag in p[4] for p in papers)
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    assert parse_qs(urlsplit(page.url).query) == {"tag": [index["tags"][tag]]}
    page.locator(".browse__results a").first.click()
    expect(page).to_have_url(re.compile(r"/papers/[^/]+/$"))
    page.go_back()
    page.wait_for_function(DATA_PAGES_READY)
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    expect(page.locator(f".browse__facet--tags input[value='{tag}']")).to_be_checked()
    tab.assert_clean()


def test_browse_works_under_a_sub_path(browser, site, tmp_path):
    (tmp_path / "project").symlink_to(site)
    server, url = serve(tmp_path)
    context = browser.new_context()
    try:
        tab = Tab(context, url + "project/")
        page = tab.open("browse/")
        page.wait_for_function(DATA_PAGES_READY)
        page.locator(".browse__results a").first.click()
        expect(page).to_have_url(re.compile(r"/project/papers/[^/]+/$"))
        tab.assert_clean()
    finally:
        context.close()
        server.shutdown()


def test_a_tag_page_sorts_by_title_on_request_and_the_tag_index_filters(tab):
    page = tab.open("tags/large-language-models/")
    items = page.locator("article ul").last.locator("li > a:first-child")
    ranked = items.all_inner_texts()
    page.locator(".sort-toggle").click()
    assert items.all_inner_texts() == sorted(ranked, key=str.casefold) != ranked
    page.locator(".sort-toggle").click()
    assert items.all_inner_texts() == ranked
    page = tab.open("tags/")
    page.locator(".table-filter__input").fill("language")
    visible = page.locator("article tbody tr:visible td:first-child").all_inner_texts()
    assert visible and all("language" in name.lower() for name in visible)
    tab.assert_clean()


# Titles and summaries come from input text: the theme must show them, never run them.

HOSTILE = {
    "title": 'Quotes "here" </title><script>window.__ran = 1</script><img src=x onerror="window.__ran = 4">',
    "tldr": 'A summary "quoted" and <img src=x onerror="window.__ran = 2"> inside.',
    "abstract": "We study how the generator treats <script>window.__ran = 3</script> markup in an abstract "
    "about large language models, with enough words for tags and related papers to be derived.",
}


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


# Given fields (title, url, keywords, authors, collection, tldr, primary_area, id) are as
# untrusted as abstracts: conftest.hostile_records puts one hostile value in every field of a record.

CLICKED_PAGES = ["", "map/", "browse/", "tags/", "areas/", "collections/", "glossary/"]


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
