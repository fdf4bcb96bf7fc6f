"""Write generated files into the docs folder: atomically, only when the bytes changed,
removing stale generated files and never touching a hand-written one."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Container, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from generator.errors import InputError
from generator.layout import MARKER, ROOT_FILES, SECTIONS

MARKER_BYTES = MARKER.encode()


@dataclass
class WriteResult:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    kept_hand_written: list[str] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)  # bytes of every generated file, written or not


def is_generated(path: Path) -> bool:
    """Generated files carry the marker near their start (front matter or JSON head)."""
    try:
        with path.open("rb") as handle:
            return MARKER_BYTES in handle.read(4096)
    except OSError:
        return False


def write_atomic(path: Path, data: bytes) -> None:
    """Readers see the old file or the new one, never half of one (see atomic_writer)."""
    with atomic_writer(path) as handle:
        handle.write(data)


@contextmanager
def atomic_writer(path: Path) -> Iterator[BinaryIO]:
    """A file to write `path`'s new bytes into, put in its place once the block ends: readers
    see the old file or the new one, never half of one. The bytes go to a temporary file beside
    it (`.NAME.tmp`, created only if absent), renamed over it. Any other name only when that one
    is taken (left by a killed run, or another writer's): mkstemp's random names and its folder
    creation per file add up over a site's files (decision 0007)."""
    temporary = os.path.join(path.parent, f".{path.name}.tmp")
    try:
        fd = _create(temporary)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _create(temporary)
    except FileExistsError:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _create(path: str) -> int:
    """A new file, readable by its owner only (as mkstemp makes them)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)


def _remember(left: dict[str, tuple[str | bytes, int, int]] | None, relative: str, text: str | bytes, path: Path) -> None:
    if left is None:
        return
    stat = path.stat()
    left[relative] = (text, stat.st_size, stat.st_mtime_ns)


def as_bytes(text: str | bytes) -> bytes:
    """A generated file's text as written: UTF-8 (papers.json comes encoded already)."""
    return text if isinstance(text, bytes) else text.encode("utf-8")


def write_file(
    docs_dir: Path,
    relative: str,
    text: str | bytes,
    result: WriteResult,
    last: dict[str, tuple[str | bytes, int, int]] | None,
    left: dict[str, tuple[str | bytes, int, int]] | None,
    new_folders: frozenset[str] = frozenset(),
) -> None:
    """One generated file, written when its bytes changed; remembered in `left` (see write_site).
    `new_folders`: top folders this run made, where no file is there before it is written.
    `text` may come encoded already (papers.json; any file through generator.runtime.background_writer)."""
    if last is not None and relative in last and last[relative][0] == text:
        try:
            stat = os.stat(os.path.join(docs_dir, relative))  # no Path for the ~8,000 files an edit leaves as they were
        except OSError:
            stat = None
        if stat is not None and (stat.st_size, stat.st_mtime_ns) == last[relative][1:]:
            result.sizes[relative] = stat.st_size
            result.unchanged += 1
            left[relative] = last[relative]  # type: ignore[index]
            return
    path = docs_dir / relative
    data = as_bytes(text)
    result.sizes[relative] = len(data)
    if relative.partition("/")[0] not in new_folders and path.is_file():
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            result.unchanged += 1
            _remember(left, relative, text, path)
            return
        if relative in ROOT_FILES and not is_generated(path):
            result.kept_hand_written.append(relative)
            return
    try:
        write_atomic(path, data)
    except OSError as exc:
        raise InputError(str(path), f"cannot write: {exc.strerror}") from None
    result.written.append(relative)
    _remember(left, relative, text, path)


def write_later(
    docs_dir: Path, files: dict[str, str | bytes], result: WriteResult, last: dict[str, tuple[str | bytes, int, int]] | None = None
) -> None:
    """Root files finished after write_site wrote the rest of its run (the topic map under
    `mkdocs serve`): written as write_site writes them, counted in its `result`, added to `last`."""
    left: dict[str, tuple[str | bytes, int, int]] | None = None if last is None else {}
    for relative, text in sorted(files.items()):
        write_file(docs_dir, relative, text, result, last, left)
    if last is not None and left is not None:
        last.update(left)


def write_site(docs_dir: Path, files: dict[str, str | bytes], last: dict[str, tuple[str | bytes, int, int]] | None = None) -> WriteResult:
    """`last` (kept by a long-running caller, updated here): per file, the text the previous
    run left and the size and mtime it had; a file still so on disk is not read again."""
    if docs_dir.exists() and not docs_dir.is_dir():
        raise InputError(str(docs_dir), "output folder is a file")
    result = WriteResult()
    left: dict[str, tuple[str | bytes, int, int]] | None = None if last is None else {}
    new_folders = made_folders(docs_dir)
    for relative, text in sorted(files.items()):
        write_file(docs_dir, relative, text, result, last, left, new_folders)
    if last is not None and left is not None:
        last.clear()
        last.update(left)
    remove_stale(docs_dir, files, result)
    return result


def made_folders(docs_dir: Path) -> frozenset[str]:
    """The section folders a run is about to make: a cold run into an empty folder asks for
    none of its ~5,000 files whether it is there."""
    return frozenset(section.folder for section in SECTIONS.values() if not (docs_dir / section.folder).is_dir())


def remove_stale(docs_dir: Path, files: Container[str], result: WriteResult) -> None:
    """Remove the generated files in the sections that this run did not generate (`files`:
    the relative paths it did), and temporary files an interrupted run left."""
    for section in SECTIONS.values():
        for relative in _not_written(docs_dir, section.folder, files):
            path = docs_dir / relative
            if path.is_file():
                if path.name.startswith(".") and path.name.endswith(".tmp"):
                    path.unlink()  # left by an interrupted run
                elif is_generated(path):
                    path.unlink()
                    result.removed.append(relative)


def _not_written(docs_dir: Path, folder: str, files: Container[str]) -> list[str]:
    """What lies below docs_dir/folder (folders' own entries aside) that this run did not
    generate, as relative paths in the order of sorted Paths. Told by name from one scandir per
    folder (os.walk), not a Path and a stat per file, which slowed every edit (decision 0002)."""
    found: list[str] = []
    for root, _, names in os.walk(docs_dir / folder):
        prefix = Path(root).relative_to(docs_dir).as_posix()
        found.extend(relative for name in names if (relative := f"{prefix}/{name}") not in files)
    return sorted(found, key=lambda relative: relative.split("/"))
