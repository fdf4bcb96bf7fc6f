"""How a run's stages compute: what they may reuse from an earlier run, and where they may run
work beside this process. A stage takes one RunContext and asks it at those points; the default,
INLINE, reuses nothing and runs everything here at once, so a stage called on its own is a plain
function of its inputs. generator.runtime supplies the others: `parallel.Forking` runs work in
forked processes on a machine with cores to spare, and `session.Session` also remembers between
the runs of `mkdocs serve`. Decisions 0002 (reuse) and 0007 (processes)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Pending(Protocol[T_co]):
    """A result that may still be computed elsewhere."""

    def result(self) -> T_co: ...

    def done(self) -> bool: ...


class Memo(Protocol):
    """Results by key, as an earlier run left them (runtime.session.Memo)."""

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any: ...

    def known(self, key: Hashable) -> bool: ...

    def put(self, key: Hashable, value: Any) -> None: ...


class Kept(Protocol):
    """Values derived from one object each, found again by the object's identity
    (runtime.session.Kept)."""

    def get(self, kind: str, of: object, compute: Callable[[], Any]) -> Any: ...

    def find(self, kind: str, of: object, default: Any = None) -> Any: ...

    def put(self, kind: str, of: object, value: Any) -> None: ...

    def reused_or_made(self, kind: str, of: object, inputs: Any, make: Callable[[], Any]) -> Any: ...


class _Done(Generic[T]):
    def __init__(self, value: T):
        self._value = value

    def result(self) -> T:
        return self._value

    def done(self) -> bool:
        return True


class RunContext:
    """Reuses nothing and runs everything in this process, at once."""

    # What an earlier run left to reuse: None here. Under `mkdocs serve`, kept paper by paper
    # (`kept`), by key in named stores (`memo`), and the rendered paper pages (`pages`).
    kept: Kept | None = None
    pages: dict | None = None

    def memo(self, store: str) -> Memo | None:
        """The results by key of one kind of derivation (`store`: files, keyphrases, reasons, renders)."""
        return None

    def in_background(self, function: Callable[[], T], items: int = 0) -> Pending[T]:
        """function() computed while the caller goes on; here, at once. `items`: how much work it
        is (a context that forks does so only for enough)."""
        return _Done(function())

    def in_two_processes(self, function: Callable[[Any], T], items: Any) -> list[T]:
        """function over `items` (a sequence or an array: anything with len() and slices) in
        consecutive parts, results in order; here, one part."""
        return [function(items)]


INLINE = RunContext()


def reused_or_made(kept: Kept | None, kind: str, of: object, inputs: Any, make: Callable[[], T]) -> T:
    """make(), a function of `of` and `inputs`; with `kept` (mkdocs serve) the last run's result
    while `of` is the very same object and `inputs` compare equal."""
    return make() if kept is None else kept.reused_or_made(kind, of, inputs, make)
