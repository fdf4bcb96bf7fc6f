"""A one-off build's Markdown converted on both cores.

MkDocs reads and converts each page in turn (commands/build.py, `_populate_page`: read_source,
the plugins' on_page_markdown, Page.render, on_page_content), on one core: much of a large
site's build (decision 0007), while the other core waits. `Converter` forks one worker when the nav is
made, the last hook before that loop. The worker reads and converts pages from the end of the
list MkDocs walks, while MkDocs walks it from the start; two shared positions (the next page
MkDocs takes, the last page the worker took) make them stop where they meet. For a page the
worker converted, MkDocs' calls on that page take the worker's results instead of doing the
work again:

- read_source: the Markdown and meta the worker read (unless a plugin reads pages itself, with
  on_page_read_source: then MkDocs reads the page here as always);
- render: what Page.render set (content, toc, title, anchors), if the Markdown after every
  plugin's on_page_markdown is the Markdown the worker converted; else it is converted here.

The worker runs no plugin hook and writes nothing but its pipe. A page whose conversion logged,
warned or printed anything (a broken link, an extension's message), failed, or changed another
attribute than render's own is converted here again, so each message comes once, from this
process, and counts for --strict as before. If the worker fails or falls silent, the pages it
took are converted here. The site is the same byte for byte as a build on one core. The two ends: plugin/bothends.py.
"""

from __future__ import annotations

import pickle
from functools import partial
from typing import NamedTuple, cast

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import meta

from generator.plugin.bothends import FromBothEnds, Pages, Quiet

# What Page.render sets (mkdocs/structure/pages.py); links_to_anchors only when not debugging.
RENDERED = frozenset({"content", "toc", "_title_from_render", "present_anchor_ids", "links_to_anchors"})
_MISSING = object()


class Converted(NamedTuple):
    """One page as the worker read and converted it."""

    markdown: str
    meta: dict
    rendered: dict  # attribute -> value, as render set them; links_to_anchors keyed by src_uri


class Converter:
    """Pages converted by a forked worker while MkDocs converts the others (see the module)."""

    @classmethod
    def start(cls, config: MkDocsConfig, files: Files) -> Converter | None:
        """A converter for a one-off build's pages; None where it does not pay or is not safe."""
        pages = Pages.worth_sharing(files)
        if pages is None:
            return None
        # Extensions given as objects (not names) are shared by all pages and may carry state
        # from one page to the next: the pages must then be converted in order, in one process.
        if not all(isinstance(extension, str) for extension in config.markdown_extensions):
            return None
        return cls(pages, config, files)

    def __init__(self, pages: Pages, config: MkDocsConfig, files: Files):
        self._pages = pages
        self._files = files
        self._reads_itself = bool(config.plugins.events["page_read_source"])
        self._ends: FromBothEnds[Converted] = FromBothEnds(len(pages), partial(self._convert, config))

    def prepare(self, page: Page) -> None:
        """Before MkDocs reads `page`: tell the worker where MkDocs is, or, for a page the
        worker took, have the page's read_source and render take the worker's results."""
        number = self._pages.number(page.file)
        if number is None or self._ends.claim(number):
            return
        converted = _Taken(self._ends, number)
        page.read_source = partial(self._read_source, page, converted)  # type: ignore[method-assign]
        page.render = partial(self._render, page, converted)  # type: ignore[method-assign]

    def close(self) -> None:
        """End the worker (done, or no longer wanted) and forget what it sent."""
        self._ends.close()

    def _read_source(self, page: Page, taken: _Taken, config: MkDocsConfig) -> None:
        del page.read_source
        converted = taken.result()
        if converted is None or self._reads_itself:
            type(page).read_source(page, config)
            return
        page.markdown, page.meta = converted.markdown, converted.meta

    def _render(self, page: Page, taken: _Taken, config: MkDocsConfig, files: Files) -> None:
        del page.render
        converted = taken.result()
        rendered = _linked(converted.rendered, files) if converted is not None else None
        if rendered is None or files is not self._files or type(page) is not Page or page.markdown != cast(Converted, converted).markdown:
            type(page).render(page, config, files)
            return
        for name, value in rendered.items():
            setattr(page, name, value)

    def _convert(self, config: MkDocsConfig, number: int, quiet: Quiet) -> Converted | None:
        """In the worker: one page converted; its text then dropped here (sent, it is not needed)."""
        file = self._pages.files[number]
        converted = _convert(file, config, self._files, quiet)
        if file.page is not None:
            file.page.markdown = file.page.content = None
        return converted


class _Taken:
    """The worker's result for one page it took, asked for by read_source and again by render."""

    def __init__(self, ends: FromBothEnds[Converted], number: int):
        self._ends, self._number = ends, number
        self._asked = False
        self._result: Converted | None = None

    def result(self) -> Converted | None:
        if not self._asked:
            self._asked, self._result = True, self._ends.result(self._number)
        return self._result


def _convert(file: File, config: MkDocsConfig, files: Files, quiet: Quiet) -> Converted | None:
    """The page read and converted as MkDocs does, without plugin hooks; None where MkDocs
    must convert it itself (it said something, failed, or changed more than render's own)."""
    page = file.page
    if page is None:
        if not file.inclusion.is_not_in_nav():
            return None  # build.py does not make this page (it asserts there is one)
        page = Page(None, file, config)
    quiet.said = False
    config._current_page = page  # as build.py sets it: the `!relative` config tag reads it
    try:
        page.markdown, page.meta = meta.get_data(file.content_string)
        before = dict(vars(page))
        meta_before = pickle.dumps(page.meta)
        page.render(config, files)
        after = vars(page)
        changed = {name for name in after.keys() | before.keys() if after.get(name, _MISSING) is not before.get(name, _MISSING)}
        if quiet.said or not changed <= RENDERED or pickle.dumps(page.meta) != meta_before:
            return None
    except Exception:
        return None
    finally:
        config._current_page = None
    rendered = {name: getattr(page, name) for name in changed}
    if "links_to_anchors" in rendered:
        rendered["links_to_anchors"] = {target.src_uri: links for target, links in rendered["links_to_anchors"].items()}
    return Converted(before["markdown"], page.meta, rendered)


def _linked(rendered: dict, files: Files) -> dict | None:
    """What render set, links_to_anchors keyed by this process's files again; None when a
    page it links to is gone from `files` since (a plugin removed it)."""
    links = rendered.get("links_to_anchors")
    if links is None:
        return rendered
    if not all(uri in files.src_uris for uri in links):
        return None
    return {**rendered, "links_to_anchors": {files.src_uris[uri]: anchors for uri, anchors in links.items()}}
