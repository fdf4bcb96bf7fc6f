"""A list of pages worked on from both ends: MkDocs walks it from the start in its own process,
one forked worker from the end, and two shared positions (the next page MkDocs takes, the last
page the worker took) make them stop where they meet (decision 0007). The worker sends each
page's result through a pipe; a page it could not do (None) or did not send is done by MkDocs.

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
import warnings
from collections.abc import Callable
from typing import Generic, TypeVar

Result = TypeVar("Result")

SILENCE_SECONDS = 60  # a worker that sends nothing for this long is given up on
FRONT, BACK = 0, 1  # the shared positions: the next page MkDocs takes; the last the worker took


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
        self._results: dict[int, Result | None] = {}
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

    def claim(self, number: int) -> bool:
        """Before MkDocs does page `number`: True when it is MkDocs' to do (the worker will not
        take it), False when the worker took it (its result comes from `result`)."""
        self._drain()  # the worker never waits long on a full pipe
        if not self._pid:  # the worker ended: what it sent is used, the rest done here
            return number not in self._results
        with self._positions.get_lock():
            if number < self._positions[BACK]:
                self._positions[FRONT] = max(self._positions[FRONT], number + 1)
                return True
        return False

    def result(self, number: int) -> Result | None:
        """The worker's result for a page it took, once it has come (and forgotten here); None:
        MkDocs does the page itself."""
        while number not in self._results and self._pid:
            if not self._receive.poll(SILENCE_SECONDS):
                self._stop()
                break
            self._receive_one()
        return self._results.pop(number, None)

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

    def _drain(self) -> None:
        while self._pid and self._receive.poll():
            self._receive_one()

    def _receive_one(self) -> None:
        try:
            number, result = pickle.loads(self._receive.recv_bytes())
        except EOFError:  # the worker ended: what it took and did not send is done here
            self._stop()
            return
        self._results[number] = result

    # The worker's side.

    def _serve(self, work: Callable[[int, Quiet], Result | None], send) -> None:
        gc.freeze()  # the collector then leaves the pages inherited from MkDocs unwritten (shared)
        quiet = Quiet()
        while (number := self._take()) is not None:
            result = work(number, quiet)
            try:
                message = pickle.dumps((number, result), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # a value that does not pickle: the page is done in MkDocs' process
                message = pickle.dumps((number, None))
            send.send_bytes(message)

    def _take(self) -> int | None:
        """The next page from the end that MkDocs has not reached; None where they met."""
        with self._positions.get_lock():
            number = self._positions[BACK] - 1
            if number < self._positions[FRONT]:
                return None
            self._positions[BACK] = number
            return number
