"""Per-paper work on every core: deriving and rendering papers are independent per paper.

Worker processes are forked, so they inherit the function and its inputs (closures, loaded
vocabulary, linked papers) instead of receiving them pickled; only each result travels back.
Small jobs, one-core machines and other systems than Linux run in this process: results are
the same either way, in the same order.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import select
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from generator.context import Pending, RunContext
from generator.errors import InputError

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

Item = TypeVar("Item")
Result = TypeVar("Result")


class _Sliceable(Protocol):  # what in_two_processes splits: a sequence or a NumPy array
    def __len__(self) -> int: ...
    def __getitem__(self, index: slice, /) -> Any: ...


Items = TypeVar("Items", bound=_Sliceable)

MIN_ITEMS = 400  # below this, starting workers costs more than it saves
WATCH_SECONDS = 0.5  # how often a Feed waiting for a batch checks that its workers live
BATCH = 128  # items per call of a batched function (enrich: larger batches kept its caches warm longer)

_job: tuple[Callable, Sequence] | None = None  # set before a Feed forks; read by its workers
_meanwhile: list[Callable[[], object]] = []  # see while_workers_run


def workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return min(cores, int(os.environ.get("ABSTRACTS_WORKERS", cores)))


def while_workers_run(task: Callable[[], object]) -> None:
    """task() in this process while the next pool of workers (a Feed's) works
    (this process only waits for their results then); where no pool starts, at the next
    `run_meanwhile()`. A task given again before it ran is queued once (a run that failed
    before running its tasks leaves them to the next run of the process: `mkdocs serve`)."""
    if task not in _meanwhile:
        _meanwhile.append(task)


def run_meanwhile() -> None:
    """The tasks given to `while_workers_run` that have not run yet, now."""
    while _meanwhile:
        _meanwhile.pop(0)()


def forks() -> bool:
    """Whether work is done in forked processes here (Linux, at least two cores to use)."""
    return workers() >= 2 and sys.platform.startswith("linux")


class Feed(Generic[Item, Result]):
    """function(batch) for consecutive batches of BATCH items that come one by one (read from
    the inputs), results in order: each full batch goes to a forked worker at once, so the workers derive while
    the rest is still read. They start once MIN_ITEMS items have come (items then travel
    pickled, a small cost per record: decision 0007); with fewer in all, or no workers, `results` runs the
    batches in this process. Leaving the `with` block stops the workers."""

    def __init__(self, function: Callable[[list[Item]], list[Result]]):
        self._function = function
        self._waiting: list[Item] = []
        self._sent: list = []  # each sent batch's AsyncResult, in order
        self._pool: Pool | None = None
        self.count = 0
        self._forks = forks()

    def put(self, item: Item) -> None:
        self._waiting.append(item)
        self.count += 1
        if self._pool is None and self._forks and self.count >= MIN_ITEMS:
            global _job
            _job = (self._function, ())
            others = multiprocessing.active_children()
            self._pool = multiprocessing.get_context("fork").Pool(workers())
            # The pool's processes only: another child ending (not ours to watch) is no failure.
            self._workers = [child for child in multiprocessing.active_children() if child not in others]
        if self._pool is not None and len(self._waiting) >= BATCH:
            for start in range(0, len(self._waiting) - BATCH + 1, BATCH):
                self._send(self._waiting[start : start + BATCH])
            del self._waiting[: len(self._waiting) // BATCH * BATCH]

    def _send(self, batch: list[Item]) -> None:
        self._sent.append(cast("Pool", self._pool).apply_async(_run_fed, (batch,)))  # sent only once the pool started

    def results(self) -> Iterator[Result]:
        """function's results for every item put, in order; once all are put."""
        waiting, self._waiting = self._waiting, []
        if self._pool is None:
            for start in range(0, len(waiting), BATCH):
                yield from self._function(waiting[start : start + BATCH])
            return
        if waiting:
            self._send(waiting)
        run_meanwhile()  # the workers derive; this process would only wait for them
        for sent in self._sent:
            yield from self._outcome(sent)

    def _outcome(self, sent: AsyncResult[list[Result]]) -> list[Result]:
        """A batch's results, once there. A worker that was killed (out of memory, a signal)
        takes its batch with it, and the pool would wait for that batch forever."""
        while not sent.ready():
            sent.wait(WATCH_SECONDS)
            if not sent.ready() and any(not worker.is_alive() for worker in self._workers):
                raise InputError("deriving papers", "a worker process was killed before it returned its papers (out of memory?)")
        return sent.get()

    def __enter__(self) -> Feed[Item, Result]:
        return self

    def __exit__(self, *exc_info) -> None:
        global _job
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None
            _job = None


def _run_fed(batch: list) -> Any:
    return cast("tuple[Callable, Sequence]", _job)[0](batch)  # set before the workers forked


def in_two_processes(function: Callable[[Items], Result], items: Items) -> list[Result]:
    """[function(first half of items), function(second half)], the second half in a forked
    process meanwhile (`Later`); [function(items)] when there are too few items to pay."""
    if len(items) < MIN_ITEMS:
        return [function(items)]
    middle = len(items) // 2
    second = Later(partial(function, items[middle:]))
    return [function(items[:middle]), second.result()]


class Later(Generic[Result]):
    """function() computed in a forked process while this one goes on; `result()` waits for it
    (and raises again what it raised, each time asked). In this process, at once, where workers
    are not used (one core, not Linux)."""

    def __init__(self, function: Callable[[], Result]):
        self._pid = 0
        if not forks():
            self._outcome: tuple[bool, Any] = (True, function())  # (False, the error raised) when it failed
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, leave without running the parent's cleanup
            os.close(read)
            try:
                try:
                    data = pickle.dumps((True, function()), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException as error:  # raised again in the parent
                    try:
                        data = pickle.dumps((False, error))
                    except Exception:  # an error that does not pickle: its text travels instead
                        data = pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(data)
            finally:
                os._exit(0)
        os.close(write)
        self._pid, self._read = pid, read

    def done(self) -> bool:
        """Whether result() would not wait (the process has ended, or there was none)."""
        if self._pid:
            return bool(select.select([self._read], [], [], 0)[0])
        return True

    def result(self) -> Result:
        if self._pid:
            with os.fdopen(self._read, "rb") as pipe:
                data = pipe.read()
            os.waitpid(self._pid, 0)
            self._pid = 0
            self._outcome = pickle.loads(data) if data else (False, RuntimeError("a forked worker ended without a result"))
        ok, value = self._outcome
        if not ok:
            raise value
        return value

    def cancel(self) -> None:
        """The result is not wanted: the process is stopped (it may be blocked sending a result
        nobody reads) and reaped."""
        if self._pid:
            pid, self._pid = self._pid, 0
            self._outcome = (False, RuntimeError("cancelled"))
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            os.close(self._read)


class Forking(RunContext):
    """A run context that runs work aside in forked processes where it pays: `in_background` for
    MIN_ITEMS items or more, `in_two_processes` as `in_two_processes` above."""

    def in_background(self, function: Callable[[], Result], items: int = 0) -> Pending[Result]:
        return Later(function) if items >= MIN_ITEMS else super().in_background(function, items)

    def in_two_processes(self, function: Callable[[Any], Result], items: Any) -> list[Result]:
        return in_two_processes(function, items)
