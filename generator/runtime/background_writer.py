"""A one-off run's files written by a process of their own while this one goes on making
them. Creating a site's thousands of files is mostly kernel time that used to follow the
rendering on one core; a writer thread could not overlap it (it waited for the GIL after
every system call, and took far longer). The process is forked when the run starts, while
this one is small (its copy-on-write pages are few); the files reach it through a pipe
(decision 0007).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, cast

from generator.errors import InputError
from generator.output.files import WriteResult, as_bytes, made_folders, remove_stale, write_file
from generator.runtime.parallel import Later

_HEADER = struct.Struct("<IQ")  # the path's and the text's length in bytes; a zero path ends the run
_ELSEWHERE = (1 << 64) - 1  # a text's length meaning: written by another process (Writer.elsewhere)
PIPE_BYTES = 1 << 20  # room for ~100 pages, so that rendering seldom waits for the writer
# The sending ends of the writers' pipes. A process forked while one is open (the topic map,
# linking's helpers, the listing pages) closes its copy at once: else the writer would not see
# its pipe end while that process lives, and a failed run, waiting for the writer, would wait
# for a process that may itself wait for a reader of its result.
_SENDING: set[int] = set()


def _close_sending_ends() -> None:
    for end in _SENDING:
        os.close(end)
    _SENDING.clear()


os.register_at_fork(after_in_child=_close_sending_ends)


class Writer:
    """Takes files as a dict is given them (`writer[path] = text`, `update`): each is sent to
    the writing process at once. `close()` waits for it and returns what write_site would
    have (stale generated files removed as well); `abandon()` when the run fails."""

    def __init__(self, docs_dir: Path):
        import fcntl  # Linux's, as is forking: a Writer is made only where work is forked

        read, write = os.pipe()
        try:
            fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        except OSError:  # above the system's limit: the default size works, only less ahead
            pass
        self._docs_dir, self._new_folders = docs_dir, made_folders(docs_dir)
        self._process = Later(partial(_write_all, docs_dir, self._new_folders, read, write))
        os.close(read)
        self._pipe = write  # unbuffered: a process forked later holds no unsent bytes to send again
        _SENDING.add(write)
        self._elsewhere: list[Later[tuple[WriteResult, list[str]]]] = []

    def elsewhere(self, make: Callable[[], dict[str, str]]) -> None:
        """The files make() returns, made and written by a process forked now, while this one
        goes on (it inherits what make reads)."""
        self._elsewhere.append(Later(partial(_write_made, self._docs_dir, self._new_folders, make)))

    def __setitem__(self, relative: str, text: str | bytes) -> None:
        name, data = relative.encode("utf-8"), as_bytes(text)
        self._send(_HEADER.pack(len(name), len(data)), name, data)

    def update(self, files: dict[str, str]) -> None:
        for relative, text in files.items():
            self[relative] = text

    def close(self) -> WriteResult:
        try:
            made = [later.result() for later in self._elsewhere]
        except BaseException:
            self.abandon()
            raise
        for _, paths in made:  # not stale: the writer's last step removes what no process wrote
            for relative in paths:
                name = relative.encode("utf-8")
                self._send(_HEADER.pack(len(name), _ELSEWHERE), name)
        self._send(_HEADER.pack(0, 0))
        self._close_pipe()
        result = self._process.result()
        for other, _ in made:
            result.written += other.written
            result.unchanged += other.unchanged
            result.kept_hand_written += other.kept_hand_written
            result.sizes.update(other.sizes)
        return _in_order(result)

    def abandon(self) -> None:
        """The run failed: the writer stops at the end of what it was sent, removing nothing."""
        self._close_pipe()
        for later in cast("list[Later[Any]]", [*self._elsewhere, self._process]):
            try:
                later.result()
            except BaseException:  # the run's own error is the one raised (a child's Ctrl-C too)
                pass

    def _close_pipe(self) -> None:
        if self._pipe in _SENDING:
            _SENDING.discard(self._pipe)
            os.close(self._pipe)

    def _send(self, *parts: bytes) -> None:
        """All of `parts`, in one system call unless a signal cuts it short."""
        size = sum(map(len, parts))
        try:
            sent = os.writev(self._pipe, parts)
            if sent < size:
                rest = memoryview(b"".join(parts))[sent:]
                while rest:
                    rest = rest[os.write(self._pipe, rest) :]
        except BrokenPipeError:  # the writer ended: its own error (a full disk), else this one
            self._close_pipe()
            self._process.result()
            raise InputError(str(self._docs_dir), "the process writing the files ended before the run did") from None


def _write_made(docs_dir: Path, new_folders: frozenset[str], make: Callable[[], dict[str, str]]) -> tuple[WriteResult, list[str]]:
    """In a process of Writer.elsewhere: make's files, written as write_site writes them."""
    result = WriteResult()
    files = make()
    for relative, text in files.items():
        write_file(docs_dir, relative, text, result, None, None, new_folders)
    return result, list(files)


def _write_all(docs_dir: Path, new_folders: frozenset[str], read: int, write: int) -> WriteResult:
    """In the writing process: every file sent, as write_site writes them, until the end."""
    os.close(write)  # else the pipe would never end here if the run's process failed
    result, failed = WriteResult(), None
    sent: set[str] = set()
    with os.fdopen(read, "rb") as pipe:
        while True:
            header = pipe.read(_HEADER.size)
            if len(header) < _HEADER.size:
                raise EOFError("the run ended without its last file")
            name_size, data_size = _HEADER.unpack(header)
            if not name_size:
                break
            relative = _read_exactly(pipe, name_size).decode("utf-8")
            sent.add(relative)
            if data_size == _ELSEWHERE:
                continue
            data = _read_exactly(pipe, data_size)
            if failed is None:  # after a failure the rest is read (the run would wait), not written
                try:
                    write_file(docs_dir, relative, data, result, None, None, new_folders)
                except Exception as error:  # raised again in the run's process
                    failed = error
    if failed is not None:
        raise failed
    remove_stale(docs_dir, sent, result)
    return result


def _read_exactly(pipe, size: int) -> bytes:
    """`size` bytes of the pipe; a run that ended in the middle of a file leaves it unwritten."""
    data = pipe.read(size)
    if len(data) < size:
        raise EOFError("the run ended in the middle of a file")
    return data


def _in_order(result: WriteResult) -> WriteResult:
    """In the order write_site gives them (sorted paths), whatever order the files came in."""
    result.written.sort()
    result.kept_hand_written.sort()
    result.sizes = dict(sorted(result.sizes.items()))
    return result
