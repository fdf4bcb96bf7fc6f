"""Which meaning source a build uses, and how it turns texts into vectors.

Two sources give a unit vector per abstract: the sentence model all-MiniLM-L6-v2 (model.py,
encoder.py), installed only when the user asks (`abstracts-site model install`), and the
built-in table learned from it (table.py), which ships with the package. A build uses the
model where it is installed, else the table (decision 0027): meaning is on by default.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from generator.language.meaning.model import Model, Unavailable, find
from generator.language.meaning.table import Table, find_table, table_encoder

Source = Model | Table
Embed = Callable[[list[str], bool], np.ndarray]  # texts, show a progress bar -> one unit row per text


def best_source() -> Source:
    """The installed sentence model, else the built-in table; Unavailable (saying why for
    each) when neither can run."""
    try:
        return find()
    except Unavailable:
        pass
    return find_table()


def embedder(source: Source) -> Embed:
    """How `source` embeds texts (the model or the table loaded once per process)."""
    if isinstance(source, Table):
        return table_encoder(source).embed
    from generator.language.meaning.encoder import encoder

    return encoder(source).embed


def worth_storing(source: Source) -> bool:
    """Whether the source's vectors are kept in the user's vector cache: the model's are slow to
    make, the table's are made again faster than they could be read back (decision 0027)."""
    return isinstance(source, Model)
