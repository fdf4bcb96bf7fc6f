"""Finding papers by author (issue 35), in Chromium, on a site of papers with authors served under
a sub-path: the Authors index, an author's page, the paper page's names, search and Browse."""

from __future__ import annotations

import json
import re
from collections import Counter
from urllib.parse import quote

import pytest

from browsing import AXE, CHROMIUM, IN_CI, MEASURE, Tab, axe_violations, expect, search
from generator.explore.authors import letter, person_key

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]

AUTHOR_READY = "document.querySelector('.author-page')?.dataset.ready === 'true'"


@pytest.fixture(scope="module")
def papers(authored) -> list[dict]:
    _, docs, _ = authored
    return json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"]


@pytest.fixture
def authored_tab(browser, authored):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = Tab(context, authored[2])
    yield tab
    context.close()


def busiest(papers: list[dict]) -> str:
    """The author of most papers (then most co-authors, then by name): the richest author page."""
    counts = Counter(name for p in papers for name in p["authors"])
    width = Counter({name: sum(len(p["authors"]) for p in papers if name in p["authors"]) for name in counts})
    return min(counts, key=lambda name: (-counts[name], -width[name], name))


def test_the_authors_index_leads_to_an_author_and_on_to_their_paper(authored_tab, papers):
    name = busiest(papers)
    theirs = [p for p in papers if name in p["authors"]]
    page = authored_tab.open("authors/")
    assert page.locator(".md-nav__link", has_text="Authors").count() >= 1  # in the navigation
    page.locator(f"#letter-{letter(name)} + .author-list a", has_text=re.compile(f"^{re.escape(name)}$")).click()
    expect(page).to_have_url(re.compile(r"/conf/authors/author/\?name=" + re.escape(quote(name))))
    page.wait_for_function(AUTHOR_READY)
    expect(page.locator(".md-content h1")).to_have_text(name)
    assert page.title().startswith(f"{name} - ")
    assert sorted(page.locator(".author-papers > li > a").all_text_contents()) == sorted(p["title"] for p in theirs)
    coauthors = {other for p in theirs for other in p["authors"] if other != name}
    assert set(page.locator(".author-coauthors a").all_text_contents()) == coauthors
    page.locator(".author-papers > li > a").first.click()
    expect(page).to_have_url(re.compile(r"/conf/papers/[^/]+/$"))
    expect(page.locator(".paper-authors a", has_text=name)).to_have_count(1)
    # ... and from the paper page, a co-author's name opens their page.
    other = sorted(coauthors)[0]
    page.locator(".paper-authors a", has_text=re.compile(f"^{re.escape(other)}$")).click()
    page.wait_for_function(AUTHOR_READY)
    expect(page.locator(".md-content h1")).to_have_text(other)
    assert name in page.locator(".author-coauthors a").all_text_contents()
    authored_tab.assert_clean()


def test_the_index_filter_box_leaves_the_names_that_match(authored_tab, papers):
    name = busiest(papers)
    page = authored_tab.open("authors/")
    page.get_by_label("Find an author").fill(name.split()[-1].lower())
    visible = page.locator(".author-list li:visible").all_text_contents()
    assert visible and all(name.split()[-1].lower() in item.lower() for item in visible)
    assert any(item.startswith(name) for item in visible)
    authored_tab.assert_clean()


# Names whose filing takes a rule (suffixes, accents, other scripts, one word, case, marks,
# spaces): the browser must file and match them as the generator does.
UNUSUAL_NAMES = [
    "Martin Luther King Jr.",
    "Guy L. Steele III",
    "Ólafur Ragnarsson",
    "Anna Øberg",
    "Zoë Émond",
    "王小明",
    "Prince",
    "Sébastien Lachapelle",
    "SEBASTIEN LACHAPELLE *",
    "Colin Raffel†",
    "Jose\u0301 Garci\u0301a",
    "İlker Yıldırım",
    "Straße Groß",
    "  Ann   Lee  ",
    "*",
]


