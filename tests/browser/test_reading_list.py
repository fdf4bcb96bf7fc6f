"""The reading list (issue 35) as readers use it, on a site served under a sub-path (/conf/):
papers saved from their pages, from Browse and from listings, kept across reloads in the order
saved, removed, exported as BibTeX, CSV and Markdown, shared by a link that opens the same list
in another browser; from the keyboard, on a phone, in dark mode, with nothing fetched from
elsewhere, and with titles and names from input shown as text and exported as given."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from pathlib import Path
from urllib.parse import quote

import bibtexparser
import markdown
import pytest
from bibtexparser.middlewares import SeparateCoAuthors
from pylatexenc.latex2text import LatexNodes2Text

from browsing import AXE, CHROMIUM, DATA_PAGES_READY, IN_CI, MEASURE, Tab, axe_violations, expect, serve
from helpers import Dom, run_cli

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]

PHONE = {"viewport": {"width": 375, "height": 800}, "is_mobile": True, "has_touch": True}


def slug(paper: dict) -> str:
    return paper["url"].split("/")[1]


@pytest.fixture(scope="module")
def papers(authored) -> list[dict]:
    """The authored site's papers, those with accented names in their authors first."""
    site, _, _ = authored
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    return sorted(records, key=lambda p: all(name.isascii() for name in p["authors"]))


def toggle(page, title: str, saved: bool):
    return page.get_by_role("button", name=f"{'Remove from' if saved else 'Add to'} reading list: {title}", exact=True)


def listed(page) -> list[str]:
    """The titles the Reading list page shows, once it has shown them."""
    expect(page.locator(".reading-list__status")).not_to_have_text(re.compile(r"^(Loading.*)?$"))
    return page.locator(".reading-list__title").all_inner_texts()


def save_on_paper_page(tab: Tab, paper: dict, keyboard: bool = False) -> None:
    page = tab.open(paper["url"])
    button = toggle(page, paper["title"], saved=False)
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    expect(toggle(page, paper["title"], saved=True)).to_have_attribute("aria-pressed", "true")


def download(page, label: str) -> tuple[str, str]:
    """The file a download button saves: (its name, its text)."""
    with page.expect_download() as started:
        page.get_by_role("button", name=label, exact=True).click()
    file = started.value
    return file.suggested_filename, Path(file.path()).read_text(encoding="utf-8")


def typeset(latex: str) -> str:
    """What LaTeX typesets from a BibTeX field, as pylatexenc reads it."""
    return unicodedata.normalize("NFC", LatexNodes2Text().latex_to_text(latex))


def bibtex_fields(text: str) -> list[dict[str, str | list[str]]]:
    library = bibtexparser.parse_string(text, append_middleware=[SeparateCoAuthors()])
    assert not library.failed_blocks, [block.error for block in library.failed_blocks]
    return [
        {"title": typeset(e.fields_dict["title"].value), "authors": [typeset(a) for a in e.fields_dict["author"].value]}
        for e in library.entries
    ]


def paper_links(text: str) -> list[str]:
    """The text of each link to a paper page in Markdown, as Python-Markdown renders it."""
    return ["".join(Dom(html).text) for html in re.findall(r'<a href="[^"]*/papers/[^"]*">(.*?)</a>', markdown.markdown(text))]


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


