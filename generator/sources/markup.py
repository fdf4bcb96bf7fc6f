"""Abstract text -> safe Markdown (for pages) and plain text (for titles, search, vectors).

Abstracts mix prose, LaTeX text macros (`\\textbf{RE}cipe`, `90\\%`, ``` ``quotes'' ```),
math (`$q(\\mathbf x)$`), Markdown bold (`**8.15**`), URLs and sometimes stray HTML.
We split the text into segments (text, math, url), resolve text macros to style
markers, then escape every character Markdown or HTML could read as markup, so
input can never become an element or attribute in the page. Only http(s) URLs become
links (generator.sources.urlpolicy); a `\\url{javascript:...}` is shown as text. Documented cleaning:
HTML entities are decoded, whitespace is collapsed, LaTeX citations are dropped,
`\\underline{}` becomes plain text, display math is shown inline.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from generator.language import learned
from generator.language.textutil import collapse_space
from generator.sources.urlpolicy import web_url

# Private-use characters mark styles between macro resolution and escaping;
# any that arrive in the input are removed first.
BOLD_OPEN, BOLD_CLOSE, ITALIC_OPEN, ITALIC_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
_SENTINELS = re.compile("[\ue000-\ue003]")


def _without_sentinels(text: str) -> str:
    # Four scans for one character each cost less than one search through the class.
    if BOLD_OPEN in text or BOLD_CLOSE in text or ITALIC_OPEN in text or ITALIC_CLOSE in text:
        return _SENTINELS.sub("", text)
    return text


# Trailing punctuation that ends a sentence rather than a URL.
_URL_TRAILING = ".,;:!?'\"”’"
_URL = r"https?://[^\s<>\"'`{}|\\^\[\]]+"
URL = re.compile(_URL)

_TEX_URL = r"\\url\{(?P<texurl>[^{}\s]+)\}"
# `\url{github.com/a/b}`: a host without a scheme, which its author means as a web address.
_SCHEMELESS_HOST = re.compile(r"(?:[\w-]+\.)+[A-Za-z]{2,}(?:[/?#]|$)")
_SEGMENT = re.compile(
    rf"{_TEX_URL}"
    rf"|(?P<url>{_URL})"
    r"|\$\$(?P<display>[^$]+?)\$\$"
    # (Its lookbehind after the '$': every branch then opens with a character, which the search skips to.)
    r"|\$(?<![\\$]\$)(?!\s)(?P<inline>[^$]+?)(?<![\s\\])\$(?!\d)"
    r"|\\\((?P<paren>.+?)\\\)"
    r"|\\\[(?P<bracket>.+?)\\\]"
)

# Math that is only a text macro ($\textbf{SMS Law}$, $\underline{S}$ymbolic) is text.
_TEXT_ONLY_MATH = re.compile(r"\s*\\(textbf|mathbf|bf|underline|text|textrm|mathrm|textit|emph)\s*\{([^{}$\\]*)\}\s*")

SYMBOLS = {
    "times": "×",
    "sim": "∼",
    "approx": "≈",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "pm": "±",
    "rightarrow": "→",
    "to": "→",
    "leftarrow": "←",
    "infty": "∞",
    "cdot": "·",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "omega": "ω",
    "ell": "ℓ",
    "neq": "≠",
    "propto": "∝",
    "in": "∈",
    "sqrt": "√",
    "Delta": "Δ",
    "Omega": "Ω",
    "log": "log",
    "exp": "exp",
    "ldots": "…",
    "dots": "…",
}

_STYLE_MACROS = [
    (re.compile(r"\\(?:textbf|mathbf)\s*\{([^{}]*)\}|\{\\bf\s+([^{}]*)\}"), BOLD_OPEN, BOLD_CLOSE),
    (re.compile(r"\\(?:textit|emph)\s*\{([^{}]*)\}|\{\\(?:it|em)\s+([^{}]*)\}"), ITALIC_OPEN, ITALIC_CLOSE),
    (re.compile(r"\\(?:underline|text|textrm|textsc|textsf|texttt|mbox|mathrm)\s*\{([^{}]*)\}"), "", ""),
]
_CITATION = re.compile(r"\s*\\(?:cite[tp]?|ref|eqref|label|footnote)\s*\{[^{}]*\}")
_ESCAPED_CHAR = re.compile(r"\\([%&$_#{}])")
_MARKDOWN_BOLD = re.compile(r"\*\*(?=\S)([^*]+?)(?<=\S)\*\*")
_LATEX_TILDE = re.compile(r"(?<=[^\s\d~])~(?=[^\s\d~])")
_QUOTED = re.compile(r"`([^`']*)'")  # `TeX quotes'
_SYMBOL = re.compile(r"\\([A-Za-z]+)\b")


@dataclass(frozen=True)
class Segment:
    kind: str  # text | math | url
    value: str


def segments(abstract: str, choices: learned.Choices | None = None) -> list[Segment]:
    """Split an abstract into text (with style markers), math and URL segments; words broken
    across lines are mended by the title words of `choices` (None: the shipped ones)."""
    text = html.unescape(_without_sentinels(abstract))
    text = _mend_broken_words(collapse_space(text), choices)
    result: list[Segment] = []
    position = 0
    # Math and URLs start with '$', '\\' or 'http': most abstracts have none and need no search.
    maybe = "$" in text or "\\" in text or "http" in text
    for match in _SEGMENT.finditer(text) if maybe else ():
        if match.start() > position:
            result.append(Segment("text", _resolve_macros(text[position : match.start()])))
        result.extend(_match_segments(match))
        position = match.end()
    if position < len(text):
        result.append(Segment("text", _resolve_macros(text[position:])))
    return _merge_text(result)


_BROKEN_WORD = re.compile(r"\b([A-Za-z]{2,})- ([a-z]{2,})\b")


def _mend_broken_words(text: str, choices: learned.Choices | None) -> str:
    """'Learn- ing' (a PDF line break kept in the abstract) -> 'Learning', where the two
    halves make a word this abstract uses or a known title word; 'pre- and post-' stays."""
    if "- " not in text:
        return text
    used = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
    known = (choices or learned.Choices.shipped()).titleness

    def mend(match: re.Match[str]) -> str:
        word = match.group(1) + match.group(2)
        return word if word.lower() in used or word.lower() in known else match.group(0)

    return _BROKEN_WORD.sub(mend, text)


def _match_segments(match: re.Match[str]) -> list[Segment]:
    url = match.group("texurl") or match.group("url")
    if url:
        trimmed = trim_url(url)
        rest = url[len(trimmed) :]
        link = _link_target(trimmed)
        if link is None:  # \url{javascript:...}: the text it is (the reader reports it, refused_urls)
            return [Segment("text", url)]
        return [Segment("url", link)] + ([Segment("text", _resolve_macros(rest))] if rest else [])
    tex = next(group for group in match.group("display", "inline", "paren", "bracket") if group)
    text_only = _TEXT_ONLY_MATH.fullmatch(tex)
    if text_only:
        macro, content = text_only.groups()
        if macro in ("textbf", "mathbf", "bf"):
            return [Segment("text", f"{BOLD_OPEN}{content}{BOLD_CLOSE}")]
        if macro in ("textit", "emph"):
            return [Segment("text", f"{ITALIC_OPEN}{content}{ITALIC_CLOSE}")]
        return [Segment("text", content)]
    if "`" in tex or "$" in tex:  # not TeX we can delimit; Markdown would read it as code: show it as text
        return [Segment("text", _resolve_macros(match.group(0)))]
    symbol = re.fullmatch(r"\s*\\([A-Za-z]+)\s*", tex)
    if symbol and symbol.group(1) in SYMBOLS:
        return [Segment("text", SYMBOLS[symbol.group(1)])]
    return [Segment("math", tex.strip())]


def _link_target(url: str) -> str | None:
    return web_url(f"https://{url}" if _SCHEMELESS_HOST.match(url) else url)


def trim_url(url: str) -> str:
    """Strip sentence punctuation and unbalanced closing brackets from a URL's end."""
    while url:
        if url[-1] in _URL_TRAILING:
            url = url[:-1]
        elif url[-1] == ")" and url.count("(") < url.count(")"):
            url = url[:-1]
        else:
            break
    return url


