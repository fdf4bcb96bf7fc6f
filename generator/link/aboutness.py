"""Whether a paper is about each tag its words gave it, by meaning (issue 52, decision 0031).

A paper can name 'flow matching' or 'segmentation' without being about either. Where a build
has a meaning vector per abstract, the cosine between it and the vector of the tag's name, by
the same meaning source, tells the two apart better than the words do (decision 0031 has the
figures). A derived tag below its source's floor is shown as a key phrase
(Paper.tag_choice.as_phrases), as a tag named once is; related papers still find it as a tag, so
their lists do not change.

The tag names' vectors and the floors live in data/aboutness.yml and data/aboutness/, made by
`lab/tune_aboutness.py` (`make train`). A site by words only, or by a meaning source with
no vectors there, keeps the rule of words alone (enrich.tags).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial
from importlib import resources
from typing import Any

import numpy as np
import yaml

from generator.context import reused
from generator.enrich.tags import title_names
from generator.model import Paper, paper_with

DATA = "data/aboutness.yml"


@dataclass(frozen=True)
class Aboutness:
    """The unit vector of each vocabulary tag's name by one meaning source (`rows`: tag -> row
    of `vectors`), the cosine below which the paper is not taken to be about a tag, and how the
    same source embeds other names (`embed_others`: key phrases filled up as tags; None: those
    keep the rule of words)."""

    floor: float
    rows: dict[str, int]
    vectors: np.ndarray
    embed_others: Callable[[list[str]], np.ndarray] | None = None

    def nearness(self, meaning: np.ndarray, tags: tuple[str, ...], others: Mapping[str, np.ndarray] | None = None) -> dict[str, float]:
        """The cosine between a paper's unit meaning vector and each of `tags` with a name
        vector: a vocabulary tag's, or one of `others` (by name)."""
        result = {}
        known = [tag for tag in tags if tag in self.rows]
        if known:
            cosines = self.vectors[[self.rows[tag] for tag in known]] @ meaning
            result = {tag: float(value) for tag, value in zip(known, cosines)}
        if others:
            result.update({tag: float(others[tag] @ meaning) for tag in tags if tag not in result and tag in others})
        return result


@cache
def _fitted() -> dict[str, Any]:
    text = resources.files("generator").joinpath(DATA).read_text(encoding="utf-8")
    return yaml.safe_load(text) or {}


@cache
def _rows() -> dict[str, int]:
    """Each vocabulary tag's row in every source's name vectors."""
    return {str(tag): row for row, tag in enumerate(_fitted()["tags"])}


@cache
def _vectors(file: str) -> np.ndarray:
    with resources.files("generator").joinpath("data").joinpath(file).open("rb") as stream:
        return np.load(stream, allow_pickle=False).astype(np.float32)


def fitted_aboutness(source: str | None, venue: str | None = None) -> Aboutness | None:
    """The tag names' vectors and floor for the meaning source named `source` (None: words
    only, and no aboutness); with `venue`, the floor fitted without that venue's judged tags
    (the shipped one when there is none)."""
    if source is None:
        return None
    data = _fitted()
    entry = (data.get("sources") or {}).get(source)
    if not entry:
        return None
    floor = (entry.get("without_venue") or {}).get(venue, entry["floor"]) if venue else entry["floor"]
    return Aboutness(float(floor), _rows(), _vectors(entry["vectors"]))


def checked_tags(paper: Paper) -> tuple[str, ...]:
    """The paper's tags aboutness may set apart: derived (not given) and not named by its title
    (a title-named tag is almost always right, decision 0031)."""
    return tuple(tag for tag in paper.tags if tag not in paper.tag_choice.given and not title_names(tag, paper.title))


def tags_not_about(
    paper: Paper,
    meaning: np.ndarray,
    aboutness: Aboutness,
    others: Mapping[str, np.ndarray] | None = None,
    checked: tuple[str, ...] | None = None,
) -> tuple[str, ...]:
    """The paper's checked tags (`checked`: checked_tags(paper) when worked out already) whose
    name its meaning is farther from than the floor."""
    checked = checked_tags(paper) if checked is None else checked
    return tuple(tag for tag, cosine in aboutness.nearness(meaning, checked, others).items() if cosine < aboutness.floor)


def other_names(checked: list[tuple[str, ...]], aboutness: Aboutness) -> dict[str, np.ndarray]:
    """The vectors of the `checked` tags (per paper, checked_tags) that are no vocabulary tag
    (key phrases filled up as tags, enrich.tags.fill_up_tags), embedded in one batch by
    `aboutness.embed_others`."""
    names = sorted({tag for tags in checked for tag in tags if tag not in aboutness.rows})
    if not names or aboutness.embed_others is None:
        return {}
    return dict(zip(names, aboutness.embed_others(names)))


def shown_by_aboutness(papers: list[Paper], meanings: np.ndarray | None, aboutness: Aboutness | None) -> list[Paper]:
    """Each paper with the derived tags it is not about (tags_not_about) among the tags its
    page shows as key phrases (Paper.tag_choice.as_phrases; enrich.tags.grouping_tags shows them).
    Unchanged without meaning vectors or without `aboutness` for their source."""
    if meanings is None or aboutness is None:
        return papers
    checked = [checked_tags(paper) for paper in papers]
    others = other_names(checked, aboutness)
    result = []
    for paper, meaning, tags in zip(papers, meanings, checked):
        apart = [tag for tag in tags_not_about(paper, meaning, aboutness, others, tags) if tag not in paper.tag_choice.as_phrases]
        if not apart:
            result.append(paper)
            continue
        changes = {"tag_choice": replace(paper.tag_choice, as_phrases=(*paper.tag_choice.as_phrases, *apart))}
        result.append(reused("aboutness", paper, changes, partial(paper_with, paper, **changes)))
    return result
