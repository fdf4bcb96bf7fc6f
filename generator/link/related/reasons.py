"""Why two related papers are related: the names, tags and key phrases they share, then
the heaviest shared phrases both abstracts contain or names both use (generator.link.corpus lists
them on each link). A reason is what a reader can find on one of the two pages: a tag or key
phrase one of them shows, a name, or their common area; never a term a page hides (a field's
tag such as 'robotics' at CoRL, a phrase cut inside a term: Paper.tag_choice.hidden; issue 52).
Worked out per paper once (`Side`), then per pair; under `mkdocs serve` remembered per pair
(`explained_after_edit`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generator.enrich.models import Models
from generator.enrich.tagging import normalise_keyword
from generator.enrich.tags import derived_terms
from generator.language import lexicon
from generator.language.learned import Choices
from generator.language.textutil import normalise_term
from generator.link.keyphrases import phrase_like
from generator.model import CandidatePhrases, Paper


def explained_after_edit(
    last: dict | None, digests: list[bytes], pairs: list[tuple[int, int]], matrix, terms: np.ndarray, explain
) -> tuple[dict, dict]:
    """Each pair's reasons, explain(pairs) where `last` (what the last run's call left; None:
    nothing) does not have them, and what this call leaves for the next. Asked first by the two
    papers' digests (_reason_keys); a pair whose TF-IDF rows changed (any edit that changes a
    word's document frequency moves the weights of ~1,000 rows at 4,200 papers) is asked again
    by what its reasons read of the rows: the shared terms, heaviest first (_shared_order, ~1/7
    of the time of working the reasons out)."""
    before = last if last is not None else {}
    used: dict = {}  # what this run read or made: what it leaves

    def known(key) -> bool:
        return key in used or key in before

    def get(key):
        if key not in used:
            used[key] = before[key]
        return used[key]

    sides = _reason_keys(digests, matrix, terms)
    explained: dict[tuple[int, int], tuple[str, ...]] = {}
    fresh = []
    for i, j in pairs:
        key = (sides[i], sides[j])
        if known(key):
            order, value = get(key)
            if order not in used:  # left for the next run, where the rows change
                used[order] = before.get(order, value)
        else:
            order = (digests[i], digests[j], _shared_order(matrix, i, j, terms))
            if not known(order):
                fresh.append((i, j, order))
                continue
            value = get(order)
            used[key] = (order, value)
        explained[i, j] = value
    for (i, j, order), value in zip(fresh, explain([(i, j) for i, j, _ in fresh])):
        used[(sides[i], sides[j])] = (order, value)
        used[order] = value
        explained[i, j] = value
    return explained, used


def paper_digest(paper: Paper) -> bytes:
    """What `explain` reads of a paper besides its TF-IDF row: its name, text, tags and key
    phrases (as derived and as shown), hidden terms, area and tag scores (candidate phrases and
    name spellings come from the text)."""
    data = repr(
        (
            paper.name,
            paper.text,
            derived_terms(paper),
            paper.tags,
            paper.keyphrases,
            paper.tag_choice.hidden,
            paper.area,
            paper.tag_choice.scores,
        )
    ).encode()
    return hashlib.blake2b(data, digest_size=16).digest()


def _reason_keys(digests: list[bytes], matrix, terms: np.ndarray) -> list[bytes]:
    """Per paper, a digest of everything `explain` reads of it: its TF-IDF row by value (its
    terms and weights: a row changes when the paper does, or when a word it shares with an
    edited paper changes its document frequency) and paper_digest. One digest per paper,
    not tuples per pair, whose hashing was slow (decision 0002)."""
    keys = []
    for i, paper in enumerate(digests):
        start, end = matrix.indptr[i], matrix.indptr[i + 1]
        digest = hashlib.blake2b(f"{end - start}\0".encode(), digest_size=16)  # the count first: no two rows read alike
        digest.update(matrix.data[start:end].tobytes())
        digest.update("\0".join(terms[matrix.indices[start:end]]).encode())
        digest.update(paper)
        keys.append(digest.digest())
    return keys


def _shared_order(matrix, i: int, j: int, terms: np.ndarray) -> tuple[str, ...]:
    """The terms rows i and j share, in the order `explain` reads them (heaviest product first)."""
    columns, weights = _shared_terms(matrix, i, j)
    return tuple(terms[columns[np.argsort(-weights, kind="stable")]])


def _shared_terms(matrix, i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
    """Columns two CSR rows share and the product of their weights (no sparse-matrix objects)."""
    start_i, end_i = matrix.indptr[i], matrix.indptr[i + 1]
    start_j, end_j = matrix.indptr[j], matrix.indptr[j + 1]
    columns, at_i, at_j = np.intersect1d(
        matrix.indices[start_i:end_i], matrix.indices[start_j:end_j], assume_unique=True, return_indices=True
    )
    return columns, matrix.data[start_i:end_i][at_i] * matrix.data[start_j:end_j][at_j]


@dataclass(frozen=True)
class Side:
    """What `explain` reads of one paper, worked out once per paper, not once per pair."""

    name: str | None
    text: str
    area: str
    tags: tuple[str, ...]
    tag_set: frozenset[str]
    terms: tuple[tuple[str, str], ...]  # tags, then key phrases, each with its normalised key
    topic_keys: frozenset[str]  # those keys
    keyphrase_keys: tuple[tuple[str, str], ...]  # key phrases with their normalised keys
    mentioned: frozenset[str]  # the vocabulary tags the abstract mentions
    phrase_keys: frozenset[str]  # its candidate phrases' keys
    names: dict[str, str]  # the names it uses, lower-cased -> as written
    shown_keys: frozenset[str]  # the keys of the tags and key phrases its page shows
    hidden_keys: frozenset[str]  # the keys of the terms its page hides (Paper.tag_choice.hidden)


def side_of(paper: Paper, names: dict[str, str]) -> Side:
    """`names`: the names its abstract uses, lower-cased -> as written. Its tags and key phrases as
    derived: grouping them for the page (enrich.tags.grouping_tags) changes no reason."""
    tags, keyphrases = derived_terms(paper)
    terms = tuple((t, normalise_term(t)) for t in (*tags, *keyphrases))
    return Side(
        paper.name,
        paper.text,
        paper.area,
        tags,
        frozenset(tags),
        terms,
        frozenset(key for _, key in terms),
        terms[len(tags) :],
        mentioned(paper.tag_choice.scores),
        _phrase_keys(paper.tag_choice.candidates),
        names,
        frozenset(normalise_term(t) for t in (*paper.tags, *paper.keyphrases)),
        frozenset(normalise_term(t) for t in paper.tag_choice.hidden),
    )


def explain(sides, pairs: list[tuple[int, int]], matrix, vocabulary: np.ndarray, models: Models | None = None) -> list[tuple[str, ...]]:
    """Why each pair (i, j) of papers is related: shared names, tags and key phrases, then the
    heaviest shared terms, at most 4. `sides`: per paper index, its `Side`. The terms two
    rows share are found for all pairs at once (`_shared_in_order`), and only for the pairs
    whose tags, phrases and names give fewer than 3 reasons. `models`: what tells a phrase
    and a keyword's tag (None: the shipped models)."""
    models = models or Models.shipped()
    named = [_named_reasons(sides[i], sides[j]) for i, j in pairs]
    short = [k for k, reasons in enumerate(named) if len(reasons) < 3]
    facts: dict[str, list] = {}  # per term, what `_telling` asks of it (this run's models: no module cache)
    for k, shared in zip(short, _shared_in_order(matrix, [pairs[k] for k in short], vocabulary)):
        i, j = pairs[k]
        named[k] = _term_reasons(sides[i], sides[j], named[k], shared, facts, models)
    return [tuple(reasons[:4]) for reasons in named]


