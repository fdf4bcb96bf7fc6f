"""How a run's stages compute: what they may reuse from the last run of `mkdocs serve`, and where
they may run work beside this process. The runtime opens a run's context once, around the passes
(`running(context)`, in pipeline.py:_Run.passes); a stage takes no context and tests none: it
calls the functions below, which ask the open one. Outside a run (a test, the lab, a script) the
context is INLINE: nothing is reused and everything runs here at once, so a stage is a plain
function of its inputs. generator.runtime supplies the others: `parallel.Forking` runs work in
forked processes on a machine with cores to spare, and `session.Session` also remembers between
the runs of `mkdocs serve`. Decisions 0002 (reuse), 0007 (processes), 0012 and 0035 (this seam)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")
S = TypeVar("S")
T_co = TypeVar("T_co", covariant=True)


class Pending(Protocol[T_co]):
    """A result that may still be computed elsewhere."""

    def result(self) -> T_co: ...

    def done(self) -> bool: ...


class _Done(Generic[T]):
    def __init__(self, value: T):
        self._value = value

    def result(self) -> T:
        return self._value

    def done(self) -> bool:
        return True


class RunContext:
    """Reuses nothing and runs everything in this process, at once. Each method is what the
    function of the same name below does in a run this context is open for."""

    def reused(self, kind: str, of: object, inputs: Any, make: Callable[[], T]) -> T:
        return make()

    def derived(self, kind: str, of: object, compute: Callable[[], T]) -> T:
        return compute()

    def remembered(self, store: str, key: Hashable, compute: Callable[[], T]) -> T:
        return compute()

    def incremental(self, kind: str, cold: Callable[[], T], after_edit: Callable[[Any], tuple[T, Any]]) -> T:
        return cold()

    def in_background(self, function: Callable[[], T], items: int = 0) -> Pending[T]:
        return _Done(function())

    def in_two_processes(self, function: Callable[[Any], T], items: Any) -> list[T]:
        return [function(items)]


INLINE = RunContext()
_OPEN: ContextVar[RunContext] = ContextVar("the run context", default=INLINE)


@contextmanager
def running(context: RunContext) -> Iterator[None]:
    """`context` is the run's for the stages called inside the block (the runtime opens it once
    per run; tests open one to compare a remembering run with a cold one)."""
    token = _OPEN.set(context)
    try:
        yield
    finally:
        _OPEN.reset(token)


def reused(kind: str, of: object, inputs: Any, make: Callable[[], T]) -> T:
    """make(), a function of `of` and `inputs`; under serve, the last run's result while `of` is
    the very same object and `inputs` compare equal (so an unchanged paper stays one object
    through every pass, and later passes find what they derived from it by identity)."""
    return _OPEN.get().reused(kind, of, inputs, make)


def derived(kind: str, of: object, compute: Callable[[], T]) -> T:
    """compute(), a function of `of` alone; under serve, the last run's for the very same object."""
    return _OPEN.get().derived(kind, of, compute)


def remembered(store: str, key: Hashable, compute: Callable[[], T]) -> T:
    """compute(); under serve, the last run's result for an equal `key` (which holds every value
    compute reads) in `store` (files, words, renders)."""
    return _OPEN.get().remembered(store, key, compute)


def incremental(kind: str, cold: Callable[[], T], after_edit: Callable[[S | None], tuple[T, S]]) -> T:
    """cold(); under serve, after_edit(what the last run's after_edit left, None on the first
    run): the same result, worked out from the last run's where that is quicker, and what it
    leaves for the next run. A true incremental algorithm (candidates updated after an edit,
    phrase counts corrected) is its own function, never a branch of the cold one."""
    return _OPEN.get().incremental(kind, cold, after_edit)


def in_background(function: Callable[[], T], items: int = 0) -> Pending[T]:
    """function() computed while the caller goes on (in a forked process where that pays: at
    least runtime.parallel.MIN_ITEMS `items` of work); outside a forking run, at once."""
    return _OPEN.get().in_background(function, items)


def in_two_processes(function: Callable[[Any], T], items: Any) -> list[T]:
    """function over `items` (a sequence or an array: anything with len() and slices) in
    consecutive parts, results in order: two halves, one in a forked process, where that pays;
    outside a forking run, one part."""
    return _OPEN.get().in_two_processes(function, items)
