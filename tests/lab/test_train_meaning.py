"""Fitting the meaning table (lab/train_meaning.py): the ridge solve finds the rows whose
mean reproduces a teacher's vectors, and the folder it saves is the table a build loads."""

from __future__ import annotations

import numpy as np
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace

from generator.language.meaning.table import TableEncoder, find_table
from lab import train_meaning


def planted(seed: int = 0, words: int = 40, texts: int = 600, dimension: int = 8):
    """A vocabulary with hidden rows, texts of random words, and each text's target: the unit mean of its rows."""
    rng = np.random.default_rng(seed)
    rows = rng.normal(size=(words, dimension))
    vocabulary = {f"w{i}": i for i in range(words)}
    tokenizer = Tokenizer(WordLevel(vocabulary | {"[UNK]": words}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    pieces = [rng.integers(0, words, rng.integers(3, 12)) for _ in range(texts)]
    means = np.stack([rows[p].mean(axis=0) for p in pieces])
    return tokenizer, rows, pieces, means / np.linalg.norm(means, axis=1, keepdims=True)


def test_the_ridge_solve_reproduces_the_teachers_vectors():
    tokenizer, rows, pieces, targets = planted()
    means = train_meaning.mean_matrix(pieces, tokenizer.get_vocab_size())
    kept, fitted = train_meaning.fit_rows(means, targets, min_docs=3, ridge=1e-6)
    assert list(kept) == list(range(40))  # every word is in at least three texts; [UNK] in none
    predicted = np.asarray(means[:, kept] @ fitted)
    predicted /= np.linalg.norm(predicted, axis=1, keepdims=True)
    assert np.einsum("ij,ij->i", predicted, targets).min() > 0.95


def test_a_saved_table_is_what_a_build_loads_and_saving_twice_gives_the_same_bytes(tmp_path):
    tokenizer, rows, pieces, targets = planted()
    means = train_meaning.mean_matrix(pieces, tokenizer.get_vocab_size())
    kept, fitted = train_meaning.fit_rows(means, targets, min_docs=3, ridge=1e-6)
    reduced = train_meaning.principal(fitted, np.ones(len(kept)), 8)
    first = train_meaning.save(tmp_path / "one", tokenizer, kept, reduced, {"fitted_on": "planted"})
    second = train_meaning.save(tmp_path / "two", tokenizer, kept, reduced, {"fitted_on": "planted"})
    assert (
        first == second and (tmp_path / "one" / "model.safetensors").read_bytes() == (tmp_path / "two" / "model.safetensors").read_bytes()
    )
    table = find_table(tmp_path / "one")
    assert table.dimension == 8 and table.identity.endswith(first)
    vectors = TableEncoder(table).embed(["w1 w2 w3", "w1 w2 w3 w4", "w30 w31"])
    # The loaded table orders texts as the fit does (int8 rounding aside).
    fit_vectors = np.stack([reduced[[1, 2, 3]].mean(0), reduced[[1, 2, 3, 4]].mean(0), reduced[[30, 31]].mean(0)])
    fit_vectors /= np.linalg.norm(fit_vectors, axis=1, keepdims=True)
    assert np.einsum("ij,ij->i", vectors, fit_vectors).min() > 0.99
