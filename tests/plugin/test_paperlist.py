"""Listing pages' paper lists are converted one distinct item at a time (generator.plugin.paperlist):
the HTML is the same byte for byte as Python-Markdown's own conversion, links are still
rewritten and checked by MkDocs, and anything else converts as usual."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from generator.plugin import assets, paperlist
from generator.render.templating import markdown_page
from generator.sources.markup import BOLD_CLOSE, BOLD_OPEN, ITALIC_CLOSE, ITALIC_OPEN
from helpers import ROOT, SEEDS

EXTENSIONS = [*assets.MARKDOWN_EXTENSIONS, "admonition", "pymdownx.superfences", "pymdownx.details"]
CONFIGS = {name: dict(options) for name, options in assets.MARKDOWN_EXTENSIONS.items()}


@pytest.fixture
def site_extensions(monkeypatch):
    """A fresh memo."""
    monkeypatch.setattr(paperlist._Converter, "_current", None)


def convert(text: str, *, with_extension: bool, set_up: bool = True) -> str:
    """`text` converted with the site's extensions, and the paper list extension set up as the
    plugin sets it up (`set_up`) or named without its setting."""
    names = EXTENSIONS + ([paperlist.NAME] if with_extension else [])
    given = {paperlist.SITE_EXTENSIONS: lambda: (EXTENSIONS, CONFIGS)} if set_up else {}
    return markdown.Markdown(extensions=names, extension_configs={**CONFIGS, paperlist.NAME: given}).convert(text)


def listing(papers: list[SimpleNamespace]) -> str:
    """A tag page's Markdown as the generator writes it (front matter dropped)."""
    page = markdown_page(
        "listing.md.j2",
        {"title": "A tag"},
        heading="A tag",
        intro="Papers tagged *a tag*.",
        ranking=None,
        related=(),
        trend="",
        papers=papers,
    )
    return page.split("---\n", 2)[2]


def remembered_items() -> int:
    current = paperlist._Converter._current
    return 0 if current is None else sum(value is not None for value in current.memo.values())


def test_a_listing_converts_as_python_markdown_converts_it_and_each_item_once(site_extensions):
    papers = [
        SimpleNamespace(title="Plain title", slug="plain-title", summary="We show that it works."),
        SimpleNamespace(title="$t^3$-VAE & <friends> [x]", slug="t-3-vae", summary="1. Not a list; # not a heading; --- no rule."),
        SimpleNamespace(
            title=f"A {BOLD_OPEN}bold{BOLD_CLOSE} {ITALIC_OPEN}claim{ITALIC_CLOSE}", slug="bold", summary="{: .x} *[A]: b \\ `c`"
        ),
    ]
    text = listing(papers)
    assert convert(text, with_extension=True) == convert(text, with_extension=False)
    assert remembered_items() == 3
    assert "<strong>bold</strong>" in convert(text, with_extension=True)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(
                alphabet=st.sampled_from(
                    list("ab $*_`[](){}<>&#=-+.1\\|:!~^\"' ") + [BOLD_OPEN, BOLD_CLOSE, ITALIC_OPEN, ITALIC_CLOSE, "é", "\u00a0"]
                ),
                min_size=1,
            ),
            st.text(alphabet=st.sampled_from(list("ab $*_`[](){}<>&#=-+.1\\|:!~^ ") + [BOLD_OPEN, BOLD_CLOSE]), min_size=1),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_any_titles_and_summaries_convert_to_the_same_html(fields):
    # Titles and summaries arrive stripped and single-spaced (generator.enrich.paper).
    papers = [
        SimpleNamespace(title=" ".join(t.split()) or "t", slug=f"p{i}", summary=" ".join(s.split()) or "s")
        for i, (t, s) in enumerate(fields)
    ]
    text = listing(papers)
    assert convert(text, with_extension=True) == convert(text, with_extension=False)


@pytest.mark.parametrize(
    "text",
    [
        "- [a link](x.md) and more\n- [another](y.md)\n\n- [one](z.md)  \n  summary\n- not an item\n",
        # Items after a list continue it (one loose list); inside a quote or an item they are nested.
        "- first\n\n- [one](z.md)  \n  summary\n",
        "- [one](z.md)  \n  summary\n\n- [two](y.md)  \n  summary\n",
        "- [one](z.md)  \n  summary\n\n    more of the second item\n",
        "> - [one](z.md)  \n>   summary\n",
        "- outer\n\n    - [one](z.md)  \n      summary\n",
    ],
)
def test_other_lists_convert_as_usual(site_extensions, text):
    assert convert(text, with_extension=True) == convert(text, with_extension=False)
    assert remembered_items() == 0


