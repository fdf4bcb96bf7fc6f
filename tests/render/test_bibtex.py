"""A paper's BibTeX entry (generator.render.bibtex): it parses, and reads back as the text it was
made from, whatever the title and names hold."""

from __future__ import annotations

import bibtexparser
import pytest
from bibtexparser.middlewares import SeparateCoAuthors
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text

from generator.render.bibtex import bibtex_entry, citation_key, year_of

HOSTILE = [
    "Energy-Weighted Flow Matching (EFM): 50% $x$ & {y} #1 a_b ~ ^ \\textbf{z}",
    "Ştefan's Müller–Zoë naïve Łódź Ørsted façade",
    "<script>alert(1)</script> {{ page }} --- **bold**",
    "深度学习 for 日本語 text",
    "Why?` Wow!` -- `quoted' ``twice''",  # LaTeX's ligatures: none may typeset ('¡', '¿', '–', quotes)
]


def _parsed(entry: str) -> dict[str, str]:
    library = bibtexparser.parse_string(entry, append_middleware=[SeparateCoAuthors()])
    assert not library.failed_blocks, entry
    (parsed,) = library.entries
    return {key: field.value for key, field in parsed.fields_dict.items()} | {"ID": parsed.key, "ENTRYTYPE": parsed.entry_type}


def _text(latex: str) -> str:
    """What LaTeX typesets from a field (pylatexenc's reading of it; its '^' is a modifier letter)."""
    return LatexNodes2Text().latex_to_text(latex).replace("\u02c6", "^")


@pytest.mark.parametrize("title", HOSTILE)
def test_a_hostile_title_and_names_parse_and_read_back(title):
    authors = ["Ştefan Müller", "Zoë O'Brien & Sons", "李 明", "A_B {C} 100%", "Smith and Wesson"]
    fields = _parsed(bibtex_entry(title, tuple(authors), "ICLR 2025 Papers", "https://example.org/papers/x/"))
    assert fields["ENTRYTYPE"] == "misc" and fields["year"] == "2025" and fields["url"] == "https://example.org/papers/x/"
    assert _text(fields["title"]) == " ".join(title.split())
    assert [_text(name) for name in fields["author"]] == authors  # one name each, 'and' in a name or not


# Printable ASCII (every BibTeX and LaTeX special character) and the accented Latin letters of names
# (not Ő or Ű: pylatexenc 2.11 writes Ű as \\'{U}; not '"', which it writes as LaTeX's closing quotes).
TITLE_CHARACTERS = st.characters(min_codepoint=32, max_codepoint=126).filter(lambda c: c != '"') | st.sampled_from(
    "áàâäãåçéèêëíìîïñóòôöõøúùûüýÿßæœłŁŞşŠšŽžČčĆćŘř"
)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=TITLE_CHARACTERS, min_size=1, max_size=60).filter(str.strip))
@example("!`")  # found by this test: typeset as '¡' before the ligature was broken
def test_any_title_parses_and_reads_back(title):
    fields = _parsed(bibtex_entry(title, (), "Seeds", "papers/x/"))
    assert _text(fields["title"]) == " ".join(title.split())
    assert "year" not in fields  # the collection names no year


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(str.strip))
def test_any_text_at_all_gives_an_entry_that_parses(title):
    assert len(_parsed(bibtex_entry(title, (title, "Ann Lee"), "Seeds", "papers/x/"))["author"]) == 2


def test_the_key_is_first_author_year_and_first_word():
    assert citation_key("The Energy of Flows", ["Ştefan Müller", "B"], "2025") == "muller2025energy"
    assert citation_key("深度", [], None) == "paper"
    assert year_of("ICLR 2025 Papers") == "2025" and year_of("Seeds") is None
