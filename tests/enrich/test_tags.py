"""Tag choice (generator.enrich.tags): given keywords first, evidence above the threshold, a
tag no longer on most of a large collection, and papers filled up to three tags from their key phrases."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from generator.enrich.tags import MAX_TAGS, MIN_TAGS, derive_tags, drop_dominant_tags, filled_up
from helpers import papers_from


def test_given_keywords_come_first_then_tags_whose_evidence_reaches_the_threshold():
    scores = {"reinforcement learning": 0.9, "robotics": 0.6, "evaluation": 0.2}
    assert derive_tags(("LLMs",), scores, threshold=0.5) == ("large language models", "reinforcement learning", "robotics")
    assert derive_tags((), scores, threshold=0.7) == ("reinforcement learning",)


def test_a_given_keyword_repeated_in_another_spelling_is_one_tag():
    assert derive_tags(("LLMs", "large language models"), {}, threshold=0.5) == ("large language models",)


def test_no_paper_carries_more_than_the_most_tags():
    scores = {f"tag {i}": 0.9 for i in range(20)}
    assert len(derive_tags(("a", "b"), scores, threshold=0.5)) == MAX_TAGS


def test_a_paper_short_of_tags_is_filled_up_with_recurring_key_phrases_first():
    display = {"policy gradient": "policy gradient", "reward model": "reward model", "toy grid": "toy grid"}
    frequency = Counter({"policy gradient": 1, "reward model": 4, "toy grid": 1})
    tags = filled_up(("robotics",), ["policy gradient", "reward model"], ["toy grid"], frequency, display)
    assert tags == ("robotics", "reward model", "policy gradient")
    assert len(tags) == MIN_TAGS


def test_a_key_phrase_overlapping_a_tag_does_not_fill_up():
    display = {"robotics": "robotics", "robotics benchmarks": "robotics benchmarks", "grasping": "grasping"}
    tags = filled_up(("robotics",), ["robotics benchmarks", "grasping"], [], Counter(), display)
    assert tags == ("robotics", "grasping")


def test_a_paper_with_enough_tags_keeps_them():
    assert filled_up(("a", "b", "c"), ["d"], [], Counter({"d": 9}), {"d": "d"}) == ("a", "b", "c")


@pytest.mark.parametrize(
    ("papers", "on", "kept_where"),
    [
        # 1,000+ papers: a tag on more than a tenth stays where the title names it or it is given.
        (1000, 150, {"title", "given"}),
        (1000, 90, {"title", "given", "mention"}),  # under a tenth: kept everywhere
        # a smaller collection tolerates a quarter, then the same rule
        (200, 40, {"title", "given", "mention"}),
        (200, 60, {"title", "given"}),
    ],
)
def test_a_tag_on_too_many_papers_stays_only_where_it_is_central_or_given(papers, on, kept_where):
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    kinds = ["title", "given"] + ["mention"] * (on - 2)
    made = []
    for i in range(papers):
        kind = kinds[i] if i < on else None
        made.append(
            replace(
                base,
                id=f"p{i}",
                title="Evaluation of Anomaly Detectors" if kind == "title" else f"Paper {i}",
                tags=("evaluation", "graph learning") if kind else ("graph learning",),
                given_tags=("evaluation",) if kind == "given" else (),
            )
        )
    result = drop_dominant_tags(made)
    has = {kind for kind, paper in zip(kinds, result) if "evaluation" in paper.tags}
    assert has == kept_where
