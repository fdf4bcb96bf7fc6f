"""A paper as a BibTeX entry, for the paper page's "Cite and source" (issue 35).

Titles and author names come from input text: every character BibTeX or LaTeX reads as markup
(`{ } \\ % & $ # _ ~ ^`) and every accented letter is written as LaTeX (pylatexenc), so the entry
parses and typesets as the text reads; letters LaTeX has no command for (CJK) stay UTF-8.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

from pylatexenc.latexencode import UnicodeToLatexEncoder

_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_KEY_WORD = re.compile(r"[a-z0-9]+")
_KEY_STOP = frozenset("a an the on of for in to with and via towards toward from by is are".split())


@cache
def _encoder() -> UnicodeToLatexEncoder:
    # Braces around each converted character keep BibTeX from changing its case or splitting
    # it; an unknown character (CJK) is kept as it is, silently.
    return UnicodeToLatexEncoder(
        non_ascii_only=False,
        replacement_latex_protection="braces-all",
        unknown_char_policy="keep",
        unknown_char_warning=False,
    )


# '--' and '---' typeset as dashes, '``' and "''" as quotes, '!`' and '?`' as '¡' and '¿'.
_LIGATURE = re.compile(r"([-`'!?])(?=`)|([-'])(?=[-'])")


def latex_text(text: str) -> str:
    """`text` with BibTeX's and LaTeX's special characters and accented letters as LaTeX, and its
    runs of dashes and quotes kept from becoming typographic ligatures."""
    return _LIGATURE.sub(r"\1\2{}", _encoder().unicode_to_latex(" ".join(text.split())))


_AND = re.compile(r"\band\b", re.IGNORECASE)


def _name(name: str) -> str:
    """One author for BibTeX's `author` list, which " and " separates: a name holding the word
    'and' ('Smith and Sons', an injected value) is braced, one name whatever it says."""
    text = latex_text(name)
    return "{" + text + "}" if _AND.search(text) else text


def year_of(collection: str) -> str | None:
    """The year a collection's name gives ('ICLR 2025 Papers' -> '2025'), if any."""
    found = _YEAR.search(collection)
    return found.group(1) if found else None


def citation_key(title: str, authors: Sequence[str], year: str | None) -> str:
    """A key as reference managers make them: first author's family name, year, first title word
    that is not a stop word ('zhang2025energy'); ASCII letters and digits only."""

    def ascii_words(text: str) -> list[str]:
        folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
        return _KEY_WORD.findall(folded)

    family = ascii_words(authors[0])[-1:] if authors else []
    word = next((w for w in ascii_words(title) if w not in _KEY_STOP), "")
    return "".join([*family, year or "", word]) or "paper"


@lru_cache(maxsize=32_768)  # every page of a build asks again under `mkdocs serve`
def bibtex_entry(title: str, authors: tuple[str, ...], collection: str, url: str) -> str:
    """A @misc entry: title (its capitals kept), authors when given, the collection as where it
    appeared, its year, and the paper page's address."""
    year = year_of(collection)
    fields = [("title", "{" + latex_text(title) + "}")]
    if authors:
        fields.append(("author", " and ".join(_name(name) for name in authors)))
    fields.append(("howpublished", latex_text(collection)))
    if year:
        fields.append(("year", year))
    fields.append(("url", url.replace("\\", "").replace("{", "%7B").replace("}", "%7D")))
    lines = [f"@misc{{{citation_key(title, authors, year)},"] + [f"  {name} = {{{value}}}," for name, value in fields]
    return "\n".join(lines) + "\n}"
