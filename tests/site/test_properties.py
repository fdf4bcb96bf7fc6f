"""Property tests (hypothesis): for any abstract, the page shows its text intact and no markup
from the input becomes an element; for any given fields (title, url, keywords, ...), no markup
from them becomes an element, attribute or link target in any generated file; for any set of
abstracts, each gets exactly one page.

Fuzzing: the same strategies drive the parsers and the Markdown cleaning with a larger
budget; set FUZZ_EXAMPLES (default 600) for a longer run, e.g. FUZZ_EXAMPLES=20000.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import frontmatter
import markdown
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.enrich.paper import enrich, paper_id
from generator.errors import InputError, Report
from generator.link.corpus import glossary, link
from generator.pipeline import generate
from generator.render.site import render_site
from generator.sources.markup import segments, to_markdown, to_plain
from generator.sources.readers import READERS, read_file
from generator.sources.urlpolicy import web_url
from helpers import HOSTILE_URLS, Dom

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "600"))

SNIPPETS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<iframe src=//x>",
    "[a](javascript:alert(1))",
    "<!-- c -->",
    "{{ config }}",
    "{% include 'x' %}",
    "---",
    "# h",
    "| a | b |",
    "<!-- material/tags -->",
    "&amp;",
    "&lt;b&gt;",
    "$x^2$",
    "$$\\sum_i x_i$$",
    "\\(a+b\\)",
    "$",
    "\\(",
    "\\textbf{RE}cipe",
    "\\emph{x}",
    "90\\%",
    "~",
    "``q''",
    "**8.15**",
    "*",
    "_",
    "`code`",
    "https://github.com/a/b.",
    "(https://x.org/p),",
    "{: onclick=alert(1)}",
    "*[ABC]: expansion",
    '--8<-- "secret.txt"',
    "\\",
    "[^1]",
    "<https://x.org>",
    "![i](http://x/i.png)",
    "\u202e",
    "😀",
    "日本語",
    "مرحبا",
    "\u00a0",
    "\t",
]
# Surrogates cannot be encoded; control characters other than tab are not text.
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)
ABSTRACT = st.lists(st.one_of(TEXT, st.sampled_from(SNIPPETS)), min_size=1, max_size=12).map(" ".join).filter(lambda s: s.strip())

EXTENSIONS = ["abbr", "attr_list", "tables", "toc", "admonition", "pymdownx.arithmatex", "pymdownx.superfences", "pymdownx.details"]


def render(abstract: str) -> str:
    return markdown.markdown(to_markdown(abstract), extensions=EXTENSIONS, extension_configs={"pymdownx.arithmatex": {"generic": True}})


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


@settings(
    max_examples=max(10, FUZZ_EXAMPLES // 30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
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


# Given fields: any text, markup snippets, and every way to dress up a scheme that is not http(s).
URL_SNIPPETS = HOSTILE_URLS + [
    "javascript&#58;alert(1)",
    'https://x.org/"><b>[a](javascript:1)',
    "\\url{javascript:alert(1)}",
    "\x00\x07\x1b[31m",
]
GIVEN_TEXT = st.lists(st.one_of(TEXT, st.sampled_from(SNIPPETS + URL_SNIPPETS)), min_size=1, max_size=4).map(" ".join)
GIVEN = st.fixed_dictionaries(
    {},
    optional={
        "title": GIVEN_TEXT,
        "tldr": GIVEN_TEXT,
        "collection": GIVEN_TEXT,
        "primary_area": GIVEN_TEXT,
        "id": GIVEN_TEXT,
        "keywords": st.lists(GIVEN_TEXT, max_size=3),
        "authors": st.lists(GIVEN_TEXT, max_size=3),
        "url": st.one_of(st.sampled_from(URL_SNIPPETS), GIVEN_TEXT),
    },
)
SECOND = {"abstract": "We study convergence of stochastic gradient descent in deep linear networks for graphs."}

# What the generated Markdown's templates make, and nothing else: any other element or
# attribute came from the input. Links are http(s) (from the input, via the URL policy) or the
# generator's own relative links, whose paths are slugs.
ELEMENTS = {
    "h1",
    "h2",
    "p",
    "a",
    "strong",
    "em",
    "span",
    "ul",
    "ol",
    "li",
    "br",
    "kbd",
    "abbr",
    "div",
    "svg",
    "rect",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "caption",
    # The map, browse and list controls (their scripts fill them from map.json and browse.json).
    "button",
    "label",
    "input",
    "canvas",
    "noscript",
    "output",
    "nav",  # the Authors index's letters
}
ATTRIBUTES = {
    "href",
    "class",
    "id",
    "title",
    "style",
    "role",
    "aria-label",
    "aria-hidden",
    "focusable",
    "viewbox",
    "preserveaspectratio",
    "width",
    "height",
    "rx",
    "align",
    "y",
    "scope",
    "type",
    "hidden",
    "placeholder",
    "tabindex",
    "value",
    "checked",
    "aria-live",
    "data-src",
    "data-papers",
    "data-root",
    # The authors section (generator.render.authors; authors.js fills the author page).
    "data-letters",
    "data-index",
    "data-names",
    "data-pagefind-ignore",
}
# The authors section's links: an author's page, the name as given percent-encoded (nothing of it
# left to be markup), the Authors index from the author page, and its letters.
AUTHOR_LINK = re.compile(r"(\.\./)?author/\?name=[\w.~/%-]*|\.\./|#letter-[a-z]+")
OWN_LINK = re.compile(r"(\.\./)*[a-z0-9-]+(/[a-z0-9-]+)*(\.md|\.xml|/)?(#[\w-]+)?")
OWN_VALUE = {
    "style": re.compile(r"left: [\d.]+%; top: [\d.]+%|text-align: \w+;?"),
    "class": re.compile(r"[\w -]+"),
    "id": re.compile(r"[\w-]+"),
    "data-src": re.compile(r"\.\./(map|browse)\.json"),
    "data-papers": re.compile(r"(\.\./)+papers/"),
    "data-root": re.compile(r"\.\./"),
    "data-letters": re.compile(r"\.\./"),
    "data-index": re.compile(r"\.\./"),
    "data-names": re.compile(r"(names\.json)?"),
    "value": re.compile(r"\d+"),
}
ATOM = {
    f"{{http://www.w3.org/2005/Atom}}{t}"
    for t in ("feed", "title", "subtitle", "id", "link", "updated", "generator", "entry", "summary", "category", "author", "name")
}


@settings(
    max_examples=max(20, FUZZ_EXAMPLES // 3),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(GIVEN, ABSTRACT)
# A given summary that begins its line in listings: a rule, a setext underline, a nested list.
@example(fields={"tldr": "---"}, abstract="0")
@example(fields={"tldr": "==="}, abstract="0")
@example(fields={"tldr": "- item"}, abstract="0")
def test_no_markup_from_given_fields_becomes_an_element_attribute_or_link_target(tmp_path_factory, fields, abstract):
    path = Path(tmp_path_factory.mktemp("given")) / "in.jsonl"
    path.write_text(
        json.dumps({**fields, "abstract": f"We propose a method. {abstract}"}) + "\n" + json.dumps(SECOND) + "\n", encoding="utf-8"
    )
    papers = link([enrich(record) for record in read_file(path, Report())], 5)
    files = render_site(papers, glossary(papers), "Site")
    for name, text in files.items():
        if name.endswith(".md"):
            dom = Dom(
                markdown.markdown(
                    frontmatter.loads(text).content, extensions=EXTENSIONS, extension_configs={"pymdownx.arithmatex": {"generic": True}}
                )
            )
            for tag, attributes in dom.elements:
                assert tag in ELEMENTS, (name, tag, fields)
                for attribute, value in attributes.items():
                    assert attribute in ATTRIBUTES, (name, tag, attribute, fields)
                    if attribute == "href":
                        assert web_url(value) == value or OWN_LINK.fullmatch(value) or AUTHOR_LINK.fullmatch(value), (name, value, fields)
                    elif attribute in OWN_VALUE:
                        assert OWN_VALUE[attribute].fullmatch(value), (name, attribute, value, fields)
            assert not dom.comments, (name, fields)
        elif name.endswith(".xml"):
            assert {element.tag for element in ET.fromstring(text).iter()} <= ATOM, (name, fields)
    for paper in json.loads(files["papers.json"])["papers"]:
        for target in paper["links"]:
            assert web_url(target["url"]) == target["url"] and target["url"].startswith(("http://", "https://")), (target, fields)
    given_title = " ".join(re.sub(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]", "", fields.get("title", "")).split())
    if given_title:
        assert papers[0].title == given_title  # shown as given: not escaped twice, not cut
