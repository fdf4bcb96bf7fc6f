"""Which papers are related: TF-IDF cosine, smoothed over each paper's neighbourhood, capped.

1. Vectors: sublinear TF-IDF of words (English stop words, words in at least 2 papers and at
   most half of them), built with numpy; tags and key phrases are part of each document
   (link.corpus.document). Bigrams go into the matrix that explains links, not the similarity.
2. Candidates: each paper's CANDIDATES most similar papers by exact cosine, in row blocks
   (generator.link.related.candidates).
3. Smoothing: a candidate j of paper i scores cos(i, j) + SMOOTHING * the mean over i's
   GRAPH_NEIGHBOURS nearest papers m (weighted by cos(i, m)) of cos(m, j): a candidate close to
   i's whole neighbourhood wins, the same topic in other words.
4. Shared topics: a candidate sharing no tag, key phrase, phrase or name with the paper ranks
   UNSUPPORTED_PENALTY lower (with meaning vectors, Mixing.penalty): such a link could only be
   explained by a lone word.
5. Fair assignment: pairs are taken best first while the target is recommended fewer than
   MAX_RECOMMENDED times; then papers nobody recommends take the weakest slot of a paper
   they are close to.

Why these and not the variants tried (per corpus, leave-one-venue-out): decision 0001.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import chain, count
from typing import Any, cast

import numpy as np
import yaml
from scipy import sparse
from threadpoolctl import threadpool_limits

from generator.context import incremental, remembered, reused
from generator.language.textutil import ENGLISH_STOP_WORDS
from generator.link.related.candidates import nearest, nearest_after_edit
from generator.link.related.closeness import in_meaning, in_meaning_after_edit

ROW_BLOCK = 1024  # rows smoothed at a time
CANDIDATES = 40
GRAPH_NEIGHBOURS = 15
SMOOTHING = 1.0
UNSUPPORTED_PENALTY = 0.1  # a candidate sharing no topic with the paper ranks this much lower
MAX_RECOMMENDED = 10


@dataclass(frozen=True)
class Mixing:
    """How meaning vectors join related papers (decision 0016): how much meaning counts beside
    words in a candidate's score (`weight`), how many candidates are taken by meaning before
    those by words (`candidates`), and the penalty for a candidate sharing no topic (`penalty`)."""

    weight: float
    candidates: int
    penalty: float
    floor: float = 0.0  # links ranked at least this high are shown as related, the rest as "also near" (decision 0030)


def _mixing(entry: dict) -> Mixing:
    return Mixing(
        float(entry["semantic_weight"]), int(entry["semantic_candidates"]), float(entry["semantic_penalty"]), float(entry["link_floor"])
    )


# Fitted per meaning source by lab/tune_related.py into generator/data/related.yml, with the
# setting fitted without each venue (for judging a venue blind).
_FITTED = yaml.safe_load(resources.files("generator").joinpath("data/related.yml").read_text(encoding="utf-8"))["sources"]
DEFAULT_SOURCE = "abstracts-site-meaning-table"  # the built-in table (generator.language.meaning.table)
WORDS_ONLY = "words-only"  # no meaning vectors: only the floor of its entry is read


def fitted_mixing(source: str | None = DEFAULT_SOURCE) -> Mixing:
    """The setting fitted for the meaning source named `source` (None: words only; the table's
    for a source not fitted)."""
    return _mixing(_FITTED.get(source or WORDS_ONLY) or _FITTED[DEFAULT_SOURCE])


FITTED_MIXING = fitted_mixing()


def mixing_without(venue: str, source: str | None) -> Mixing:
    """The setting fitted for `source` (None: words only) on the other venues' corpora (the shipped one if none was)."""
    entry = ((_FITTED.get(source or WORDS_ONLY) or {}).get("without_venue") or {}).get(venue)
    return _mixing(entry) if entry else fitted_mixing(source)


_WORD = re.compile(r"\w\w+")  # scikit-learn's default token pattern, \b\w\w+\b (greedy: the same)
_ANY_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Neighbours:
    lists: list[list[tuple[int, float]]]  # per paper: (other paper's index, cosine score), best first
    strengths: list[list[float]]  # per paper, per link in `lists`: the ranking the list is ordered by
    matrix: sparse.csr_matrix  # TF-IDF rows of words and bigrams, for explaining links
    terms: np.ndarray  # the matrix's column names


@dataclass(frozen=True)
class Numbered:
    """Texts as word ids (lower case), the words numbered in order of first appearance."""

    words: list[str]  # by id
    lengths: np.ndarray  # tokens per text
    flat: np.ndarray  # every text's ids, text after text
    chars: list[int]  # each text's length in characters