def _resolve_macros(text: str) -> str:
    # Citations, macros, escapes and symbols all start with a backslash, which most abstracts
    # lack: each pattern runs only where its first character is.
    if "\\" in text:
        text = _CITATION.sub("", text)
    if "**" in text:
        text = _MARKDOWN_BOLD.sub(lambda m: f"{BOLD_OPEN}{m.group(1)}{BOLD_CLOSE}", text)
    for _ in range(3 if "\\" in text else 0):  # nested macros resolve from the inside out
        before = text
        for pattern, open_mark, close_mark in _STYLE_MACROS:
            text = pattern.sub(
                cast("Callable[[re.Match[str]], str]", lambda m, o=open_mark, c=close_mark: f"{o}{m.group(1) or m.group(2) or ''}{c}"), text
            )
        if text == before:
            break
    if "\\" in text:
        text = _ESCAPED_CHAR.sub(r"\1", text)
    text = text.replace("``", "“").replace("''", "”")
    if "`" in text:
        text = _QUOTED.sub(r"‘\1’", text).replace("`", "‘")
    text = text.replace("---", "—").replace("--", "–")
    if "~" in text:
        text = _LATEX_TILDE.sub(" ", text)
    if "\\" in text:
        text = _SYMBOL.sub(lambda m: SYMBOLS.get(m.group(1), m.group(0)), text)
    return text


