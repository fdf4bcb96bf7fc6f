"""Per paper: one Record -> one Paper. Pure functions; a field given in the input wins."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from urllib.parse import urlparse

from generator.enrich.models import Models
from generator.enrich.names import find_acronyms, introduced, name_candidates
from generator.enrich.tagevidence import probabilities
from generator.enrich.tagging import area_of, candidate_phrases, cut_phrases, mentions, normalise_keyword
from generator.enrich.tags import derive_tags, in_passing, named_once, tags_of_acronyms_defined_otherwise
from generator.enrich.titlegate import name_follows, phrase_part
from generator.enrich.titles import MAX_NAMES_DESCRIBED, derive_summary, derive_title
from generator.language.learned import Choices
from generator.language.textutil import collapse_space
from generator.model import Acronym, CandidatePhrases, Link, Paper, Record, TagChoice
from generator.sources import markup
from generator.sources.urlpolicy import web_url

MAX_SLUG_CHARS = 60


@lru_cache(maxsize=16384)  # asked when duplicates are merged and again by the pipeline, which gives enrich the ids
def paper_id(abstract: str) -> str:
    """Stable id: a hash of the abstract with case and whitespace normalised."""
    normalised = collapse_space(unicodedata.normalize("NFC", abstract).casefold())
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()[:12]


def slugify(text: str, max_chars: int = MAX_SLUG_CHARS) -> str:
    """ASCII, lower case, hyphenated, cut at a word boundary: safe on every filesystem."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if len(slug) > max_chars:
        slug = slug[: max_chars + 1].rsplit("-", 1)[0]
    return slug or "paper"


def classify_link(url: str) -> Link:
    parsed = urlparse(url)
    host = parsed.netloc.lower().removeprefix("www.")
    path = [part for part in parsed.path.split("/") if part]
    if host in ("github.com", "gitlab.com", "bitbucket.org") and len(path) >= 2:
        return Link("code", f"Code · {path[0]}/{path[1]}", url)
    if host in ("huggingface.co", "hf.co"):
        if path[:1] == ["datasets"] and len(path) >= 2:
            return Link("dataset", f"Dataset · {'/'.join(path[1:3])}", url)
        if path[:1] == ["spaces"] and len(path) >= 2:
            return Link("demo", f"Demo · {'/'.join(path[1:3])}", url)
        if path:
            return Link("model", f"Model · {'/'.join(path[:2])}", url)
    if host in ("arxiv.org", "openreview.net", "aclanthology.org", "doi.org"):
        return Link("paper", f"Paper · {host}", url)
    return Link("project", f"Project page · {host}", url)


_BOLD = re.compile(f"(?<!\\w){markup.BOLD_OPEN}([^{markup.BOLD_CLOSE}]+){markup.BOLD_CLOSE}(?!\\w)")


def _bold_words(parts: list[markup.Segment]) -> list[str]:
    """Whole words set in bold (**X** or \\textbf{X}): candidate names."""
    bold: list[str] = []
    for segment in parts:
        if segment.kind == "text" and markup.BOLD_OPEN in segment.value:  # few abstracts set any
            bold.extend(match.strip() for match in _BOLD.findall(segment.value))
    return bold


def _name_and_title(
    parts: list[markup.Segment],
    text: str,
    acronyms: list[Acronym],
    banned: frozenset[str],
    choices: Choices,
    candidates: CandidatePhrases,
    given_title: str | None = None,
) -> tuple[str | None, str]:
    """The name the abstract introduces, and the title: the given one, else derived (from
    `candidates`, the abstract's noun phrases, among others)."""
    # URLs hold name-like tokens ('nvidia/MM-Embed') that are not introduced names.
    names = name_candidates(
        markup.URL.sub("", text), _bold_words(parts), acronyms, banned, limit=MAX_NAMES_DESCRIBED, urls=markup.urls(parts), choices=choices
    )
    title = given_title or derive_title(text, names, choices, candidates)[1]
    # The paper's name (for mentions, the glossary, search) is the one it introduces, whether
    # or not the learned choice lets its title lead with it.
    name = introduced(names, choices)
    return (name.name if name else None), title


def title_slug(title: str, name: str | None) -> str:
    """The page's address: a paper with a name is filed under it ('patchsae-sparse-autoencoder-…'),
    whether the title leads with the name or shows it after the phrase."""
    return slugify(f"{name} {phrase_part(title, name)}" if name_follows(title, name) else title)


def retitle(paper: Paper, banned: frozenset[str], choices: Choices | None = None) -> Paper:
    """Derive the title again without names the corpus shows to be common (used by many papers),
    by the title models `choices` (None: the shipped ones)."""
    if paper.given_title:
        return paper
    choices = choices or Choices.shipped()
    parts = markup.segments(paper.abstract, choices)
    name, title = _name_and_title(
        parts, paper.text, list(paper.acronyms), banned, choices, paper.tag_choice.candidates or candidate_phrases(paper.text)
    )
    return replace(paper, name=name, title=title, slug=title_slug(title, name))


