"""The authors of a collection, as the Authors index and the author pages show them.

Names are matched exactly as the records give them (the reader has normalised their Unicode
to NFC and collapsed their whitespace): two spellings of one person stay two authors rather
than be merged by a guess. Authors are filed under the first letter of their surname, taken
as the last word of the name that is not a suffix ('Jr.', 'III'), with accents folded
('Ólafsson' under O); names in other scripts are filed under OTHER.

An author's page is one page rendered in the browser (authors/author/?name=…) from the JSON of
their letter (authors/<letter>.json): a static page per author would add about as many pages
as there are papers again (9,000 authors at 4,200 papers), against a build budget of 5%.
assets/javascripts/authors.js finds the letter with the same rule as `letter` here (a browser
test checks that the two agree).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass

from generator.model import Paper

OTHER = "other"  # names whose surname does not begin with a Latin letter
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
LETTERS = [*"abcdefghijklmnopqrstuvwxyz", OTHER]


def _folded(word: str) -> str:
    """Lower case without accents: 'Ólafsson' -> 'olafsson'."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.category(c).startswith("M")).lower()


def surname(name: str) -> str:
    """The last word of the name that is not a suffix ('Martin Luther King Jr.' -> 'King')."""
    words = name.split(" ")
    last = len(words) - 1
    while last > 0 and words[last].lower() in SUFFIXES:
        last -= 1
    return words[last]


def letter(name: str) -> str:
    """The index letter the author is filed under: a-z, or OTHER."""
    first = _folded(surname(name))[:1]
    return first if "a" <= first <= "z" else OTHER


def sort_key(name: str) -> tuple[str, str]:
    """By surname, then the whole name, both without accents or case."""
    return _folded(surname(name)), _folded(name)


@dataclass(frozen=True)
class Author:
    name: str
    papers: tuple[int, ...]  # positions in the collection's list of papers, in its order


def authors(papers: list[Paper]) -> list[Author]:
    """Every author, in index order, with their papers."""
    by_name: dict[str, list[int]] = defaultdict(list)
    for index, paper in enumerate(papers):
        for name in paper.authors:
            by_name[name].append(index)
    return [Author(name, tuple(by_name[name])) for name in sorted(by_name, key=sort_key)]


def by_letter(everyone: list[Author]) -> dict[str, list[Author]]:
    """The authors of each letter that has any, in LETTERS order."""
    groups: dict[str, list[Author]] = {key: [] for key in LETTERS}
    for author in everyone:
        groups[letter(author.name)].append(author)
    return {key: members for key, members in groups.items() if members}


def letter_data(members: list[Author], papers: list[Paper]) -> dict:
    """One letter's author pages: each author's papers by number, and those papers as [title,
    page, summary, [authors]] (the authors make the co-author list)."""
    numbers = sorted({index for author in members for index in author.papers})
    return {
        "authors": {author.name: list(author.papers) for author in members},
        "papers": {str(i): [papers[i].title, papers[i].slug, papers[i].summary, list(papers[i].authors)] for i in numbers},
    }


def names_data(everyone: list[Author]) -> dict:
    """Every author as [name, number of papers], for the index's filter box on a large site."""
    return {"authors": [[author.name, len(author.papers)] for author in everyone]}