def _merge_text(parts: list[Segment]) -> list[Segment]:
    merged: list[Segment] = []
    for part in parts:
        if merged and part.kind == "text" and merged[-1].kind == "text":
            merged[-1] = Segment("text", merged[-1].value + part.value)
        elif part.value:
            merged.append(part)
    return merged


# --- Markdown -------------------------------------------------------------------------

_MD_ESCAPE = {
    # Brackets as entities: "\[" would open display math for arithmatex.
    "\\": "\\\\",
    "`": "\\`",
    "*": "\\*",
    "_": "\\_",
    "[": "&#91;",
    "]": "&#93;",
    # attr_list reads {...} as attributes; arithmatex reads $ as math.
    "{": "\\{",
    "}": "\\}",
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    "$": "&#36;",
}
# The same as one str.translate (which looks up every character in a dict), done as one C
# scan per character that needs escaping: the backslash and '&' first, as the others' escapes
# hold them; no escape holds a character escaped after it.
_MD_ESCAPE_ORDER = sorted(_MD_ESCAPE, key=lambda c: (c not in "\\&", c == "&"))
_BLOCK_START = re.compile(r"^(\s*)(?:([#>+\-]|\d+[.)])|(=))")


def escape_markdown(text: str) -> str:
    """Text -> Markdown that renders as exactly that text, with style markers applied."""
    escaped = text
    for character in _MD_ESCAPE_ORDER:
        if character in escaped:
            escaped = escaped.replace(character, _MD_ESCAPE[character])
    escaped = escaped.replace(BOLD_OPEN, "**").replace(BOLD_CLOSE, "**")
    return escaped.replace(ITALIC_OPEN, "*").replace(ITALIC_CLOSE, "*")


def _balanced_styles(text: str) -> str:
    """Drop style markers that would not render (empty or whitespace-padded)."""
    for open_mark, close_mark in ((BOLD_OPEN, BOLD_CLOSE), (ITALIC_OPEN, ITALIC_CLOSE)):
        if open_mark not in text:  # most text has no styles
            continue
        text = re.sub(
            f"{open_mark}(\\s*)([^{open_mark}{close_mark}]*?)(\\s*){close_mark}",
            cast(
                "Callable[[re.Match[str]], str]",
                lambda m, o=open_mark, c=close_mark: (
                    f"{m.group(1)}{o}{m.group(2)}{c}{m.group(3)}" if m.group(2) else m.group(1) + m.group(3)
                ),
            ),
            text,
        )
    return text


Parts = str | list[Segment]  # an abstract, or its segments when the caller already split it


def _parts(abstract: Parts) -> list[Segment]:
    return segments(abstract) if isinstance(abstract, str) else abstract


def to_markdown(abstract: Parts) -> str:
    """The abstract as one Markdown paragraph: text escaped, math for KaTeX, URLs linked."""
    out = []
    for segment in _parts(abstract):
        if segment.kind == "text":
            out.append(escape_markdown(_balanced_styles(segment.value)))
        elif segment.kind == "math":
            out.append(f"${segment.value}$")
        else:
            out.append(f"<{segment.value}>")
    return escape_block_start("".join(out).strip())


