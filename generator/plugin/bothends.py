"""A list of pages worked on from both ends: MkDocs walks it from the start in its own process,
one forked worker from the end, and two shared positions (the next page MkDocs takes, the last
page the worker took) make them stop where they meet (decision 0007). The worker sends each
page's result through a pipe; a page it could not do (None) or did not send is done by MkDocs.
A thread of MkDocs' process reads the pipe as results come, so the worker never waits for
MkDocs to ask (decision 0032); a result is unpickled when MkDocs reaches its page.

Used twice in a one-off build: converting the pages' Markdown (pageconvert) and putting the
converted pages into the theme's templates (pagetemplates).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from mkdocs.structure.files import File, Files, InclusionLevel

from generator.runtime.parallel import workers

Result = TypeVar("Result")

MIN_PAGES = 50  # below this, forking a worker costs more than it saves (decision 0007)
SILENCE_SECONDS = 60  # a worker that sends nothing for this long is given up on
FRONT, BACK = 0, 1  # the shared positions: the next page MkDocs takes; the last the worker took


class Pages:
    """The pages of a one-off build as build.py walks them, numbered."""

    @classmethod
    def worth_sharing(cls, files: Files) -> Pages | None:
        """The pages, where sharing them with a worker pays (Linux, two cores, MIN_PAGES); else None."""
        pages = files.documentation_pages(inclusion=InclusionLevel.is_included)
        if len(pages) < MIN_PAGES or workers() < 2 or not sys.platform.startswith("linux"):
            return None
        return cls(pages)

    def __init__(self, pages: Sequence[File]):
        self.files = pages
        self._order = {file.src_uri: number for number, file in enumerate(pages)}

    def __len__(self) -> int:
        return len(self.files)

    def number(self, file: File) -> int | None:
        """The file's place in the list; None for a file not in it (another plugin's page object)."""
        number = self._order.get(file.src_uri)
        return number if number is not None and self.files[number] is file else None


class Quiet:
    """In the worker: whatever would be logged, warned or printed is dropped and noted in
    `said` (the page is then done again by MkDocs, whose messages count for --strict). Only
    the worker's copies of logging, warnings and sys are changed."""

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


class FromBothEnds(Generic[Result]):
    """`work(number, quiet)` for pages `count - 1`, `count - 2`, ... in a forked worker, until
    MkDocs, going the other way, has claimed the page (`claim`)."""

    def __init__(self, count: int, work: Callable[[int, Quiet], Result | None]):
        self._sent: dict[int, bytes] = {}  # page number -> its pickled result, as it came
        self._arrived = threading.Condition()
        self._ended = False  # the worker's pipe closed: nothing more comes
        self._positions = multiprocessing.get_context("fork").Array("i", [0, count])
        receive, send = multiprocessing.Pipe(duplex=False)
        self._pid = os.fork()
        if self._pid == 0:  # the worker: work, send, leave without running this process's cleanup
            try:
                receive.close()
                self._serve(work, send)
            finally:
                os._exit(0)
        send.close()
        self._receive = receive
        self._reader = threading.Thread(target=self._read, name="pages-from-the-end", daemon=True)
        self._reader.start()

    def claim(self, number: int) -> bool:
        """Before MkDocs does page `number`: True when it is MkDocs' to do (the worker will not
        take it), False when the worker took it (its result comes from `result`)."""
        if self._ended:  # the worker ended: what it sent is used, the rest done here
            with self._arrived:
                return number not in self._sent
        with self._positions.get_lock():
            if number < self._positions[BACK]:
                self._positions[FRONT] = max(self._positions[FRONT], number + 1)
                return True
        return False

    def result(self, number: int) -> Result | None:
        """The worker's result for a page it took, once it has come (and forgotten here); None:
        MkDocs does the page itself."""
        with self._arrived:
            came = self._arrived.wait_for(lambda: number in self._sent or self._ended, timeout=SILENCE_SECONDS)
            sent = self._sent.pop(number, None)
        if not came:
            self._stop()
        return pickle.loads(sent) if sent is not None else None

    def close(self) -> None:
        """End the worker (done, or no longer wanted) and forget what it sent."""
        self._stop()
        with self._arrived:
            self._sent.clear()

    def _stop(self) -> None:
        """The worker ended; what it sent is kept."""
        if self._pid:
            pid, self._pid = self._pid, 0
            os.kill(pid, signal.SIGKILL)  # when MkDocs is done with the pages the worker is too
            os.waitpid(pid, 0)
            self._reader.join()  # the pipe's only sending end was the worker's: the reader sees it close
            self._receive.close()

    def _read(self) -> None:
        """In MkDocs' process, a thread: each result kept as it comes, under its page's number."""
        try:
            while True:
                message = self._receive.recv_bytes()
                with self._arrived:
                    self._sent[int.from_bytes(message[:4], "little")] = message[4:]
                    self._arrived.notify_all()
        except (EOFError, OSError):  # the worker ended: what it took and did not send is done here
            with self._arrived:
                self._ended = True
                self._arrived.notify_all()

    # The worker's side.

    def _serve(self, work: Callable[[int, Quiet], Result | None], send) -> None:
        gc.freeze()  # the collector then leaves the pages inherited from MkDocs unwritten (shared)
        quiet = Quiet()
        while (number := self._take()) is not None:
            result = work(number, quiet)
            try:
                message = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # a value that does not pickle: the page is done in MkDocs' process
                message = pickle.dumps(None)
            send.send_bytes(number.to_bytes(4, "little") + message)

    def _take(self) -> int | None:
        """The next page from the end that MkDocs has not reached; None where they met."""
        with self._positions.get_lock():
            number = self._positions[BACK] - 1
            if number < self._positions[FRONT]:
                return None
            self._positions[BACK] = number
            return number