def numbered(texts: list[str], pattern: re.Pattern = _WORD) -> Numbered:
    """`texts` as word ids."""
    return _number([pattern.findall(text.lower()) for text in texts], [len(text) for text in texts])


def _number(tokens: Iterable[Sequence[str]], chars: list[int], words: Sequence[str] = ()) -> Numbered:
    """Each text's tokens as ids; `words`: ids already given (new words are numbered after them)."""
    ids: defaultdict[str, int] = defaultdict(count(len(words)).__next__, zip(words, range(len(words))))
    found = [list(map(ids.__getitem__, text)) for text in tokens]  # ints: far less memory than words (decision 0001)
    lengths = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
    flat = np.fromiter(chain.from_iterable(found), dtype=np.int64, count=int(lengths.sum()))
    return Numbered(list(ids), lengths, flat, chars)


def _continued(heads: Numbered, documents: list[str]) -> Numbered | None:
    """numbered(documents) from `heads`, numbered(...) of each document's beginning up to a
    space (worked out ahead, generator.link.corpus): only the rest of each document is read here.
    None when a head does not end where a word can."""
    if len(heads.chars) != len(documents) or any(document[cut : cut + 1] not in ("", " ") for document, cut in zip(documents, heads.chars)):
        return None
    tails = _number([_WORD.findall(document[cut:].lower()) for document, cut in zip(documents, heads.chars)], [], heads.words)
    # Each document's head ids, then its tail's, renumbered by first appearance in that order.
    lengths = heads.lengths + tails.lengths
    starts = np.cumsum(lengths) - lengths
    at_head, at_tail = _spread(starts, heads.lengths), _spread(starts + heads.lengths, tails.lengths)
    merged = np.empty(int(lengths.sum()), dtype=np.int64)
    merged[at_head] = heads.flat
    merged[at_tail] = tails.flat
    # Where each word first appears: head ids count up from 0 in order of appearance, so a
    # head word first appears where the running maximum grows; tails are short.
    first = np.full(len(tails.words), len(merged))
    grows = np.flatnonzero(np.diff(np.maximum.accumulate(heads.flat), prepend=-1) > 0)
    first[heads.flat[grows]] = at_head[grows]
    np.minimum.at(first, tails.flat, at_tail)
    order = np.argsort(first)
    renumbered = np.empty(len(tails.words), dtype=np.int64)
    renumbered[order] = np.arange(len(order))
    return Numbered([tails.words[i] for i in order.tolist()], lengths, renumbered[merged], [len(d) for d in documents])


def _spread(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions starts[k], starts[k] + 1, ... (lengths[k] of them) for every k."""
    return np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(int(lengths.sum()))


def _tokens(
    documents: list[str], pattern: re.Pattern, stop: frozenset[str], heads: Numbered | None = None
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Every kept token as (document, word id), in text order, and the words by id. With `heads`
    (see _continued), only the ends of the documents are read; without, each document's words
    (interned: a run's words held once, not once per occurrence), under `mkdocs serve` the last
    run's for a document it saw (context.remembered)."""
    tokens = _continued(heads, documents) if heads is not None and pattern is _WORD else None
    if tokens is None:
        found = (
            remembered(
                "words", (pattern.pattern, d), cast("Callable[[], Any]", lambda d=d: tuple(map(sys.intern, pattern.findall(d.lower()))))
            )
            for d in documents
        )
        tokens = _number(found, [])
    words, lengths, flat = tokens.words, tokens.lengths, tokens.flat
    kept = ~np.fromiter((w in stop for w in words), dtype=bool, count=len(words))[flat]
    return np.repeat(np.arange(len(documents)), lengths)[kept], flat[kept], words


def _normalised(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    matrix.data /= np.repeat(np.where(norms > 0, norms, 1), np.diff(matrix.indptr)).astype(np.float32)
    return matrix


def _tfidf(rows: np.ndarray, columns: np.ndarray, n: int, width: int, min_df: int, max_df: float) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Sublinear TF-IDF of (row, column) occurrences (not normalised), and the kept columns' old ids."""
    counts = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, columns)), shape=(n, width))
    counts.sum_duplicates()
    df = np.bincount(counts.indices, minlength=width)
    kept = np.flatnonzero((df >= min_df) & (df <= max_df * n))
    counts = counts[:, kept].tocsr()
    counts.data = 1 + np.log(counts.data)
    counts.data *= (np.log((1 + n) / (1 + df[kept])) + 1).astype(np.float32)[counts.indices]
    return counts, kept


