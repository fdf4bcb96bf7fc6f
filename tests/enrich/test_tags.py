"""Tag choice (generator.enrich.tags): given keywords first, evidence above the threshold, a
tag no longer on most of a large collection, and papers filled up to three tags from their key phrases."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from generator.enrich.tags import (
    MAX_TAGS,
    MIN_TAGS,
    derive_tags,
    derived_terms,
    drop_dominant_tags,
    fill_order,
    fill_up_tags,
    filled_up,
    grouping_tags,
)
from generator.language.learned import TagModel
from generator.model import TagChoice
from helpers import papers_from


def grouped(papers, max_keyphrases=6, generic=frozenset()):
    """grouping_tags by the shipped tag model with `generic` as its generic phrases: by default
    these rules on their own, no key phrase generic (the shipped list is learned data)."""
    return grouping_tags(papers, max_keyphrases=max_keyphrases, model=replace(TagModel.shipped(), generic_phrases=generic))


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
    order = fill_order(["policy gradient", "reward model"], ["reward model", "toy grid", "policy gradient"], frequency)
    assert order == ("reward model", "policy gradient", "toy grid")
    tags = filled_up(("robotics",), order, display)
    assert tags == ("robotics", "reward model", "policy gradient")
    assert len(tags) == MIN_TAGS


def test_a_key_phrase_overlapping_a_tag_does_not_fill_up():
    display = {"robotics": "robotics", "robotics benchmarks": "robotics benchmarks", "grasping": "grasping"}
    tags = filled_up(("robotics",), fill_order(["robotics benchmarks", "grasping"], [], Counter()), display)
    assert tags == ("robotics", "grasping")


def test_a_paper_with_enough_tags_keeps_them():
    assert filled_up(("a", "b", "c"), ("d",), {"d": "d"}) == ("a", "b", "c")


def test_fill_up_tags_fills_only_papers_short_of_tags():
    base = papers_from("We study a reward model on a toy grid.")[0]
    choice = TagChoice(
        candidates=(("reward model", "Reward Model", 2), ("toy grid", "toy grid", 1)), fill_order=("toy grid", "reward model")
    )
    short = replace(base, tags=("robotics",), tag_choice=choice)
    full = replace(base, tags=("a", "b", "c"), tag_choice=choice)
    filled, kept = fill_up_tags([short, full])
    assert filled.tags == ("robotics", "toy grid", "Reward Model")
    assert kept is full


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
    kinds = ["title", "given"] + ["mention"] * (on - 2)
    result = drop_dominant_tags(_collection(papers, kinds, "evaluation", "Evaluation of Anomaly Detectors"))
    has = {kind for kind, paper in zip(kinds, result) if "evaluation" in paper.tags}
    assert has == kept_where
    # A broad one names the field: where it stays (related papers), the page does not show it, unless given.
    hidden = {kind for kind, paper in zip(kinds, result) if "evaluation" in paper.tag_choice.hidden}
    dominant = "mention" not in kept_where
    assert hidden == ({"title"} if dominant else set())
    assert ("evaluation" in grouped(result)[0].tags) is not dominant and "evaluation" in grouped(result)[1].tags


def test_a_tag_of_the_field_most_abstracts_name_is_shown_only_where_the_paper_is_about_it():
    # '3D' is named by 72% of 3DV's abstracts: a '3D vision' page of the papers that say it most
    # groups nothing a 3DV reader wants. Where the paper is about the field itself it stays.
    central = TagModel.shipped().central
    kinds = ["strong", "title", "given", "weak", "weak"]

    def scores(i: int, kind: str | None) -> tuple[tuple[str, float], ...]:
        named = i < 40  # two thirds of the abstracts name it, five carry it as a tag
        score = central + 0.1 if kind == "strong" else central - 0.05
        return (("3D vision", score),) * named + (("graph learning", 0.9),)

    made = _collection(60, kinds, "3D vision", "3D Vision Without Depth", scores)
    result = grouped(drop_dominant_tags(made))
    shown = {kind for kind, paper in zip(kinds, result) if "3D vision" in paper.tags}
    assert shown == {"strong", "title", "given"}
    assert derived_terms(result[3])[0] == ("3D vision", "graph learning")  # related papers still find it
    # Named by fewer than half: a tag like any other.
    fewer = [
        replace(paper, tag_choice=replace(paper.tag_choice, scores=paper.tag_choice.scores[-1:])) if i >= 5 else paper
        for i, paper in enumerate(made)
    ]
    assert {kind for kind, paper in zip(kinds, grouped(drop_dominant_tags(fewer))) if "3D vision" in paper.tags} == set(kinds)


def _paper(base, i, tags, keyphrases=(), given=(), hidden=(), once=(), filled=()):
    """A paper whose derived tags have strong evidence, but the `filled` ones (filled up from key phrases)."""
    return replace(
        base,
        id=f"p{i}",
        tags=tuple(tags),
        keyphrases=tuple(keyphrases),
        tag_choice=replace(
            base.tag_choice,
            given=tuple(given),
            hidden=tuple(hidden),
            as_phrases=tuple(once),
            scores=tuple((tag, 0.9) for tag in tags if tag not in filled and tag not in given),
        ),
    )


def test_a_derived_tag_no_other_paper_carries_becomes_a_key_phrase():
    # A tag page that would list one paper groups nothing (issue 33): the term stays on the page.
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["graph learning", "anomaly detection", "image background"], ["message passing", "graph anomaly"]),
        _paper(base, 1, ["graph learning", "anomaly detection", "robotics"], ["robot arms"]),
    ]
    result = grouped(papers)
    assert result[0].tags == ("graph learning", "anomaly detection")
    assert result[0].keyphrases == ("image background", "message passing", "graph anomaly")
    assert result[1].tags == ("graph learning", "anomaly detection")
    assert "robotics" in result[1].keyphrases


def test_a_given_keyword_stays_a_tag_on_one_paper():
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [_paper(base, 0, ["my own keyword", "a", "b"], given=["my own keyword"]), _paper(base, 1, ["a", "b", "c"])]
    assert grouped(papers)[0].tags == ("my own keyword", "a", "b")
    assert grouped(papers)[1].tags == ("a", "b")


def test_a_paper_short_of_tags_joins_the_groups_its_key_phrases_name():
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["graph learning", "message passing"]),
        _paper(base, 1, ["graph learning", "message passing"]),
        _paper(base, 2, ["graph learning"], ["Message Passing", "graph learning methods", "lone phrase"]),
    ]
    result = grouped(papers)
    # 'graph learning methods' overlaps a tag it has; a phrase no paper has as a tag makes no new tag.
    assert result[2].tags == ("graph learning", "message passing")
    assert all(count >= 2 for count in Counter(t for p in result for t in p.tags).values())


def test_a_tag_filled_up_from_key_phrases_is_shown_only_while_the_paper_has_fewer_than_two():
    # Two right tags rather than three with a weak one (issue 33): a tag with no evidence of its
    # own ('natural image' filled up from the key phrases) stays a key phrase past the second tag.
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["graph learning", "anomaly detection", "natural image"], ["message passing"], filled=["natural image"]),
        _paper(base, 1, ["graph learning", "natural image"], filled=["natural image"]),
        _paper(base, 2, ["anomaly detection", "natural image"], filled=["natural image"]),
        _paper(base, 3, ["graph learning", "anomaly detection", "natural image"], given=["natural image"]),
    ]
    result = grouped(papers)
    assert result[0].tags == ("graph learning", "anomaly detection")
    assert result[0].keyphrases == ("natural image", "message passing")
    assert result[1].tags == ("graph learning", "natural image")  # its second tag: shown, and a group
    assert result[2].tags == ("anomaly detection", "natural image")
    assert result[3].tags == papers[3].tags  # the authors' keyword
    assert derived_terms(result[0])[0] == papers[0].tags  # related papers still find it as a tag


def _dnn_papers():
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    dnn = "deep neural networks"
    return [
        _paper(base, 0, [dnn], ["message passing"], filled=[dnn]),  # its only tag, from its key phrases
        _paper(base, 1, ["graph learning", dnn], filled=[dnn]),
        _paper(base, 2, ["graph learning"], [dnn]),  # short of two tags: would join the group
        _paper(base, 3, ["graph learning", dnn], given=[dnn]),  # the authors' keyword: a group of two
        _paper(base, 4, ["anomaly detection", dnn], given=[dnn]),
    ]


def test_a_generic_key_phrase_is_never_a_tag_of_its_own_nor_a_group_to_join():
    # Many abstracts write 'deep neural networks'; almost no author files a paper under it
    # (decision 0020). A page rather shows no tag than that one; the phrase stays a key phrase.
    papers = _dnn_papers()
    result = grouped(papers, generic=frozenset({"deep neural network"}))  # as training finds it
    assert result[0].tags == () and "deep neural networks" in result[0].keyphrases
    assert result[1].tags == ("graph learning",)
    assert result[2].tags == ("graph learning",)
    assert result[3].tags == papers[3].tags
    assert derived_terms(result[0])[0] == papers[0].tags  # related papers still find it


def test_a_key_phrase_that_is_not_generic_still_fills_up_and_groups():
    result = grouped(_dnn_papers())
    assert result[0].tags == ("deep neural networks",)
    assert result[2].tags == ("graph learning", "deep neural networks")


def test_a_one_word_tag_named_in_passing_is_the_last_key_phrase_not_a_tag():
    # 'sampling' named once (in_passing): not a tag, but it is in the abstract; shown after the
    # paper's six key phrases, none of which it pushes out (decision 0022).
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    six = ["message passing", "graph anomaly", "node outliers", "subgraph scores", "edge noise", "benchmark graphs"]
    papers = [
        _paper(base, 0, ["graph learning", "anomaly detection", "sampling"], six, once=["sampling"]),
        _paper(base, 1, ["graph learning", "anomaly detection", "sampling"]),
        _paper(base, 2, ["graph learning", "sampling"]),
    ]
    result = grouped(papers, max_keyphrases=6)
    assert result[0].tags == ("graph learning", "anomaly detection")
    assert result[0].keyphrases == (*six, "sampling")
    assert result[1].tags == papers[1].tags


def test_a_tag_shown_as_a_key_phrase_takes_no_tag_s_place():
    # 'sampling' groups papers elsewhere but is named once here: the filled-up second tag shows.
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["sampling", "graph learning", "natural image"], once=["sampling"], filled=["natural image"]),
        _paper(base, 1, ["sampling", "graph learning"]),
        _paper(base, 2, ["graph learning", "natural image"], filled=["natural image"]),
        _paper(base, 3, ["sampling", "anomaly detection"]),
    ]
    assert grouped(papers)[0].tags == ("graph learning", "natural image")


def test_papers_whose_tags_all_group_are_the_same_objects():
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [_paper(base, i, ["a", "b", "c"]) for i in range(3)]
    assert all(new is old for new, old in zip(grouped(papers), papers))


def test_hidden_terms_are_neither_tags_nor_key_phrases_on_the_page():
    # A phrase cut inside a term, a tag the abstract names only by an acronym defined otherwise
    # (enrich fills Paper.tag_choice.hidden).
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(
            base,
            0,
            ["graph learning", "evaluation", "anomaly detection"],
            ["graph anomaly", "message passing"],
            hidden=["evaluation", "graph anomaly"],
        ),
        _paper(base, 1, ["graph learning", "evaluation", "anomaly detection"], ["message passing"]),
        _paper(base, 2, ["evaluation", "anomaly detection"], ["message passing"]),
    ]
    result = grouped(papers)
    assert result[0].tags == ("graph learning", "anomaly detection") and result[0].keyphrases == ("message passing",)
    assert result[1].tags == ("graph learning", "evaluation", "anomaly detection")  # named often there: shown
    assert derived_terms(result[0])[0] == ("graph learning", "evaluation", "anomaly detection")  # still finds related papers


def test_a_one_word_tag_the_abstract_names_once_is_named_in_passing():
    from generator.enrich.tagging import mentions
    from generator.enrich.tags import in_passing

    text = "We propose a planner for robot navigation. Navigation in crowds needs evaluation of risk."
    found = mentions(text)
    passing = in_passing(("navigation", "evaluation", "motion planning"), (), found)
    assert "evaluation" in passing and "navigation" not in passing  # named once / twice
    assert "motion planning" not in passing  # a tag of more words is not hidden (see named_once)
    assert in_passing(("evaluation",), ("evaluation",), found) == ()  # a given keyword is the authors' word


def test_a_tag_of_more_words_the_abstract_names_once_is_named_once():
    from generator.enrich.tagging import mentions
    from generator.enrich.tags import named_once

    text = (
        "We propose a planner for robot navigation that learns from demonstrations. Imitation learning "
        "from few demonstrations generalises poorly; our imitation learning method adds motion planning."
    )
    found = mentions(text)
    tags, weak = ("imitation learning", "motion planning", "navigation"), {"imitation learning": 0.1, "motion planning": 0.1}
    assert named_once(tags, (), found, weak) == ("motion planning",)  # named twice / once; one-word tags are in_passing's
    assert named_once(tags, (), found, {"motion planning": 0.99}) == ()  # the evidence says the paper is about it
    assert named_once(("motion planning",), ("motion planning",), found, weak) == ()  # the authors' word


def test_enrich_marks_a_tag_named_once_in_passing_unless_the_title_names_it():
    from generator.enrich.paper import enrich as enrich_record
    from generator.model import Origin, Record

    text = (
        "We present a grasp planner for cluttered bins. The planner scores grasps with a learned critic trained on "
        "simulated bins. Unlike prompting methods such as in-context learning, our critic needs no language model. "
        "Real-robot experiments show 92% success."
    )
    untitled = enrich_record(Record(abstract=text, origin=Origin("t.txt", 1, 1), collection="T"))
    assert "large language models" in untitled.tags and untitled.tag_choice.as_phrases == ("large language models",)
    titled = enrich_record(
        Record(abstract=text, origin=Origin("t.txt", 1, 1), collection="T", title="Grasping Without Large Language Models")
    )
    assert titled.tag_choice.as_phrases == ()  # the title says the paper is about them


def test_a_tag_the_abstract_names_once_is_a_key_phrase_and_joins_no_group():
    # 'in-context learning' on a paper that only prompts in context (issue 33): shown as a key
    # phrase, not listed on the tag's page, and not taken back to fill the paper up to MIN_TAGS.
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["graph learning", "anomaly detection", "in-context learning"], ["message passing"], once=["in-context learning"]),
        _paper(base, 1, ["graph learning", "in-context learning", "anomaly detection"]),
        _paper(base, 2, ["graph learning", "in-context learning", "anomaly detection"]),
        _paper(base, 3, ["graph learning", "anomaly detection"], ["in-context learning"], once=["in-context learning"]),
    ]
    result = grouped(papers)
    assert result[0].tags == ("graph learning", "anomaly detection")
    assert result[0].keyphrases == ("in-context learning", "message passing")
    assert result[1].tags == papers[1].tags and result[2].tags == papers[2].tags
    assert result[3].tags == ("graph learning", "anomaly detection")  # short of tags, but not this one
    assert derived_terms(result[0])[0] == papers[0].tags  # related papers still find it as a tag


def test_a_tag_named_once_on_two_papers_only_is_no_group():
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["graph learning", "anomaly detection", "motion planning"]),
        _paper(base, 1, ["graph learning", "anomaly detection", "motion planning"], once=["motion planning"]),
    ]
    result = grouped(papers)
    assert "motion planning" not in result[0].tags and "motion planning" in result[0].keyphrases  # a group of one
    assert result[1].keyphrases == ("motion planning",)


def test_spellings_of_one_term_are_one_tag_as_most_papers_spell_it():
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    papers = [
        _paper(base, 0, ["graph neural networks", "a", "b"]),
        _paper(base, 1, ["Graph Neural Network", "a", "b"]),
        _paper(base, 2, ["graph neural networks", "a", "b"]),
        _paper(base, 3, ["self-supervised learning", "a", "b"]),
        _paper(base, 4, ["self supervised learning", "a", "b"]),
    ]
    result = grouped(papers)
    assert {p.tags[0] for p in result[:3]} == {"graph neural networks"}
    assert result[3].tags[0] == result[4].tags[0]  # one tag, not two lone ones turned key phrases


def test_a_tag_named_only_by_an_acronym_defined_otherwise_is_misread():
    from generator.enrich.names import find_acronyms
    from generator.enrich.tagging import mentions
    from generator.enrich.tags import tags_of_acronyms_defined_otherwise

    text = "We design General Purpose (GP) accelerators; GP hardware runs deep networks."
    assert tags_of_acronyms_defined_otherwise(("Gaussian processes", "hardware"), (), mentions(text), find_acronyms(text)) == (
        "Gaussian processes",
    )
    assert (
        tags_of_acronyms_defined_otherwise(("Gaussian processes",), ("Gaussian processes",), mentions(text), find_acronyms(text)) == ()
    )  # given
    named = "We place a Gaussian process (GP) prior on General Purpose (GP) hardware."
    assert (
        tags_of_acronyms_defined_otherwise(("Gaussian processes",), (), mentions(named), find_acronyms(named)) == ()
    )  # named in words too


def _collection(count, kinds, tag, title, scores=None):
    """`count` papers on graph learning; the first ones also carry `tag`, each in its way (kinds):
    'title' (the title names it), 'given' (an author keyword), or any other (derived)."""
    base = papers_from("We study graph anomaly detection with message passing.")[0]
    made = []
    for i in range(count):
        kind = kinds[i] if i < len(kinds) else None
        made.append(
            replace(
                base,
                id=f"p{i}",
                title=title if kind == "title" else f"Paper {i}",
                tags=(tag, "graph learning") if kind else ("graph learning",),
                tag_choice=replace(
                    base.tag_choice, given=(tag,) if kind == "given" else (), scores=scores(i, kind) if scores else base.tag_choice.scores
                ),
            )
        )
    return made
