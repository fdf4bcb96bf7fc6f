"""Which papers are related: TF-IDF vectors, candidate neighbours, hub-free re-ranking.

1. Cosine similarity of TF-IDF vectors (sublinear tf, 1-2-grams, English stop words;
   tags and keyphrases repeated in each document), plus a small bonus for the same
   derived area. The vectors are scikit-learn's TfidfVectorizer's, built here with
   numpy in a few passes (4x faster, and linking no longer imports scikit-learn).
   Computed in row blocks, keeping CANDIDATES per paper, so memory is O(papers x block)
   and never a dense papers x papers matrix; the commonest words go through one dense
   matrix product, the long tail through a sparse one (together ~2x faster).
2. CSLS re-ranking (Conneau et al. 2018): score = 2 cos(i, j) - r_i - r_j, where r is a
   paper's mean similarity to its 10 nearest papers. Papers close to everything
   (hubs) lose their edge, so one paper is not recommended from every page.
3. Fair assignment: pairs are accepted best first while the target is recommended
   fewer than MAX_RECOMMENDED times (ICLR 2020's site used the same kind of limit),
   then papers nobody recommends take the weakest slot of a paper they are close to.
Measured with `python -m generator.evaluate` (see the README).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import chain, count

import numpy as np
from scipy import sparse

from .textutil import ENGLISH_STOP_WORDS

ROW_BLOCK = 1024
DENSE_TERMS = 768  # the commonest words, multiplied as a dense matrix
CANDIDATES = 40
HUB_NEIGHBOURS = 10
SAME_AREA_BONUS = 0.03
MAX_RECOMMENDED = 10

_WORD = re.compile(r"\w\w+")  # scikit-learn's default token pattern, \b\w\w+\b (greedy: the same)
_ANY_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Neighbours:
    lists: list[list[tuple[int, float]]]  # per paper: (other paper's index, cosine score), best first
    matrix: sparse.csr_matrix  # TF-IDF rows of words and bigrams, for explaining links
    terms: np.ndarray  # the matrix's column names


def _tokens(documents: list[str], pattern: re.Pattern, stop: frozenset[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Every kept token as (document, word id), in text order, and the words by id."""
    found = [pattern.findall(d.lower()) for d in documents]
    lengths = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
    ids: defaultdict[str, int] = defaultdict(count().__next__)
    flat = np.fromiter(map(ids.__getitem__, chain.from_iterable(found)), dtype=np.int64, count=int(lengths.sum()))
    words = list(ids)
    kept = ~np.fromiter((w in stop for w in words), dtype=bool, count=len(words))[flat]
    return np.repeat(np.arange(len(documents)), lengths)[kept], flat[kept], words


def _normalised(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    matrix.data /= np.repeat(np.where(norms > 0, norms, 1), np.diff(matrix.indptr)).astype(np.float32)
    return matrix


def _tfidf(rows: np.ndarray, columns: np.ndarray, n: int, width: int, min_df: int, max_df: float) -> tuple[sparse.csr_matrix, np.ndarray]:
    """L2-normalised sublinear TF-IDF of (row, column) occurrences, and the kept columns' old ids."""
    counts = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, columns)), shape=(n, width))
    counts.sum_duplicates()
    df = np.bincount(counts.indices, minlength=width)
    kept = np.flatnonzero((df >= min_df) & (df <= max_df * n))
    counts = counts[:, kept].tocsr()
    counts.data = 1 + np.log(counts.data)
    counts.data *= (np.log((1 + n) / (1 + df[kept])) + 1).astype(np.float32)[counts.indices]
    return _normalised(counts), kept