def test_papers_saved_from_pages_and_browse_stay_in_order_export_and_share(browser, authored, papers):
    _, _, base = authored
    a, b, c, d = papers[:4]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"])
    tab = Tab(context, base)
    save_on_paper_page(tab, a)
    save_on_paper_page(tab, b, keyboard=True)
    page = tab.open("browse/")
    page.wait_for_function(DATA_PAGES_READY)
    page.get_by_role("searchbox", name="Title words").fill(c["title"])
    result = page.locator(f".browse__results li:has(a[href$='papers/{slug(c)}/'])")
    result.get_by_role("button", name=f"Add to reading list: {c['title']}", exact=True).click()
    expect(result.locator(".reading-toggle")).to_have_attribute("aria-pressed", "true")

    page = tab.open("reading-list/")
    assert listed(page) == [a["title"], b["title"], c["title"]]
    page.reload()
    assert listed(page) == [a["title"], b["title"], c["title"]]
    expect(page.locator(".reading-list__paper").first.get_by_role("link", name=a["title"], exact=True)).to_have_attribute(
        "href", base + a["url"]
    )

    name, text = download(page, "Download BibTeX")
    assert name == "reading-list.bib"
    assert bibtex_fields(text) == [{"title": p["title"], "authors": p["authors"]} for p in (a, b, c)]
    assert any(not author.isascii() for author in a["authors"])  # accents survive the LaTeX
    name, text = download(page, "Download CSV")
    rows = csv_rows(text)
    assert name == "reading-list.csv" and [r["title"] for r in rows] == [a["title"], b["title"], c["title"]]
    assert rows[0]["authors"] == "; ".join(a["authors"]) and rows[0]["url"] == base + a["url"]
    assert rows[0]["links"] == " ".join(link["url"] for link in a["links"])
    name, text = download(page, "Download Markdown")
    assert name == "reading-list.md"
    for paper in (a, b, c):
        assert f"]({base}{paper['url']})" in text
    assert paper_links(text) == [a["title"], b["title"], c["title"]]

    # Removed from the keyboard: the focus moves on to the next paper's button.
    page.get_by_role("button", name=f"Remove from reading list: {b['title']}", exact=True).focus()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name=f"Remove from reading list: {c['title']}", exact=True)).to_be_focused()
    assert listed(page) == [a["title"], c["title"]]
    expect(page.locator(".reading-list__status")).to_contain_text("Removed")
    page.reload()
    assert listed(page) == [a["title"], c["title"]]

    page.get_by_role("button", name="Copy share link", exact=True).click()
    link = page.get_by_role("textbox", name="Share link").input_value()
    assert link == f"{base}reading-list/?papers={slug(a)},{slug(c)}"
    assert page.evaluate("navigator.clipboard.readText()") == link
    tab.assert_clean()

    # Another browser, whose own list holds another paper: the shared papers added after it.
    elsewhere = browser.new_context()
    other = Tab(elsewhere, base)
    save_on_paper_page(other, d)
    page = other.page
    page.goto(link)
    expect(page.locator(".reading-list__shared")).to_contain_text("A shared reading list of 2 papers")
    assert listed(page) == [a["title"], c["title"]]
    page.get_by_role("button", name="Add these to my list", exact=True).click()
    expect(page).to_have_url(f"{base}reading-list/")
    expect(page.locator(".reading-list__status")).to_contain_text("Added 2 papers")
    assert listed(page) == [d["title"], a["title"], c["title"]]
    page.reload()
    assert listed(page) == [d["title"], a["title"], c["title"]]
    page.goto(link)
    page.get_by_role("button", name="Replace my list with these", exact=True).click()
    expect(page.locator(".reading-list__status")).to_contain_text("Replaced your list with 2 papers")
    page.reload()
    assert listed(page) == [a["title"], c["title"]]
    other.assert_clean()
    elsewhere.close()
    context.close()


