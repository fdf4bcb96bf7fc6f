"""Candidates with meaning (generator.link.related.closeness): a run that remembers the last one
finds the very arrays a cold run finds, after edits that move, copy (tie) and replace vectors
and change the word candidates; and it searches few rows to do so."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from generator.link.related import closeness

N, DIMENSIONS, WIDTH, EXTRA = 300, 16, 20, 5


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def word_candidates(words: sparse.csr_matrix, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Each row's WIDTH best rows by word cosine (a random tie-break), not itself."""
    cosine = (words @ words.T).toarray()
    np.fill_diagonal(cosine, -np.inf)
    order = np.argsort(-(cosine + 1e-9 * rng.random(cosine.shape)), axis=1)[:, :WIDTH]
    return order, np.take_along_axis(cosine, order, axis=1).astype(np.float32)


def planted(rng: np.random.Generator) -> np.ndarray:
    """Random vectors, with seven copies of one vector next to a paper (its fifth place is tied)."""
    meanings = rng.standard_normal((N, DIMENSIONS))
    meanings[30:37] = meanings[30]
    meanings[29] = meanings[30] + 0.01 * rng.standard_normal(DIMENSIONS)
    meanings[100] = meanings[101]
    return unit(meanings)


def test_a_run_after_edits_finds_what_a_cold_run_finds(monkeypatch):
    rng = np.random.default_rng(7)
    words = sparse.random(N, 200, density=0.05, random_state=3, format="csr", dtype=np.float64)
    words = sparse.csr_matrix(words.multiply(1 / np.maximum(1e-12, np.sqrt(words.multiply(words).sum(axis=1)))))
    indices, cosine = word_candidates(words, rng)
    meanings = planted(rng)
    *_, state = closeness.in_meaning(indices, cosine, meanings, words, EXTRA)
    assert state.exact and state.tied[29]
    monkeypatch.setattr(closeness, "MAX_SEARCHED_SHARE", 1.0)  # the test makes many ties: a cost, not a risk
    cold_runs = []
    real_cold = closeness._cold
    monkeypatch.setattr(closeness, "_cold", lambda *args: cold_runs.append(1) or real_cold(*args))
    for step in range(40):
        meanings = meanings.copy()
        for row in rng.choice(N, size=int(rng.integers(1, 4)), replace=False):
            kind = step % 4
            if kind == 0:  # reworded: a vector nearby
                meanings[row] = unit(meanings[row : row + 1] + 0.05 * rng.standard_normal((1, DIMENSIONS)))[0]
            elif kind == 1:  # the same abstract as another paper: tied products
                meanings[row] = meanings[rng.integers(N)]
            elif kind == 2:  # rewritten
                meanings[row] = unit(rng.standard_normal((1, DIMENSIONS)))[0]
            else:  # moved into the tied group
                meanings[row] = meanings[30]
        if step % 3 == 0:  # the word candidates move too (document frequencies change)
            indices, cosine = indices.copy(), cosine.copy()
            for row in rng.choice(N, size=5, replace=False):
                others = [j for j in rng.permutation(N).tolist() if j != row][:WIDTH]
                indices[row], cosine[row] = others, rng.random(WIDTH).astype(np.float32)
        before = len(cold_runs)
        *found, state = closeness.in_meaning_after_edit(state, indices, cosine, meanings, words, EXTRA)
        assert len(cold_runs) == before, "the edit was computed cold"
        *expected, cold_state = real_cold(indices, cosine, meanings, words, EXTRA)
        for got, want in zip(found, expected):
            assert got.dtype == want.dtype and np.array_equal(got, want)
        assert np.array_equal(state.close, cold_state.close) and np.array_equal(state.tied, cold_state.tied)


def test_an_edit_searches_few_rows(monkeypatch):
    rng = np.random.default_rng(11)
    words = sparse.identity(N, format="csr", dtype=np.float64)
    indices, cosine = word_candidates(words, rng)
    meanings = planted(rng)
    *_, state = closeness.in_meaning(indices, cosine, meanings, words, EXTRA)
    searched = []
    real = closeness._products
    monkeypatch.setattr(closeness, "_products", lambda m, rows: searched.append(len(rows)) or real(m, rows))
    meanings = meanings.copy()
    meanings[200] = unit(meanings[200:201] + 0.05 * rng.standard_normal((1, DIMENSIONS)))[0]
    closeness.in_meaning_after_edit(state, indices, cosine, meanings, words, EXTRA)
    assert 1 <= sum(searched) <= 40  # the paper, the tied ones, those it enters or leaves; not 300


@pytest.mark.parametrize("change", ["inexact", "extra", "size"])
def test_a_last_run_that_cannot_be_reused_gives_a_cold_run(change):
    rng = np.random.default_rng(5)
    words = sparse.identity(N, format="csr", dtype=np.float64)
    indices, cosine = word_candidates(words, rng)
    meanings = planted(rng)
    *_, state = closeness.in_meaning(indices, cosine, meanings, words, EXTRA)
    extra = EXTRA
    if change == "inexact":
        state = closeness.State(**{**vars(state), "exact": False})
    elif change == "extra":
        extra = EXTRA + 1
    else:
        indices, cosine, meanings, words = indices[:-1] % (N - 1), cosine[:-1], meanings[:-1], words[:-1, :-1]
    assert closeness._changed_rows(state, meanings, indices.shape, extra) is None