@dataclass(frozen=True)
class Vectors:
    words: sparse.csr_matrix  # L2-normalised word TF-IDF rows (for similarity)
    matrix: sparse.csr_matrix  # L2-normalised word+bigram TF-IDF rows (for explaining links)
    terms: np.ndarray  # matrix's column names
    raw_words: sparse.csr_matrix  # `words` before normalising (generator.link.related.candidates computes on these exactly)
    word_terms: np.ndarray  # their column names


def vectorize(documents: list[str]) -> tuple[sparse.csr_matrix, sparse.csr_matrix, np.ndarray]:
    """Word TF-IDF rows (for similarity), word+bigram TF-IDF rows and their column names
    (for explanations). Abstracts of only stop words, digits or symbols ('0', '???') still
    get a row: a permissive vocabulary first, an empty one last (such papers relate by order)."""
    found = vectors(documents)
    return found.words, found.matrix, found.terms


def vectors(documents: list[str], heads: Numbered | None = None) -> Vectors:
    """vectorize's rows, and the raw word weights. `heads` (see _continued) only saves time."""
    return _vectors(documents, heads)


def _vectors(documents: list[str], heads: Numbered | None = None) -> Vectors:
    n = len(documents)
    attempts = [
        (_WORD, ENGLISH_STOP_WORDS, 1 if n < 200 else 2, 0.5 if n >= 20 else 1.0),
        (_ANY_WORD, frozenset(), 1, 1.0),
    ]
    for pattern, stop, min_df, max_df in attempts:
        rows, flat, words = _tokens(documents, pattern, stop, heads)
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
        raw = matrix[:, order].tocsr()
        matrix = _normalised(matrix)[:, order].tocsr()  # normalised before reordering: the same sums as always
        word_columns = np.flatnonzero(is_word[order])
        terms = names[order].astype(object)  # str, not np.str_
        words = _normalised(matrix[:, word_columns].tocsr())
        return Vectors(words, matrix, terms, raw[:, word_columns].tocsr(), terms[word_columns])
    empty = sparse.csr_matrix((n, 1), dtype=np.float32)
    return Vectors(empty, empty, np.array([""], dtype=object), empty, np.array([""], dtype=object))


