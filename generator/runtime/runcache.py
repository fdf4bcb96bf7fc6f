"""What the generator remembers between runs, in the docs folder's `.abstracts-site/`
(MkDocs ignores dot-folders):

- a fingerprint of the whole run (the generator's code, data and templates, the settings,
  every input file's bytes) with the files it wrote: a run whose fingerprint matches and
  whose files are intact does nothing at all (the `mkdocs serve` no-op rebuild);
- the enriched Paper of every record, keyed by the record's content: after an edit only
  the changed abstracts are derived again. The cache is dropped whenever the code, data
  or templates change, so it never serves results of another generator version.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from functools import cache
from pathlib import Path

from generator.model import Paper, Record
from generator.output.files import atomic_writer, write_atomic

FOLDER = ".abstracts-site"
STATE = "state.json"
PAPERS = "papers.pickle"
MEMORY_UNSAVED = 25  # papers a long-running caller may derive before the disk cache is rewritten


@cache
def code_fingerprint() -> str:
    """A hash of the package's code, data and templates: any change invalidates the caches.
    Every file counts, whatever its suffix (word lists, learned parameters)."""
    package = Path(__file__).resolve().parent.parent  # generator/, this file being in generator/runtime/
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def run_fingerprint(files: list[Path], settings: object) -> str:
    digest = hashlib.sha256(code_fingerprint().encode())
    digest.update(repr(settings).encode())
    for path in files:
        digest.update(str(path).encode() + b"\0")
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError as error:  # gone or unreadable since it was listed: reading it says so
            digest.update(repr(error).encode())
    return digest.hexdigest()


def record_key(record: Record) -> str:
    # The JSON of asdict(record) (tuples are lists in JSON either way) without its deep copy,
    # which took about half the time; the same keys (decision 0002).
    fields = {**vars(record), "origin": vars(record.origin)}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class RunCache:
    def __init__(self, docs_dir: Path, memory: dict[Record, tuple[str, Paper]] | None = None):
        """`memory`: the papers a long-running caller kept from its last run (generator.runtime.session)
        by record, looked up before the disk cache and updated to this run's papers on `save`."""
        self.folder = docs_dir / FOLDER
        self.state: dict = self._load_state()
        self.memory = memory
        self._papers: dict[str, Paper] | None = None
        self.fresh_papers: dict[str, Paper] = {}
        self._records: dict[Record, tuple[str, Paper]] = {}
        self.derived = 0
        self._papers_saved = False

    def _load_state(self) -> dict:
        try:
            state = json.loads((self.folder / STATE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return state if state.get("code") == code_fingerprint() else {}

    def unchanged(self, fingerprint: str, docs_dir: Path) -> bool:
        """Same run as last time, and every file it wrote is still there with its size."""
        if self.state.get("fingerprint") != fingerprint:
            return False
        for relative, size in self.state.get("files", {}).items():
            path = docs_dir / relative
            if not path.is_file() or path.stat().st_size != size:
                return False
        return True

    def paper(self, record: Record) -> tuple[str, Paper | None]:
        if self.memory and record in self.memory:
            return self.memory[record]
        key = record_key(record)
        if self.memory:
            return key, None  # new or edited: not worth unpickling an older run's papers (decision 0002)
        if self._papers is None:
            self._papers = self._load_papers()
        return key, self._papers.get(key)

    def _load_papers(self) -> dict[str, Paper]:
        if not self.state:
            return {}
        try:
            with (self.folder / PAPERS).open("rb") as handle:
                papers = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
            return {}
        return papers if isinstance(papers, dict) else {}

    def save(self, fingerprint: str, files: dict[str, int], summary) -> None:
        """Remember this run (file sizes, what it reported); the enrich cache keeps only this run's
        records. A long-running caller (`memory`) rewrites it only when a run derived more than
        a few papers: after an edit of one abstract the cache on disk misses just that one, and
        the edit is served sooner, without pickling every paper (decision 0002)."""
        self.save_papers()
        state = {
            "code": code_fingerprint(),
            "fingerprint": fingerprint,
            "files": dict(sorted(files.items())),
            "papers": summary.papers,
            "collections": summary.collections,
            "warnings": summary.report.warnings,
            "duplicates": summary.report.duplicates,
            "unreadable": summary.report.unreadable,
        }
        write_atomic(self.folder / STATE, json.dumps(state, indent=1).encode("utf-8"))
        if self.memory is not None:
            self.memory.clear()
            self.memory.update(self._records)

    def save_papers(self) -> None:
        """The enrich cache's part of `save`, once; a one-off run calls it early, where it would
        wait for a forked process (linking's), not at its end with the other core idle. The
        papers are this run's only once its state is saved (`save`): a run cut short in between
        leaves papers another run of the same code may reuse, as any cache entry."""
        if self._papers_saved:
            return
        self._papers_saved = True
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.memory is None or not self.memory or self.derived > MEMORY_UNSAVED:
            _save_papers(self.folder / PAPERS, self.fresh_papers)

    def keep(self, record: Record, key: str, paper: Paper, derived: bool) -> None:
        """`paper` is `record`'s in this run (`derived` now, or found in a cache): remembered on
        disk (and in memory)."""
        self.fresh_papers[key] = paper
        self.derived += derived
        if self.memory is not None:
            self._records[record] = (key, paper)


def _save_papers(path: Path, papers: dict[str, Paper]) -> None:
    """Pickled straight into the file (never whole in memory), without the memo of objects
    already written (Pickler.fast): several times faster, slightly larger (a string two papers
    share is written twice), read back as fast (decision 0002). Papers hold no cycles, which
    fast mode could not write."""
    with atomic_writer(path) as handle:
        pickler = pickle.Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.fast = True
        pickler.dump(papers)
