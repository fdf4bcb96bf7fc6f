"""Which papers share a topic: the vectors the map's broad regions are grouped on.

Each paper is a unit vector of latent semantic analysis (a truncated SVD, 100 dimensions)
of the TF-IDF its related papers are found with (generator.link.related.similar, link.document): papers
worded alike point the same way, and words used alike (synonyms, a method and its task)
are merged. k-means regions on these vectors name their papers far better than regions on
spectral dimensions of the related-papers graph did: more of a region's papers carry its
label, and their titles and IJCAI sub-areas agree more (some regions stay unnamed:
explore.COHERENT). Mixing the graph's dimensions back in, or grouping on tags and key phrases
alone, did worse (decision 0009, measured with bench/region_quality.py).

The SVD is Halko et al.'s randomized range finder with 2 power steps, with numpy alone
(scikit-learn's randomized_svd gives the same figures, but is slow to import at build time
and is not a runtime dependency); its random start is fixed, so maps are reproducible.
"""

from __future__ import annotations

import numpy as np

from generator.link.corpus import document
from generator.link.related.similar import vectorize
from generator.model import Paper

DIMS = 100
POWER_STEPS = 2  # more (scikit-learn's default is 7) made no better regions, for far more time (decision 0009)
OVERSAMPLE = 10


def _truncated_svd(matrix, dims: int) -> np.ndarray:
    """The rows of `matrix` on its `dims` leading singular directions (U * S)."""
    rng = np.random.default_rng(0)
    basis = matrix @ rng.standard_normal((matrix.shape[1], dims + OVERSAMPLE))
    for _ in range(POWER_STEPS):
        # Re-orthonormalised at each step, else the leading direction swamps the rest.
        basis = matrix @ (matrix.T @ np.linalg.qr(basis)[0])
    basis = np.linalg.qr(basis)[0]
    # The small matrix's left singular vectors from its Gram matrix: an SVD of the wide
    # matrix itself was much slower (decision 0009).
    small = (matrix.T @ basis).T
    values, vectors = np.linalg.eigh(small @ small.T)
    order = np.argsort(-values)[:dims]
    return (basis @ vectors[:, order]) * np.sqrt(np.maximum(values[order], 0))


def topic_vectors(papers: list[Paper], dims: int = DIMS, words=None) -> np.ndarray:
    """Each paper as a unit vector; papers of one topic point the same way. `words`: the papers'
    word TF-IDF rows when linking made them already (similar.vectorize's first)."""
    return _vectors_of(tuple(document(p) for p in papers), dims, words)


def _vectors_of(documents: tuple[str, ...], dims: int = DIMS, words=None) -> np.ndarray:
    matrix = vectorize(list(documents))[0] if words is None else words
    dims = min(dims, min(matrix.shape) - 1)
    if dims < 1:  # no shared words: one region for all
        return np.ones((len(documents), 1))
    vectors = _truncated_svd(matrix, dims)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
