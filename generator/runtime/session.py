"""What one long-running process (`mkdocs serve`) remembers between generator runs, so that
an edited abstract costs about what it changes, not a whole run.

Every entry is keyed by the very values its result is computed from, so a remembered result
is the one a cold run computes: output stays byte-identical (tests/runtime/test_incremental.py). Each
memo keeps only what the last run used, so memory stays about one run's worth.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import InputError, Report
from generator.model import Paper, Record
from generator.runtime.parallel import Forking
from generator.sources.readers import last_readable, read_file_alone


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
    """Kept by the plugin for the life of `mkdocs serve` and opened as the run context
    (generator.context) of every run: it answers the stages' `reused`, `derived`, `remembered`
    and `incremental` from what the last run left, and reads input files by their bytes."""

    files: Memo = field(default_factory=Memo)  # each input file's records, by its bytes (file_records)
    readable: dict = field(default_factory=dict)  # each input file's last readable records, by path: a bad save keeps them
    papers: dict[Record, tuple[str, Paper]] = field(default_factory=dict)  # enriched papers by record, with their cache key
    words: Memo = field(default_factory=Memo)  # each document's words (generator.link.related.similar)
    renders: Memo = field(default_factory=Memo)  # listing, overview and feed pages, tag shares, authors (generator.render.site)
    states: Memo = field(default_factory=Memo)  # what each incremental step left: candidates, key phrases, reasons, paper pages
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

    def reused(self, kind: str, of: object, inputs: Any, make: Callable[[], Any]) -> Any:
        return self.kept.reused_or_made(kind, of, inputs, make)

    def derived(self, kind: str, of: object, compute: Callable[[], Any]) -> Any:
        return self.kept.get(kind, of, compute)

    def remembered(self, store: str, key: Hashable, compute: Callable[[], Any]) -> Any:
        return {"files": self.files, "words": self.words, "renders": self.renders}[store].get(key, compute)

    def incremental(self, kind: str, cold: Callable[[], Any], after_edit: Callable[[Any], tuple[Any, Any]]) -> Any:
        """after_edit(the last run's state of `kind`, None where there is none); its state kept
        for the next run. The state is let go first: a run cut short (an error) leaves none
        half-updated (the phrase counts are corrected in place)."""
        last = self.states.get(kind, lambda: None)
        self.states.put(kind, None)
        result, state = after_edit(last)
        self.states.put(kind, state)
        return result

    def file_records(self, path: Path, report: Report, shown: str | None = None) -> list[Record]:
        """readers.file_records under serve: a file whose bytes did not change since the last
        run is not parsed again (its records and warnings are the last run's); a file that
        cannot be read now stands for its last readable records (readers.last_readable), so a
        half-saved file never stops the preview."""
        try:
            data = path.read_bytes()
        except OSError:
            data = None  # read_file says what is wrong
        try:
            read, warnings = self.files.get(("file", str(path), shown, data), lambda: read_file_alone(path, shown))
        except InputError as error:
            read, warnings = last_readable(str(path), shown, data, error, self.readable, report)
        else:
            self.readable[str(path)] = (read, warnings)
        report.warnings.extend(warnings)
        return read

    def reading(self, files: list[Path]) -> None:
        """A run reads `files`: the last readable records of any other file are let go."""
        for gone in set(self.readable) - {str(path) for path in files}:
            del self.readable[gone]

    def next_run(self) -> None:
        self.files.next_run()
        self.words.next_run()
        self.renders.next_run()
        self.states.next_run()
        self.kept.next_run()
