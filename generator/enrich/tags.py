"""Which tags a paper carries: every rule of tag choice, in the order a run applies them.

1. Per paper (enrich): given keywords first, then the vocabulary tags whose learned evidence
   (generator.enrich.tagevidence) reaches the model's threshold (`derive_tags`).
2. Over the collection (link): a derived tag on too large a share of the papers stays only on
   the papers about it (`drop_dominant_tags`).
3. Per paper again, once key phrases are scored (link): a paper with fewer than MIN_TAGS tags
   is filled up from its key phrases (`filled_up`).

The vocabulary and its matching are generator.enrich.tagging; the figures behind these rules
are decision 0006.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

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
