"""Every page type loads cleanly from 127.0.0.1 only and is accessible; math, dark mode, phones, instant navigation."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from browsing import (
    AXE,
    CHECKS,
    CHROMIUM,
    EFM,
    IN_CI,
    MEASURE,
    PAGE_TYPES,
    Tab,
    axe_violations,
    expect,
    headings,
    math_rendered,
    meta,
    paper_meta,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]


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
