"""A 2D map of all papers: related papers close together, areas as colours.

The layout starts from a spectral embedding of the related-papers graph and is refined
with 150 vectorised steps of UMAP's force model (attract along graph edges, repel from
random papers). A paper's nearest map neighbours share its real area about as often as
with t-SNE, far more than with the spectral start alone, at a fraction of t-SNE's time; more
steps took longer without placing papers better, fewer left more points overlapping
(decision 0009). It is deterministic.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from generator.model import Paper

EPOCHS = 150
NEGATIVE_SAMPLES = 5
STEP = 0.5
GRAVITY = 0.01
# UMAP's curve parameters for min_dist = 0.1.
A, B = 1.58, 0.9


def _graph(papers: list[Paper]) -> sparse.csr_matrix:
    index = {p.id: i for i, p in enumerate(papers)}
    rows, cols, weights = [], [], []
    for i, paper in enumerate(papers):
        for related in paper.related:
            j = index.get(related.id)
            if j is not None:
                rows.append(i)
                cols.append(j)
                weights.append(max(related.score, 1e-3))
    return _symmetric(rows, cols, weights, len(papers))


def _symmetric(rows: list[int], cols: list[int], weights: list[float], n: int) -> sparse.csr_matrix:
    graph = sparse.csr_matrix((weights, (rows, cols)), shape=(n, n))
    return graph.maximum(graph.T)


def _accumulate(index: np.ndarray, gradient: np.ndarray, n: int) -> np.ndarray:
    return np.stack(
        [np.bincount(index, weights=gradient[:, 0], minlength=n), np.bincount(index, weights=gradient[:, 1], minlength=n)],
        axis=1,
    )


def _spectral(graph: sparse.csr_matrix, dims: int = 2) -> np.ndarray:
    """Laplacian eigenmaps: the 2nd to (dims+1)th largest eigenvectors of the normalised adjacency
    D^-1/2 A D^-1/2 (the smallest of the normalised Laplacian, as sklearn's SpectralEmbedding
    finds them, but without its slow shift-invert factorisation: decision 0009)."""
    # ARPACK (importing scipy.linalg with it) only where the map is made: the map's own process
    # in a one-off run, not the main one, which imports the passes' modules early (decision 0009).
    from scipy.sparse.linalg import eigsh

    n = graph.shape[0]
    scale = 1 / np.sqrt(np.asarray(graph.sum(axis=1)).ravel() + 1e-12)
    normalised = sparse.diags(scale) @ graph @ sparse.diags(scale)
    start = np.random.default_rng(0).random(n)  # ARPACK's start vector: fixed, so maps are reproducible
    values, vectors = eigsh(normalised, k=dims + 1, which="LA", v0=start, tol=1e-4)
    order = np.argsort(-values)[1 : dims + 1]
    return vectors[:, order] * scale[:, None]


def graph_of(lists: list[list[tuple[int, float]]]) -> sparse.csr_matrix:
    """The related-papers graph from each paper's (other paper's index, cosine) list, the
    scores as the papers' Related hold them (3 places): the graph _graph builds once they do."""
    rows = [i for i, found in enumerate(lists) for _ in found]
    cols = [j for found in lists for j, _ in found]
    weights = [max(round(score, 3), 1e-3) for found in lists for _, score in found]
    return _symmetric(rows, cols, weights, len(lists))


def positions(papers: list[Paper], graph: sparse.csr_matrix | None = None) -> np.ndarray:
    """Each paper's place on the map, in [0, 1] x [0, 1]. `graph`: the related-papers graph
    when built already (graph_of)."""
    n = len(papers)
    if n < 8:  # too few for an embedding: a circle
        angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return 0.5 + 0.35 * np.stack([np.cos(angles), np.sin(angles)], axis=1) if n > 1 else np.full((n, 2), 0.5)
    graph = _graph(papers) if graph is None else graph
    layout = _refine(graph, _spectral(graph))
    # Scale by the central 98%: a few stray papers must not squeeze everyone else into a corner.
    low, high = np.percentile(layout, 1, axis=0), np.percentile(layout, 99, axis=0)
    scaled = (layout - low) / np.where(high - low > 0, high - low, 1)
    return 0.03 + 0.94 * np.clip(scaled, 0, 1)


def _refine(graph: sparse.csr_matrix, start: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(0)
    edges = sparse.triu(graph, 1).tocoo()
    i, j = edges.row, edges.col
    n = start.shape[0]
    # Spectral coordinates of small disconnected groups can be extreme: rank-normalise first.
    layout = (np.argsort(np.argsort(start, axis=0), axis=0) / max(n - 1, 1) - 0.5) * 10
    degree = np.bincount(np.concatenate([i, j]), minlength=n) + 1
    sources = np.repeat(np.arange(n), NEGATIVE_SAMPLES)
    for epoch in range(EPOCHS):
        rate = STEP * (1.0 - epoch / EPOCHS)
        delta = layout[i] - layout[j]
        d2 = (delta * delta).sum(axis=1) + 1e-9
        pull = np.clip((-2 * A * B * d2 ** (B - 1) / (1 + A * d2**B))[:, None] * delta, -4, 4)
        update = _accumulate(i, pull, n) - _accumulate(j, pull, n)
        others = rng.integers(0, n, len(sources))
        delta = layout[sources] - layout[others]
        d2 = (delta * delta).sum(axis=1)
        push = np.clip((2 * B / ((0.001 + d2) * (1 + A * d2**B)))[:, None] * delta, -4, 4)
        update += _accumulate(sources, push, n) * (degree / NEGATIVE_SAMPLES)[:, None]
        update -= GRAVITY * layout * degree[:, None]  # keeps groups without links near the rest
        layout += rate * update / degree[:, None]
    return layout
