"""The authors section's files (generator.explore.authors says how authors are matched and
filed): the Authors index, a page per letter on a large site, the one author page that the
browser fills in, and the JSON it is filled from.

A site of up to ONE_PAGE_AUTHORS authors lists them all on the index, under letter headings;
a larger one gives each letter a page, so that no page holds thousands of names (20,000 authors
is about 2,000 under S), and the index's filter box searches every name from names.json.
"""

from __future__ import annotations

from generator.explore.authors import LETTERS, OTHER, Author, by_letter, letter_data, names_data, spelled_as
from generator.explore.mapfile import json_text
from generator.model import Paper
from generator.render.templating import html_block, markdown_page

ONE_PAGE_AUTHORS = 1500


def _label(key: str) -> str:
    return "Other" if key == OTHER else key.upper()


def _intro(count: int, papers: int) -> str:
    return (
        f"{count:,} author{'s' if count != 1 else ''} of {papers:,} paper{'s' if papers != 1 else ''}, by surname. "
        "Names that differ only in accents, case or a trailing mark are one author, shown as the records spell them most often."
    )


def author_files(papers: list[Paper], everyone: list[Author]) -> dict[str, str]:
    """The authors section, or nothing when no paper names its authors; `everyone` is
    generator.explore.authors.authors(papers)."""
    if not everyone:
        return {}
    letters = by_letter(everyone)
    authored = sum(1 for p in papers if p.authors)
    # Every letter's JSON, an empty one too: an address naming an author of no letter of the
    # site finds no one rather than a missing file.
    shown = spelled_as(everyone)
    files = {f"authors/{key}.json": json_text(letter_data(letters.get(key, []), papers, shown)) for key in LETTERS}
    files["authors/author.md"] = markdown_page("author.md.j2", {"title": "Author", "hide": ["toc"]})
    split = len(everyone) > ONE_PAGE_AUTHORS
    if split:
        files["authors/names.json"] = json_text(names_data(everyone))
        for key, members in letters.items():
            files[f"authors/{key}.md"] = markdown_page(
                "authors_letter.md.j2",
                {"title": f"Authors: {_label(key)}"},
                heading=f"Authors: {_label(key)}",
                intro=f"{len(members):,} author{'s' if len(members) != 1 else ''} filed under {_label(key)}, by surname. "
                "[All authors](index.md)",
                html=_list(members, "../author/"),
            )
    files["authors/index.md"] = markdown_page(
        "authors_index.md.j2",
        {"title": "Authors", "hide": ["toc"]},
        intro=_intro(len(everyone), authored),
        names="names.json" if split else "",
        letters=[(key, _label(key), len(members), f"{key}/" if split else None) for key, members in letters.items()],
        lists=[] if split else [(key, _label(key), _list(members, "author/")) for key, members in letters.items()],
    )
    return files


def _list(members: list[Author], to: str) -> str:
    return html_block("author_list.html.j2", authors=members, to=to)