def _named_reasons(a: Side, b: Side) -> list[str]:
    """Shared names, tags and key phrases (see `explain`), each shown on one of the two pages."""
    reasons: list[str] = []
    if a.name and a.name in b.text:
        reasons.append(a.name)
    if b.name and b.name in a.text and b.name not in reasons:
        reasons.append(b.name)
    b_tags = b.topic_keys
    for term, key in a.terms:
        if key in b_tags and term not in reasons and _shown(key, a, b):
            reasons.append(term)
    # A tag of one paper that the other abstract mentions too (below its own tag threshold).
    for tag in _mentioned_tags(a, b):
        if tag not in reasons and _shown(normalise_term(tag), a, b):
            reasons.append(tag)
    # A key phrase of one paper that the other abstract uses too (not among its own six).
    for phrase in _used_keyphrases(a, b):
        if phrase not in reasons and _shown(normalise_term(phrase), a, b):
            reasons.append(phrase)
    return reasons


def _shown(key: str, a: Side, b: Side) -> bool:
    """A term (by its key) one of the two pages shows and neither hides: a reader finds it there."""
    return (key in a.shown_keys or key in b.shown_keys) and key not in a.hidden_keys and key not in b.hidden_keys


def _term_reasons(a: Side, b: Side, reasons: list[str], shared: list[str], facts: dict[str, list], models: Models) -> list[str]:
    """`reasons` completed with the heaviest shared terms that tell something (`_telling`;
    `shared`: the terms both rows have, heaviest product first), else the fallback."""
    taken = {word for r in reasons for word in normalise_term(r).split()}
    phrases = a.phrase_keys & b.phrase_keys
    a_names, b_names = a.names, b.names
    names = a_names.keys() & b_names.keys()
    for term in shared:
        known = facts.get(term)
        if known is None:  # [a lone word?, its key, its key's words, whether its shape can tell, its keyword form]
            key = normalise_term(term)
            known = facts[term] = [len(term.split()) == 1, key, frozenset(key.split()), None, None]
        if not _telling(term, known, phrases, names, models.choices) or known[2] <= taken:
            continue
        if term not in names and not _shown(known[1], a, b):
            continue  # a phrase both abstracts contain that neither page shows ('success rate')
        if known[4] is None:
            known[4] = normalise_keyword(term, models.vocabulary)
        if known[4] in reasons:  # 'llm' after 'large language models'
            continue
        reasons.append(a_names.get(term, term))  # a name as the abstract writes it
        taken |= known[2]
        if len(reasons) >= 4:
            break
    if not reasons and a.area and a.area == b.area:
        reasons.append(a.area)  # their common area, on both pages
    return reasons


