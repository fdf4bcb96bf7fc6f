"""Which tags a paper carries: every rule of tag choice, in the order a run applies them.

1. Per paper (enrich): given keywords first, then the vocabulary tags whose learned evidence
   (generator.enrich.tagevidence) reaches the model's threshold (`derive_tags`).
2. Over the collection (link): a derived tag on too large a share of the papers stays only on
   the papers about it (`drop_dominant_tags`).
3. Per paper again, once key phrases are scored (link): a paper with fewer than MIN_TAGS tags
   is filled up from its key phrases (`filled_up`).
4. Over the collection again (link): a derived tag that no other paper carries groups nothing;
   it becomes one of the paper's key phrases, and a paper left short of MIN_TAGS joins the
   groups its key phrases name (`grouping_tags`).

The vocabulary and its matching are generator.enrich.tagging; the figures behind these rules
are decision 0006.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import partial

from generator.context import Kept, made
from generator.enrich.tagevidence import tag_model
from generator.enrich.tagging import normalise_keyword
from generator.language.textutil import normalise_term
from generator.model import Paper, paper_with

MAX_TAGS = 8
MIN_TAGS = 3


def derive_tags(given_keywords: tuple[str, ...], scores: Mapping[str, float], threshold: float) -> tuple[str, ...]:
    """Given keywords first (normalised), then the vocabulary tags whose evidence
    (`tagevidence.probabilities`) reaches `threshold`, likeliest first, at most MAX_TAGS."""
    tags: list[str] = []
    for keyword in given_keywords:
        tag = normalise_keyword(keyword)
        if tag and normalise_term(tag) not in {normalise_term(t) for t in tags}:
            tags.append(tag)
    for tag, score in sorted(scores.items(), key=lambda item: (-item[1], item[0])):
        if len(tags) >= MAX_TAGS or score < threshold:
            break
        if tag not in tags:
            tags.append(tag)
    return tuple(tags[:MAX_TAGS])


DOMINANT_TAG_SHARE = 0.25  # a derived tag on more papers than this tells readers nothing
DOMINANT_MIN_PAPERS = 50
# In a very large collection a tenth is already too many ('evaluation', 'datasets' at ICLR).
COMMON_TAG_SHARE = 0.10
COMMON_MIN_PAPERS = 1000


def drop_dominant_tags(papers: list[Paper], kept: Kept | None = None) -> list[Paper]:
    """A derived tag on too many papers of a large collection (robotics at a robotics venue,
    'evaluation' at ICLR) stays only where it is given or the paper is about it: its title
    names it or its evidence (`tagevidence`) reaches the model's `central` probability;
    of those, the likeliest keep it, at most the share a tag may have. Keeping it wherever the
    first sentence names it leaves 'large language models' on 63% of COLM: a tag that no
    longer tells papers apart."""
    n = len(papers)
    if n < DOMINANT_MIN_PAPERS:
        return papers
    share = COMMON_TAG_SHARE if n >= COMMON_MIN_PAPERS else DOMINANT_TAG_SHARE
    counts = Counter(tag for p in papers for tag in p.tags)
    dominant = {tag for tag, count in counts.items() if count > share * n}
    if not dominant:
        return papers
    central = tag_model().central
    keeping: dict[str, set[int]] = {}
    for tag in dominant:
        about = []
        for i, paper in enumerate(papers):
            if tag in paper.tags and tag not in paper.given_tags:
                named, score = _central(tag, paper.title), dict(paper.tag_scores).get(tag, 0.0)
                if named or score >= central:
                    about.append((not named, -score, i))
        keeping[tag] = {i for _, _, i in sorted(about)[: int(share * n)]}

    def keep(i: int, paper: Paper, tag: str) -> bool:
        return tag not in dominant or tag in paper.given_tags or i in keeping[tag]

    return [
        _without_dominant(kept, p, tuple(t for t in p.tags if keep(i, p, t))) if dominant & set(p.tags) else p for i, p in enumerate(papers)
    ]


def _central(tag: str, title: str) -> bool:
    """The paper is about the tag, not only mentioning it: its title says so."""
    return f" {normalise_term(tag)} " in f" {normalise_term(title)} "


def _without_dominant(kept: Kept | None, paper: Paper, tags: tuple[str, ...]) -> Paper:
    # Under serve (`kept`), the last run's object for the same paper object and tags.
    return made(kept, "dominant", paper, {"tags": tags}, lambda: paper_with(paper, tags=tags))


def filled_up(
    tags: tuple[str, ...], chosen: Sequence[str], scored: Sequence[str], document_frequency: Counter[str], display: Mapping[str, str]
) -> tuple[str, ...]:
    """`tags` filled up to MIN_TAGS from key phrases (normalised keys; `display`: as written):
    the paper's chosen key phrases that recur in other papers, then its other chosen ones, then
    any other it scored (`scored`, best first); a phrase overlapping a tag is skipped."""
    result = list(tags)
    if len(result) < MIN_TAGS:
        fill = [k for k in chosen if document_frequency[k] >= 2]
        fill += [k for k in chosen if k not in fill] + [k for k in scored if k not in chosen]
        for key in fill:
            if len(result) >= MIN_TAGS:
                break
            if not any(key in normalise_term(t) or normalise_term(t) in key for t in result):
                phrase = display[key]
                result.append(phrase.lower() if phrase.islower() else phrase)
    return tuple(result[:MAX_TAGS])


MIN_TAG_PAPERS = 2  # a derived tag on fewer papers groups nothing: it is a key phrase instead


def grouping_tags(papers: list[Paper], kept: Kept | None = None, max_keyphrases: int = 6) -> list[Paper]:
    """Tags that group papers. A derived tag carried by fewer than MIN_TAG_PAPERS papers of the
    collection is dropped from the paper's tags and kept among its key phrases (first, as the
    likeliest; at most `max_keyphrases`); given keywords stay tags whatever their spread. A paper
    left with fewer than MIN_TAGS tags then takes, from its key phrases in order, those that are
    another paper's tag: it joins groups that exist, and makes no new lone tag. Two right tags
    rather than three with one wrong (issue 33)."""
    counts = Counter(tag for paper in papers for tag in dict.fromkeys(paper.tags))
    lone = {tag for tag, count in counts.items() if count < MIN_TAG_PAPERS}
    groups = {normalise_term(tag): tag for tag, count in counts.items() if count >= MIN_TAG_PAPERS}
    result = []
    for paper in papers:
        drop = [tag for tag in paper.tags if tag in lone and tag not in paper.given_tags]
        if not drop and len(paper.tags) >= MIN_TAGS:
            result.append(paper)
            continue
        tags = [tag for tag in paper.tags if tag not in drop]
        keys = {normalise_term(tag) for tag in tags}
        for phrase in paper.keyphrases:
            if len(tags) >= MIN_TAGS:
                break
            key = normalise_term(phrase)
            if key in groups and not any(key in other or other in key for other in keys):
                tags.append(groups[key])
                keys.add(key)
        phrases = list(paper.keyphrases)
        for tag in reversed(drop):
            key = normalise_term(tag)
            if not any(key == normalise_term(p) for p in phrases):
                phrases.insert(0, tag)
        changes = {"tags": tuple(tags), "keyphrases": tuple(phrases[:max_keyphrases])}
        if changes["tags"] == paper.tags and changes["keyphrases"] == paper.keyphrases:
            result.append(paper)
            continue
        result.append(made(kept, "grouping", paper, changes, partial(paper_with, paper, **changes)))
    return result
