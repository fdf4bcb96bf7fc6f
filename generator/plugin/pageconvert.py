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
took are converted here. The site is the same byte for byte as a build on one core.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import warnings
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple, cast

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.utils import meta

from generator.runtime.parallel import workers

MIN_PAGES = 50  # below this, forking the worker costs more than it saves (decision 0007)
SILENCE_SECONDS = 60  # a worker that sends nothing for this long is given up on
# What Page.render sets (mkdocs/structure/pages.py); links_to_anchors only when not debugging.
RENDERED = frozenset({"content", "toc", "_title_from_render", "present_anchor_ids", "links_to_anchors"})
_MISSING = object()
FRONT, BACK = 0, 1  # the shared positions: the next page MkDocs takes; the last the worker took


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
        pages = files.documentation_pages(inclusion=InclusionLevel.is_included)  # as build.py walks them
        if len(pages) < MIN_PAGES or workers() < 2 or not sys.platform.startswith("linux"):
            return None
        # Extensions given as objects (not names) are shared by all pages and may carry state
        # from one page to the next: the pages must then be converted in order, in one process.
        if not all(isinstance(extension, str) for extension in config.markdown_extensions):
            return None
        return cls(pages, config, files)

    def __init__(self, pages: Sequence[File], config: MkDocsConfig, files: Files):
        self._pages = pages
        self._files = files
        self._order = {file.src_uri: number for number, file in enumerate(pages)}
        self._results: dict[int, Converted | None] = {}
        self._reads_itself = bool(config.plugins.events["page_read_source"])
        self._positions = multiprocessing.get_context("fork").Array("i", [0, len(pages)])
        receive, send = multiprocessing.Pipe(duplex=False)
        self._pid = os.fork()
        if self._pid == 0:  # the worker: convert, send, leave without running this process's cleanup
            try:
                receive.close()
                self._work(config, send)
            finally:
                os._exit(0)
        send.close()
        self._receive = receive

    def prepare(self, page: Page) -> None:
        """Before MkDocs reads `page`: tell the worker where MkDocs is, or, for a page the
        worker took, have the page's read_source and render take the worker's results."""
        self._drain()  # the worker never waits long on a full pipe
        number = self._order.get(page.file.src_uri)
        if number is None or self._pages[number] is not page.file:
            return
        if not self._pid:  # the worker ended: what it sent is used, the rest converted here
            if number not in self._results:
                return
        else:
            with self._positions.get_lock():
                if number < self._positions[BACK]:
                    self._positions[FRONT] = max(self._positions[FRONT], number + 1)
                    return
        page.read_source = partial(self._read_source, page, number)  # type: ignore[method-assign]
        page.render = partial(self._render, page, number)  # type: ignore[method-assign]

    def close(self) -> None:
        """End the worker (done, or no longer wanted) and forget what it sent."""
        self._stop()
        self._results.clear()

    def _stop(self) -> None:
        """The worker ended; what it sent is kept."""
        if self._pid:
            pid, self._pid = self._pid, 0
            os.kill(pid, signal.SIGKILL)  # when MkDocs is done with the pages the worker is too
            os.waitpid(pid, 0)
            self._receive.close()

    def _read_source(self, page: Page, number: int, config: MkDocsConfig) -> None:
        del page.read_source
        converted = self._result(number)
        if converted is None or self._reads_itself:
            type(page).read_source(page, config)
            return
        page.markdown, page.meta = converted.markdown, converted.meta

    def _render(self, page: Page, number: int, config: MkDocsConfig, files: Files) -> None:
        del page.render
        converted = self._results.pop(number, None)
        rendered = _linked(converted.rendered, files) if converted is not None else None
        if rendered is None or files is not self._files or type(page) is not Page or page.markdown != cast(Converted, converted).markdown:
            type(page).render(page, config, files)
            return
        for name, value in rendered.items():
            setattr(page, name, value)

    def _result(self, number: int) -> Converted | None:
        """The worker's answer for a page it took, once it has come; None: convert it here."""
        while number not in self._results and self._pid:
            if not self._receive.poll(SILENCE_SECONDS):
                self._stop()
                break
            self._receive_one()
        return self._results.get(number)

    def _drain(self) -> None:
        while self._pid and self._receive.poll():
            self._receive_one()

    def _receive_one(self) -> None:
        try:
            number, converted = pickle.loads(self._receive.recv_bytes())
        except EOFError:  # the worker ended: what it took and did not send is converted here
            self._stop()
            return
        self._results[number] = converted

    # The worker's side.

    def _work(self, config: MkDocsConfig, send) -> None:
        gc.freeze()  # the collector then leaves the pages inherited from MkDocs unwritten (shared)
        quiet = _Quiet()
        while (number := self._take()) is not None:
            file = self._pages[number]
            converted = _convert(file, config, self._files, quiet)
            try:
                message = pickle.dumps((number, converted), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # a value render set that does not pickle: converted in MkDocs' process
                message = pickle.dumps((number, None))
            send.send_bytes(message)
            if file.page is not None:
                file.page.markdown = file.page.content = None  # sent: its memory is not needed here

    def _take(self) -> int | None:
        """The next page from the end that MkDocs has not reached; None where they met."""
        with self._positions.get_lock():
            number = self._positions[BACK] - 1
            if number < self._positions[FRONT]:
                return None
            self._positions[BACK] = number
            return number


def _convert(file: File, config: MkDocsConfig, files: Files, quiet: _Quiet) -> Converted | None:
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


class _Quiet:
    """In the worker: whatever would be logged, warned or printed is dropped and noted in
    `said`. Only the worker's copies of logging, warnings and sys are changed."""

    def __init__(self) -> None:
        self.said = False
        logging.Logger.handle = self._note  # type: ignore[method-assign]  # called for every record a logger lets through
        warnings.showwarning = self._note
        sys.stdout = sys.stderr = self

    def _note(self, *args, **kwargs) -> None:
        self.said = True

    def write(self, text: str) -> int:
        self.said = True
        return len(text)

    def flush(self) -> None:
        pass