def enrich(record: Record, models: Models | None = None) -> Paper:
    return enrich_batch([record], models=models)[0]


def enrich_batch(records: Sequence[Record], ids: Sequence[str] | None = None, models: Models | None = None) -> list[Paper]:
    """enrich() of each record, one derivation at a time over them all: each pass's code and
    data stay in the processor's caches (at 4,242 papers: 10% less CPU in batches of 64 than
    paper by paper, 5% less again in batches of 128). A batch should fit the cache of
    `mentions` (256 abstracts), or they are derived twice. `ids`: the
    records' paper_id when the caller has them (from merging duplicates), else worked out.
    `models`: the learned models derived with (None: the shipped ones)."""
    models = models or Models.shipped()
    choices, vocab = models.choices, models.vocabulary
    ids = ids or [paper_id(record.abstract) for record in records]
    parts = [markup.segments(record.abstract, choices) for record in records]
    texts = [markup.to_plain(segments) for segments in parts]
    acronyms = [find_acronyms(text, choices) for text in texts]
    # The abstract's noun phrases: title candidates, key phrases and cut terms are made from them.
    phrases = [candidate_phrases(text) for text in texts]
    named = [
        _name_and_title(segments, text, defined, frozenset(), choices, candidates, record.title)
        for segments, text, defined, candidates, record in zip(parts, texts, acronyms, phrases, records)
    ]
    found = [mentions(text, vocab) for text in texts]
    scores = [probabilities(text, mentioned, models) for text, mentioned in zip(texts, found)]
    threshold = models.tag_model.threshold
    tags = [derive_tags(record.keywords, score, threshold, vocab) for record, score in zip(records, scores)]
    summaries = [record.tldr or derive_summary(text, choices) for record, text in zip(records, texts)]
    areas = [
        area_of(text, paper_tags, record.primary_area, Counter(mention.tag for mention in mentioned), vocab)
        for text, paper_tags, record, mentioned in zip(texts, tags, records, found)
    ]
    # What the page will not show: tags named only by an acronym the abstract defines otherwise,
    # phrases that stop inside a term. Tags named once are shown as key phrases (as_phrases).
    given = [tuple(normalise_keyword(k, vocab) for k in record.keywords) for record in records]
    hidden = [
        (
            *tags_of_acronyms_defined_otherwise(paper_tags, given_tags, mentioned, defined, vocab),
            *sorted(cut_phrases(candidates, mentioned, [a.long for a in defined], vocab)),
        )
        for paper_tags, given_tags, mentioned, candidates, defined in zip(tags, given, found, phrases, acronyms)
    ]
    model = models.tag_model
    as_phrases = [
        (*in_passing(paper_tags, given_tags, mentioned, model), *named_once(paper_tags, given_tags, mentioned, score, title, model))
        for paper_tags, given_tags, mentioned, score, (_, title) in zip(tags, given, found, scores, named)
    ]
    derived = zip(ids, records, parts, texts, acronyms, named, tags, given, scores, summaries, areas, phrases, hidden, as_phrases)
    return [_paper(*each) for each in derived]


def _paper(
    identifier: str,
    record: Record,
    parts: list[markup.Segment],
    text: str,
    acronyms: list[Acronym],
    named: tuple[str | None, str],
    tags: tuple[str, ...],
    given_tags: tuple[str, ...],
    scores: dict[str, float],
    summary: str,
    area: str,
    phrases: tuple,
    hidden: tuple[str, ...],
    as_phrases: tuple[str, ...],
) -> Paper:
    name, title = named
    if record.title and name and name not in record.title:
        name = None  # the real title says what the paper introduces; this name is only used
    links = [classify_link(url) for url in dict.fromkeys(markup.urls(parts))]
    # The readers refuse (and report) a url that is not http(s); asked again for records made in code.
    page = web_url(record.url) if record.url else None
    if page and page not in {link.url for link in links}:
        links.insert(0, Link("paper", "Paper page", page))
    body = markup.to_markdown(parts)
    # Most abstracts need no cleaning: their plain text and Markdown are the abstract. One
    # string then, not three equal ones: the paper pickled back from a worker is smaller, and
    # held in less memory (decision 0007).
    text = _same(text, record.abstract)
    body = _same(body, record.abstract, text)
    return Paper(
        id=identifier,
        slug=title_slug(title, name),
        title=title,
        summary=summary,
        name=name,
        tags=tags,
        keyphrases=(),
        area=area,
        links=tuple(links),
        acronyms=tuple(acronyms),
        abstract=record.abstract,
        body=body,
        text=text,
        collection=record.collection,
        origin=record.origin,
        authors=record.authors,
        url=page,
        given_title=record.title is not None,
        tag_choice=TagChoice(
            given=given_tags,
            scores=tuple(sorted((tag, round(score, 4)) for tag, score in scores.items())),
            candidates=phrases,
            hidden=hidden,
            as_phrases=as_phrases,
        ),
    )


def _same(value: str, *others: str) -> str:
    """The first of `others` equal to `value`, else `value`: equal strings shared."""
    return next((other for other in others if other == value), value)
