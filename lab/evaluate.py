"""Score what the generator derives against the real fields of a paper corpus.

    python -m lab.evaluate CORPUS.jsonl [...] [--json OUT.json] [--limit N]
                                 [--related K] [--seed S] [--examples N]

Each corpus file holds records with a real title (and maybe author keywords, a primary area,
a TL;DR). The evaluator reads it as the site does (`sources.readers.read_file`, repeated
abstracts merged by `pipeline.merge_duplicates`), hides title, keywords, primary_area and tldr,
runs the real stages (`enrich.paper.enrich`, then `link.corpus.link` with K related papers)
and compares the derived fields with the hidden ones: titles and names, keywords and tag
health, summaries, related papers (area agreement, keyword lift and its ceiling, plain
agreement, reason quality, hubs) and time. It prints one table per corpus and, with --json,
writes every metric to a file. Nothing here changes what the site shows.

Every metric is defined in docs/dev/evaluation.md.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

import click
import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from generator import options
from generator.context import running
from generator.enrich.models import Models
from generator.enrich.names import looks_like_name
from generator.enrich.paper import enrich
from generator.enrich.tagging import Vocabulary, mentions, normalise_keyword
from generator.enrich.tags import MAX_TAGS, MIN_TAGS
from generator.enrich.titlegate import name_follows, title_defects
from generator.enrich.titles import MAX_PAIR_WORDS, and_pair
from generator.errors import InputError, Report
from generator.language.learned import Choices
from generator.language.meaning.source import Source
from generator.language.textutil import fold, normalise_term, sentences, singular
from generator.link.aboutness import Aboutness
from generator.link.corpus import document, link
from generator.link.related.similar import CANDIDATES, Mixing, assign, fitted_mixing, plain_top
from generator.model import Paper, Record
from generator.pipeline import Settings, fitted_aboutness_for, meaning_source, merge_duplicates, paper_meanings
from generator.runtime.parallel import Forking
from generator.sources.readers import read_file

RELATED = 5
COMMON_TAGS = 5  # tag health lists the share of papers carrying each of the commonest tags
SEED = 0
MAX_SUMMARY_CHARS = 250  # what OpenReview allows a TL;DR
_AREA_LABEL = re.compile(r"^[^:]+: ")  # "Computer Vision: CV: Motion and tracking", "Data Mining: Clustering"
_TITLE_PUNCTUATION = ",;:!?()[]{}\"'“”‘’"


# --- Normalisation -------------------------------------------------------------------


def name_tokens(text: str) -> tuple[str, ...]:
    return tuple(token for token in (t.strip(".") for t in fold(text).split()) if token)


def term_tokens(text: str) -> tuple[str, ...]:
    return tuple(singular(t) for t in name_tokens(text))


def contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """True when `needle` occurs in `haystack` as a contiguous run of whole tokens."""
    n = len(needle)
    if n == 0 or n > len(haystack):
        return False
    needle = tuple(needle)
    return any(tuple(haystack[i : i + n]) == needle for i in range(len(haystack) - n + 1))


# --- Titles ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TitleName:
    name: str
    colon: bool  # the title leads with it: 'BEARCUBS: A benchmark ...'


def real_title_name(title: str, choices: Choices | None = None) -> TitleName | None:
    """The name a real title carries: a one-token prefix before ':', else a name-like word
    (`names.looks_like_name` by `choices`; None: the shipped ones)."""
    if ":" in title:
        prefix = title.split(":", 1)[0].strip()
        if prefix and len(prefix.split()) == 1 and any(c.isalnum() for c in prefix):
            return TitleName(prefix, True)
    for word in title.split():
        word = word.strip(_TITLE_PUNCTUATION)
        if looks_like_name(word, choices):
            return TitleName(word.strip(".-"), False)
    return None


def leading_name(title: str) -> str | None:
    """The name a derived title leads with: the text before the first ': ' when it is one token."""
    if ": " not in title:
        return None
    prefix = title.split(": ", 1)[0].strip()
    return prefix if prefix and len(prefix.split()) == 1 else None


MAX_LEAD_WORDS = 4  # 'NatureLM-audio:', 'Beyond Accuracy:': a title that leads, as real titles do


def title_lead(title: str) -> str | None:
    """What a title leads with: the words before its first colon, when at most four."""
    if ":" not in title:
        return None
    prefix = title.split(":", 1)[0].strip()
    return prefix if prefix and len(prefix.split()) <= MAX_LEAD_WORDS else None


def real_title_leads_with(name: str, real: str) -> bool:
    """The real title leads with this name ('PatchSAE' for 'PatchSAE: ...')."""
    real_lead = title_lead(real)
    return bool(real_lead and contains(name_tokens(real_lead), name_tokens(name)))


def leads_with_own_name(derived: str, real: str) -> bool:
    """The derived title leads with a name the real title leads with."""
    lead = leading_name(derived)
    return bool(lead and real_title_leads_with(lead, real))


def f1(precision: float | None, recall: float | None) -> float | None:
    """The harmonic mean of precision and recall (None when either is unknown)."""
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def title_contains_name(title: str, name: str) -> bool:
    return contains(name_tokens(title), name_tokens(name))


def name_hit(name: str, expansion: str | None, real: str, choices: Choices | None = None) -> bool:
    """The real title carries this name, or spells it out without a colon name of its own
    ('VBLL' with its expansion for 'Variational Bayesian Last Layers'; not 'ZSAD' for
    'AnomalyCLIP: Adapting CLIP for Zero-shot Anomaly Detection')."""
    if title_contains_name(real, name):
        return True
    real_name = real_title_name(real, choices)
    return bool(expansion) and not (real_name and real_name.colon) and contains(term_tokens(real), term_tokens(cast(str, expansion)))


def rouge_tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[^\W_]+", text.lower()) if t not in ENGLISH_STOP_WORDS]


def rouge1_f1(candidate: str, reference: str) -> float:
    """ROUGE-1 F1 on lower-cased word tokens without English stop words."""
    cand, ref = Counter(rouge_tokens(candidate)), Counter(rouge_tokens(reference))
    overlap = sum((cand & ref).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(cand.values()), overlap / sum(ref.values())
    return 2 * precision * recall / (precision + recall)


# --- Keywords -------------------------------------------------------------------------


def keyword_kind(records: Sequence[Record]) -> str | None:
    """'author' for author keywords, 'area labels' for IJCAI-style labels, None for (almost) none."""
    with_keywords = [r for r in records if r.keywords]
    if not records or len(with_keywords) * 2 < len(records):
        return None
    keywords = [k for r in with_keywords for k in r.keywords]
    labels = sum(1 for k in keywords if _AREA_LABEL.match(k))
    return "area labels" if labels * 2 > len(keywords) else "author"


@dataclass(frozen=True)
class KeywordMatch:
    reachable: bool
    exact: bool
    lenient: bool


def match_keyword(keyword: str, abstract: Sequence[str], terms: Iterable[str], vocab: Vocabulary | None = None) -> KeywordMatch:
    """How one author keyword fares: in the abstract at all? shown by a tag or key phrase?

    `abstract` is the abstract's term tokens, `terms` the tags and key phrases the page shows.
    Exact: a term is the keyword, or the term the vocabulary spells it as ('LLMs' -> 'large
    language models'), whether the page shows it as a tag or a key phrase (issue 33 moves some
    tags to key phrases: the reader still sees the term). Lenient: one contains the other.
    `vocab`: the vocabulary that spells it (None: the shipped one).
    """
    key = term_tokens(keyword)
    term_keys = [term_tokens(t) for t in terms]
    by_vocabulary = term_tokens(normalise_keyword(keyword, vocab))
    exact = key in term_keys or (bool(by_vocabulary) and by_vocabulary in term_keys)
    lenient = exact or any(t and (contains(key, t) or contains(t, key)) for t in term_keys)
    return KeywordMatch(contains(abstract, key), exact, lenient)


def tag_matches_keywords(tag: str, keywords: Iterable[str]) -> bool:
    tag_key = term_tokens(tag)
    for keyword in keywords:
        key = term_tokens(keyword)
        if key and tag_key and (key == tag_key or contains(key, tag_key) or contains(tag_key, key)):
            return True
    return False


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


# --- Summaries ------------------------------------------------------------------------

_CONTRIBUTION = re.compile(r"\b(?:we|our|this paper|this work)\b", re.IGNORECASE)


def is_one_sentence(summary: str) -> bool:
    summary = summary.strip()
    return len(sentences(summary)) == 1 and len(summary) <= MAX_SUMMARY_CHARS and summary.endswith((".", "!", "?"))


def names_contribution(summary: str, name: str | None) -> bool:
    return bool(_CONTRIBUTION.search(summary)) or bool(name and name in summary)


# --- Results --------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    key: str  # JSON key
    label: str  # table label
    value: float | int | str | None
    kind: str = "share"  # share | mean | count | ratio | seconds | ms | text


@dataclass
class CorpusResult:
    name: str
    papers: int
    sections: dict[str, list[Metric]] = field(default_factory=dict)
    examples: list[dict[str, object]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "papers": self.papers,
            **{section: {m.key: m.value for m in metrics} for section, metrics in self.sections.items()},
        }

    def metric(self, section: str, key: str) -> float | int | str | None:
        return next(m.value for m in self.sections[section] if m.key == key)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _share(flags: Sequence[bool]) -> float | None:
    return _mean([1.0 if f else 0.0 for f in flags])


# --- Deriving -------------------------------------------------------------------------


def hide(record: Record) -> Record:
    """The record as the generator would see it without the fields we score against."""
    return replace(record, title=None, keywords=(), primary_area=None, tldr=None)


def derive(
    records: Sequence[Record],
    related: int = RELATED,
    related_by: str = "lexical",
    mixing: Mixing | None = None,
    aboutness: Aboutness | None = None,
    models: Models | None = None,
) -> tuple[list[Paper], dict[str, float]]:
    """Run enrich and link on the hidden records; papers come back in record order. `related_by`
    as a build's (generator.pipeline.Settings), meaning vectors mixed as `mixing` says (by default
    as fitted for the source; derived tags checked against `aboutness`, by default as fitted for
    the source, link.aboutness); the time to embed is not counted in link's. `models`: the learned
    models (None: the shipped ones; the lab's training passes the ones it fitted)."""
    start = time.perf_counter()
    papers = [enrich(hide(r), models) for r in records]
    enriched = time.perf_counter()
    source = meaning_source_of(related_by)
    meanings = paper_meanings(papers, source, Report()) if source is not None else None
    embedded = time.perf_counter()
    if mixing is None:
        mixing = fitted_mixing(source.name if source is not None else None)
    if aboutness is None:
        aboutness = fitted_aboutness_for(source)
    with running(Forking()):  # as a one-off run forks
        papers = link(papers, related_count=related, meanings=meanings, mixing=mixing, aboutness=aboutness, models=models)
    linked = time.perf_counter()
    return papers, {"enrich": enriched - start, "embed": embedded - enriched, "link": linked - embedded, "total": linked - start}


def meaning_source_of(related_by: str) -> Source | None:
    """The meaning source a build with `related_by` uses (generator.pipeline.meaning_source)."""
    return meaning_source(Settings(related_by=related_by), Report())


def meanings_of(papers: Sequence[Paper], related_by: str) -> np.ndarray | None:
    """The papers' meaning vectors as a build finds them (generator.pipeline.meaning_source,
    paper_meanings), through the user's vector cache; None when related papers are by words only."""
    source = meaning_source_of(related_by)
    return paper_meanings(papers, source, Report()) if source is not None else None


def load(path: Path, limit: int | None = None) -> list[Record]:
    """The corpus's records as the site would have them: a repeated abstract (ijcai2020 lists
    one paper twice) is one paper, as `pipeline.merge_duplicates` makes it; else the repeat
    would be counted as a second recommendation of the same page."""
    records = [record for record, _ in merge_duplicates(read_file(path, Report()), Report())]
    return records[:limit] if limit is not None else records


# --- Scoring --------------------------------------------------------------------------


def title_metrics(papers: Sequence[Paper], records: Sequence[Record], models: Models | None = None) -> list[Metric]:
    choices = (models or Models.shipped()).choices
    colon_hits, any_hits, precision_hits, derived_named, real_colon = [], [], [], [], []
    f1s, derived_words, real_words = [], [], []
    derived_leads: list[bool] = []
    real_leads: list[bool] = []
    for paper, record in zip(papers, records):
        real = record.title or ""
        right_lead = leads_with_own_name(paper.title, real)
        if leading_name(paper.title):
            derived_leads.append(right_lead)
        if title_lead(real):
            real_leads.append(right_lead)
        name = real_title_name(real, choices)
        real_colon.append(bool(name and name.colon))
        if name:
            hit = title_contains_name(paper.title, name.name)
            any_hits.append(hit)
            if name.colon:
                colon_hits.append(hit)
        lead = leading_name(paper.title)
        derived_named.append(lead is not None)
        if lead:
            expansion = next((a.long for a in paper.acronyms if a.short == lead), None)
            precision_hits.append(name_hit(lead, expansion, real, choices))
        f1s.append(rouge1_f1(paper.title, real))
        derived_words.append(len(paper.title.split()))
        real_words.append(len(real.split()))
    return [
        Metric("name_recall_colon", f"name in title, recall (colon names, n={len(colon_hits)})", _share(colon_hits)),
        Metric("name_recall_any", f"name in title, recall (any name, n={len(any_hits)})", _share(any_hits)),
        Metric("name_precision", f"name precision (derived titles led by a name, n={len(precision_hits)})", _share(precision_hits)),
        Metric("real_colon_named", "real titles with a colon name", _share(real_colon)),
        Metric("derived_named", "derived titles led by a name", _share(derived_named)),
        Metric("lead_precision", f"leads with its own name, precision (n={len(derived_leads)})", _share(derived_leads)),
        Metric("lead_recall", f"leads with its own name, recall (real leads, n={len(real_leads)})", _share(real_leads)),
        Metric("lead_f1", "leads with its own name, F1", f1(_share(derived_leads), _share(real_leads)), "mean"),
        Metric("and_pairs", f'short "X and Y" titles (at most {MAX_PAIR_WORDS} words)', _share([and_pair(p.title) for p in papers])),
        Metric("rouge1_f1", "title overlap, ROUGE-1 F1 (mean)", _mean(f1s), "mean"),
        Metric("derived_words", "title words, derived (mean)", _mean(derived_words), "mean"),
        Metric("real_words", "title words, real (mean)", _mean(real_words), "mean"),
    ]


def shown_name(paper: Paper) -> str | None:
    """The name the title shows: leading it ('Name: phrase', or the name alone) or after the
    phrase ('phrase (Name)')."""
    name, title = paper.name, paper.title
    return name if name and (title.startswith(name) or name_follows(title, name)) else None


def defect_metrics(papers: Sequence[Paper], models: Models | None = None) -> list[Metric]:
    choices = (models or Models.shipped()).choices
    found = [title_defects(p.title, shown_name(p), choices) for p in papers]
    kinds = Counter(kind for defects in found for kind in defects)
    return [
        Metric("defect_rate", "titles with a defect", _share([bool(d) for d in found])),
        *(Metric(f"defect_{kind.replace(' ', '_')}", f"  {kind}", count, "count") for kind, count in sorted(kinds.items())),
    ]


def keyword_metrics(papers: Sequence[Paper], records: Sequence[Record], models: Models | None = None) -> list[Metric]:
    vocab = (models or Models.shipped()).vocabulary
    matches: list[KeywordMatch] = []
    tag_hits: list[bool] = []
    for paper, record in zip(papers, records):
        if not record.keywords:
            continue
        abstract = term_tokens(paper.text)
        terms = [*paper.tags, *paper.keyphrases]
        matches.extend(match_keyword(k, abstract, terms, vocab) for k in record.keywords)
        tag_hits.extend(tag_matches_keywords(t, record.keywords) for t in paper.tags)
    reachable = [m for m in matches if m.reachable]
    return [
        Metric("keywords", "author keywords", len(matches), "count"),
        Metric("reachable", "reachable (keyword occurs in abstract)", _share([m.reachable for m in matches])),
        Metric("recall_exact", f"recall of reachable keywords, exact (n={len(reachable)})", _share([m.exact for m in reachable])),
        Metric("recall_lenient", "recall of reachable keywords, lenient", _share([m.lenient for m in reachable])),
        Metric("recall_lenient_all", "recall of all keywords, lenient", _share([m.lenient for m in matches])),
        Metric("tag_precision_lenient", "tag precision vs keywords, lenient", _share(tag_hits)),
    ]


def occurrences(haystack: Sequence[str], needle: Sequence[str]) -> int:
    """How often `needle` occurs in `haystack` as a contiguous run of whole tokens."""
    n = len(needle)
    return sum(1 for i in range(len(haystack) - n + 1) if tuple(haystack[i : i + n]) == tuple(needle)) if n else 0


def broad_once(paper: Paper, vocab: Vocabulary | None = None) -> bool:
    """The paper carries a broad tag (one word: 'evaluation', 'optimization', 'sampling') that
    its abstract names at most once, by any of the tag's spellings ('robot' names 'robotics'):
    named in passing, most likely, not what it is about (issue 33). Given keywords do not count."""
    abstract = term_tokens(paper.text)
    named = Counter(mention.tag for mention in mentions(paper.text, vocab))
    for tag in paper.tags:
        key = term_tokens(tag)
        if len(key) == 1 and tag not in paper.tag_choice.given and max(occurrences(abstract, key), named[tag]) <= 1:
            return True
    return False


def tag_health(papers: Sequence[Paper], models: Models | None = None) -> list[Metric]:
    vocab = (models or Models.shipped()).vocabulary
    counts = [len(p.tags) for p in papers]
    usage = Counter(tag for p in papers for tag in dict.fromkeys(p.tags))
    largest_tag, largest = min(usage.items(), key=lambda item: (-item[1], item[0])) if usage else ("", 0)
    n = len(papers)
    return [
        Metric("mean_tags", "tags per paper (mean)", _mean(counts), "mean"),
        Metric("min_tags", "tags per paper (min)", min(counts) if counts else None, "count"),
        Metric("untagged", "papers without a tag", _share([c == 0 for c in counts])),
        Metric("share_3_to_8", f"papers with {MIN_TAGS}-{MAX_TAGS} tags", _share([MIN_TAGS <= c <= MAX_TAGS for c in counts])),
        Metric("distinct_tags", "distinct tags", len(usage), "count"),
        Metric("papers_per_tag", "papers per tag (mean)", sum(usage.values()) / len(usage) if usage else None, "mean"),
        Metric("singleton_tags", "tags used by one paper only", _share([c == 1 for c in usage.values()])),
        Metric("broad_once", "papers with a one-word tag named at most once", _share([broad_once(p, vocab) for p in papers])),
        Metric("largest_tag_share", "largest tag's share of papers", largest / n if n else None),
        Metric("largest_tag", "largest tag", largest_tag, "text"),
        *(
            Metric(f"common_tag_{rank}", f"papers with tag #{rank}: {tag}", count / n)
            for rank, (tag, count) in enumerate(sorted(usage.items(), key=lambda item: (-item[1], item[0]))[:COMMON_TAGS], 1)
        ),
    ]


def summary_metrics(papers: Sequence[Paper], records: Sequence[Record]) -> list[Metric]:
    metrics = [
        Metric(
            "one_sentence", f"one sentence, <= {MAX_SUMMARY_CHARS} chars, ends . ! ?", _share([is_one_sentence(p.summary) for p in papers])
        ),
        Metric(
            "names_contribution",
            "names the contribution (we/our/this paper/name)",
            _share([names_contribution(p.summary, p.name) for p in papers]),
        ),
        Metric("chars", "summary characters (mean)", _mean([len(p.summary) for p in papers]), "mean"),
    ]
    with_tldr = [(p, r) for p, r in zip(papers, records) if r.tldr]
    if with_tldr:
        overlap = _mean([rouge1_f1(p.summary, r.tldr or "") for p, r in with_tldr])
        metrics.append(Metric("tldr_rouge1_f1", f"summary vs TL;DR, ROUGE-1 F1 (n={len(with_tldr)})", overlap, "mean"))
    return metrics


def usable_reason(reason: str, a: Paper, b: Paper, choices: Choices | None = None) -> bool:
    """A reason a reader can use, found on one of the two pages (issue 52): a tag or key phrase
    either page shows, their area, or a name (either paper's, or name-like); never a term either
    page hides as too broad or cut (Paper.tag_choice.hidden: 'robotics' at CoRL, 'offline
    reinforcement'), nor a phrase neither page shows ('success rate') or a lone generic word."""
    key = normalise_term(reason)
    if key in {normalise_term(t) for p in (a, b) for t in p.tag_choice.hidden}:
        return False
    shown = {normalise_term(t) for p in (a, b) for t in (*p.tags, *p.keyphrases)}
    return key in shown or reason in (a.name, b.name, a.area) or looks_like_name(reason, choices)


def random_neighbours(n: int, k: int, seed: int) -> list[list[int]]:
    """k distinct other papers for each paper, drawn in corpus order from one seeded generator."""
    rng = random.Random(seed)
    k = min(k, n - 1)
    result = []
    for i in range(n):
        drawn = rng.sample(range(n - 1), k) if k > 0 else []
        result.append([j + 1 if j >= i else j for j in drawn])
    return result


def area_agreement(lists: Sequence[Sequence[int]], areas: Sequence[str | None]) -> float | None:
    """Mean over papers with an area of the share of their listed papers (with an area) in the same area."""
    shares = []
    for i, others in enumerate(lists):
        known = [j for j in others if areas[j]]
        if areas[i] and known:
            shares.append(sum(areas[j] == areas[i] for j in known) / len(known))
    return _mean(shares)


def keyword_overlap(lists: Sequence[Sequence[int]], keys: Sequence[set[str]]) -> float | None:
    """Mean Jaccard of keyword sets over (paper, listed paper) pairs where both have keywords."""
    return _mean([jaccard(keys[i], keys[j]) for i, others in enumerate(lists) for j in others if keys[i] and keys[j]])


def best_lift(keys: Sequence[set[str]], related: int, random_overlap: float | None) -> float | None:
    """The lift of each paper's `related` papers of highest keyword Jaccard, capped as the
    generator caps its lists: the ceiling of `keyword_lift` on this corpus."""
    n = len(keys)
    if not random_overlap or n < 2:
        return None
    vocabulary = {k: i for i, k in enumerate(sorted(set().union(*keys)))}
    rows = [i for i, ks in enumerate(keys) for _ in ks]
    incidence = sparse.csr_matrix(
        (np.ones(len(rows)), (rows, [vocabulary[k] for ks in keys for k in ks])), shape=(n, max(1, len(vocabulary)))
    )
    shared = (incidence @ incidence.T).toarray()
    sizes = np.array([len(ks) for ks in keys], dtype=float)
    union = sizes[:, None] + sizes[None, :] - shared
    jaccard_matrix = np.where(union > 0, shared / np.where(union > 0, union, 1), 0.0)
    jaccard_matrix[(sizes == 0)[:, None] | (sizes == 0)[None, :]] = -1.0  # a pair without keywords is never best
    np.fill_diagonal(jaccard_matrix, -np.inf)
    width = min(n - 1, max(CANDIDATES, 3 * related))
    candidates = np.argsort(-jaccard_matrix, axis=1, kind="stable")[:, :width]
    columns = assign(candidates, np.take_along_axis(jaccard_matrix, candidates, axis=1), min(related, n - 1))
    best = keyword_overlap([[int(candidates[i, c]) for c in row] for i, row in enumerate(columns)], keys)
    return best / random_overlap if best is not None else None


def related_metrics(
    papers: Sequence[Paper], records: Sequence[Record], related: int, seed: int, models: Models | None = None
) -> list[Metric]:
    choices = (models or Models.shipped()).choices
    index: dict[str, int] = {}
    for i, paper in enumerate(papers):
        index.setdefault(paper.id, i)
    neighbours = [[index[r.id] for r in p.related] for p in papers]
    randoms = random_neighbours(len(papers), related, seed)
    metrics: list[Metric] = []

    areas = [r.primary_area for r in records]
    if any(areas):
        metrics += [
            Metric("area_agreement", f"area agreement@{related}, related", area_agreement(neighbours, areas)),
            Metric("area_agreement_random", f"area agreement@{related}, random", area_agreement(randoms, areas)),
        ]

    kind = keyword_kind(records)
    if kind:
        keys = [{normalise_term(k) for k in r.keywords} for r in records]
        near, far = keyword_overlap(neighbours, keys), keyword_overlap(randoms, keys)
        metrics += [
            Metric("keyword_jaccard", f"keyword Jaccard ({kind}), related", near, "mean"),
            Metric("keyword_jaccard_random", f"keyword Jaccard ({kind}), random", far, "mean"),
            Metric("keyword_lift", "keyword overlap lift (related / random)", near / far if near is not None and far else None, "ratio"),
            Metric("keyword_lift_ceiling", "keyword lift of the best lists (ceiling)", best_lift(keys, related, far), "ratio"),
        ]

    plain = plain_top([document(p) for p in papers], related)
    reasons = [(p, papers[index[r.id]], reason) for p in papers for r in p.related for reason in r.reasons]
    metrics += [
        Metric(
            "plain_agreement",
            f"agreement with plain TF-IDF top-{related}",
            _mean([len(set(n) & set(plain[i].tolist())) / len(plain[i]) for i, n in enumerate(neighbours) if len(plain[i])]),
        ),
        Metric(
            "reason_quality",
            "reasons shown on one of the two pages (tags, key phrases, names, area), none hidden",
            _share([usable_reason(r, a, b, choices) for a, b, r in reasons]),
        ),
        Metric("reasons_per_link", "reasons per related link (mean)", len(reasons) / max(1, sum(len(p.related) for p in papers)), "mean"),
        Metric("links_without_reason", "related links that show no reason", _share([not r.reasons for p in papers for r in p.related])),
    ]

    recommended = Counter(j for others in neighbours for j in others)
    top, top_count = min(recommended.items(), key=lambda item: (-item[1], item[0])) if recommended else (None, 0)
    metrics += [
        Metric("max_recommended", "most recommended paper: times", top_count, "count"),
        Metric(
            "max_recommended_title", "most recommended paper", (records[top].title or papers[top].title) if top is not None else "", "text"
        ),
        Metric("never_recommended", "papers never recommended", _share([i not in recommended for i in range(len(papers))])),
    ]
    return metrics


def evaluate_records(
    name: str,
    records: Sequence[Record],
    related: int = RELATED,
    seed: int = SEED,
    examples: int = 0,
    related_by: str = "lexical",
    aboutness: Aboutness | None = None,
    models: Models | None = None,
) -> CorpusResult:
    """Derive the hidden records as `derive` does and score every section against them, the
    names, tags and titles judged by the same `models` (None: the shipped ones)."""
    papers, seconds = derive(records, related, related_by, aboutness=aboutness, models=models)
    result = CorpusResult(name, len(papers))
    result.sections["titles"] = title_metrics(papers, records, models)
    result.sections["title defects"] = defect_metrics(papers, models)
    if keyword_kind(records) == "author":
        result.sections["keywords"] = keyword_metrics(papers, records, models)
    result.sections["tags"] = tag_health(papers, models)
    result.sections["summary"] = summary_metrics(papers, records)
    result.sections["related"] = related_metrics(papers, records, related, seed, models)
    result.sections["time"] = [
        Metric("enrich_seconds", "enrich", seconds["enrich"], "seconds"),
        Metric("embed_seconds", "embed (0 when cached)", seconds["embed"], "seconds"),
        Metric("link_seconds", "link", seconds["link"], "seconds"),
        Metric("total_seconds", "total", seconds["total"], "seconds"),
        Metric("ms_per_paper", "per paper", 1000 * seconds["total"] / len(papers) if papers else None, "ms"),
    ]
    if examples:
        rng = random.Random(seed)
        for i in sorted(rng.sample(range(len(papers)), min(examples, len(papers)))):
            result.examples.append(
                {
                    "derived": papers[i].title,
                    "real": records[i].title,
                    "rouge1_f1": round(rouge1_f1(papers[i].title, records[i].title or ""), 3),
                    "tags": list(papers[i].tags),
                    "keywords": list(records[i].keywords),
                }
            )
    return result


def evaluate_corpus(
    path: Path, limit: int | None = None, related: int = RELATED, seed: int = SEED, examples: int = 0, related_by: str = "lexical"
) -> CorpusResult:
    """Read one corpus file (its first `limit` records) and score it."""
    return evaluate_records(path.stem, load(path, limit), related, seed, examples, related_by)


# --- Output ---------------------------------------------------------------------------


def format_value(metric: Metric) -> str:
    value = metric.value
    if value is None:
        return "n/a"
    if metric.kind == "text":
        text = str(value)
        return text if len(text) <= 60 else text[:59] + "…"
    if metric.kind == "share":
        return f"{100 * value:.1f}%"
    if metric.kind == "count":
        return str(value)
    if metric.kind == "seconds":
        return f"{value:.2f} s"
    if metric.kind == "ms":
        return f"{value:.1f} ms"
    if metric.kind == "ratio":
        return f"{value:.2f}x"
    return f"{value:.3f}" if cast(float, value) < 10 else f"{value:.1f}"


def format_table(result: CorpusResult) -> str:
    """One aligned block per corpus: section headings, labels, numbers right-aligned, text after them."""
    rows = [(section, metric, format_value(metric)) for section, metrics in result.sections.items() for metric in metrics]
    label_width = max(len(metric.label) for _, metric, _ in rows)
    value_width = max((len(value) for _, metric, value in rows if metric.kind != "text"), default=0)
    lines = [f"{result.name}: {result.papers} papers"]
    current = None
    for section, metric, value in rows:
        if section != current:
            lines.append(f"  {section}")
            current = section
        value = value if metric.kind == "text" else f"{value:>{value_width}}"
        lines.append(f"    {metric.label:<{label_width}}  {value}")
    for example in result.examples:
        lines.append(f"  example (F1 {example['rouge1_f1']:.2f})")
        lines.append(f"    derived: {example['derived']}")
        lines.append(f"    real:    {example['real']}")
    return "\n".join(lines)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("corpora", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "json_out", type=click.Path(path_type=Path, dir_okay=False), help="Also write every metric to this JSON file.")
@click.option("--limit", type=click.IntRange(2), default=None, help="Score only the first N records of each corpus.")
@click.option("--related", default=RELATED, show_default=True, type=click.IntRange(1, 50), help="Related papers per paper.")
@click.option("--seed", default=SEED, show_default=True, type=int, help="Seed for the random baselines and examples.")
@click.option("--examples", default=0, show_default=True, type=click.IntRange(0), help="Print N sampled derived vs real titles per corpus.")
@click.option(
    "--related-by",
    "related_by",
    default="auto",
    show_default=True,
    type=click.Choice(options.RELATED_BY.choices),
    help="Related papers by words only, by meaning from the built-in table or the sentence model, or as a build finds them (auto).",
)
def main(
    corpora: tuple[Path, ...], json_out: Path | None, limit: int | None, related: int, seed: int, examples: int, related_by: str
) -> None:
    """Derive titles, tags, summaries and related papers from each CORPUS's abstracts
    alone and score them against the corpus's real fields (see the module docstring)."""
    results = []
    start = time.perf_counter()
    try:
        found = meaning_source_of(related_by)
    except InputError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    model_identity = found.identity if found is not None else None
    click.echo(f"related papers by {'words and meaning (' + model_identity + ')' if model_identity else 'words only'}\n")
    for path in corpora:
        try:
            result = evaluate_corpus(path, limit, related, seed, examples, related_by)
        except InputError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(2)
        results.append(result)
        click.echo(format_table(result))
        click.echo()
    click.echo(f"{sum(r.papers for r in results)} papers in {len(results)} corpora scored in {time.perf_counter() - start:.1f} s")
    if json_out:
        data = {
            "settings": {"limit": limit, "related": related, "seed": seed, "related_by": related_by, "model": model_identity},
            "corpora": {r.name: r.to_json() | ({"examples": r.examples} if r.examples else {}) for r in results},
        }
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        click.echo(f"metrics written to {json_out}")


if __name__ == "__main__":
    main(prog_name="python -m lab.evaluate")