def test_on_a_phone_papers_are_saved_from_a_listing_and_a_shared_list_can_just_be_looked_at(browser, authored, papers):
    _, _, base = authored
    a, b = papers[:2]
    context = browser.new_context(**PHONE)
    tab = Tab(context, base)
    try:
        save_on_paper_page(tab, a)
        tag_page = next(url for url in b["tag_urls"].values())
        page = tab.open(tag_page)
        item = page.locator(f".md-content li:has(> a[href$='papers/{slug(b)}/'])")
        item.get_by_role("button", name=f"Add to reading list: {b['title']}", exact=True).tap()
        expect(item.locator(".reading-toggle")).to_have_attribute("aria-pressed", "true")
        page = tab.open("reading-list/")
        assert listed(page) == [a["title"], b["title"]]
        rendered, scroll, client = page.evaluate(MEASURE)
        assert scroll <= client, "the reading list scrolls sideways on a phone"

        # A list shared to a phone whose own list is empty: looked at, then left alone.
        fresh = browser.new_context(**PHONE)
        viewer = Tab(fresh, base)
        page = viewer.open(f"reading-list/?papers={slug(b)},{slug(a)}")
        assert listed(page) == [b["title"], a["title"]]
        assert page.evaluate(MEASURE)[1] <= page.evaluate(MEASURE)[2]
        page.get_by_role("button", name="Show my own list", exact=True).tap()
        expect(page.locator(".reading-list__empty")).to_be_visible()
        expect(page).to_have_url(f"{base}reading-list/")
        assert page.evaluate("__md_get('reading-list')") is None
        viewer.assert_clean()
        fresh.close()
        tab.assert_clean()
    finally:
        context.close()


def test_a_paper_saved_in_one_tab_shows_as_saved_in_another(browser, authored, papers):
    _, _, base = authored
    context = browser.new_context()
    try:
        listing, paper = Tab(context, base), Tab(context, base)
        page = listing.open("reading-list/")
        expect(page.locator(".reading-list__empty")).to_be_visible()
        save_on_paper_page(paper, papers[0])
        assert listed(page) == [papers[0]["title"]]
        listing.assert_clean()
        paper.assert_clean()
    finally:
        context.close()


def test_a_saved_paper_whose_page_is_gone_is_shown_with_its_title_and_can_be_removed(browser, authored, papers):
    _, _, base = authored
    context = browser.new_context()
    tab = Tab(context, base)
    try:
        tab.expected_404.add(base + "papers/a-paper-since-removed/")
        page = tab.open("reading-list/")
        saved = [
            {"slug": "a-paper-since-removed", "title": "A Paper Since Removed"},
            {"slug": slug(papers[0]), "title": papers[0]["title"]},
        ]
        page.evaluate("list => __md_set('reading-list', list)", saved)
        page.reload()
        assert listed(page) == ["A Paper Since Removed", papers[0]["title"]]
        expect(page.locator(".reading-list__paper--gone")).to_contain_text("no longer on this site")
        expect(page.locator(".reading-list__status")).to_contain_text("2 papers in your reading list, 1 not found")
        page.get_by_role("button", name="Remove from reading list: A Paper Since Removed", exact=True).click()
        assert listed(page) == [papers[0]["title"]]
        tab.assert_clean()
    finally:
        context.close()


