"""Authors as the index and author pages file them (generator.explore.authors, generator.render.authors):
one person however the records spell accents, case or a trailing mark, filed by surname, every
paper of every author on their letter's page."""

from __future__ import annotations

import json

import frontmatter
import pytest

from generator.enrich.paper import enrich
from generator.errors import Report
from generator.explore.authors import LETTERS, OTHER, authors, letter, person_key, sort_key, spelled_as, surname
from generator.model import Origin, Record
from generator.render import authors as section
from generator.sources.readers import read_file

# Names whose filing takes a rule: suffixes, particles, accents, other scripts, one word.
FILED = {
    "Martin Luther King Jr.": "k",
    "Guy L. Steele III": "s",
    "Laurens van der Maaten": "m",
    "Ólafur Ragnarsson": "r",
    "Anna Øberg": OTHER,  # Ø is a letter of its own, not O with an accent
    "Zoë Émond": "e",
    "王小明": OTHER,
    "Prince": "p",
    "Jr.": "j",  # a name that is only a suffix is still filed by it
}


@pytest.mark.parametrize(("name", "expected"), FILED.items())
def test_authors_are_filed_under_their_surnames_first_letter(name, expected):
    assert letter(name) == expected


def test_suffixes_are_not_surnames_and_accents_do_not_move_a_name():
    assert surname("Martin Luther King Jr.") == "King"
    names = ["Zoë Émond", "Anne Ebert", "Bo Eve", "Jane Doe"]
    assert sorted(names, key=sort_key) == ["Jane Doe", "Anne Ebert", "Zoë Émond", "Bo Eve"]


def papers(*author_lists: list[str]):
    records = [
        Record(
            abstract=f"We study graph neural networks for problem {i} with a new method.",
            origin=Origin("a.jsonl", i + 1, i + 1),
            collection="C",
            title=f"Paper {i}",
            authors=tuple(names),
        )
        for i, names in enumerate(author_lists)
    ]
    return [enrich(r) for r in records]


def test_two_spellings_of_a_name_are_two_authors_and_papers_are_kept_in_order():
    found = {a.name: a.papers for a in authors(papers(["Ann Lee", "Bo Chen"], ["A. Lee"], ["Ann Lee"]))}
    assert found == {"Ann Lee": (0, 2), "A. Lee": (1,), "Bo Chen": (0,)}


def test_accents_case_and_a_trailing_mark_do_not_make_another_author():
    linked = papers(
        ["Sébastien Lachapelle", "Colin Raffel*"],
        ["Sebastien Lachapelle", "Colin Raffel"],
        ["Sébastien Lachapelle", "ufuk topcu"],
        ["Ufuk Topcu", "Colin Raffel *"],
    )
    found = {a.name: (a.papers, a.spellings) for a in authors(linked)}
    assert found == {
        "Sébastien Lachapelle": ((0, 1, 2), ("Sebastien Lachapelle", "Sébastien Lachapelle")),  # the commoner spelling
        "Colin Raffel": ((0, 1, 3), ("Colin Raffel", "Colin Raffel *", "Colin Raffel*")),  # shown without the mark
        "Ufuk Topcu": ((2, 3), ("Ufuk Topcu", "ufuk topcu")),  # a tie: the spelling in mixed case
    }
    assert person_key("Sébastien LACHAPELLE †") == person_key("sebastien lachapelle") == "sebastien lachapelle"
    assert spelled_as(authors(linked))["Colin Raffel*"] == "Colin Raffel"


def test_the_letter_file_finds_a_person_by_any_spelling_and_lists_co_authors_as_shown():
    linked = papers(["Sébastien Lachapelle", "Colin Raffel*"], ["Sebastien Lachapelle", "Sébastien Lachapelle"])
    everyone = authors(linked)
    assert [a.papers for a in everyone if a.name == "Sébastien Lachapelle"] == [(0, 1)]  # named twice on paper 1: once
    files = section.author_files(linked, everyone)
    letter_l = json.loads(files["authors/l.json"])
    assert letter_l["people"] == {"sebastien lachapelle": "Sébastien Lachapelle"}
    assert letter_l["papers"]["0"][3] == ["Sébastien Lachapelle", "Colin Raffel"]
    assert letter_l["papers"]["1"][3] == ["Sébastien Lachapelle"]


def test_two_spellings_that_are_not_only_accents_case_or_marks_stay_two_authors():
    found = {a.name for a in authors(papers(["Yann LeCun"], ["Y. LeCun"]))}
    assert found == {"Yann LeCun", "Y. LeCun"}


def test_a_name_written_with_combining_accents_is_the_same_author(tmp_path):
    source = tmp_path / "a.jsonl"
    rows = [
        {"abstract": "An abstract about graphs.", "authors": ["Jose\u0301 Garci\u0301a"]},
        {"abstract": "Another abstract.", "authors": "José García"},
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    records = read_file(source, Report())
    assert [r.authors for r in records] == [("José García",), ("José García",)]


def test_the_section_lists_every_author_on_the_index_and_each_letter_holds_their_papers():
    linked = papers(["Ann Lee", "Bo Chen"], ["Ann Lee", "王小明"], ["Cy Young"])
    files = section.author_files(linked, authors(linked))
    assert set(files) == {"authors/index.md", "authors/author.md"} | {f"authors/{key}.json" for key in LETTERS}
    assert json.loads(files["authors/a.json"])["authors"] == {}
    index = frontmatter.loads(files["authors/index.md"])
    assert index.metadata["title"] == "Authors"
    assert "4 authors of 3 papers" in index.content
    for name, count in [("Ann Lee", 2), ("Bo Chen", 1), ("王小明", 1), ("Cy Young", 1)]:
        assert f'>{name}</a> <span class="author-count">({count})</span>' in index.content
    lee = json.loads(files["authors/l.json"])
    assert lee["authors"] == {"Ann Lee": [0, 1]}
    assert lee["papers"]["1"] == [linked[1].title, linked[1].slug, linked[1].summary, ["Ann Lee", "王小明"]]
    assert set(lee["papers"]) == {"0", "1"}


def test_a_large_site_gives_each_letter_a_page_and_the_filter_box_every_name(monkeypatch):
    monkeypatch.setattr(section, "ONE_PAGE_AUTHORS", 2)
    three = papers(["Ann Lee", "Bo Chen"], ["Al Lin"])
    files = section.author_files(three, authors(three))
    assert {"authors/l.md", "authors/c.md", "authors/names.json"} <= set(files)
    index = frontmatter.loads(files["authors/index.md"]).content
    assert '<a href="l/">L <span class="author-count">(2)</span></a>' in index and "Ann Lee" not in index
    assert json.loads(files["authors/names.json"])["authors"] == [["Bo Chen", 1], ["Ann Lee", 1], ["Al Lin", 1]]
    letter_page = frontmatter.loads(files["authors/l.md"])
    assert letter_page.metadata["title"] == "Authors: L"
    assert 'href="../author/?name=Ann%20Lee"' in letter_page.content and "Bo Chen" not in letter_page.content


def test_a_collection_without_authors_has_no_authors_section():
    unnamed = papers([], [])
    assert section.author_files(unnamed, authors(unnamed)) == {}
