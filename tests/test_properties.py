"""Property tests (hypothesis): for any abstract, the page shows its text intact and no markup
from the input becomes an element; for any set of abstracts, each gets exactly one page.

Fuzzing: the same strategies drive the parsers and the Markdown cleaning with a larger
budget; set FUZZ_EXAMPLES (default 600) for a longer run, e.g. FUZZ_EXAMPLES=20000.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import frontmatter
import markdown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import Dom
from generator.enrich import paper_id
from generator.errors import InputError, Report
from generator.markup import segments, to_markdown, to_plain
from generator.pipeline import generate
from generator.sources import READERS, read_file

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "600"))

SNIPPETS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<iframe src=//x>", "[a](javascript:alert(1))",
    "<!-- c -->", "{{ config }}", "{% include 'x' %}", "---", "# h", "| a | b |", "<!-- material/tags -->",
    "&amp;", "&lt;b&gt;", "$x^2$", "$$\\sum_i x_i$$", "\\(a+b\\)", "$", "\\(", "\\textbf{RE}cipe", "\\emph{x}",
    "90\\%", "~", "``q''", "**8.15**", "*", "_", "`code`", "https://github.com/a/b.", "(https://x.org/p),",
    "{: onclick=alert(1)}", "*[ABC]: expansion", "--8<-- \"secret.txt\"", "\\", "[^1]", "<https://x.org>",
    "![i](http://x/i.png)", "\u202e", "😀", "日本語", "مرحبا", "\u00a0", "\t",
]
# Surrogates cannot be encoded; control characters other than tab are not text.
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)
ABSTRACT = st.lists(st.one_of(TEXT, st.sampled_from(SNIPPETS)), min_size=1, max_size=12).map(" ".join).filter(lambda s: s.strip())

EXTENSIONS = ["abbr", "attr_list", "tables", "toc", "admonition", "pymdownx.arithmatex", "pymdownx.superfences", "pymdownx.details"]


def render(abstract: str) -> str:
    return markdown.markdown(
        to_markdown(abstract), extensions=EXTENSIONS, extension_configs={"pymdownx.arithmatex": {"generic": True}}
    )


def squash(text: str) -> str:
    return " ".join(text.split())


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ABSTRACT)
def test_no_markup_from_the_input_becomes_an_element(abstract):
    dom = Dom(render(abstract))
    allowed = {"p", "strong", "em", "a", "span"}
    for tag, attributes in dom.elements:
        assert tag in allowed, (tag, abstract)
        for name, value in attributes.items():
            assert (tag, name) in {("a", "href"), ("span", "class")}, (tag, name, abstract)
            if name == "href":
                assert value.startswith(("http://", "https://")), abstract
            if name == "class":
                assert value == "arithmatex"
    assert not dom.comments, abstract


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ABSTRACT)
def test_the_text_of_an_abstract_is_shown_intact(abstract):
    dom = Dom(render(abstract))
    shown = squash("".join(dom.text))
    for segment in segments(abstract):
        if segment.kind == "math":
            continue
        expected = squash(re.sub("[\ue000-\ue003]", "", segment.value))
        assert expected in shown, (expected, shown, abstract)


@settings(max_examples=max(10, FUZZ_EXAMPLES // 30), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(ABSTRACT.filter(lambda s: to_plain(s).strip()), min_size=1, max_size=6))
def test_every_distinct_abstract_gets_exactly_one_page(tmp_path_factory, abstracts):
    folder = tmp_path_factory.mktemp("prop")
    # One abstract per line of a JSONL file: any text survives as a record.
    import json

    (folder / "in.jsonl").write_text("".join(json.dumps({"abstract": a}) + "\n" for a in abstracts), encoding="utf-8")
    summary = generate([folder / "in.jsonl"], folder / "docs")
    expected = {paper_id(" ".join(a.split())) for a in abstracts}
    pages = [frontmatter.load(p) for p in (folder / "docs" / "papers").glob("*.md")]
    assert summary.papers == len(expected) == len(pages)
    assert {p["id"] for p in pages} == expected


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(st.binary(max_size=400) | ABSTRACT.map(lambda s: s.encode("utf-8")), st.sampled_from(sorted(READERS)))
def test_parsers_fail_only_with_a_clear_input_error(tmp_path_factory, data, extension):
    path = Path(tmp_path_factory.getbasetemp()) / f"fuzz{extension}"
    path.write_bytes(data)
    try:
        records = read_file(path, Report())
    except InputError as error:
        assert str(error).startswith(str(path))
    else:
        assert all(r.abstract.strip() for r in records)
        for record in records:
            to_markdown(record.abstract)
            to_plain(record.abstract)
