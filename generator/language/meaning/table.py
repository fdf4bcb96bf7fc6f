"""The built-in meaning table: what an abstract means, from a static table of word-piece vectors.

A text's vector is the mean of its word pieces' rows, scaled to length 1 (Model2Vec's static
embeddings, run by the `model2vec` package). The table ships with the package
(generator/data/meaning/), so every build has related papers by meaning with no download and
no model to run. `make train` (lab/train_meaning.py) fits it so that a text's mean row
reproduces what all-MiniLM-L6-v2 makes of the text; figures in decision 0027.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

import numpy as np

from generator.language.meaning.model import Unavailable

FOLDER = "data/meaning"
CONFIG = "config.json"
TABLE = "model.safetensors"
TOKENIZER = "tokenizer.json"
# Word pieces read per text: as many as all-MiniLM-L6-v2 reads (256 less [CLS] and [SEP]). The
# table learns the model's vectors, which never see a longer text's tail (decision 0027).
MAX_TOKENS = 254


def read_span(tokenizer) -> int:
    """How many characters of a text model2vec tokenizes: it cuts a text at MAX_TOKENS times
    the median length of the vocabulary's tokens before tokenizing (then at MAX_TOKENS pieces).
    The fit (lab/train_meaning.py) reads texts the same way."""
    return MAX_TOKENS * int(np.median([len(token) for token in tokenizer.get_vocab()]))


@dataclass(frozen=True)
class Table:
    """The table's folder and what its config says (the identity changes whenever its vectors could)."""

    folder: Path
    name: str
    identity: str
    dimension: int


def table_folder() -> Path:
    return Path(str(resources.files("generator").joinpath(FOLDER)))


def find_table(folder: Path | None = None) -> Table:
    """The built-in table (or the one in `folder`); Unavailable when its files or model2vec are missing."""
    folder = folder or table_folder()
    if find_spec("model2vec") is None:
        raise Unavailable("the package model2vec is not installed: install abstracts-site again (pip install abstracts-site)")
    try:
        config = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
        about = config["abstracts_site"]
        table = Table(folder, str(about["name"]), str(about["identity"]), int(config["hidden_dim"]))
    except (OSError, ValueError, KeyError, TypeError):
        raise Unavailable(f"the meaning table in {folder} is missing or unreadable: install abstracts-site again") from None
    if not (folder / TABLE).is_file() or not (folder / TOKENIZER).is_file():
        raise Unavailable(f"the meaning table in {folder} is incomplete: install abstracts-site again")
    return table


class TableEncoder:
    """The table loaded as a model2vec StaticModel (read from its folder here, so that model2vec
    never looks for it on a model hub)."""

    def __init__(self, table: Table):
        from model2vec import StaticModel
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.table = table
        tensors = load_file(str(table.folder / TABLE))
        config = json.loads((table.folder / CONFIG).read_text(encoding="utf-8"))
        self.model = StaticModel(
            vectors=tensors["embeddings"],
            tokenizer=Tokenizer.from_file(str(table.folder / TOKENIZER)),
            config=config,
            normalize=True,
            token_mapping=tensors.get("mapping"),
            max_length=MAX_TOKENS,
        )

    def embed(self, texts: list[str], progress: bool = False) -> np.ndarray:
        """One unit-length float32 row per text, in order (a text with no known word piece: zeros)."""
        if not texts:
            return np.zeros((0, self.table.dimension), dtype=np.float32)
        # In this process: a build's workers are forked already, and a text's vector is the same alone or in a batch.
        vectors = self.model.encode(list(texts), show_progress_bar=progress, use_multiprocessing=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)


@cache
def table_encoder(table: Table) -> TableEncoder:
    """The table loaded once per process."""
    return TableEncoder(table)