def test_the_browser_files_an_author_under_the_letter_the_generator_does(authored_tab, papers):
    names = sorted({n for p in papers for n in p["authors"]}) + UNUSUAL_NAMES
    page = authored_tab.open("authors/")
    assert page.evaluate("names => names.map(window.authorLetter)", names) == [letter(n) for n in names]


def test_the_browser_finds_a_person_by_the_key_the_generator_files_them_under(authored_tab, papers):
    names = sorted({n for p in papers for n in p["authors"]})[:200] + UNUSUAL_NAMES
    page = authored_tab.open("authors/")
    assert page.evaluate("names => names.map(window.personKey)", names) == [person_key(n) for n in names]


def test_an_address_spelling_a_name_another_way_finds_the_same_author(authored_tab, papers):
    name = busiest(papers)
    other = name.upper() + "*"  # another case and an affiliation mark: the same person
    page = authored_tab.open(f"authors/author/?name={quote(other)}")
    page.wait_for_function(AUTHOR_READY)
    expect(page.locator(".md-content h1")).to_have_text(name)
    authored_tab.assert_clean()


def test_an_unknown_author_gets_a_way_back_to_the_index(authored_tab):
    page = authored_tab.open("authors/author/?name=Nobody%20Atall")
    page.wait_for_function(AUTHOR_READY)
    expect(page.locator(".md-content h1")).to_have_text("Author not found")
    page.get_by_role("link", name="Authors index").click()
    expect(page).to_have_url(re.compile(r"/conf/authors/$"))
    authored_tab.assert_clean()


def test_searching_an_authors_full_name_finds_their_paper(authored_tab, papers):
    # An author of one paper, with a name no other author shares a word of.
    words = Counter(word for p in papers for name in dict.fromkeys(p["authors"]) for word in name.split())
    paper, name = next((p, n) for p in papers for n in p["authors"] if all(words[w] == 1 for w in n.split()))
    page = authored_tab.open("")
    first = search(page, name).locator("a").first
    expect(first).to_have_attribute("href", re.compile(re.escape(paper["url"])))
    authored_tab.assert_clean()


def test_browse_narrows_to_an_authors_papers_and_keeps_them_in_the_address(authored_tab, papers):
    name = busiest(papers)
    theirs = sorted(p["title"] for p in papers if name in p["authors"])
    page = authored_tab.open("browse/")
    page.wait_for_function("document.querySelector('.browse')?.dataset.ready === 'true'")
    page.get_by_label("Find an author").fill(name)
    page.get_by_label(re.compile(f"^ ?{re.escape(name)} \\(")).check()
    expect(page.locator(".browse__status")).to_have_text(f"{len(theirs)} paper{'s' if len(theirs) != 1 else ''}")
    assert sorted(page.locator(".browse__results li > a").all_text_contents()) == theirs
    expect(page).to_have_url(re.compile(r"author=" + re.escape(quote(name).replace("%20", "+"))))
    page.reload()
    page.wait_for_function("document.querySelector('.browse')?.dataset.ready === 'true'")
    expect(page.locator(".browse__status")).to_have_text(f"{len(theirs)} paper{'s' if len(theirs) != 1 else ''}")
    authored_tab.assert_clean()


@pytest.mark.skipif(not AXE.exists() and not IN_CI, reason="axe-core not installed (npm ci, in make setup)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_author_pages_are_accessible_and_fit_a_phone(browser, authored, papers, scheme):
    context = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True, color_scheme=scheme)
    tab = Tab(context, authored[2])
    try:
        for path in ["authors/", f"authors/author/?name={quote(busiest(papers))}", "browse/"]:
            page = tab.open(path)
            tab.settle()
            assert axe_violations(page) == [], path
            _, scroll, client = page.evaluate(MEASURE)
            assert scroll <= client, (path, scroll, client)
        tab.assert_clean()
    finally:
        context.close()