def _smoothed(indices: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """cos(i, j) + SMOOTHING * the cos(i, m)-weighted mean of cos(m, j) over i's nearest m."""
    n, width = indices.shape
    k = min(GRAPH_NEIGHBOURS, width)
    rows = np.repeat(np.arange(n), width)
    known = sparse.csr_matrix((scores.ravel(), (rows, indices.ravel())), shape=(n, n))
    known = known.maximum(known.T) + sparse.identity(n, dtype=np.float32, format="csr")
    weights = np.maximum(scores[:, :k], 0)
    weights /= np.where(weights.sum(axis=1, keepdims=True) > 0, weights.sum(axis=1, keepdims=True), 1)
    graph = sparse.csr_matrix((weights.ravel(), (np.repeat(np.arange(n), k), indices[:, :k].ravel())), shape=(n, n))
    result = scores.copy()
    for start in range(0, n, ROW_BLOCK):
        block = (graph[start : start + ROW_BLOCK] @ known).toarray()
        result[start : start + ROW_BLOCK] += SMOOTHING * np.take_along_axis(block, indices[start : start + ROW_BLOCK], axis=1)
    return result


def _unsupported(indices: np.ndarray, topics: list[frozenset[str]]) -> np.ndarray:
    """Per candidate, True when it shares no topic with its paper (`topics`: per paper). Under
    `mkdocs serve`, a row whose paper and candidates have the very topics of the last run is
    not worked out again (context.reused; decision 0002)."""

    def row_of(i: int, row: list[int]) -> list[bool]:
        return [topics[i].isdisjoint(topics[j]) for j in row]

    flags = [
        reused("unsupported", topics[i], tuple(topics[j] for j in row), cast("Callable[[], Any]", lambda i=i, row=row: row_of(i, row)))
        for i, row in enumerate(indices.tolist())
    ]
    return np.array(flags, dtype=bool).reshape(indices.shape)


def neighbours(
    documents: list[str],
    count: int,
    topics: list[frozenset[str]] | None = None,
    found: Vectors | None = None,
    meanings: np.ndarray | None = None,
    mixing: Mixing = FITTED_MIXING,
) -> Neighbours:
    """Each paper's `count` best-ranked candidates, fairly assigned (the arguments: see `ranked`).
    Areas play no part: a same-area bonus measured no better."""
    if found is None:
        found = vectors(documents)
    k = min(count, len(documents) - 1)
    indices, cosine, ranking = ranked(documents, count, topics, found, meanings, mixing)
    columns = assign(indices, ranking, k)
    lists = [[(int(indices[i, c]), max(0.0, float(cosine[i, c]))) for c in row] for i, row in enumerate(columns)]
    strengths = [ranking[i, row].tolist() for i, row in enumerate(columns)]
    return Neighbours(lists, strengths, found.matrix, found.terms)


def ranked(
    documents: list[str],
    count: int,
    topics: list[frozenset[str]] | None = None,
    found: Vectors | None = None,
    meanings: np.ndarray | None = None,
    mixing: Mixing = FITTED_MIXING,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each paper's candidates (indices), their word cosines and their ranking (steps 2 to 4 of
    the module's docstring): the ranking is a link's strength. `topics`: per paper, the topics a
    reason on a link can name; a candidate sharing none with the paper ranks UNSUPPORTED_PENALTY
    (with `meanings`, `mixing.penalty`) lower. Under `mkdocs serve` the candidates and
    their closeness in meaning are worked out from the last run's (_nearest, _in_meaning).
    `found`: vectors(documents) when made already. `meanings`: per paper, a unit vector of what
    its abstract means (generator.language.meaning), mixed into the candidates' scores as
    `mixing` says (see mixed)."""
    n = len(documents)
    if found is None:
        found = vectors(documents)
    k = min(count, n - 1)
    width = min(max(CANDIDATES, 3 * k), n - 1)
    extra = min(mixing.candidates, n - 1 - width) if meanings is not None else 0
    indices, cosine = _nearest(found, documents, width + extra)
    scores = cosine
    if meanings is not None:
        # One BLAS thread: the products are small, and a second thread spins on after each one,
        # on the core the page converter needs (figures in decisions 0007, 0016).
        with threadpool_limits(1, user_api="blas"):
            indices, cosine, closeness = _carried(
                "in_meaning",
                lambda: in_meaning(indices, cosine, meanings, found.words, extra),
                lambda last: in_meaning_after_edit(last, indices, cosine, meanings, found.words, extra),
            )
            scores = mixed(cosine, closeness, meanings, mixing.weight)
        order = np.argsort(-scores, axis=1, kind="stable")  # smoothing reads the first columns as the nearest
        indices, cosine, scores = (np.take_along_axis(a, order, axis=1) for a in (indices, cosine, scores))
    ranking = _smoothed(indices, scores)
    if topics is not None:
        ranking -= (UNSUPPORTED_PENALTY if meanings is None else mixing.penalty) * _unsupported(indices, topics)
    return indices, cosine, ranking


def mixed(cosine: np.ndarray, closeness: np.ndarray, meanings: np.ndarray, weight: float) -> np.ndarray:
    """The candidates' word cosines plus `weight` times how much closer in meaning each
    candidate is (`closeness`) than two papers of the collection are on average (decision 0016)."""
    n = len(meanings)
    total = meanings.sum(axis=0, dtype=np.float64)
    average = (float(total @ total) - float(np.einsum("id,id->", meanings, meanings))) / max(1, n * (n - 1))
    return (cosine + weight * (closeness - average)).astype(np.float32)


def _nearest(found: Vectors, documents: list[str], width: int) -> tuple[np.ndarray, np.ndarray]:
    """Candidates by exact cosines (generator.link.related.candidates); under `mkdocs serve`,
    from the last run's (nearest_after_edit)."""
    raw, terms = found.raw_words, found.word_terms
    return _carried(
        "nearest", lambda: nearest(raw, terms, documents, width), lambda last: nearest_after_edit(last, raw, terms, documents, width)
    )


def _carried(kind: str, cold: Callable[[], tuple], after_edit: Callable[[Any], tuple]) -> Any:
    """cold()'s results but the last, the state it leaves for the next run; under `mkdocs
    serve`, after_edit(the state the last run left)'s (context.incremental)."""

    def results_and_state(last: Any) -> tuple[tuple, Any]:
        *results, state = after_edit(last)
        return tuple(results), state

    return incremental(kind, lambda: cold()[:-1], results_and_state)


def plain_top(documents: list[str], count: int) -> np.ndarray:
    """Each paper's `count` nearest papers by plain TF-IDF cosine, no smoothing, no cap: the
    guard the evaluation compares the chosen lists with (a method far from it must win clearly)."""
    found = vectors(documents)
    return nearest(found.raw_words, found.word_terms, documents, min(count, len(documents) - 1))[0]


def assign(indices: np.ndarray, ranking: np.ndarray, k: int) -> list[list[int]]:
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
    # Each row's ranks as Python floats (the same order as float32's): indexing numpy per
    # element was slow (decision 0001).
    return [[c for _, c in sorted(zip((-ranking[i, row]).tolist(), row))] for i, row in enumerate(chosen)]
