"""Corpus level: what needs every paper at once. Keyphrases weighted against the corpus,
related papers (TF-IDF cosine, generator.link.related.similar) with the shared terms that explain them
(generator.link.related.reasons), mentions of one paper's name in another's abstract, unique slugs and
titles, the glossary. What only the abstracts decide is worked out in a forked process while
key phrases are scored (`link`)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any, cast

import numpy as np

from generator.context import Pending, derived, in_background, incremental, reused
from generator.enrich.models import Models
from generator.enrich.names import GENERIC_ACRONYMS, looks_like_name
from generator.enrich.paper import retitle
from generator.enrich.tags import MIN_TAGS, derived_terms, drop_dominant_tags, fill_order, fill_up_tags, grouping_tags, similarity_terms
from generator.language.learned import Choices, PhraseModel
from generator.language.textutil import normalise_term
from generator.link.aboutness import Aboutness, shown_by_aboutness
from generator.link.keyphrases import fragments, phrases_like, stopped_inside, verb_phrases
from generator.link.keyphrases import phrase_like as _phrase_like  # noqa: F401 (lab/train_tags.py and tests import it from here)
from generator.link.keyphrases import probabilities as phrase_probabilities
from generator.link.related.reasons import explain, explained_after_edit, mentioned, paper_digest, side_of
from generator.link.related.similar import (
    DEFAULT_SOURCE,
    FITTED_MIXING,
    Mixing,
    Numbered,
    fitted_mixing,
    neighbours,
    numbered,
    ranked,
    vectors,
)
from generator.model import CandidatePhrases, Mention, Paper, Related, TagChoice, paper_with
from generator.sources.markup import URL

MAX_KEYPHRASES = 6


def _replaced(step: str, paper: Paper, **changes) -> Paper:
    """paper_with(paper, **changes). Under `mkdocs serve`, the very object the last run's `step`
    made from the same paper object with equal changes: an unchanged paper stays the same
    object through every pass, and later passes and the rendering find what they derived from
    it by identity (context.reused)."""
    return reused(step, paper, changes, lambda: paper_with(paper, **changes))


@dataclass(frozen=True)
class GlossaryEntry:
    short: str
    long: str
    papers: tuple[str, ...]  # paper ids


COMMON_NAME_PAPERS = 3  # a name in this many abstracts belongs to the field, not to one paper
_TOKEN = re.compile(r"[A-Za-z0-9][\w\-.+]*[\w+]|[A-Za-z0-9]")


def drop_common_names(papers: list[Paper], choices: Choices | None = None) -> list[Paper]:
    """Titles never lead with a name many abstracts use (GPT-4, ImageNet, EMA): those are
    tools of the field, not the paper's contribution. Such papers are titled again without it
    (by the title models `choices`; None: the shipped ones)."""
    named = {p.name for p in papers if p.name and not p.given_title}
    if not named:
        return papers
    document_frequency: Counter[str] = Counter()
    for paper in papers:
        document_frequency.update(_tokens(paper) & named)
    banned = frozenset(name for name in named if document_frequency[name] >= COMMON_NAME_PAPERS)
    if not banned:
        return papers
    return [
        reused("retitle", p, banned, cast("Callable[[], Any]", lambda p=p: retitle(p, banned, choices))) if p.name in banned else p
        for p in papers
    ]


def unique_slugs(papers: list[Paper]) -> list[Paper]:
    """Slugs unique also case-insensitively: a later paper with a taken slug gets its id appended."""
    taken: set[str] = set()
    result = []
    for paper in papers:
        slug = paper.slug
        if slug.casefold() in taken:
            slug = f"{slug[:50]}-{paper.id[:8]}"
        taken.add(slug.casefold())
        result.append(_replaced("slug", paper, slug=slug) if slug != paper.slug else paper)
    return result


def unique_titles(papers: list[Paper]) -> list[Paper]:
    """Two derived titles never read the same: the later ones gain their first distinct tag."""
    counts = Counter(p.title.casefold() for p in papers)
    seen: set[str] = set()
    result = []
    for paper in papers:
        title = paper.title
        if counts[title.casefold()] > 1 and title.casefold() in seen and not paper.given_title:
            extra = next((t for t in paper.tags if f"{title} ({t})".casefold() not in seen), paper.id[:6])
            title = f"{title} ({extra})"
        seen.add(title.casefold())
        result.append(_replaced("title", paper, title=title) if title != paper.title else paper)
    return result


def add_keyphrases(
    papers: list[Paper],
    ahead: tuple[int, Callable[[], list]] | None = None,
    counts: tuple[Counter[str], int, int] | None = None,
    models: Models | None = None,
) -> list[Paper]:
    """Keyphrases: candidate noun phrases that recur across papers, the likeliest keywords first
    (by `models.phrase_model`; None: the shipped models). A paper with fewer than MIN_TAGS tags
    also gets the order its tags are filled up in from them (TagChoice.fill_order: fill_up_tags).
    `ahead`: (k, rest) where rest() gives papers[k:]'s (keyphrases, fill order), worked out elsewhere;
    `counts`: phrase_counts(papers) when worked out already. Under `mkdocs serve`,
    keyphrases_after_edit finds the same from the last run's."""
    document_frequency, max_df, n = counts if counts is not None else phrase_counts(papers)
    cut, rest = ahead if ahead is not None else (len(papers), list)
    found = _keyphrases(papers[:cut], document_frequency, max_df, n, models or Models.shipped()) + rest()
    return _with_keyphrases(papers, found)


