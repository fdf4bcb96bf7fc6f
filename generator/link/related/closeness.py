"""Each paper's candidates with meaning (step 2 of generator.link.related.similar with meaning
vectors): the `extra` papers closest to it in meaning, then its candidates by words not among
them, each with its word cosine and its closeness in meaning (the product of the two unit
vectors). Found the same way by a cold run and by a run that remembers the last one.

A cold run multiplies the vectors a block of rows at a time (float32, one BLAS thread) and takes
each row's `extra` largest products. Under `mkdocs serve` an edit changes the vectors of the
edited papers only, so only their products change: row c of a changed paper, and column c of
every other row. The run keeps each row's closest papers, their products and the products of
its candidates; after an edit a row is searched whole again only when
- its paper changed, or one of its closest papers did;
- a changed paper's new product reaches its `extra`-th largest (it may enter);
- its `extra`-th largest product was tied with a paper left out (which tied paper is taken is
  the search's choice, not the values').
Other rows keep their closest papers; a product of a changed paper is read from that paper's
row, and a candidate new to a row (the word candidates move with every edit) has its row
searched whole. With 4,242 papers an edit searches a few rows instead of 4,242 (decision 0033).

This gives the very bits a cold run gives only if the BLAS gives the product of two vectors the
same bits in any block of rows and in either order. A matrix product does so on the machines
measured; a vector product (one row) sums in another order, so a single row is multiplied as a
block of two. Each cold run checks both on its own blocks; where either fails, every run is cold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

ROW_BLOCK = 1024  # rows multiplied at a time (a block of 1,024 x 4,242 products is 17 MB)
PAIR_BLOCK = 20_000  # paper pairs whose word cosine is computed at a time (sparse rows multiplied)
CHECKED_ROWS = 8  # a cold run compares these rows' products with the same products in every block
MAX_CHANGED = 64  # more changed vectors than this (another meaning source): a cold run
MAX_SEARCHED_SHARE = 0.25  # more rows to search whole than this share: a cold run


@dataclass(frozen=True)
class State:
    """What a run leaves for the next: the vectors and, per row, its closest papers (best first),
    their products, whether the last of them was tied, its candidates and their products."""

    meanings: np.ndarray  # (n, d) float32 unit rows
    close: np.ndarray  # (n, extra)
    close_products: np.ndarray  # (n, extra)
    tied: np.ndarray  # (n,) bool
    merged: np.ndarray  # (n, width)
    closeness: np.ndarray  # (n, width)
    exact: bool  # products came out the same in every block and order checked


def in_meaning(
    indices: np.ndarray, cosine: np.ndarray, meanings: np.ndarray, words: sparse.csr_matrix, extra: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, State]:
    """Each row's candidates: its `extra` papers closest in meaning (ties by lower index), then its
    closest by words (`indices`, best first) not among those, as many as before; with their word
    cosines (from `cosine` where known, else computed for those pairs only) and their cosines in
    meaning; and the state in_meaning_after_edit starts from in the next run."""
    return _cold(indices, cosine, meanings, words, extra)


def in_meaning_after_edit(
    last: State | None, indices: np.ndarray, cosine: np.ndarray, meanings: np.ndarray, words: sparse.csr_matrix, extra: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, State]:
    """What `in_meaning` finds, from `last` (the state an earlier run left; None: none): only the
    rows an edit changed are searched, where the last run's results are exact (decision 0033)."""
    changed = _changed_rows(last, meanings, indices.shape, extra)
    if last is not None and changed is not None:
        found = _update(last, changed, indices, cosine, meanings, words, extra)
        if found is not None:
            return found
    return _cold(indices, cosine, meanings, words, extra)