def vectorize(documents: list[str]) -> tuple[sparse.csr_matrix, sparse.csr_matrix, np.ndarray]:
    """Word TF-IDF rows (for similarity), word+bigram TF-IDF rows and their column names
    (for explanations). Abstracts of only stop words, digits or symbols ('0', '???') still
    get a row: a permissive vocabulary first, an empty one last (such papers relate by order)."""
    n = len(documents)
    attempts = [
        (_WORD, ENGLISH_STOP_WORDS, 1 if n < 200 else 2, 0.5 if n >= 20 else 1.0),
        (_ANY_WORD, frozenset(), 1, 1.0),
    ]
    for pattern, stop, min_df, max_df in attempts:
        rows, flat, words = _tokens(documents, pattern, stop)
        # Bigrams of neighbouring kept tokens within a document (stop words already gone).
        same = rows[1:] == rows[:-1]
        pairs, bigrams = np.unique(flat[:-1][same] * len(words) + flat[1:][same], return_inverse=True)
        rows = np.concatenate([rows, rows[1:][same]])
        matrix, kept = _tfidf(rows, np.concatenate([flat, len(words) + bigrams]), n, len(words) + len(pairs), min_df, max_df)
        if not kept.size:
            continue  # "empty vocabulary"
        vocabulary = np.array(words, dtype=object)
        is_word = kept < len(words)
        pair = pairs[kept[~is_word] - len(words)]
        names = np.empty(len(kept), dtype=object)
        names[is_word] = vocabulary[kept[is_word]]
        names[~is_word] = [f"{a} {b}" for a, b in zip(vocabulary[pair // len(words)], vocabulary[pair % len(words)])]
        names = names.astype(str)
        order = np.argsort(names, kind="stable")  # alphabetical columns, as scikit-learn's
        matrix = matrix[:, order].tocsr()
        return _normalised(matrix[:, np.flatnonzero(is_word[order])].tocsr()), matrix, names[order].astype(object)  # str, not np.str_
    empty = sparse.csr_matrix((n, 1), dtype=np.float32)
    return empty, empty, np.array([""], dtype=object)


def _candidates(matrix: sparse.csr_matrix, areas: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """For each row, the `width` most similar other rows (indices and cosines), by blocks."""
    n = matrix.shape[0]
    df = np.bincount(matrix.indices, minlength=matrix.shape[1])
    common = np.argsort(-df, kind="stable")[:DENSE_TERMS]
    rest = np.setdiff1d(np.arange(matrix.shape[1]), common)
    dense = matrix[:, common].toarray()
    rare = matrix[:, rest].tocsr()
    rare_t = rare.T.tocsr()
    indices = np.zeros((n, width), dtype=np.int64)
    scores = np.zeros((n, width), dtype=np.float32)
    for start in range(0, n, ROW_BLOCK):
        block = dense[start : start + ROW_BLOCK] @ dense.T
        block += (rare[start : start + ROW_BLOCK] @ rare_t).toarray()
        block += SAME_AREA_BONUS * (areas[start : start + ROW_BLOCK, None] == areas[None, :])
        rows = np.arange(block.shape[0])
        block[rows, start + rows] = -np.inf
        top = np.argpartition(block, n - width, axis=1)[:, n - width :] if width < n else np.tile(np.arange(n), (len(rows), 1))
        top_scores = np.take_along_axis(block, top, axis=1)
        order = np.lexsort((top, -top_scores), axis=1)  # best first; ties by index: deterministic
        indices[start : start + len(rows)] = np.take_along_axis(top, order, axis=1)[:, :width]
        scores[start : start + len(rows)] = np.take_along_axis(top_scores, order, axis=1)[:, :width]
    return indices, np.where(np.isfinite(scores), scores, 0.0).astype(np.float32)


def neighbours(documents: list[str], areas: list[str], count: int) -> Neighbours:
    n = len(documents)
    _, matrix, terms = vectorize(documents)
    k = min(count, n - 1)
    width = min(max(CANDIDATES, 3 * k), n - 1)
    area_codes = np.unique(np.array(areas), return_inverse=True)[1]
    indices, scores = _candidates(matrix, area_codes, width)
    hubness = scores[:, : min(HUB_NEIGHBOURS, width)].mean(axis=1)
    csls = 2 * scores - hubness[:, None] - hubness[indices]
    cosine = scores - SAME_AREA_BONUS * (area_codes[:, None] == area_codes[indices])
    columns = _assign(indices, csls, k)
    lists = [[(int(indices[i, c]), max(0.0, float(cosine[i, c]))) for c in row] for i, row in enumerate(columns)]
    return Neighbours(lists, matrix, terms)


def _assign(indices: np.ndarray, ranking: np.ndarray, k: int) -> list[list[int]]:
    """k candidate columns per paper, best ranking first, no paper recommended more than MAX_RECOMMENDED times."""
    n, width = indices.shape
    cap = max(MAX_RECOMMENDED, k)
    chosen: list[list[int]] = [[] for _ in range(n)]
    received = [0] * n
    open_lists = n
    order = np.argsort(-ranking, axis=None, kind="stable")  # ties: lower index first
    for i, c, j in zip((order // width).tolist(), (order % width).tolist(), indices.ravel()[order].tolist()):
        row = chosen[i]
        if len(row) < k and received[j] < cap:
            row.append(c)
            received[j] += 1
            if len(row) == k:
                open_lists -= 1
                if open_lists == 0:
                    break
    for i in range(n):  # rare: every candidate already at the cap
        for c in range(width):
            if len(chosen[i]) >= k:
                break
            if c not in chosen[i]:
                chosen[i].append(c)
                received[indices[i, c]] += 1
    # Papers nobody recommends take the weakest slot of a paper they are close to,
    # when that slot's paper is recommended elsewhere too.
    for j in np.flatnonzero(np.array(received) == 0):
        for i in indices[j]:
            hit = np.flatnonzero(indices[i] == j)
            if hit.size and chosen[i] and received[indices[i, chosen[i][-1]]] > 1:
                received[indices[i, chosen[i][-1]]] -= 1
                chosen[i][-1] = int(hit[0])
                received[j] += 1
                break
    return [sorted(row, key=lambda c, i=i: (-ranking[i, c], c)) for i, row in enumerate(chosen)]
