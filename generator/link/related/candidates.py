"""Each paper's most similar papers by TF-IDF cosine (the candidates generator.link.related.similar ranks),
found exactly the same way by a cold run and by a run that remembers the last one.

Cosines are computed exactly: each raw TF-IDF weight (sublinear tf x idf, similar._tfidf) is
rounded to a whole multiple of 2^-QUANTUM_BITS (at most ~2^20 units), so every dot product of
two rows is a whole number below 2^53 that float64 holds exactly whatever the order of its
sums: a BLAS product of blocks, a sparse product of one row, or the old product corrected by
the changed columns all give the same bits. A cosine is that product over the two norms. The
rounding moves cosines by under 1e-6 (all 5 corpora, 4,242 papers: the same related lists; 5
pages show a score 0.001 apart), and lists are ranked by (cosine, lower index) so that ties
never depend on how a row was searched.

Under `mkdocs serve` an edit changes one paper's row, and the weight of the words whose
document frequency it changes in every row that has them (often a thousand rows, by a tiny
amount). The run keeps, per paper, the width + MARGIN best candidates with their exact products
and a bound on the cosine of any other paper. After an edit:
- products of kept pairs are corrected by the columns whose weight changed (few, sparse);
- a row that moved more than MOVED (the edited papers, papers sharing a word that entered or
  left the vocabulary) is computed whole against every paper;
- any other pair's cosine moved by at most |u'-u| + |v'-v| (unit rows), so a paper's bound
  grows by its own move plus the largest move of an unmoved row;
- a paper whose `width`-th best known cosine no longer beats its bound is computed whole.
An edit (a sentence added or cut, a word changed) searches a few rows whole instead of every
row, and finds the same arrays (decision 0002; tests/runtime/test_incremental.py, after random
edits, additions and deletions). Additions and deletions change every idf: those runs compute
everything again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import cast

import numpy as np
from scipy import sparse
from threadpoolctl import threadpool_limits

from generator.context import in_two_processes

QUANTUM_BITS = 14  # raw weights are below ~40 (1 + ln tf, times idf <= ~10): integers < 2^20
MARGIN = 40  # candidates kept per paper for the next run beyond `width` (at 40 + 40: ~0.01 of cosine)
MOVED = 0.002  # rows that moved more than this (unit-vector distance) are computed whole
MAX_MOVED = 64  # more moved rows than this: the whole corpus is computed again
DENSE_TERMS = 256  # the commonest words, multiplied as a dense matrix (float64: 768 cost more)
ROW_BLOCK = 512
SLACK = 1e-9  # float64 rounding of norms and moves, far above their ~1e-15


@dataclass(frozen=True)
class State:
    """What a run leaves for the next: its corpus, exact weights, and per paper the stored
    candidates (-1 where fewer), their exact products and a bound on every other cosine."""

    documents: tuple[str, ...]
    terms: np.ndarray
    weights: sparse.csr_matrix  # float64, whole numbers
    norms: np.ndarray
    stored: np.ndarray  # (n, width + MARGIN) indices
    products: np.ndarray  # (n, width + MARGIN) exact dot products
    bound: np.ndarray  # (n,) no paper outside `stored` has a higher cosine


def nearest(raw: sparse.csr_matrix, terms: np.ndarray, documents: list[str], width: int) -> tuple[np.ndarray, np.ndarray, State]:
    """For each row, the `width` most similar other rows (indices, float32 cosines) best first,
    ties by lower index; and the state nearest_after_edit starts from in the next run. Rows are
    searched in two processes where that pays (context.in_two_processes)."""
    weights, norms, keep = _prepared(raw, width)
    return _found(_cold(weights, norms, terms, documents, keep), width)


def nearest_after_edit(
    last: State | None, raw: sparse.csr_matrix, terms: np.ndarray, documents: list[str], width: int
) -> tuple[np.ndarray, np.ndarray, State]:
    """What `nearest` finds, from `last` (the state the last run left; None: none) where the
    corpus changed little: the module's docstring says how. Additions, deletions and edits that
    move many rows are searched whole, as `nearest` does."""
    weights, norms, keep = _prepared(raw, width)
    state = _update(last, weights, norms, terms, documents, keep, width) if last is not None else None
    return _found(state if state is not None else _cold(weights, norms, terms, documents, keep), width)


def _prepared(raw: sparse.csr_matrix, width: int) -> tuple[sparse.csr_matrix, np.ndarray, int]:
    """The exact weights, their row norms, and how many candidates are stored per row."""
    weights = _whole(raw)
    norms = np.sqrt(np.asarray(weights.multiply(weights).sum(axis=1)).ravel())
    return weights, norms, min(width + MARGIN, weights.shape[0] - 1)


def _found(state: State, width: int) -> tuple[np.ndarray, np.ndarray, State]:
    stored, products = state.stored[:, :width], state.products[:, :width]
    scores = _cosine(products, state.norms[:, None], state.norms[np.maximum(stored, 0)])
    return stored, scores.astype(np.float32), state


def _whole(raw: sparse.csr_matrix) -> sparse.csr_matrix:
    weights = raw.astype(np.float64)
    weights.data = np.rint(weights.data * 2.0**QUANTUM_BITS)
    weights.sort_indices()
    return weights


def _cosine(products: np.ndarray, norms_i: np.ndarray, norms_j: np.ndarray) -> np.ndarray:
    scale = norms_i * norms_j
    return np.divide(products, scale, out=np.zeros(np.broadcast_shapes(products.shape, scale.shape)), where=scale > 0)


def _best(scores: np.ndarray, columns: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the positions of the `keep` best scores, ties by lower column (invalid: -inf),
    best first; and the best score left out (-inf when none)."""
    order = np.lexsort((columns, -scores), axis=1)
    rows = np.arange(scores.shape[0])[:, None]
    left = scores[rows, order[:, keep : keep + 1]].ravel() if scores.shape[1] > keep else np.full(scores.shape[0], -np.inf)
    return order[:, :keep], left