def _with_keyphrases(papers: list[Paper], found: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> list[Paper]:
    return [
        _replaced("keyphrases", paper, keyphrases=keyphrases, tag_choice=_with_fill_order(paper, order))
        for paper, (keyphrases, order) in zip(papers, found)
    ]


def _with_fill_order(paper: Paper, order: tuple[str, ...]) -> TagChoice:
    return replace(paper.tag_choice, fill_order=order) if order != paper.tag_choice.fill_order else paper.tag_choice


def phrase_counts(papers: list[Paper]) -> tuple[Counter[str], int, int]:
    """Per candidate key, how many papers have it; the most papers a key may have and be
    scored; how many papers there are."""
    # Keys are unique per paper: how many papers have a key is how often it is listed.
    document_frequency = Counter(key for paper in papers for key, _, _ in paper.tag_choice.candidates)
    return document_frequency, _max_df(papers), len(papers)


def _max_df(papers: list[Paper]) -> int:
    return max(3, int(0.05 * len(papers)))


@dataclass(frozen=True)
class Keyphrased:
    """What keyphrases_after_edit leaves for the next run: each paper's candidate list and the
    counts of them it scored with (corrected in place by the next run), the collection's size,
    the phrase model, and each paper's (keyphrases, fill order) by the very paper object (an unchanged
    paper is the same object run after run)."""

    candidates: list[CandidatePhrases]
    document_frequency: Counter[str]
    n: int
    model: PhraseModel
    found: dict[int, tuple[Paper, tuple[tuple[str, ...], tuple[str, ...]]]]


def keyphrases_after_edit(last: Keyphrased | None, papers: list[Paper], models: Models) -> tuple[list[Paper], Keyphrased]:
    """add_keyphrases(papers) from what the last run left (None: nothing): the counts are
    corrected by the papers whose candidate lists changed instead of counted again, and a paper
    is scored again only when it changed, or the collection's size, the model or the document
    frequency of one of its candidates did. By the very paper object, not a memo keyed by every
    paper's candidates, tags and acronyms, each hashed every run: those keys, look-ups and
    hashing were the slow part of an edit (decision 0002). Also what it leaves for the next run."""
    candidates = [paper.tag_choice.candidates for paper in papers]
    document_frequency, changed = _recounted((last.candidates, last.document_frequency), candidates) if last is not None else (None, None)
    if document_frequency is None:
        document_frequency = phrase_counts(papers)[0]
    n, model = len(papers), models.phrase_model
    reusable = last.found if last is not None and changed is not None and last.n == n and last.model is model else {}
    found: list[Any] = []
    missing = []
    for i, paper in enumerate(papers):
        was = reusable.get(id(paper))
        if was is not None and was[0] is paper and cast("set[str]", changed).isdisjoint(_candidate_keys(paper.tag_choice.candidates)):
            found.append(was[1])
        else:
            found.append(None)
            missing.append(i)
    for i, value in zip(missing, _keyphrases([papers[i] for i in missing], document_frequency, _max_df(papers), n, models)):
        found[i] = value
    state = Keyphrased(candidates, document_frequency, n, model, {id(p): (p, value) for p, value in zip(papers, found)})
    return _with_keyphrases(papers, found), state


def _recounted(last: tuple[list, Counter[str]], candidates: list) -> tuple[Counter[str] | None, set[str] | None]:
    """The last run's counts, changed in place (not copied: decision 0002), less the candidate lists no
    paper has now, plus the new ones, and the keys whose count changed; lists are told apart by
    identity (an unchanged paper keeps its very tuple). None when many lists changed: counting
    anew is then as quick."""
    old_lists, old_counts = last
    fewer = Counter(map(id, old_lists))  # per list, how many papers fewer have it now
    fewer.subtract(map(id, candidates))
    lists = {list_id: change for list_id, change in fewer.items() if change}
    if sum(map(abs, lists.values())) > len(candidates) // 4:
        return None, None
    by_id = {id(c): c for c in (*old_lists, *candidates)}  # both lists are alive: no id is reused
    delta: Counter[str] = Counter()
    for list_id, change in lists.items():
        for key, _, _ in by_id[list_id]:
            delta[key] -= change
    counts = old_counts
    changed = set()
    for key, change in delta.items():
        if change:  # a key one list lost and another gained keeps its count: its papers' scores stand
            changed.add(key)
            counts[key] += change
            if counts[key] <= 0:
                del counts[key]  # as a fresh count: no key that no paper has
    return counts, changed


def _keyphrases(
    papers: list[Paper], document_frequency: Counter[str], max_df: int, n: int, models: Models
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each paper's keyphrases and the order its tags are filled up in (see add_keyphrases). The
    candidates of all papers are scored at once (`keyphrases.probabilities`)."""
    model, terms = models.phrase_model, models.vocabulary.matched
    candidates = [c for paper in papers for c in paper.tag_choice.candidates]
    keys = [key for key, _, _ in candidates]
    sizes = np.fromiter((len(p.tag_choice.candidates) for p in papers), dtype=np.int64, count=len(papers))
    starts = np.cumsum(sizes) - sizes
    paper_of = np.repeat(np.arange(len(papers)), sizes)
    counts = np.fromiter((count for _, _, count in candidates), dtype=np.int64, count=len(candidates))
    dfs = np.fromiter(map(document_frequency.__getitem__, keys), dtype=np.int64, count=len(keys))
    longer = np.zeros(len(candidates), dtype=np.int64)
    defined = np.zeros(len(candidates), dtype=bool)
    scored = dfs <= max_df
    for paper, start in zip(papers, starts.tolist()):
        where = dict(zip(_candidate_keys(paper.tag_choice.candidates), range(start, start + len(paper.tag_choice.candidates))))
        for part, count in fragments(paper.tag_choice.candidates).items():
            if part in where:
                longer[where[part]] = count
        for part in stopped_inside(paper.tag_choice.candidates, model, terms):  # 'markov decision' [process]
            scored[where[part]] = False
        for tag in paper.tags:
            if (key := normalise_term(tag)) in where:
                scored[where[key]] = False
        for acronym in paper.acronyms:  # 'test-time training (TTT)'
            if (key := normalise_term(acronym.long)) in where:
                defined[where[key]] = True
    spellings = [spelling for _, spelling, _ in candidates]
    scored[scored] = phrases_like([spellings[i] for i in np.flatnonzero(scored).tolist()], models.choices)
    # Phrases ending on a verb whose object follows ('hallucinations impede' various applications).
    still = np.flatnonzero(scored)
    firsts = np.searchsorted(still, starts).tolist()
    for paper, first, after in zip(papers, firsts, [*firsts[1:], len(still)]):
        at = still[first:after].tolist()
        for index in verb_phrases(paper.text, [spellings[i] for i in at], model, models.choices):
            scored[at[index]] = False
    chosen = np.flatnonzero(scored)
    positions = (chosen - starts[paper_of[chosen]]) / sizes[paper_of[chosen]]
    # How likely authors would give each phrase as a keyword (`keyphrases`, learned).
    scored_keys = [keys[i] for i in chosen.tolist()]
    probabilities = phrase_probabilities(
        scored_keys,
        [spellings[i] for i in chosen.tolist()],
        counts[chosen],
        positions,
        dfs[chosen],
        n,
        longer[chosen],
        defined[chosen],
        model,
    )
    bounds = np.searchsorted(paper_of[chosen], np.arange(len(papers) + 1)).tolist()
    return [
        _keyphrases_and_fill_order(
            paper, [(-probabilities[k], scored_keys[k]) for k in range(bounds[p], bounds[p + 1])], document_frequency, model
        )
        for p, paper in enumerate(papers)
    ]


def _keyphrases_and_fill_order(
    paper: Paper, scored: list[tuple[float, str]], document_frequency: Counter[str], model
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """One paper's keyphrases from its scored candidates (minus probability, key), and, when it
    has fewer than MIN_TAGS tags, the keys its tags are filled up from (enrich.tags.fill_order)."""
    counts = {key: count for key, _, count in paper.tag_choice.candidates}
    display = {key: spelling for key, spelling, _ in paper.tag_choice.candidates}
    scored.sort()
    chosen: list[str] = []
    for minus_probability, key in scored:
        # A phrase no other abstract uses, used once, only when the model is sure of it.
        if document_frequency[key] < 2 and counts[key] < 2 and -minus_probability < model.once:
            continue
        if any(key in c or c in key for c in chosen):
            continue
        chosen.append(key)
        if len(chosen) == MAX_KEYPHRASES:
            break
    keyphrases = tuple(display[k] for k in chosen)
    return keyphrases, fill_order(chosen, [k for _, k in scored], document_frequency) if len(paper.tags) < MIN_TAGS else ()


@lru_cache(maxsize=32_768)
def _candidate_keys(candidates: CandidatePhrases) -> tuple[str, ...]:
    return tuple(key for key, _, _ in candidates)


def document(paper: Paper) -> str:
    """The text related papers are found by: the abstract, then the tags twice (shared topics
    weigh more than shared words) and the key phrases, as derived (enrich.tags.similarity_terms)."""
    return " ".join([_document_head(paper), *similarity_terms(paper)])


def meaning_text(paper: Paper) -> str:
    """What a paper's meaning vector is made from (generator.language.meaning): its given title
    and its abstract, URLs left out, as its document begins."""
    return _document_head(paper).strip()


def _document_head(paper: Paper) -> str:
    """What begins a paper's document and linking does not change: its given title and its
    abstract, URLs left out ('github', 'com' or a user name relate nothing)."""
    return f"{paper.title if paper.given_title else ''} {URL.sub(' ', paper.text)}"


def add_related(
    papers: list[Paper],
    count: int,
    names: list[dict[str, str]] | None = None,
    heads: Numbered | None = None,
    neighbours_found: Callable[[list[Paper], list[list[tuple[int, float]]], Any], None] | None = None,
    meanings: np.ndarray | None = None,
    mixing: Mixing | None = None,
    models: Models | None = None,
) -> list[Paper]:
    """The `count` most related papers (see generator.link.related.similar), each with its score,
    strength and reasons; those ranked below the mixing's floor are marked weaker (not `strong`).
    Under `mkdocs serve`, reasons are worked out again only for pairs whose papers or TF-IDF rows
    changed since the last run (reasons.explained_after_edit), and words only in documents that changed.
    `names`, `heads`: per paper, the names its abstract uses and the words its document begins
    with, when worked out already (`_from_texts`). `neighbours_found(papers, lists, words)` is called
    once each paper's related papers are known (indices, cosines), before their reasons, with the
    word TF-IDF rows they were found by (the topic map groups regions on them). `meanings`: per
    paper, a unit vector of what it means (generator.language.meaning), or None: words only;
    `mixing`: how they join the word scores and the floor of a strong link (by default the
    setting fitted for the built-in table, or for words only without `meanings`); `models`: the
    learned models reasons read (None: the shipped ones)."""
    if len(papers) < 2 or count <= 0:
        return papers
    models = models or Models.shipped()
    if mixing is None:
        mixing = fitted_mixing(DEFAULT_SOURCE if meanings is not None else None)
    floor = mixing.floor
    documents = _per_paper(document, papers)
    words = vectors(documents, heads)
    found = neighbours(documents, count, _per_paper(_link_topics, papers), words, meanings, mixing)
    if neighbours_found is not None:
        neighbours_found(papers, found.lists, words.words)
    del words  # the reasons below read `found` only, and the TF-IDF is large (decision 0009)
    pairs = [(i, j) for i, found_list in enumerate(found.lists) for j, _ in found_list]

    if names is None:
        names = _per_paper(_names, papers, models)
    sides = [derived("side", p, cast("Callable[[], Any]", lambda p=p, used=used: side_of(p, used))) for p, used in zip(papers, names)]

    def explained_pairs(some: list[tuple[int, int]]) -> list[tuple[str, ...]]:
        return explain(sides, some, found.matrix, found.terms, models)

    explained = incremental(
        "reasons",
        lambda: dict(zip(pairs, explained_pairs(pairs))),
        lambda last: explained_after_edit(last, _per_paper(paper_digest, papers), pairs, found.matrix, found.terms, explained_pairs),
    )

    def related(shown: tuple[tuple[Paper, float, tuple[str, ...], float], ...]) -> tuple[Related, ...]:
        return tuple(
            Related(
                id=other.id, title=other.title, slug=other.slug, score=score, reasons=reasons, strength=strength, strong=strength >= floor
            )
            for other, score, reasons, strength in shown
        )

    def with_related(i: int, paper: Paper) -> Paper:
        shown = tuple(
            (papers[j], round(score, 3), explained[i, j], round(strength, 3))
            for (j, score), strength in zip(found.lists[i], found.strengths[i])
        )
        # Under serve, the last run's paper while the papers it shows (the same objects, or equal
        # ones), scores and reasons are the same: its Related objects are not made again only to
        # be compared with the last run's (decision 0002).
        return reused("related", paper, shown, lambda: paper_with(paper, related=related(shown)))

    return [with_related(i, paper) for i, paper in enumerate(papers)]


def candidate_strengths(
    papers: list[Paper], count: int, meanings: np.ndarray | None = None, mixing: Mixing = FITTED_MIXING
) -> tuple[np.ndarray, np.ndarray]:
    """Each paper's candidate links (indices) and their strengths, as add_related ranks them for
    these (linked) papers: the floor between related and "also near" links is fitted on them
    (lab/tune_related.py), strengths of judged links that today's lists may not show."""
    documents = [document(p) for p in papers]
    indices, _, ranking = ranked(documents, count, [_link_topics(p) for p in papers], meanings=meanings, mixing=mixing)
    return indices, ranking


def _per_paper(derive, papers: list[Paper], *args) -> list:
    """derive(paper, *args) for each paper; under `mkdocs serve` remembered per paper object (context.derived)."""
    kind = derive.__name__
    return [derived(kind, p, cast("Callable[[], Any]", lambda p=p: derive(p, *args))) for p in papers]


def _link_topics(paper: Paper) -> frozenset[str]:
    """What a reason on a link can name (see `_explain`), as normalised terms: the paper's tags,
    key phrases and name, the vocabulary tags its abstract mentions, the multi-word phrases it
    uses. Papers that share none of these could only be linked by a lone word, and such links
    shared keywords about as often as random pairs (similar.UNSUPPORTED_PENALTY ranks such
    candidates lower). Names other papers use are left out: looking for them in every abstract
    was slow and changed no figure (decision 0001)."""
    tags, keyphrases = derived_terms(paper)
    topics = {normalise_term(t) for t in (*tags, *keyphrases, *mentioned(paper.tag_choice.scores))}
    topics.update(key for key, _, _ in paper.tag_choice.candidates if " " in key)
    if paper.name:
        topics.add(paper.name.lower())
    return frozenset(topics)


@lru_cache(maxsize=32_768)
def _name_spellings(text: str, models: Models) -> dict[str, str]:
    """The names an abstract uses (CamelCase, digits, capitals: 'PointMamba'), lower-cased -> as written."""
    # Only tokens with a capital can look like a name (names.looks_like_name): the test first.
    choices = models.choices
    return {
        t.lower(): t
        for t in sorted(t for t in _text_tokens(text) if t.lower() != t)
        if looks_like_name(t, choices) and t not in GENERIC_ACRONYMS
    }


MAX_MENTIONED_BY = 10  # a page lists at most this many papers that mention it (and counts the rest)


def _tokens(paper: Paper) -> frozenset[str]:
    return _text_tokens(paper.text)


@lru_cache(maxsize=32_768)
def _text_tokens(text: str) -> frozenset[str]:
    """An abstract's tokens; cached, as common names and mentions both need them (and
    `mkdocs serve` relinks unchanged abstracts on every edit)."""
    return frozenset(_TOKEN.findall(text))  # a token never ends in '.' or '-' (_TOKEN's last character)


def _same_meaning(meaning: str, defined: str | None, text: str) -> bool:
    """An acronym means the same in another abstract when that abstract defines it alike,
    or, undefined there, uses a word of its expansion ('sharpness' for SAM)."""
    if defined is not None:
        return defined == meaning
    lowered = text.lower()
    return any(word in lowered for word in meaning.split() if len(word) > 3)


def add_mentions(papers: list[Paper], sites: list[tuple[int, str, int]] | None = None, choices: Choices | None = None) -> list[Paper]:
    """Link a name one paper introduces wherever another abstract uses it. Only name-like
    names (PatchSAE, MM1.5), not capitalised words ('Neural'), and each name introduced once.
    `sites`: `mention_sites(papers, choices)` when worked out already."""
    mentions: dict[int, list[Mention]] = defaultdict(list)
    mentioned_by: dict[int, list[Mention]] = defaultdict(list)
    for index, name, target in mention_sites(papers, choices) if sites is None else sites:
        paper, t = papers[index], papers[target]
        mentions[index].append(Mention(name, t.id, t.slug, t.title))
        mentioned_by[target].append(Mention(name, paper.id, paper.slug, paper.title))
    return [
        _replaced("mentions", p, mentions=tuple(mentions[i]), mentioned_by=tuple(mentioned_by[i]))
        if i in mentions or i in mentioned_by
        else p
        for i, p in enumerate(papers)
    ]


def mention_sites(papers: list[Paper], choices: Choices | None = None) -> list[tuple[int, str, int]]:
    """(paper, name, the paper introducing it) for each name an abstract mentions (see
    add_mentions; name-like by `choices`, None: the shipped ones). Reads only names, acronyms and
    abstracts, which linking does not change."""
    introducers: dict[str, list[int]] = defaultdict(list)
    for index, paper in enumerate(papers):
        words = paper.name.split() if paper.name else []
        if (
            words
            and len(cast(str, paper.name)) >= 3
            and paper.name not in GENERIC_ACRONYMS
            and any(looks_like_name(w, choices) for w in words)
        ):
            introducers[cast(str, paper.name)].append(index)
    names = {name: idx[0] for name, idx in introducers.items() if len(idx) == 1}
    if not names:
        return []
    # A name in a large share of abstracts belongs to the field, whoever seems to introduce it.
    limit = max(10, len(papers) // 50)
    frequency = Counter(name for paper in papers for name in _tokens(paper) & names.keys())
    names = {name: index for name, index in names.items() if frequency[name] <= limit}
    single = {name for name in names if " " not in name}
    multi = sorted(names.keys() - single)
    sites = []
    for index, paper in enumerate(papers):
        # Set intersection, not one regex per name: linear in the corpus. A name of several words
        # is looked for as a substring first: most abstracts hold none (decision 0032).
        found = (_tokens(paper) & single) | {
            n for n in multi if n in paper.text and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", paper.text)
        }
        defined_here = {a.short: normalise_term(a.long) for a in paper.acronyms}
        for name in sorted(found):
            target = names[name]
            if target == index:
                continue
            meaning = {a.short: normalise_term(a.long) for a in papers[target].acronyms}.get(name)
            if meaning and not _same_meaning(meaning, defined_here.get(name), paper.text):
                continue  # same letters, another thing: SAM (sharpness-aware) is not SAM (segment anything)
            sites.append((index, name, target))
    return sites


def glossary(papers: list[Paper]) -> list[GlossaryEntry]:
    """Every acronym with its most common expansion and the papers that define it."""
    expansions: dict[str, Counter[str]] = defaultdict(Counter)
    users: dict[str, list[str]] = defaultdict(list)
    for paper in papers:
        for acronym in paper.acronyms:
            expansions[acronym.short][acronym.long] += 1
            users[acronym.short].append(paper.id)
    entries = []
    for short in sorted(expansions, key=lambda s: (s.casefold(), s)):
        long = sorted(expansions[short].items(), key=lambda item: (-item[1], item[0].casefold()))[0][0]
        entries.append(GlossaryEntry(short, long, tuple(dict.fromkeys(users[short]))))
    return entries


def link(
    papers: list[Paper],
    related_count: int,
    titled: Callable[[list[Paper]], None] | None = None,
    waiting: Callable[[], None] | None = None,
    neighbours_found: Callable[[list[Paper], list[list[tuple[int, float]]], Any], None] | None = None,
    meanings: np.ndarray | None = None,
    mixing: Mixing | None = None,
    aboutness: Aboutness | None = None,
    models: Models | None = None,
) -> list[Paper]:
    """The corpus-level passes, in order. Under `mkdocs serve` each reuses what the last run
    derived where its inputs are the same (generator.context). `titled(papers)` is called once
    the papers are all linking makes them but for their related papers (titles, slugs, tags,
    key phrases, mentions), before those are found. `waiting()` is called where this process
    would wait for work run aside (if ever); `neighbours_found`, `meanings` and `mixing`: see
    add_related; with `aboutness` (the tag names' vectors by the meanings' source), a derived tag
    the paper's meaning is far from is shown as a key phrase. `models`: the learned models
    (None: the shipped ones)."""
    models = models or Models.shipped()
    papers = drop_common_names(papers, models.choices)
    papers = unique_slugs(papers)
    # Tag choice, steps 2-5 (enrich.tags; step 1 is enrich's):
    papers = drop_dominant_tags(papers, models.tag_model)  # 2. a tag on too many papers
    papers, (sites, names, heads) = incremental(
        "keyphrases",
        partial(_keyphrases_beside_texts, papers, models, waiting),
        lambda last: _texts_left(keyphrases_after_edit(last, papers, models)),
    )
    papers = fill_up_tags(papers)  # 3. a paper short of tags takes its key phrases
    papers = unique_titles(papers)  # (titles told apart by the tags filled up)
    papers = add_mentions(papers, sites, models.choices)
    papers = shown_by_aboutness(papers, meanings, aboutness)  # 4. tags far from the meaning, as key phrases
    papers = grouping_tags(papers, MAX_KEYPHRASES, models.tag_model)  # 5. what the page shows
    if titled is not None:
        titled(papers)
    return add_related(papers, related_count, names, heads, neighbours_found, meanings, mixing, models)


Texts = tuple[list[tuple[int, str, int]] | None, list[dict[str, str]] | None, Numbered | None]  # see _from_texts


def _keyphrases_beside_texts(papers: list[Paper], models: Models, waiting: Callable[[], None] | None) -> tuple[list[Paper], Texts]:
    """add_keyphrases(papers), and what only the abstracts decide (names they mention and use,
    the words their documents begin with: _from_texts) worked out aside meanwhile, with the key
    phrases of the last papers, so that both take about as long (decision 0007)."""
    cut = len(papers) - int(len(papers) * KEYPHRASES_ELSEWHERE)
    counts = phrase_counts(papers)  # before the work aside, which would count them again
    texts = in_background(partial(_from_texts, papers, cut, counts, models), items=len(papers))
    papers = add_keyphrases(papers, ahead=(cut, lambda: _result_after_waiting(texts, waiting)[3]), counts=counts, models=models)
    sites, names, heads, _ = texts.result()
    return papers, (sites, names, heads)


def _texts_left(found: tuple[list[Paper], Keyphrased]) -> tuple[tuple[list[Paper], Texts], Keyphrased]:
    """keyphrases_after_edit's papers with no texts worked out aside: after an edit, each
    derivation _from_texts makes is remembered per paper instead (mention sites are found again)."""
    papers, state = found
    return (papers, (None, None, None)), state


def _result_after_waiting(later: Pending, waiting: Callable[[], None] | None):
    """later.result(), after waiting() when the work aside is still going on."""
    if waiting is not None and not later.done():
        waiting()
    return later.result()


KEYPHRASES_ELSEWHERE = 0.15  # the share of papers whose key phrases _from_texts works out


def _from_texts(
    papers: list[Paper], cut: int, counts: tuple[Counter[str], int, int], models: Models
) -> tuple[list[tuple[int, str, int]], list[dict[str, str]], Numbered, list]:
    """mention_sites, the names each abstract uses (`reasons.Side.names`), the words each
    document begins with (`similar.vectors`), and papers[cut:]'s key phrases and fill orders (as
    add_keyphrases finds them: each paper's depend on the corpus's counts, `counts`, not on the
    batch)."""
    keyphrases = _keyphrases(papers[cut:], *counts, models)
    return (
        mention_sites(papers, models.choices),
        [_names(p, models) for p in papers],
        numbered([_document_head(p) for p in papers]),
        keyphrases,
    )


def _names(paper: Paper, models: Models) -> dict[str, str]:
    return _name_spellings(paper.text, models)
