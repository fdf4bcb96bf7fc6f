"""Tags learned from author keywords: a spelling that fires is a candidate, the learned
evidence (generator/data/tag_evidence.yml) decides whether the paper is about it."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import pytest

from generator.enrich import tagevidence
from generator.enrich.paper import enrich
from generator.enrich.tagging import vocabulary
from generator.language import learned
from generator.model import Origin, Record

ROOT = Path(__file__).resolve().parents[2]


def tags_of(abstract: str) -> tuple[str, ...]:
    return enrich(Record(abstract, Origin("test.txt", 1, 1), "test")).tags


@pytest.mark.parametrize(
    ("abstract", "tag", "has_it"),
    [
        # Mentioning video is not being about video understanding; robot hardware is not AI hardware.
        (
            "We learn dexterous manipulation policies for a robot hand from human video demonstrations. Our method "
            "retargets hand poses from the video to the robot and transfers to real hardware with a 70% success rate.",
            "video understanding",
            False,
        ),
        (
            "We learn dexterous manipulation policies for a robot hand from human video demonstrations. Our method "
            "retargets hand poses from the video to the robot and transfers to real hardware with a 70% success rate.",
            "hardware",
            False,
        ),
        (
            "Long video understanding remains hard for multimodal models. We introduce a benchmark of hour-long videos "
            "with questions that need temporal reasoning across the whole video, and show that current video language "
            "models fail on it.",
            "video understanding",
            True,
        ),
        # An inductive bias is not a fairness problem; gender bias in hiring is.
        (
            "Vision transformers lack the inductive bias of convolutional networks and need large datasets. We propose "
            "a locality prior for self-attention that improves data efficiency on image classification.",
            "fairness",
            False,
        ),
        (
            "Machine learning models used in hiring can discriminate against protected groups. We study fairness under "
            "distribution shift and propose a debiasing method that reduces gender bias while keeping accuracy.",
            "fairness",
            True,
        ),
    ],
)
def test_a_tag_applies_only_when_the_paper_is_about_it(abstract, tag, has_it):
    assert (tag in tags_of(abstract)) == has_it


def test_the_shipped_evidence_loads_and_speaks_of_vocabulary_tags():
    text = resources.files("generator").joinpath("data").joinpath("tag_evidence.yml").read_text(encoding="utf-8")
    model = learned.parse_tag_model(text)
    assert 0.0 < model.threshold < model.central < 1.0
    tags = {name.removeprefix("tag=") for name in model.linear.weights if name.startswith("tag=")}
    assert tags and tags <= set(vocabulary().tag_area), tags - set(vocabulary().tag_area)
    assert learned.parse_tag_model(text) == model  # parsing is pure: same text, same model


def test_evidence_features_say_where_and_how_a_tag_is_mentioned():
    text = "We study diffusion models. Diffusion is slow. We make diffusion models fast with distillation."
    features = tagevidence.features(text)
    diffusion = features["diffusion models"]
    assert diffusion["first_sentence"] == 1.0 and diffusion["we_sentence"] == 1.0
    assert diffusion["spelling=diffusion model"] == 1.0 and diffusion["spelling=diffusion"] == 1.0
    assert diffusion["sentence_share"] == 1.0 and diffusion["rank=0"] == 1.0
    assert features["distillation"]["first_sentence"] == 0.0


def test_the_package_scores_tags_without_scikit_learn():
    # scikit-learn is only in the [eval] extra: training may use it, generating may not.
    code = "import sys, generator.enrich.tagevidence, generator.enrich.paper; sys.exit('sklearn' in sys.modules)"
    import subprocess

    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


CORPUS = ROOT.parent / "shared" / "corpus"


def test_learned_tags_are_readable_yaml_in_known_areas_and_never_curated_ones():
    import yaml

    from generator.enrich import tagging

    learned = yaml.safe_load(resources.files("generator").joinpath("data").joinpath(tagging.LEARNED).read_text(encoding="utf-8"))
    curated = yaml.safe_load(resources.files("generator").joinpath("data").joinpath("vocabulary.yml").read_text(encoding="utf-8"))
    curated_tags = {tag for tags in curated.values() for tag in tags}
    areas = {area.slug for area in vocabulary().areas}
    assert learned and set(learned) <= areas
    for area, tags in learned.items():
        for tag, spellings in tags.items():
            assert spellings, tag
            # A learned entry is a new tag, or new spellings of a curated tag in that tag's own area.
            assert tag not in curated_tags or tag in curated[area], (area, tag)


def test_a_learned_tag_is_matched_but_never_changes_a_title():
    from dataclasses import replace

    from generator.enrich import tagging
    from generator.enrich.models import Models

    abstract = (
        "We present GCBF, a graph control barrier function for safe multi-agent navigation. The control barrier "
        "function certifies collision avoidance for hundreds of agents in simulation."
    )
    entries = {"robotics-planning": {"control barrier functions": ["control barrier function"]}}
    record = Record(abstract, Origin("test.txt", 1, 1), "test")
    without = enrich(record, replace(Models.shipped(), vocabulary=tagging.vocabulary_with({})))
    with_learned = enrich(record, replace(Models.shipped(), vocabulary=tagging.vocabulary_with(entries)))
    assert "control barrier functions" in dict(with_learned.tag_choice.scores)
    assert "control barrier functions" not in dict(without.tag_choice.scores)
    assert with_learned.title == without.title


def test_key_phrases_prefer_whole_specific_phrases_to_pieces_and_generic_heads():
    from generator.link import keyphrases

    model = learned.PhraseModel.shipped()
    assert 0.0 < model.once < 1.0 and len(model.weights) == len(learned.PHRASE_FEATURES)
    candidates = (
        ("fully connected layer", "fully connected layers", 2),
        ("connected layer", "connected layers", 2),
        ("novel framework", "novel framework", 2),
    )
    longer = keyphrases.fragments(candidates)
    assert longer == {"connected layer": 2, "fully connected": 2}

    def probability(key, spelling, count, position):
        return model.probability(keyphrases.features(key, spelling, count, position, 3, 300, longer.get(key, 0), model))

    whole = probability("fully connected layer", "fully connected layers", 2, 0.1)
    assert whole > probability("connected layer", "connected layers", 2, 0.1)
    assert probability("attention transfer", "attention transfer", 2, 0.1) > probability("novel framework", "novel framework", 2, 0.1)


@pytest.mark.parametrize(
    ("key", "spelling", "count", "position", "df", "longer"),
    [
        ("attention transfer", "attention transfer", 2, 0.1, 3, 0),
        ("fully connected layer", "Fully Connected Layers", 1, 0.7, 1, 1),
        ("novel framework", "novel framework", 3, 0.0, 9, 3),
    ],
)
def test_link_scores_a_phrase_exactly_as_the_trained_features_say(key, spelling, count, position, df, longer):
    from generator.link import keyphrases

    model = learned.PhraseModel.shipped()
    features = keyphrases.features(key, spelling, count, position, df, 300, longer, model)
    assert keyphrases.probability(key, spelling, count, position, df, 300, longer, model) == pytest.approx(
        model.probability(features), abs=1e-12
    )


def test_topics_beyond_machine_learning_are_tags_that_never_change_a_title():
    vocab = vocabulary()
    assert vocab.matched[("abstract", "argumentation")] == "argumentation"
    assert vocab.matched[("multi", "agent", "path", "finding")] == "multi-agent path finding"
    # Titles judge whether a name's expansion is a field term by vocabulary.yml alone.
    assert ("multi", "agent", "path", "finding") not in vocab.folded
    assert "social choice" in tags_of(
        "We study voting rules in computational social choice. We show that approval voting with "
        "committee elections resists manipulation, and give a polynomial algorithm for the winner."
    )


def test_an_acronym_inside_a_hyphenated_name_is_not_that_acronym():
    from generator.enrich.tagging import mentions

    # ICL-NUIM is a data set, not in-context learning; ICL on its own, or 'ICL-based', still is.
    assert "in-context learning" not in {m.tag for m in mentions("We test on the TUM, ICL-NUIM and ScanNet data sets.")}
    assert "in-context learning" in {m.tag for m in mentions("ICL lets a model learn from examples in its prompt.")}
    assert "in-context learning" in {m.tag for m in mentions("We study ICL-based adaptation of language models.")}


def test_a_short_spelling_after_a_longer_one_means_the_longer_tag():
    from generator.enrich.tagging import mentions

    # 2017's neural language models are not large language models, even where the abstract
    # later says only 'the language model'.
    text = (
        "We extend neural network language models with a cache of past hidden activations. "
        "The language model adapts its predictions to the recent history."
    )
    tags = [m.tag for m in mentions(text)]
    assert "large language models" not in tags
    assert tags.count("neural language models") == 2
    assert "large language models" in {m.tag for m in mentions("The language model adapts its predictions.")}


def test_a_tag_mention_followed_by_a_verb_is_marked_as_what_a_sentence_reports_on():
    features = tagevidence.features("We present INQUIRE for robot learning. Our evaluations show that INQUIRE adapts its queries.")
    assert features["evaluation"]["subject"] == 1.0
    assert tagevidence.features("We propose an evaluation protocol for robot learning.")["evaluation"]["subject"] == 0.0


def test_key_phrases_are_noun_phrases_not_clause_pieces_around_a_verb():
    from generator.link.corpus import _phrase_like

    for piece in ("findings suggest", "obtain human", "LLMs struggle", "sheds light"):
        assert not _phrase_like(piece), piece
    for phrase in ("instruction tuning", "point cloud registration", "test-time training"):
        assert _phrase_like(phrase), phrase


def test_a_phrase_the_abstract_defines_an_acronym_for_or_authors_give_as_a_keyword_scores_higher():
    from generator.link import keyphrases

    model = learned.PhraseModel.shipped()
    assert "test time training" in model.keywords or "imitation learning" in model.keywords

    def probability(key, defined=False):
        return keyphrases.probability(key, key, 1, 0.2, 1, 300, 0, model, defined)

    assert probability("dynamic mode decomposition", defined=True) > probability("dynamic mode decomposition")
    assert probability("imitation learning") > probability("imitation knitting")


def test_3d_topics_authors_name_are_tags_of_their_own_not_one_3d_vision():
    # 3DV's authors give 'point cloud', '3D Gaussian Splatting': '3D vision' on them all matched none.
    point_clouds = tags_of(
        "We register partial point clouds of indoor scenes. Our point cloud registration network matches keypoints "
        "across scans and estimates the rigid pose, outperforming prior methods on 3DMatch."
    )
    splatting = tags_of(
        "We present a 3D Gaussian Splatting method that renders dynamic scenes in real time. Gaussian splatting "
        "primitives are deformed over time and optimised from multi-view videos."
    )
    assert "point clouds" in point_clouds and "3D vision" not in point_clouds
    assert "gaussian splatting" in splatting