def escape_block_start(markdown: str, *, underline: bool = False) -> str:
    """A paragraph must not open as a heading, quote or list item ('# x', '- x', '1. x').
    `underline`: nor as a setext underline ('===', '---'), for text that begins a line under
    another (a listing's summary under its title); '=' has no backslash escape."""
    match = _BLOCK_START.match(markdown)
    if not match:
        return markdown
    if match.group(2) is None:  # '='
        return markdown[: match.start(3)] + "&#61;" + markdown[match.end(3) :] if underline else markdown
    marker = match.group(2)
    escaped = marker[:-1] + "\\" + marker[-1] if marker[0].isdigit() else "\\" + marker
    return markdown[: match.start(2)] + escaped + markdown[match.end(2) :]


# --- Plain text -----------------------------------------------------------------------

_MATH_COMMAND = re.compile(r"\\([A-Za-z]+)")


_SUPERSCRIPTS = str.maketrans("0123456789+-=()nipk", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵖᵏ")
_SUBSCRIPTS = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_SCRIPT = re.compile(r"([\^_])(?:\{([0-9+\-=()nipk]{1,4})\}|([0-9nipk]))")


def _scripts(tex: str) -> str:
    """'S^2AC' -> 'S²AC', 'x_{10}' -> 'x₁₀': short super- and subscripts as Unicode (others stay)."""

    def replace(match: re.Match[str]) -> str:
        body = match.group(2) or match.group(3)
        table = _SUPERSCRIPTS if match.group(1) == "^" else _SUBSCRIPTS
        converted = body.translate(table)
        return converted if all(ord(c) > 127 for c in converted) else match.group(0)

    return _SCRIPT.sub(replace, tex)


def math_to_plain(tex: str) -> str:
    """A readable approximation of inline math: `\\mathbf x` -> x, `\\beta` -> β, `S^2` -> S²."""
    text = _MATH_COMMAND.sub(lambda m: SYMBOLS.get(m.group(1), ""), _scripts(tex))
    text = re.sub(r"[{}]", "", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    return text.strip()


def to_plain(abstract: Parts) -> str:
    """The abstract as plain Unicode text: styles dropped, math approximated."""
    out = []
    for segment in _parts(abstract):
        if segment.kind == "text":
            out.append(_without_sentinels(segment.value))
        elif segment.kind == "math":
            out.append(math_to_plain(segment.value))
        else:
            out.append(segment.value)
    return collapse_space("".join(out))


def urls(abstract: Parts) -> list[str]:
    return [segment.value for segment in _parts(abstract) if segment.kind == "url"]


def refused_urls(abstract: str) -> list[str]:
    """The abstract's `\\url{}` targets that are not http(s) links, and so are shown as text.
    (Bare URLs are found only when they start with http:// or https://.)"""
    return [url for url in map(trim_url, re.findall(_TEX_URL, html.unescape(abstract))) if _link_target(url) is None]


# --- Linking names in rendered Markdown -----------------------------------------------

_PROTECTED = re.compile(r"\$[^$]*\$|<https?://[^>]*>|\[[^\]]*\]\([^)]*\)|`[^`]*`")


def link_names(markdown: str, targets: dict[str, str]) -> str:
    """Link the first mention of each name ('PatchSAE' -> '[PatchSAE](url)') outside math,
    URLs and existing links. Names are matched in their escaped form, as whole words."""
    for name, url in sorted(targets.items(), key=lambda item: -len(item[0])):
        escaped = escape_markdown(name)
        pattern = re.compile(rf"(?<![\w\-\\]){re.escape(escaped)}(?![\w\-])")
        parts, position, done = [], 0, False
        for protected in _PROTECTED.finditer(markdown):
            chunk = markdown[position : protected.start()]
            if not done:
                chunk, done = _link_first(pattern, chunk, escaped, url)
            parts += [chunk, protected.group(0)]
            position = protected.end()
        tail = markdown[position:]
        if not done:
            tail, done = _link_first(pattern, tail, escaped, url)
        markdown = "".join(parts) + tail
    return markdown


def _link_first(pattern: re.Pattern[str], chunk: str, escaped: str, url: str) -> tuple[str, bool]:
    match = pattern.search(chunk)
    if not match:
        return chunk, False
    return f"{chunk[: match.start()]}[{escaped}]({url}){chunk[match.end() :]}", True
