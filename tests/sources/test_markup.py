"""Abstract text -> Markdown: LaTeX text macros resolved, math kept, URLs trimmed, markup escaped."""

from __future__ import annotations

import markdown
import pytest

from generator.sources.markup import to_markdown, to_plain, trim_url, urls
from helpers import Dom


def render(abstract: str) -> str:
    """HTML as the site renders it (the same extensions that matter for safety)."""
    return markdown.markdown(
        to_markdown(abstract),
        extensions=["abbr", "attr_list", "tables", "pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )


@pytest.mark.parametrize(
    "abstract, expected_markdown",
    [
        (r"the \textbf{RE}cipe \textbf{ME}rging \textbf{DY}namics (REMEDY)", "the **RE**cipe **ME**rging **DY**namics (REMEDY)"),
        (r"\textit{fast} and \emph{slow}", "*fast* and *slow*"),
        (r"covering 90\% of data", "covering 90% of data"),
        (r"learning~(RL)", "learning (RL)"),
        ("``recalibrate'' the", "“recalibrate” the"),
        (r"an \underline{important} word", "an important word"),
        (r"a $\underline{S}$ynchronized $\underline{M}$ulti-track", "a Synchronized Multi-track"),
        (r"($\textbf{SMT-ABC Notation}$)", "(**SMT-ABC Notation**)"),
        (r"a $\times$ b", "a × b"),
        (r"score of **8.15** on", "score of **8.15** on"),
        (r"$q(\mathbf x) \propto p(\mathbf x)$ holds", r"$q(\mathbf x) \propto p(\mathbf x)$ holds"),
        (r"see \cite{smith2020} here", "see here"),
        ("Code: https://github.com/Ze-Yang/ADAPT.", "Code: <https://github.com/Ze-Yang/ADAPT>."),
        ("costs $5 and $10 each", "costs &#36;5 and &#36;10 each"),
        ("A &amp; B", "A &amp; B"),
    ],
)
def test_latex_and_markdown_cleaning(abstract, expected_markdown):
    assert to_markdown(abstract) == expected_markdown


def test_remedy_renders_bold_letters_not_macros():
    html = render(r"the \textbf{RE}cipe \textbf{ME}rging \textbf{DY}namics (REMEDY) method")
    assert "<strong>RE</strong>cipe <strong>ME</strong>rging <strong>DY</strong>namics" in html
    assert "textbf" not in html


def test_math_is_marked_for_katex():
    html = render(r"where $q(\mathbf x) \propto p(\mathbf x)\exp(-\beta \mathcal E(\mathbf x))$ holds")
    assert '<span class="arithmatex">\\(q(\\mathbf x) \\propto' in html


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "<iframe src=//evil></iframe>",
        "[click](javascript:alert(1))",
        "<!-- material/tags -->",
        "text {: onclick=alert(1) } more",
        "{{ config }} and {% include 'x' %}",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "$</script><script>alert(1)</script>$",
        "![x](http://evil/x.png)",
    ],
)
def test_markup_in_input_is_shown_as_text(hostile):
    dom = Dom(render(f"An abstract with {hostile} inside."))
    for tag, attributes in dom.elements:
        assert tag in ("p", "strong", "em", "span", "a"), tag
        for name, value in attributes.items():
            assert (name, tag) in (("class", "span"), ("href", "a")), name
            if name == "href":
                assert value.startswith(("http://", "https://"))
    assert not dom.comments


@pytest.mark.parametrize("start", ["# Heading?", "- item", "+ item", "1. item", "> quote", "--- rule"])
def test_paragraph_never_opens_as_a_block(start):
    html = render(f"{start} and the rest of the abstract.")
    assert html.startswith("<p>")


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://github.com/a/b.", "https://github.com/a/b"),
        ("https://github.com/a/b),", "https://github.com/a/b"),
        ("https://en.wikipedia.org/wiki/A_(b)", "https://en.wikipedia.org/wiki/A_(b)"),
        ("https://x.org/p?q=1;", "https://x.org/p?q=1"),
    ],
)
def test_trailing_punctuation_is_not_part_of_a_url(url, expected):
    assert trim_url(url) == expected


def test_urls_found_in_text():
    text = "Code at https://github.com/a/b. Models at https://huggingface.co/n/m; see (https://x.org/p)."
    assert urls(text) == ["https://github.com/a/b", "https://huggingface.co/n/m", "https://x.org/p"]


def test_plain_text_for_titles_and_search():
    assert to_plain(r"the \textbf{RE}cipe of $\beta$-VAE, 90\%") == "the REcipe of β-VAE, 90%"


# URLs in an abstract: only http(s) becomes a link (generator.sources.urlpolicy); the rest is text.
@pytest.mark.parametrize(
    "abstract, expected_markdown, expected_links",
    [
        (r"Code: \url{https://github.com/a/b}.", "Code: <https://github.com/a/b>.", ["https://github.com/a/b"]),
        (r"Code: \url{github.com/a/b}.", "Code: <https://github.com/a/b>.", ["https://github.com/a/b"]),
        (r"see \url{javascript:alert(1)}", "see javascript:alert(1)", []),
        (r"see \url{JaVaScRiPt:alert(1)}", "see JaVaScRiPt:alert(1)", []),
        (r"see \url{&#106;avascript:alert(1)}", "see javascript:alert(1)", []),  # entities are decoded first
        (r"see \url{data:text/html,<b>x</b>}", "see data:text/html,&lt;b&gt;x&lt;/b&gt;", []),
        (r"see \url{vbscript:msgbox(1)} or \url{file:///etc/passwd}", "see vbscript:msgbox(1) or file:///etc/passwd", []),
        (r"see \url{x/onmouseover=alert(1)}", "see x/onmouseover=alert(1)", []),
        # Markup inside an http URL is encoded: it must not end the autolink or open a link.
        (
            r"see \url{http://x.org/<script>alert(1)</script>}",
            "see <http://x.org/%3Cscript%3Ealert(1)%3C/script%3E>",
            ["http://x.org/%3Cscript%3Ealert(1)%3C/script%3E"],
        ),
        (
            r"see \url{http://x.org/[a](javascript:alert(1))}",
            "see <http://x.org/%5Ba%5D(javascript:alert(1))>",
            ["http://x.org/%5Ba%5D(javascript:alert(1))"],
        ),
        ("see https://x.org/$a$b", "see <https://x.org/%24a%24b>", ["https://x.org/%24a%24b"]),
        ("see javascript:alert(1) in prose", "see javascript:alert(1) in prose", []),
    ],
)
def test_only_http_urls_in_an_abstract_become_links(abstract, expected_markdown, expected_links):
    assert to_markdown(abstract) == expected_markdown
    assert urls(abstract) == expected_links
    anchors = [attributes for tag, attributes in Dom(render(abstract)).elements if tag == "a"]
    assert [a["href"] for a in anchors] == expected_links