def _telling(term: str, known: list, shared_phrases: frozenset[str], shared_names, choices: Choices) -> bool:
    """A shared term worth showing as a reason: a name both abstracts use, or a phrase both
    abstracts really contain (not two words that only meet across a comma: 'models distillation').
    `known`: what `_term_reasons` remembers of the term, filled in here as asked."""
    if known[0]:
        # A lone word is a reason only when it is a name ('nerf' for NeRF): 'enabling',
        # 'transition' or 'efficiency' tell a reader nothing. The matrix is lower case,
        # so the name is looked up in how either abstract spells it.
        return term in shared_names
    if known[1] not in shared_phrases:
        return False
    if known[3] is None:
        known[3] = phrase_like(term, choices) and not all(w in _BOILERPLATE for w in term.split())
    return known[3]


def _shared_in_order(matrix, pairs: list[tuple[int, int]], vocabulary: np.ndarray) -> list[list[str]]:
    """Per pair (i, j), the terms rows i and j share, heaviest product first (ties: column
    order), as `_shared_order` reads them; all pairs in a few array operations."""
    if not pairs:
        return []
    rows_i, rows_j = np.array(pairs, dtype=np.int64).T
    products = matrix[rows_i].multiply(matrix[rows_j]).tocsr()
    products.sort_indices()
    pair_of = np.repeat(np.arange(len(pairs)), np.diff(products.indptr))
    order = np.argsort(-products.data, kind="stable")
    order = order[np.argsort(pair_of[order], kind="stable")]
    terms = vocabulary[products.indices[order]].tolist()
    bounds = products.indptr.tolist()
    return [terms[start:end] for start, end in zip(bounds, bounds[1:])]


def _mentioned_tags(a: Side, b: Side) -> list[str]:
    return [t for t in a.tags if t in b.mentioned and t not in b.tag_set] + [t for t in b.tags if t in a.mentioned and t not in a.tag_set]


def _used_keyphrases(a: Side, b: Side) -> list[str]:
    return [k for k, key in a.keyphrase_keys if key in b.phrase_keys] + [k for k, key in b.keyphrase_keys if key in a.phrase_keys]


@lru_cache(maxsize=32_768)
def mentioned(tag_scores: tuple[tuple[str, float], ...]) -> frozenset[str]:
    return frozenset(tag for tag, _ in tag_scores)


# Words every abstract may share: they say nothing about why two papers are related.
_BOILERPLATE = lexicon.words("boilerplate")


@lru_cache(maxsize=32_768)
def _phrase_keys(candidates: CandidatePhrases) -> frozenset[str]:
    return frozenset(key for key, _, _ in candidates)
