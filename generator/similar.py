"""Which papers are related: TF-IDF vectors, candidate neighbours, hub-free re-ranking.

1. Cosine similarity of TF-IDF vectors (sublinear tf, 1-2-grams, English stop words;
   tags and keyphrases repeated in each document), plus a small bonus for the same
   derived area. Computed in row blocks, keeping CANDIDATES per paper, so memory is
   O(papers x block) and never a dense papers x papers matrix.
2. CSLS re-ranking (Conneau et al. 2018): score = 2 cos(i, j) - r_i - r_j, where r is a
   paper's mean similarity to its 10 nearest papers. Papers close to everything
   (hubs) lose their edge, so one paper is not recommended from every page.
3. Fair assignment: pairs are accepted best first while the target is recommended
   fewer than MAX_RECOMMENDED times (ICLR 2020's site used the same kind of limit),
   then papers nobody recommends take the weakest slot of a paper they are close to.
Measured with `python -m generator.evaluate` (see the README).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

ROW_BLOCK = 512
CANDIDATES = 40
HUB_NEIGHBOURS = 10
SAME_AREA_BONUS = 0.03
MAX_RECOMMENDED = 10


@dataclass(frozen=True)
class Neighbours:
    lists: list[list[tuple[int, float]]]  # per paper: (other paper's index, cosine score), best first
    matrix: sparse.csr_matrix  # TF-IDF rows, for explaining links
    terms: np.ndarray  # the matrix's column names


def vectorize(documents: list[str]) -> tuple[sparse.csr_matrix, np.ndarray]:
    """TF-IDF rows. Abstracts of only stop words, digits or symbols ('0', '???') still get
    a row: a permissive vocabulary first, an empty one last (such papers relate by order)."""
    from sklearn.feature_extraction.text import TfidfVectorizer  # ~1 s to import: only when linking

    n = len(documents)
    attempts = [
        dict(stop_words="english", min_df=1 if n < 200 else 2, max_df=0.5 if n >= 20 else 1.0),
        dict(token_pattern=r"(?u)\b\w+\b"),
    ]
    for options in attempts:
        vectorizer = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), dtype=np.float32, **options)
        try:
            matrix = vectorizer.fit_transform(documents).tocsr()
        except ValueError:  # "empty vocabulary"
            continue
        return matrix, vectorizer.get_feature_names_out()
    return sparse.csr_matrix((n, 1), dtype=np.float32), np.array([""])


def _candidates(matrix: sparse.csr_matrix, areas: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """For each row, the `width` most similar other rows (indices and cosines), by blocks."""
    n = matrix.shape[0]
    indices = np.zeros((n, width), dtype=np.int64)
    scores = np.zeros((n, width), dtype=np.float32)
    transposed = matrix.T.tocsc()
    for start in range(0, n, ROW_BLOCK):
        block = (matrix[start : start + ROW_BLOCK] @ transposed).toarray()
        block += SAME_AREA_BONUS * (areas[start : start + ROW_BLOCK, None] == areas[None, :])
        rows = np.arange(block.shape[0])
        block[rows, start + rows] = -np.inf
        top = np.argpartition(-block, width - 1, axis=1)[:, :width] if width < n else np.tile(np.arange(n), (len(rows), 1))
        top_scores = np.take_along_axis(block, top, axis=1)
        order = np.lexsort((top, -top_scores), axis=1)  # best first; ties by index: deterministic
        indices[start : start + len(rows)] = np.take_along_axis(top, order, axis=1)[:, :width]
        scores[start : start + len(rows)] = np.take_along_axis(top_scores, order, axis=1)[:, :width]
    return indices, scores


def neighbours(documents: list[str], areas: list[str], count: int) -> Neighbours:
    n = len(documents)
    matrix, terms = vectorize(documents)
    k = min(count, n - 1)
    width = min(max(CANDIDATES, 3 * k), n - 1)
    area_codes = np.unique(np.array(areas), return_inverse=True)[1]
    indices, scores = _candidates(matrix, area_codes, width)
    scores = np.where(np.isfinite(scores), scores, -1.0)
    hubness = scores[:, : min(HUB_NEIGHBOURS, width)].mean(axis=1)
    csls = 2 * scores - hubness[:, None] - hubness[indices]
    cosine = scores - SAME_AREA_BONUS * (area_codes[:, None] == area_codes[indices])
    columns = _assign(indices, csls, k)
    lists = [[(int(indices[i, c]), max(0.0, float(cosine[i, c]))) for c in row] for i, row in enumerate(columns)]
    return Neighbours(lists, matrix, terms)


def _assign(indices: np.ndarray, csls: np.ndarray, k: int) -> list[list[int]]:
    """k candidate columns per paper, best CSLS first, no paper recommended more than MAX_RECOMMENDED times."""
    n, width = indices.shape
    cap = max(MAX_RECOMMENDED, k)
    chosen: list[list[int]] = [[] for _ in range(n)]
    received = np.zeros(n, dtype=np.int64)
    open_lists = n
    for flat in np.argsort(-csls, axis=None, kind="stable"):  # ties: lower index first
        i, c = divmod(int(flat), width)
        j = indices[i, c]
        if len(chosen[i]) < k and received[j] < cap:
            chosen[i].append(c)
            received[j] += 1
            open_lists -= len(chosen[i]) == k
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
    for j in np.flatnonzero(received == 0):
        for i in indices[j]:
            hit = np.flatnonzero(indices[i] == j)
            if hit.size and chosen[i] and received[indices[i, chosen[i][-1]]] > 1:
                received[indices[i, chosen[i][-1]]] -= 1
                chosen[i][-1] = int(hit[0])
                received[j] += 1
                break
    return [sorted(row, key=lambda c, i=i: (-csls[i, c], c)) for i, row in enumerate(chosen)]
