"""A Markdown extension the plugin adds: the paper lists of tag, area and collection pages
converted one distinct item at a time, each item's HTML remembered.

Those lists are most of what MkDocs converts, more than every paper page together, and each
paper is listed the same way on several pages (its tags, its area, its collection). Under
`mkdocs serve` an edit that changes a paper's summary converted its whole collection page
again before this, for one changed line (decision 0008).

An item is exactly what templates/listing.md.j2 writes:

    - [Title](../papers/slug.md)
      Summary.

A block made only of such items becomes the list MkDocs' own conversion makes, byte for
byte: each distinct item is converted once, as a one-item list, by a Markdown of the page's
own extensions and settings; its title's and summary's HTML are kept in the page's HTML stash
(as raw HTML is), and its link is a real <a> element, so MkDocs still rewrites and checks it.
A block that is not such a list, or an item whose conversion does not have the shape
expected, is left to the usual processors (tests/plugin/test_paperlist.py compares whole sites).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from typing import cast

import markdown
from markdown.blockprocessors import BlockProcessor
from markdown.extensions import Extension
from markdown.util import AtomicString

# One item: its two lines as the listing template writes them (titles and summaries are escaped:
# no ']' or ')' of their own, no line breaks).
_ITEM = re.compile(r"- \[([^\]\n]*)\]\(([^)\s]+)\)  \n  ([^\n]*)")
# What a one-item list of that item converts to: the link's text, then what follows the link.
_CONVERTED = re.compile(r"<ul>\n<li><a href=\"([^\"]*)\">(.*?)</a>(<br />\n.*)</li>\n</ul>", re.DOTALL)
_PLACEHOLDER_MARKS = (markdown.util.STX, markdown.util.ETX, "klzzwxh:", "wzxhzdk:")
MEMO_LIMIT = 200_000  # items remembered, bounding its memory (decision 0008); past it the memo starts again
PRIORITY = 31  # before Python-Markdown's unordered lists (30), after headings and rules


NAME = "generator.plugin.paperlist"  # as the plugin names it in MkDocs' markdown_extensions
SITE_EXTENSIONS = "site_extensions"  # its setting (MkDocs' mdx_configs[NAME]), which the plugin gives


class PaperListExtension(Extension):
    """Its one setting, `site_extensions`, returns the site's other Markdown extensions and their
    settings when a page first needs them (the plugin hands over MkDocs' config, which other
    plugins may still extend). Named in markdown_extensions, not given as an object, the
    extension lets pages be converted on both cores (generator.plugin.pageconvert): each page's
    instance is made from the name and finds the setting in mdx_configs. Without it (no plugin
    set it up) every list converts as usual."""

    def __init__(self, **kwargs):
        # The default is no None nor bool: Python-Markdown reads a setting with such a default as a bool.
        self.config = {SITE_EXTENSIONS: ["", "a callable: the site's other extensions and their settings"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        extensions = self.getConfig(SITE_EXTENSIONS)
        if callable(extensions):
            md.parser.blockprocessors.register(PaperListProcessor(md.parser, extensions), "abstracts_paper_list", PRIORITY)


def makeExtension(**kwargs) -> PaperListExtension:
    return PaperListExtension(**kwargs)


class PaperListProcessor(BlockProcessor):
    def __init__(self, parser, extensions: Callable[[], tuple[list, dict]]):
        super().__init__(parser)
        self.extensions = extensions
        self._converter: _Converter | None = None  # made for the first list of the page

    def test(self, parent: etree.Element, block: str) -> bool:
        # At the top of the page only (not in a quote, an item, an admonition: Python-Markdown
        # may add later blocks to what it made of this one), and not after a list (it would
        # continue that list, making it loose).
        last = parent[-1] if len(parent) else None
        return block.startswith("- [") and "](" in block and parent is self.parser.root and (last is None or last.tag not in ("ul", "ol"))

    def run(self, parent: etree.Element, blocks: list[str]) -> bool:
        block = blocks[0]
        if any(later.strip() for later in blocks[1:]):
            # Only the page's last block (as on listing pages): a later block may continue the
            # list, even past blank lines and blocks that make nothing (a link reference).
            return False
        lines = block.split("\n")
        if len(lines) % 2:
            return False
        items = ["\n".join(lines[i : i + 2]) for i in range(0, len(lines), 2)]
        matches = [_ITEM.fullmatch(item) for item in items]
        if not all(matches):
            return False
        if self._converter is None:
            self._converter = _Converter.of(*self.extensions())
        converted = [self._converter.item(item, match.group(2)) for item, match in zip(items, cast("list[re.Match[str]]", matches))]
        if None in converted:
            return False
        blocks.pop(0)
        stash = self.parser.md.htmlStash.store
        listing = etree.SubElement(parent, "ul")
        for href, title, rest in cast("list[tuple[str, str, str]]", converted):
            link = etree.SubElement(etree.SubElement(listing, "li"), "a", {"href": href})
            link.text = AtomicString(stash(title))
            link.tail = AtomicString(stash(rest))
        return True


class _Converter:
    """A Markdown of the page's extensions and settings, and the items it converted. One per
    setting: under `mkdocs serve` every build makes its pages' Markdown anew, from mkdocs.yml."""

    _current: _Converter | None = None

    def __init__(self, setting: str, names: list, configs: dict):
        self.setting = setting
        self.markdown = markdown.Markdown(extensions=names, extension_configs=configs)
        self.memo: dict[str, tuple[str, str, str] | None] = {}

    @classmethod
    def of(cls, names: list, configs: dict) -> _Converter:
        setting = repr((names, configs))
        if cls._current is None or cls._current.setting != setting:
            cls._current = cls(setting, names, configs)
        return cls._current

    def item(self, item: str, href: str) -> tuple[str, str, str] | None:
        """The item's link target (`href`, as written in it), its text's HTML and the HTML after
        the link, as a one-item list converts; None when it converts to another shape."""
        if item in self.memo:
            return self.memo[item]
        html = self.markdown.reset().convert(item)
        # Python-Markdown's own placeholders left in its output (unbalanced emphasis around
        # escapes) are numbered by the page: such an item converts differently in a page.
        match = None if any(mark in html for mark in _PLACEHOLDER_MARKS) else _CONVERTED.fullmatch(html)
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        # The target as written, so that the link's <a> is what Python-Markdown would make of it.
        self.memo[item] = cast("tuple[str, str, str]", match.groups()) if match and match.group(1) == href else None
        return self.memo[item]