def _cold(
    indices: np.ndarray, cosine: np.ndarray, meanings: np.ndarray, words: sparse.csr_matrix, extra: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, State]:
    n, width = indices.shape
    close = np.empty((n, extra), dtype=np.intp)
    close_products = np.empty((n, extra), dtype=np.float32)
    tied = np.zeros(n, dtype=bool)
    merged = np.empty_like(indices)
    merged_cosine = np.empty(indices.shape, dtype=np.float32)
    closeness = np.empty(indices.shape, dtype=np.float32)
    checked: np.ndarray | None = None
    exact = True
    for start in range(0, n, ROW_BLOCK):
        rows = np.arange(start, min(start + ROW_BLOCK, n))
        block = meanings[start : start + ROW_BLOCK] @ meanings.T
        if checked is None:
            checked = block[:CHECKED_ROWS].copy()
        # Product (i, j) of this block against (j, i) of the first block's rows.
        exact = exact and np.array_equal(block[:, : len(checked)], checked[:, rows].T)
        close[rows], close_products[rows], tied[rows] = _closest(block, rows, extra)
        merged[rows], merged_cosine[rows] = _candidates(close[rows], indices[rows], cosine[rows], words, rows)
        closeness[rows] = np.take_along_axis(block, merged[rows], axis=1)
    exact = exact and checked is not None and _products_agree(meanings, checked)
    return merged, merged_cosine, closeness, State(meanings.copy(), close, close_products, tied, merged, closeness, exact)


def _update(
    last: State, changed: np.ndarray, indices: np.ndarray, cosine: np.ndarray, meanings: np.ndarray, words: sparse.csr_matrix, extra: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, State] | None:
    """The cold run's results from the last run's and the changed rows' products; None where a
    cold run is cheaper (too many rows to search whole)."""
    n = len(meanings)
    changed_products = _products(meanings, changed)  # (changed, n): (c, i) is also (i, c)
    searched = np.zeros(n, dtype=bool)
    searched[changed] = True
    searched |= last.tied
    if extra and len(changed):
        searched |= np.isin(last.close, changed).any(axis=1)
        entering = changed_products.copy()
        entering[np.arange(len(changed)), changed] = -np.inf  # a paper is never its own candidate
        searched |= (entering >= last.close_products[:, -1]).any(axis=0)
    close, close_products, tied = last.close.copy(), last.close_products.copy(), last.tied.copy()
    blocks = _searched_blocks(meanings, np.flatnonzero(searched), n)
    if blocks is None:
        return None
    for rows, block in blocks:
        close[rows], close_products[rows], tied[rows] = _closest(block, rows, extra)
    merged = np.empty_like(indices)
    merged_cosine = np.empty(indices.shape, dtype=np.float32)
    for start in range(0, n, ROW_BLOCK):
        rows = np.arange(start, min(start + ROW_BLOCK, n))
        merged[rows], merged_cosine[rows] = _candidates(close[rows], indices[rows], cosine[rows], words, rows)
    closeness, unknown = _known_products(last, merged, changed, changed_products)
    for rows, block in blocks:
        closeness[rows] = np.take_along_axis(block, merged[rows], axis=1)
        unknown[rows] = False
    late = _searched_blocks(meanings, np.flatnonzero(unknown), n)
    if late is None:
        return None
    for rows, block in late:
        closeness[rows] = np.take_along_axis(block, merged[rows], axis=1)
    return merged, merged_cosine, closeness, State(meanings.copy(), close, close_products, tied, merged, closeness, last.exact)


def _changed_rows(last: State | None, meanings: np.ndarray, shape: tuple[int, ...], extra: int) -> np.ndarray | None:
    """The rows whose vector changed since `last`; None when the last run cannot be reused."""
    if last is None or not last.exact or last.meanings.shape != meanings.shape or last.merged.shape != shape:
        return None
    if last.close.shape[1] != extra:
        return None
    changed = np.flatnonzero((last.meanings != meanings).any(axis=1))
    return changed if len(changed) <= MAX_CHANGED else None


