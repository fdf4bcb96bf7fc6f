"""Why two papers are related (generator.link.related.reasons): names, tags and phrases they share, never boilerplate."""

from __future__ import annotations

from dataclasses import replace

from generator.link.corpus import add_related, link
from helpers import papers_from


def test_related_papers_have_reasons_as_plain_strings():
    # Reasons go into YAML front matter: numpy strings would not serialise.
    linked = link(
        papers_from(
            "Graph neural networks predict molecule properties with message passing.",
            "Message passing graph networks for molecule generation and property prediction.",
            "Robot grasping policies learned from human videos with diffusion models.",
            "Diffusion models as robot policies for dexterous grasping from videos.",
        ),
        2,
    )
    reasons = [reason for paper in linked for related in paper.related for reason in related.reasons]
    assert reasons and all(type(reason) is str for reason in reasons)
    assert {r.id for r in linked[0].related} >= {linked[1].id}
    assert {r.id for r in linked[2].related} >= {linked[3].id}


def test_reasons_name_topics_not_boilerplate_or_url_parts():
    junk = (
        "Extensive experiments show that our approach consistently achieves state-of-the-art results, and models, "
        "detection code: https://github.com/lab/code."
    )
    papers = link(
        papers_from(
            f"We propose a method for hive monitoring with acoustic sensors. {junk}",
            f"We study hive monitoring from acoustic sensors in winter. {junk}",
            "A study of protein folding with diffusion models and physical priors.",
        ),
        2,
    )
    reasons = papers[0].related[0].reasons
    assert papers[0].related[0].id == papers[1].id
    assert "hive monitoring" in reasons and "acoustic sensors" in reasons, reasons
    for word in (
        "github",
        "com",
        "lab",
        "code",
        "achieves",
        "state",
        "consistently",
        "models detection",
        "experiments",
        "results",
        "hive",
        "winter",
    ):  # a lone word is never a reason unless it is a name
        assert word not in reasons, reasons


def test_a_name_both_papers_use_is_a_reason_a_lone_common_word_is_not():
    papers = link(
        papers_from(
            "We render scenes with PointMamba and improve efficiency under changing environments.",
            "Our PointMamba variant trains faster, enabling efficiency in large environments.",
            "A study of protein folding with diffusion models and physical priors.",
        ),
        2,
    )
    reasons = papers[0].related[0].reasons
    assert "PointMamba" in reasons, reasons
    assert not {"efficiency", "environments", "enabling"} & set(reasons), reasons


def test_a_key_phrase_of_one_paper_the_other_abstract_uses_is_a_reason():
    a, b = papers_from(
        "We propose a planner for multi-agent path finding on warehouse grids with conflict-based search.",
        "Lifelong multi-agent path finding with learned priorities scales to thousands of agents.",
    )
    a = replace(a, keyphrases=("multi-agent path finding",))
    b = replace(b, keyphrases=("learned priorities",))
    reasons = add_related([a, b], 1)[1].related[0].reasons
    assert "multi-agent path finding" in reasons, reasons


def test_a_reason_is_shown_on_one_of_the_two_pages_never_a_hidden_term():
    # Issue 52: a term both pages hide ('robotics', the field's tag at a robotics venue; a phrase
    # cut inside a term) is no reason, nor a phrase both abstracts contain that neither page shows.
    a, b = papers_from(
        "Robotics policies for dexterous grasping learned from human videos reach a high success rate in clutter.",
        "Robotics policies for dexterous grasping from tactile feedback reach a high success rate on novel objects.",
    )
    a = replace(a, tags=("robotics", "dexterous grasping"), keyphrases=(), tag_choice=replace(a.tag_choice, hidden=("robotics",)))
    b = replace(b, tags=("robotics",), keyphrases=("dexterous grasping",), tag_choice=replace(b.tag_choice, hidden=("robotics",)))
    reasons = add_related([a, b], 1)[0].related[0].reasons
    assert "dexterous grasping" in reasons, reasons
    assert "robotics" not in reasons and "success rate" not in reasons, reasons


def test_a_link_sharing_nothing_shown_names_their_common_area_or_nothing():
    a, b = papers_from(
        "Quantum annealing schedules for portfolio optimisation on noisy hardware.",
        "Quantum annealing schedules for traffic routing on noisy hardware.",
    )
    a, b = (replace(p, tags=(), keyphrases=()) for p in (a, b))
    same = add_related([replace(a, area="Optimisation"), replace(b, area="Optimisation")], 1)
    assert same[0].related[0].reasons == ("Optimisation",)
    apart = add_related([replace(a, area="Optimisation"), replace(b, area="Planning")], 1)
    assert apart[0].related[0].reasons == ()  # no lone word ('quantum') stands in for a reason
