"""What the tests share besides fixtures: paths, running the CLI and MkDocs, hostile inputs,
corpus records with their real fields hidden, an HTML probe, learned models given instead of
the shipped ones."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
CORPUS = ROOT.parent / "shared" / "corpus"
MKDOCS = ROOT / ".venv" / "bin" / "mkdocs"


def run_cli(*args: str, cwd: Path = ROOT, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run `python -m generator ...` as a user would, capturing its output."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def run_bench(module: str, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run `python -m bench.<module> ...` from the checkout, as its docstring says to, capturing its output."""
    return subprocess.run([sys.executable, "-m", f"bench.{module}", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def mkdocs_build(folder: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in a site folder, as its author runs it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([str(MKDOCS), "build", "--strict"], cwd=folder, env=env, capture_output=True, text=True, timeout=300)


# Given fields are as untrusted as abstracts. Each value tries to become an element
# (<x-injected>), an attribute (data-injected, on...) or a link target wherever it is shown.
HOSTILE_VALUES = [
    "<x-injected>tag</x-injected>",
    '"><x-injected data-injected="1">',  # out of a double-quoted attribute
    "'><x-injected data-injected='1'>",  # out of a single-quoted attribute
    "</title></textarea></script><x-injected>",
    "]]><x-injected/><![CDATA[",  # out of XML text
    "<img src=x onerror=alert(1) data-injected>",
    "<svg onload=alert(1) data-injected>",
    "[a link](javascript:alert(1)) and ![an image](javascript:alert(2))",
    '<javascript:alert(1)> and <https://x.org/"onclick=alert(1)>',
    "{: data-injected=1 onclick=alert(1) }",
    "*[ABC]: <x-injected>",
    "<!-- injected --> and <!-- material/tags -->",
    "&lt;x-injected&gt; and &#60;x-injected&#62;",
    "{{ config.site_name }} {% raw %} ${alert(1)}",
    "\u2028</script><x-injected>\u2029",
    "$x$ \\(y\\) `code` **bold** # heading | a | b |",
    "$\\href{javascript:alert(1)}{a math link}$ and $\\htmlData{injected=1}{x}$",  # KaTeX's own links and HTML
    "javascript:alert(1)",
    "Ünïcödé ☃ 日本語 مرحبا \u202e",
]


# A record's url, and an abstract's \url{}: every way to smuggle in a scheme that is not http(s).
HOSTILE_URLS = [
    "javascript:alert(document.domain)",
    "JaVaScRiPt:alert(1)",
    "   javascript:alert(1)",
    "\u0001\u0002javascript:alert(1)",
    "java\tscript:alert(1)",
    "&#106;avascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/x",
    "/papers/elsewhere/",
    'https://example.org/"><x-injected data-injected>',  # http(s): linked, its markup encoded
]


def hostile_records() -> list[dict]:
    """One record per hostile value, every given field holding it (a tag shared with the next
    record, so that tags get pages of their own), its url one of HOSTILE_URLS."""
    records = []
    for i, value in enumerate(HOSTILE_VALUES):
        url = HOSTILE_URLS[i % len(HOSTILE_URLS)]
        tex_url = "".join(url.split())  # \url{} holds no spaces
        records.append(
            {
                "id": f"{value} {i}",
                "title": f"{value} {i}",
                "abstract": f"We propose Method{i}, a graph network for large language models that handles {value} "
                f"in its input. Code: \\url{{{tex_url}}}.",
                "url": url,
                "keywords": [value, HOSTILE_VALUES[(i + 1) % len(HOSTILE_VALUES)]],
                "authors": [value, "Ann Lee"],
                "collection": value,
                "primary_area": value,
                "tldr": f"{value} summary {i}",
            }
        )
    return records


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus {path} not available")
    return path


def hidden(record):
    """The record without the fields a corpus gives that the generator derives (title, author
    keywords, area, TL;DR): what it makes of the abstract alone, as the lab's evaluation scores it."""
    return dataclasses.replace(record, title=None, keywords=(), primary_area=None, tldr=None)


class Dom(HTMLParser):
    """Every element (tag, attributes), comment, and the visible text outside math spans
    of an HTML fragment: what the tests check for markup injected from input."""

    def __init__(self, html: str = ""):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.comments: list[str] = []
        self.text: list[str] = []
        self._math = 0
        if html:
            self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if tag == "span" and "arithmatex" in (attributes.get("class") or ""):
            self._math += 1

    def handle_endtag(self, tag):
        if tag == "span" and self._math:
            self._math -= 1

    def handle_comment(self, data):
        self.comments.append(data)

    def handle_data(self, data):
        if not self._math:
            self.text.append(data)


def papers_from(*abstracts: str) -> list:
    """Each abstract enriched as the pipeline would, as record i + 1 of one file `t.txt`."""
    from generator.enrich.paper import enrich
    from generator.model import Origin, Record

    return [enrich(Record(abstract=a, origin=Origin("t.txt", i + 1, i + 1), collection="C")) for i, a in enumerate(abstracts)]


def only_models_given(monkeypatch):
    """Copies of the shipped learned models (equal, other objects), after which reading the
    shipped ones fails: a derivation given the copies reads them wherever it reads a model, as the
    lab's trained models must be. Names still read the curated spellings of the shipped
    vocabulary (enrich.names: the same in every vocabulary, learned tags never change a name)."""
    from types import SimpleNamespace

    from generator.enrich import tagging
    from generator.enrich.models import Models
    from generator.language.learned import Choices, PhraseModel, TagModel

    shipped = Models.shipped()
    given = Models(
        dataclasses.replace(shipped.choices),
        dataclasses.replace(shipped.tag_model),
        tagging.vocabulary_with(tagging._data(tagging.LEARNED)),
        dataclasses.replace(shipped.phrase_model),
    )

    def unread() -> None:
        raise AssertionError("a shipped model was read where the models given should have been")

    for model in (Models, Choices, TagModel, PhraseModel):
        monkeypatch.setattr(model, "shipped", staticmethod(unread))
    monkeypatch.setattr(tagging, "vocabulary", lambda: SimpleNamespace(folded=shipped.vocabulary.folded))
    tagging.mentions.cache_clear()  # what they answered for no vocabulary given would hide a read
    tagging.normalise_keyword.cache_clear()
    return given