@pytest.mark.skipif(not AXE.exists() and not IN_CI, reason="axe-core not installed (npm ci, in make setup)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_full_reading_list_its_shared_view_and_the_buttons_are_accessible(browser, authored, papers, scheme):
    _, _, base = authored
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    tab = Tab(context, base)
    try:
        page = tab.open(papers[0]["url"])
        assert axe_violations(page) == []  # the button not pressed
        page.evaluate("list => __md_set('reading-list', list)", [{"slug": slug(p), "title": p["title"]} for p in papers[:3]])
        page.reload()
        expect(page.locator(".paper-reading .reading-toggle")).to_have_attribute("aria-pressed", "true")
        assert axe_violations(page) == []
        saved_and_tagged = next(p for p in papers[:3] if p["tag_urls"])  # a page may show no tag
        page = tab.open(next(iter(saved_and_tagged["tag_urls"].values())))
        expect(page.locator(".reading-toggle[aria-pressed=true]").first).to_be_visible()
        assert axe_violations(page) == []
        page = tab.open("reading-list/")
        assert len(listed(page)) == 3
        assert axe_violations(page) == []
        page = tab.open(f"reading-list/?papers={slug(papers[3])},{slug(papers[0])}")
        assert len(listed(page)) == 2
        assert axe_violations(page) == []
        tab.assert_clean()
    finally:
        context.close()


# Titles, names and collections from input, each trying to be markup, a formula or a CSV break.
HOSTILE_TITLES = [
    '</script><script>window.__ran = 1</script> "Quoted", with commas',
    '=HYPERLINK("https://evil.example/","click") study',
    "+1 and -1: signs in a title",
    "-2 opening with a minus",
    "@SUM(A1) at the start",
    "[A](javascript:alert(1)) *stars* _under_ `code` <img src=x onerror=alert(2)> & $x$ \\(y\\) ~~gone~~ {: .x }",
    "# Not a heading, 1. not a list",
]


@pytest.fixture(scope="module")
def hostile_list(tmp_path_factory):
    """A site whose papers carry HOSTILE_TITLES and hostile author names: (base URL, papers)."""
    folder = tmp_path_factory.mktemp("hostile-reading-list")
    records = [
        {
            "title": title,
            "abstract": f"We propose Method{i}, a graph network for large language models, and study its behaviour on benchmark {i}.",
            "authors": [f'=cmd|" /C calc"!A{i}', '<img src=x onerror="window.__ran = 3">', 'Zoë "Q" O\'Brien, Jr.'],
            "collection": "Hostile Conference 2024",
            "url": f"https://example.org/paper/{i}",
        }
        for i, title in enumerate(HOSTILE_TITLES)
    ]
    source = folder / "hostile.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = run_cli("build", str(source), "--site", str(folder / "root" / "conf"))
    assert result.returncode == 0, result.stderr[-3000:]
    server, url = serve(folder / "root")
    built = json.loads((folder / "root" / "conf" / "papers.json").read_text(encoding="utf-8"))["papers"]
    yield url + "conf/", sorted(built, key=lambda p: HOSTILE_TITLES.index(p["title"]))
    server.shutdown()


def test_hostile_titles_and_names_are_text_in_the_list_and_exported_as_given(browser, hostile_list):
    base, built = hostile_list
    assert [p["title"] for p in built] == HOSTILE_TITLES
    context = browser.new_context()
    tab = Tab(context, base)
    try:
        page = tab.open("reading-list/")
        page.evaluate("list => __md_set('reading-list', list)", [{"slug": slug(p), "title": p["title"]} for p in built])
        page.reload()
        assert listed(page) == HOSTILE_TITLES
        assert page.locator(".reading-list__authors").first.inner_text() == ", ".join(built[0]["authors"])
        assert page.evaluate("window.__ran") is None and page.locator(".reading-list img, .reading-list script").count() == 0

        _, text = download(page, "Download BibTeX")
        fields = bibtex_fields(text)
        assert [f["title"] for f in fields] == [t.replace('"', "''") for t in HOSTILE_TITLES]  # LaTeX's quotes for '"'
        assert fields[0]["authors"] == [a.replace('"', "''") for a in built[0]["authors"]]

        _, text = download(page, "Download CSV")
        rows = csv_rows(text)
        neutral = [("'" + t if t[0] in "=+-@" else t) for t in HOSTILE_TITLES]
        assert [r["title"] for r in rows] == neutral
        assert rows[0]["authors"] == "'" + "; ".join(built[0]["authors"])
        assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())

        _, text = download(page, "Download Markdown")
        dom = Dom(markdown.markdown(text))
        assert {tag for tag, _ in dom.elements} <= {"h1", "ul", "li", "a", "p", "br"}
        links = [attributes["href"] for tag, attributes in dom.elements if tag == "a"]
        assert links[0] == f"{base}papers/{quote(slug(built[0]))}/" and all(link.startswith(("http://", "https://")) for link in links)
        assert paper_links(text) == HOSTILE_TITLES
        tab.assert_clean()
    finally:
        context.close()