def _best_of_all(scores: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """_best over whole rows (columns are the papers), without sorting them whole: the keep+1
    best by value, the lowest columns among those tied with the last, then sorted."""
    count, n = scores.shape
    take = min(keep + 1, n)
    last = -np.partition(-scores, take - 1, axis=1)[:, take - 1 : take]
    chosen = scores >= last
    crowded = np.flatnonzero(chosen.sum(axis=1) > take)  # rows with ties at the last place (rare)
    if len(crowded):
        tied = scores[crowded] == last[crowded]
        room = take - (scores[crowded] > last[crowded]).sum(axis=1, keepdims=True)
        chosen[crowded] &= (scores[crowded] > last[crowded]) | (np.cumsum(tied, axis=1) <= room)
    columns = np.nonzero(chosen)[1].reshape(count, take)  # row by row, in column order
    best, left = _best(np.take_along_axis(scores, columns, axis=1), columns, keep)
    return np.take_along_axis(columns, best, axis=1), left


def _whole_rows(weights: sparse.csr_matrix, norms: np.ndarray, rows: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows searched against every paper: stored indices, products and bound. Many rows are
    split in two, the second half searched in a forked process meanwhile, each process's BLAS
    on one thread: less CPU and wall time than one process with two BLAS threads (decision
    0007)."""
    factors = _factors(weights)
    with threadpool_limits(1, user_api="blas"):
        parts = in_two_processes(lambda some: _search(factors, norms, some, keep), rows)
    return cast("tuple[np.ndarray, np.ndarray, np.ndarray]", tuple(np.concatenate(part) for part in zip(*parts)))


def _factors(weights: sparse.csr_matrix) -> tuple[np.ndarray, sparse.csr_matrix, sparse.csr_matrix]:
    """The commonest words' columns as a dense matrix, the rest sparse, and the rest transposed."""
    dense = np.argsort(-np.bincount(weights.indices, minlength=weights.shape[1]), kind="stable")[:DENSE_TERMS]
    rare = np.setdiff1d(np.arange(weights.shape[1]), dense)
    uncommon = weights[:, rare].tocsr()
    return weights[:, dense].toarray(), uncommon, uncommon.T.tocsr()


def _search(factors, norms: np.ndarray, rows: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """_whole_rows in this process."""
    common, uncommon, uncommon_t = factors
    stored = np.empty((len(rows), keep), dtype=np.int64)
    products = np.empty((len(rows), keep))
    bound = np.empty(len(rows))
    for start in range(0, len(rows), ROW_BLOCK):
        block = rows[start : start + ROW_BLOCK]
        exact = common[block] @ common.T
        exact += (uncommon[block] @ uncommon_t).toarray()  # whole numbers: exact in any order
        scores = _cosine(exact, norms[block, None], norms[None, :])
        scores[np.arange(len(block)), block] = -np.inf
        best, left = _best_of_all(scores, keep)
        stored[start : start + len(block)] = best
        products[start : start + len(block)] = np.take_along_axis(exact, best, axis=1)
        bound[start : start + len(block)] = left
    return stored, products, bound


def _cold(weights, norms, terms, documents, keep) -> State:
    stored, products, bound = _whole_rows(weights, norms, np.arange(weights.shape[0]), keep)
    return State(tuple(documents), terms, weights, norms, stored, products, bound)


def _update(last: State, weights, norms, terms, documents, keep, width) -> State | None:
    """The new state from the last, or None when the corpus changed too much (or in size)."""
    n = weights.shape[0]
    if len(last.documents) != n or last.stored.shape[1] != keep:
        return None  # every idf changed
    old_row = _old_rows(last.documents, documents)
    # Old weights in the new rows and columns (columns by word; a word no longer kept is dropped,
    # its weight moves the row all the same).
    union = np.union1d(last.terms.astype(str), terms.astype(str))
    new_w = _in_columns(weights, np.searchsorted(union, terms.astype(str)), len(union))
    old_w = _in_columns(last.weights, np.searchsorted(union, last.terms.astype(str)), len(union))
    # Columns whose idf changed (n is the same: those whose document frequency did), where an
    # unedited row's weight changes too.
    changed = np.flatnonzero(np.bincount(new_w.indices, minlength=len(union)) != np.bincount(old_w.indices, minlength=len(union)))
    fresh = old_row < 0
    old_w = old_w[np.maximum(old_row, 0)]
    old_norms = last.norms[np.maximum(old_row, 0)]
    unit_new = sparse.diags(np.where(norms > 0, 1 / np.where(norms > 0, norms, 1), 0)) @ new_w
    unit_old = sparse.diags(np.where(old_norms > 0, 1 / np.where(old_norms > 0, old_norms, 1), 0)) @ old_w
    difference = unit_new - unit_old
    move = np.sqrt(np.asarray(difference.multiply(difference).sum(axis=1)).ravel())
    moved = np.flatnonzero(fresh | (move > MOVED))
    if len(moved) > MAX_MOVED:
        return None
    still = np.ones(n, dtype=bool)
    still[moved] = False
    largest_still_move = move[still].max(initial=0.0)

    # Kept pairs between unmoved papers: old products corrected on the changed columns.
    new_index = np.full(len(last.documents), -1)
    new_index[old_row[~fresh]] = np.flatnonzero(~fresh)
    stored = np.where(last.stored >= 0, new_index[np.maximum(last.stored, 0)], -1)[np.maximum(old_row, 0)]
    products = last.products[np.maximum(old_row, 0)].copy()
    valid = (stored >= 0) & still[np.maximum(stored, 0)] & still[:, None]
    i, slot = np.nonzero(valid)
    j = stored[i, slot]
    products[i, slot] += _pair_products(new_w[:, changed].tocsr(), i, j) - _pair_products(old_w[:, changed].tocsr(), i, j)
    # Moved papers against every paper, exactly.
    if len(moved):
        against_moved = (weights @ weights[moved].T).toarray()  # (n, moved): whole numbers
    else:
        against_moved = np.zeros((n, 0))
    known = np.concatenate([np.where(valid, stored, -1), np.broadcast_to(moved, (n, len(moved)))], axis=1)
    known_products = np.concatenate([np.where(valid, products, 0.0), against_moved], axis=1)
    known[known == np.arange(n)[:, None]] = -1
    scores = np.where(known >= 0, _cosine(known_products, norms[:, None], norms[np.maximum(known, 0)]), -np.inf)
    best, left = _best(scores, np.where(known >= 0, known, n), keep)
    rows = np.arange(n)[:, None]
    new_stored = np.where(np.isfinite(scores[rows, best]), known[rows, best], -1)
    new_products = known_products[rows, best]
    bound = np.maximum(last.bound[np.maximum(old_row, 0)] + move + largest_still_move + SLACK, left)
    # Certified where the `width`-th best known cosine beats every unknown one; else searched whole.
    kth = scores[rows, best[:, width - 1 : width]].ravel()
    redo = np.flatnonzero(~(kth > bound) | ~still)
    if len(redo):
        new_stored[redo], new_products[redo], bound[redo] = _whole_rows(weights, norms, redo, keep)
    return State(tuple(documents), terms, weights, norms, new_stored, new_products, bound)


def _old_rows(old: tuple[str, ...], new: list[str]) -> np.ndarray:
    """Each new document's row in the last run, -1 when it is new (or repeated)."""
    where: dict[str, int] = {}
    for index, document in enumerate(old):
        where[document] = -1 if document in where else index
    repeated = Counter(new)
    return np.array([where.get(document, -1) if repeated[document] == 1 else -1 for document in new], dtype=np.int64)


def _in_columns(matrix: sparse.csr_matrix, columns: np.ndarray, width: int) -> sparse.csr_matrix:
    moved = sparse.csr_matrix((matrix.data, columns[matrix.indices], matrix.indptr), shape=(matrix.shape[0], width))
    moved.sort_indices()
    return moved


def _pair_products(matrix: sparse.csr_matrix, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Dot products of rows i[k] and j[k] (whole numbers: exact)."""
    if not len(i) or not matrix.nnz:
        return np.zeros(len(i))
    return np.asarray(matrix[i].multiply(matrix[j]).sum(axis=1)).ravel()
