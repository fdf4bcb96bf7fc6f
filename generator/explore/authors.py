"""The authors of a collection, as the Authors index and the author pages show them.

One person, one author: names that differ only in accents, case or a trailing mark ('Sébastien
Lachapelle', 'Sebastien Lachapelle', 'Colin Raffel*') are filed once (`person_key`), shown as
the records spell them most often (without the mark). Other differences ('Y. LeCun') stay two
authors rather than be merged by a guess. Authors are filed under the first letter of their
surname, taken as the last word of the name that is not a suffix ('Jr.', 'III'), with accents
folded ('Ólafsson' under O); names in other scripts are filed under OTHER.

An author's page is one page rendered in the browser (authors/author/?name=…) from the JSON of
their letter (authors/<letter>.json): a static page per author would add about as many pages
as there are papers again (9,000 authors at 4,200 papers), against a build budget of 5%.
assets/javascripts/authors.js finds the letter and the person with the same rules as `letter`
and `person_key` here (a browser test checks that they agree).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass

from generator.model import Paper

OTHER = "other"  # names whose surname does not begin with a Latin letter
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
LETTERS = [*"abcdefghijklmnopqrstuvwxyz", OTHER]


def _folded(word: str) -> str:
    """Lower case without accents: 'Ólafsson' -> 'olafsson'."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.category(c).startswith("M"))


# Marks after a name that are not part of it: an affiliation or equal-contribution mark.
_TRAILING_MARKS = re.compile(r"[\s*†‡§¶#]+$")


def without_marks(name: str) -> str:
    """'Colin Raffel*' -> 'Colin Raffel' (a name of marks only stays as it is)."""
    return _TRAILING_MARKS.sub("", name) or name


def person_key(name: str) -> str:
    """The key under which spellings of one person meet: lower case, accents folded, trailing
    marks dropped ('Sébastien Lachapelle*' -> 'sebastien lachapelle'); authors.js personKey
    is the same rule."""
    return " ".join(_folded(without_marks(name)).split())


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
    name: str  # as the records spell it most often, without trailing marks
    papers: tuple[int, ...]  # positions in the collection's list of papers, in its order
    spellings: tuple[str, ...] = ()  # every spelling the records give, as given


def authors(papers: list[Paper]) -> list[Author]:
    """Every person, in index order, with their papers."""
    by_person: dict[str, list[int]] = defaultdict(list)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for index, paper in enumerate(papers):
        for name in paper.authors:
            key = person_key(name)
            if not by_person[key] or by_person[key][-1] != index:  # one person named twice on a paper
                by_person[key].append(index)
            spellings[key][name] += 1
    people = [Author(_shown_name(spellings[key]), tuple(by_person[key]), tuple(sorted(spellings[key]))) for key in by_person]
    return sorted(people, key=lambda author: sort_key(author.name))


def _shown_name(spellings: Counter[str]) -> str:
    """The spelling the records give most often, without its marks; on a tie, one in mixed case
    ('Ufuk Topcu', not 'ufuk topcu'), then one with its accents ('Sébastien'), then the first."""
    counts: Counter[str] = Counter()
    for name, count in spellings.items():
        counts[without_marks(name)] += count

    def preference(name: str) -> tuple[int, bool, bool, str]:
        return (-counts[name], name.islower() or name.isupper(), name.isascii(), name)

    return min(counts, key=preference)


def spelled_as(everyone: list[Author]) -> dict[str, str]:
    """Each spelling the records give -> the name its author is shown under."""
    return {spelling: author.name for author in everyone for spelling in author.spellings}


def by_letter(everyone: list[Author]) -> dict[str, list[Author]]:
    """The authors of each letter that has any, in LETTERS order."""
    groups: dict[str, list[Author]] = {key: [] for key in LETTERS}
    for author in everyone:
        groups[letter(author.name)].append(author)
    return {key: members for key, members in groups.items() if members}


def letter_data(members: list[Author], papers: list[Paper], shown: dict[str, str]) -> dict:
    """One letter's author pages: each author's papers by number, each person's key to the name
    they are shown under (`person_key`: an address may spell the name as any paper does), and
    those papers as [title, page, summary, [authors as shown]] (the co-author list). `shown` is
    `spelled_as(everyone)`."""
    numbers = sorted({index for author in members for index in author.papers})
    return {
        "authors": {author.name: list(author.papers) for author in members},
        "people": {person_key(author.name): author.name for author in members},
        "papers": {
            str(i): [papers[i].title, papers[i].slug, papers[i].summary, list(dict.fromkeys(shown[a] for a in papers[i].authors))]
            for i in numbers
        },
    }


def names_data(everyone: list[Author]) -> dict:
    """Every author as [name, number of papers], for the index's filter box on a large site."""
    return {"authors": [[author.name, len(author.papers)] for author in everyone]}
