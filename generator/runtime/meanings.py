"""Each paper's meaning vector, embedded once per text and model (issue 34).

Vectors are kept in an SQLite file in the user's cache (model.cache_root(), beside the model),
keyed by the model's identity and the SHA-256 of the text embedded: a build embeds only the
abstracts no earlier build embedded, whatever the project or docs folder, and a GitHub Pages
workflow keeps them between deploys by caching that one folder. Under `mkdocs serve` the
session also keeps them in memory, so an edit embeds only the changed abstract.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import numpy as np

from generator.language.meaning.model import cache_root
from generator.language.meaning.source import Source

STORE = "meanings.sqlite"
CHUNK = 500  # keys per query (SQLite allows 32,766 parameters; smaller chunks keep queries short)


def store_path() -> Path:
    return cache_root() / STORE


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class VectorStore:
    """Vectors by (model identity, text hash) in an SQLite file."""

    def __init__(self, path: Path, model: Source):
        self.path, self.model = path, model
        self.failed: str | None = None  # why the file could not be read or written: the run goes on without it

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT, key BLOB, vector BLOB, PRIMARY KEY (model, key))")
        return connection

    def get(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        """The vectors stored for `keys` (those found)."""
        found: dict[bytes, np.ndarray] = {}
        try:
            with closing(self._connect()) as connection:
                for start in range(0, len(keys), CHUNK):
                    chunk = keys[start : start + CHUNK]
                    query = f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({','.join('?' * len(chunk))})"
                    for key, blob in connection.execute(query, [self.model.identity, *chunk]):
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (self.model.dimension,) and np.isfinite(vector).all():
                            found[key] = vector
        except (sqlite3.Error, OSError) as error:
            self.failed = str(error)
        return found

    def put(self, vectors: dict[bytes, np.ndarray]) -> None:
        if not vectors or self.failed:
            return
        try:
            with closing(self._connect()) as connection, connection:
                connection.executemany(
                    "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                    [(self.model.identity, key, np.asarray(v, dtype=np.float32).tobytes()) for key, v in vectors.items()],
                )
        except (sqlite3.Error, OSError) as error:
            self.failed = str(error)


def _known(
    keys: list[bytes], model: Source, store: VectorStore | None, memory: dict[str, dict[bytes, np.ndarray]] | None
) -> dict[bytes, np.ndarray]:
    """The vectors of `model` held for `keys`: in the server's `memory` (by source and text: a
    source that changes under serve, the model installed meanwhile, never meets the last
    source's vectors), else in the `store`."""
    held = memory.get(model.identity, {}) if memory is not None else {}
    known = {key: held[key] for key in keys if key in held}
    wanted = list(dict.fromkeys(key for key in keys if key not in known))
    if wanted and store is not None:
        known.update(store.get(wanted))
    return known


def missing_texts(
    texts: list[str], model: Source, store: VectorStore | None, memory: dict[str, dict[bytes, np.ndarray]] | None
) -> list[str]:
    """The texts (each once, in order) with no vector of `model` in `memory` or the `store`."""
    first_text = dict(zip(map(text_key, texts), texts))
    known = _known(list(first_text), model, store, memory)
    return [text for key, text in first_text.items() if key not in known]


class BackgroundEmbedding(threading.Thread):
    """`embed(texts)` on a thread of its own (onnxruntime computes without Python's lock), the
    vectors kept in the `store` and in `vectors`; then `ready(count, seconds)` is called, or
    `failed(why)`. Under `mkdocs serve` the site is served meanwhile (decision 0028)."""

    def __init__(
        self,
        texts: list[str],
        embed: Callable[[list[str]], np.ndarray],
        store: VectorStore,
        ready: Callable[[int, float], None],
        failed: Callable[[str], None],
    ):
        super().__init__(name="abstracts-site embedding", daemon=True)  # a server stopped meanwhile does not wait
        self.texts, self.embed, self.store, self.ready, self.failed = texts, embed, store, ready, failed
        self.vectors: dict[bytes, np.ndarray] = {}
        self.error: str | None = None

    def succeeded(self) -> bool:
        """Whether the vectors are all made (the thread ended without an error)."""
        return not self.is_alive() and self.error is None

    def run(self) -> None:
        began = time.perf_counter()
        try:
            vectors = self.embed(self.texts)
        except Exception as error:  # reported; the site stays linked by the stand-in
            self.error = f"{type(error).__name__}: {error}"
            self.failed(self.error)
            return
        self.vectors = dict(zip(map(text_key, self.texts), vectors))
        self.store.put(self.vectors)  # a store that cannot keep them: the session's memory does (vectors)
        self.ready(len(self.texts), time.perf_counter() - began)


def meaning_vectors(
    texts: list[str],
    model: Source,
    embed: Callable[[list[str]], np.ndarray],
    store: VectorStore | None = None,
    memory: dict[str, dict[bytes, np.ndarray]] | None = None,
) -> tuple[np.ndarray, int]:
    """One unit vector per text, and how many texts were embedded now: the rest come from
    `memory` (this server's last run, by source identity and text) or the `store`;
    `embed(texts)` computes the others."""
    keys = [text_key(text) for text in texts]
    known = _known(keys, model, store, memory)
    first_text = dict(zip(keys, texts))
    missing = list(dict.fromkeys(key for key in keys if key not in known))
    if missing:
        fresh = dict(zip(missing, embed([first_text[key] for key in missing])))
        known.update(fresh)
        if store is not None:
            store.put(fresh)
    if memory is not None:
        memory.clear()
        memory[model.identity] = {key: known[key] for key in keys}
    matrix = np.zeros((len(texts), model.dimension), dtype=np.float32)
    for row, key in enumerate(keys):
        matrix[row] = known[key]
    return matrix, len(missing)