def _searched_blocks(meanings: np.ndarray, rows: np.ndarray, n: int) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Each block of `rows` with its products against every paper; None for too many rows."""
    if len(rows) > MAX_SEARCHED_SHARE * n:
        return None
    return [(rows[i : i + ROW_BLOCK], _products(meanings, rows[i : i + ROW_BLOCK])) for i in range(0, len(rows), ROW_BLOCK)]


def _known_products(last: State, merged: np.ndarray, changed: np.ndarray, changed_products: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's product where known without a search: from the last run (a pair of
    unchanged papers: its closest papers lead its candidates), or from a changed paper's row;
    and the rows with a candidate not known so."""
    match = merged[:, :, None] == last.merged[:, None, :]  # rows x width x width: which last candidate each one is
    found = match.any(axis=2)
    closeness = np.take_along_axis(last.closeness, match.argmax(axis=2), axis=1)
    position = np.full(len(merged), -1)
    position[changed] = np.arange(len(changed))
    of_changed = position[merged]
    rows, columns = np.nonzero(of_changed >= 0)
    closeness[rows, columns] = changed_products[of_changed[rows, columns], rows]
    found[rows, columns] = True
    return closeness, ~found.all(axis=1)


def _products(meanings: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The products of `rows` with every row, as a block of a cold run holds them: a matrix product
    of at least two rows (a single row would go through a vector product)."""
    if len(rows) >= 2:
        return meanings[rows] @ meanings.T
    if len(rows) == 1:
        return (meanings[[rows[0], rows[0]]] @ meanings.T)[:1]
    return np.empty((0, len(meanings)), dtype=meanings.dtype)


def _products_agree(meanings: np.ndarray, checked: np.ndarray) -> bool:
    """The first block's first rows come out the same multiplied alone and as a pair."""
    alone = _products(meanings, np.array([0]))
    pair = _products(meanings, np.arange(max(0, len(checked) - 2), len(checked)))
    return np.array_equal(alone[0], checked[0]) and np.array_equal(pair, checked[-len(pair) :])


def _closest(block: np.ndarray, rows: np.ndarray, extra: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of `block` (the products of papers `rows`): its `extra` largest products' papers,
    largest first (ties by lower index), those products, and whether the last was tied with a
    paper left out. Sets each paper's product with itself to -inf."""
    block[np.arange(len(rows)), rows] = -np.inf  # never the paper itself (no candidate is)
    if not extra:
        return np.empty((len(rows), 0), dtype=np.intp), np.empty((len(rows), 0), dtype=np.float32), np.zeros(len(rows), dtype=bool)
    top = np.argpartition(block, -extra, axis=1)[:, -extra:]  # the largest
    order = np.lexsort((top, -np.take_along_axis(block, top, axis=1)), axis=1)
    close = np.take_along_axis(top, order, axis=1)
    products = np.take_along_axis(block, close, axis=1)
    tied = (block >= products[:, -1:]).sum(axis=1) > extra
    return close, products, tied


def _candidates(
    close: np.ndarray, indices: np.ndarray, cosine: np.ndarray, words: sparse.csr_matrix, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`close` (per row, papers close in meaning), then the word candidates `indices` not among
    them, in order, up to the rows' width; with word cosines. Row r is paper rows[r]."""
    width, extra = indices.shape[1], close.shape[1]
    if not extra:
        return indices, cosine
    known = indices[:, :, None] == close[:, None, :]  # rows x width x extra: which word candidate each close one is
    rest = np.argsort(known.any(axis=2), axis=1, kind="stable")[:, : width - extra]  # the others, in their order
    close_cosine = np.einsum("ik,ikm->im", cosine, known.astype(np.float32))
    unknown_rows, unknown_columns = np.nonzero(~known.any(axis=1))
    for start in range(0, len(unknown_rows), PAIR_BLOCK):
        r, c = unknown_rows[start : start + PAIR_BLOCK], unknown_columns[start : start + PAIR_BLOCK]
        close_cosine[r, c] = np.asarray(words[rows[r]].multiply(words[close[r, c]]).sum(axis=1)).ravel()
    merged = np.hstack([close, np.take_along_axis(indices, rest, axis=1)])
    return merged, np.hstack([close_cosine, np.take_along_axis(cosine, rest, axis=1)]).astype(np.float32)
