"""Per-paper work on every core: deriving and rendering papers are independent per paper.

Worker processes are forked, so they inherit the function and its inputs (closures, loaded
vocabulary, linked papers) instead of receiving them pickled; only each result travels back.
Small jobs, one-core machines and other systems than Linux run in this process: results are
the same either way, in the same order.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

MIN_ITEMS = 400  # below this, starting workers costs more than it saves
CHUNK = 64

_job: tuple[Callable, Sequence] | None = None  # set before forking; read by the workers


def _run(index: int):
    function, items = _job
    return function(items[index])


def workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return min(cores, int(os.environ.get("ABSTRACTS_WORKERS", cores)))


def ordered_map(function: Callable[[Item], Result], items: Sequence[Item]) -> Iterator[Result]:
    """function(item) for every item, in order, on all cores when it pays."""
    global _job
    count = workers()
    # Fork only on Linux: macOS offers it, but forking after its system frameworks load can crash.
    if len(items) < MIN_ITEMS or count < 2 or not sys.platform.startswith("linux"):
        yield from map(function, items)
        return
    _job = (function, items)
    try:
        with multiprocessing.get_context("fork").Pool(count) as pool:
            yield from pool.imap(_run, range(len(items)), chunksize=CHUNK)
    finally:
        _job = None
