"""What one long-running process (`mkdocs serve`) remembers between generator runs, so that
an edited abstract costs about what it changes, not a whole run.

Every entry is keyed by the very values its result is computed from, so a remembered result
is the one a cold run computes: output stays byte-identical (tests/runtime/test_incremental.py). Each
memo keeps only what the last run used, so memory stays about one run's worth.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from generator.model import Paper, Record
from generator.runtime.parallel import Forking


class Memo:
    """Results by key; the entries a run did not use are dropped when the next run starts."""

    def __init__(self) -> None:
        self._last: dict[Hashable, Any] = {}
        self._used: dict[Hashable, Any] = {}

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        if key in self._used:
            return self._used[key]
        value = self._last[key] if key in self._last else compute()
        self._used[key] = value
        return value

    def known(self, key: Hashable) -> bool:
        return key in self._used or key in self._last

    def put(self, key: Hashable, value: Any) -> None:
        self._used[key] = value

    def next_run(self) -> None:
        if self._used:  # a run that used nothing (a no-op) keeps what the one before used
            self._last, self._used = self._used, {}

    def __len__(self) -> int:
        return len(self._used) or len(self._last)


_MISSING = object()  # Kept.find's default where None may be a kept value


class Kept:
    """Values derived from one object each, found again by the object's identity while runs
    pass the very same object (an unchanged paper): no hashing or comparing of a whole Paper
    (frozen dataclasses hash every field on every call). Each entry holds its object, so no
    other object can take its id meanwhile; entries a run did not use are dropped when the
    next run starts, as in Memo."""

    def __init__(self) -> None:
        self._last: dict[tuple[str, int], tuple[object, Any]] = {}
        self._used: dict[tuple[str, int], tuple[object, Any]] = {}

    def get(self, kind: str, of: object, compute: Callable[[], Any]) -> Any:
        """compute(), a function of `of` alone, remembered as `kind` of that very object."""
        value = self.find(kind, of, _MISSING)
        if value is _MISSING:
            value = compute()
        self.put(kind, of, value)
        return value

    def find(self, kind: str, of: object, default: Any = None) -> Any:
        """What `put` or `get` kept as `kind` of this very object, else `default`."""
        key = (kind, id(of))
        held = self._used.get(key) or self._last.get(key)
        return held[1] if held is not None and held[0] is of else default

    def put(self, kind: str, of: object, value: Any) -> None:
        self._used[(kind, id(of))] = (of, value)

    def reused_or_made(self, kind: str, of: object, inputs: Any, make: Callable[[], Any]) -> Any:
        """make(), a function of `of` and `inputs`: the last run's result while `of` is the very
        same object and `inputs` compare equal."""
        last = self.find(kind, of)
        value = last[1] if last is not None and last[0] == inputs else make()
        self.put(kind, of, (inputs, value))
        return value

    def next_run(self) -> None:
        if self._used:
            self._last, self._used = self._used, {}


@dataclass
class Session(Forking):
    """Kept by the plugin for the life of `mkdocs serve` and passed to every run: the run context
    (generator.context) that remembers what the last run derived."""

    files: Memo = field(default_factory=Memo)  # each input file's records, by its bytes (generator.sources.readers)
    readable: dict = field(default_factory=dict)  # each input file's last readable records, by path: a bad save keeps them
    papers: dict[Record, tuple[str, Paper]] = field(default_factory=dict)  # enriched papers by record, with their cache key
    pages: dict[tuple[bytes, str], str] = field(default_factory=dict)  # rendered paper pages (generator.render.site)
    keyphrases: Memo = field(default_factory=Memo)  # the candidate phrases' document frequencies (generator.link.corpus)
    reasons: Memo = field(default_factory=Memo)  # why two papers are related, each document's words (generator.link.corpus, .similar)
    renders: Memo = field(default_factory=Memo)  # listing, overview and feed pages, map layout (generator.render.site)
    written: dict[str, tuple[str | bytes, int, int]] = field(
        default_factory=dict
    )  # per file in docs/: the text the last run left, its size and mtime
    kept: Kept = field(default_factory=Kept)  # per unchanged paper object: what linking and rendering derived from it
    meanings: dict = field(default_factory=dict)  # the last run's meaning vectors by source and text hash (generator.runtime.meanings)
    said: set[str] = field(default_factory=set)  # notes said once for the server's life (how to enable related papers by meaning)
    # The sentence model's vectors of many new abstracts, made on a thread while the site is
    # served linked by the built-in table (pipeline.serving_meanings, decision 0028) ...
    embedding: Any = None  # runtime.meanings.BackgroundEmbedding, or None
    embeddings_done: int = 0  # ... each one finished: the next run links again (part of its fingerprint)
    rebuild: Callable[[], None] = lambda: None  # asks the server for a build (the plugin sets it)
    tell: Callable[[str], None] = print  # a line in the server's log (the plugin sets it)

    def memo(self, store: str) -> Memo:
        return {"files": self.files, "keyphrases": self.keyphrases, "reasons": self.reasons, "renders": self.renders}[store]

    def next_run(self) -> None:
        self.files.next_run()
        self.keyphrases.next_run()
        self.reasons.next_run()
        self.renders.next_run()
        self.kept.next_run()