def test_without_the_plugin_the_extension_changes_nothing():
    text = listing([SimpleNamespace(title="T", slug="t", summary="S.")])
    assert convert(text, with_extension=True, set_up=False) == convert(text, with_extension=False)


def site_folder(folder: Path, *, broken: bool = False) -> Path:
    (folder / "docs" / "tags").mkdir(parents=True)
    config = (
        (ROOT / "mkdocs.yml")
        .read_text(encoding="utf-8")
        .replace("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
        .replace("strict: true", "strict: false")
    )
    (folder / "mkdocs.yml").write_text(config.replace("inputs: [seeds]", f"inputs: [{SEEDS}]"), encoding="utf-8")
    (folder / "docs" / "about.md").write_text("# About\n\nThe seeds.\n", encoding="utf-8")
    if broken:  # a hand-written page in the listings' shape, one of whose papers is missing
        item = "- [Gone](../papers/no-such-paper.md)  \n  It was never there.\n"
        (folder / "docs" / "reading.md").write_text(f"# Reading list\n\n{item}", encoding="utf-8")
    return folder


def built(folder: Path, records: list[logging.LogRecord]) -> dict[str, bytes]:
    handler = logging.Handler(logging.INFO)
    handler.emit = records.append
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(str(folder / "mkdocs.yml"))
        config.plugins.on_startup(command="build", dirty=False)
        build(config)
    finally:
        logger.removeHandler(handler)
    site = folder / "site"
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file() and "pagefind" not in p.parts}


def test_the_seeds_site_is_the_same_byte_for_byte_with_the_extension(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(paperlist._Converter, "_current", None)
    with_extension = built(site_folder(tmp_path / "with"), [])
    assert remembered_items() > 30  # the seeds' listing pages went through it
    with monkeypatch.context() as patch:
        patch.setattr(paperlist.PaperListExtension, "extendMarkdown", lambda self, md: None)  # named, adding nothing
        without = built(site_folder(tmp_path / "without"), [])
    assert with_extension.keys() == without.keys()
    assert [path for path in with_extension if with_extension[path] != without[path]] == []
    # MkDocs rewrote the links of the lists it did not convert itself.
    tag_page = next(v.decode() for k, v in with_extension.items() if k.startswith("tags/") and k != "tags/index.html")
    assert 'href="../../papers/' in tag_page and '.md"' not in tag_page


def test_a_missing_paper_in_a_list_is_still_reported_and_fails_a_strict_build(tmp_path, monkeypatch):
    records: list[logging.LogRecord] = []
    built(site_folder(tmp_path / "warn", broken=True), records)
    assert remembered_items() > 0
    assert [r.getMessage() for r in records if "no-such-paper" in r.getMessage()] == [
        "Doc file 'reading.md' contains a link '../papers/no-such-paper.md', but the target is not found among documentation files."
    ]
    folder = site_folder(tmp_path / "strict", broken=True)
    (folder / "mkdocs.yml").write_text((folder / "mkdocs.yml").read_text().replace("strict: false", "strict: true"))
    with pytest.raises(Abort, match="in strict mode"):
        built(folder, [])


SNIPPETS = [
    "- [one](z.md)  \n  summary",
    "- [two](y.md)  \n  *more*",
    "- plain item",
    "* star item",
    "1. numbered",
    "> quoted",
    "> - [one](z.md)  \n>   summary",
    "    indented",
    "  two spaces",
    "Para",
    "---",
    "# Heading",
    "!!! note\n\n    body",
    "    - [one](z.md)  \n      summary",
    "[ref]: http://example.org",
    "",
    "<div>raw</div>",
    "| a | b |\n|---|---|\n| 1 | 2 |",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SNIPPETS), st.sampled_from(["\n", "\n\n", "\n\n\n"])), min_size=1, max_size=8))
def test_paper_lists_among_any_other_blocks_convert_to_the_same_html(blocks):
    text = "".join(snippet + gap for snippet, gap in blocks)
    assert convert(text, with_extension=True) == convert(text, with_extension=False)
