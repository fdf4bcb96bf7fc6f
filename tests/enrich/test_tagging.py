"""The vocabulary's tags found in an abstract, author keywords in its terms, areas, and candidate key phrases (generator.enrich.tagging)."""

from __future__ import annotations

import pytest

from generator.enrich.tagging import area_names, candidate_phrases, normalise_keyword


@pytest.mark.parametrize(
    "text",
    [
        "Large language models (LLMs) learn in-context; self-supervised Learners, too.",
        "Graph neural networks - a survey -- of message\tpassing\x1cneural networks -- and 3D point clouds",
        "Model-based RL: world models, world model learning and 10-fold cross-validation of world models.",
    ],
)
def test_candidate_phrases_are_the_same_in_ascii_text_and_beyond(text):
    """ASCII text is split into words as bytes, other text by a regular expression: a character
    beyond ASCII after a stop (a word break either way) changes no phrase."""
    assert candidate_phrases(text) and candidate_phrases(text) == candidate_phrases(f"{text} é")


def test_spellings_of_one_tag_are_found_as_that_tag():
    from generator.enrich.tagging import mentions

    found = {m.tag for m in mentions("We fine-tune LLMs with reinforcement learning from human feedback (RLHF).")}
    assert "large language models" in found


@pytest.mark.parametrize(
    ("text", "tag", "found"),
    [
        ("Manipulation of elections by a coalition of voters is NP-hard under plurality.", "robotic manipulation", False),
        ("We learn manipulation skills with a parallel-jaw gripper from few demonstrations.", "robotic manipulation", True),
        ("Our policy for manipulation of deformable cables ties knots; we show sim-to-real transfer.", "robotic manipulation", True),
        ("Entity alignment matches the entities of two knowledge graphs; alignment seeds are few.", "alignment", False),
        ("Alignment of LLMs with human preferences reduces harmful outputs.", "alignment", True),
        ("Public security needs pedestrian detection at night; we release a benchmark.", "AI security", False),
        ("Backdoor poisoning threatens the security of deployed neural networks.", "AI security", True),
    ],
)
def test_a_spelling_of_another_field_names_its_tag_only_with_its_context(text, tag, found):
    # 'manipulation' is also strategic voting, 'alignment' also entity alignment (decision 0021):
    # alone they name their tag only where the abstract says one of their cues.
    from generator.enrich.tagging import mentions

    assert (tag in {m.tag for m in mentions(text)}) is found


def test_a_spelling_that_needs_a_context_still_counts_inside_a_longer_spelling():
    from generator.enrich.tagging import mentions

    assert "robotic manipulation" in {m.tag for m in mentions("We study mobile manipulation in homes.")}


@pytest.mark.parametrize(
    ("text", "tag", "not_tag"),
    [
        ("We study Bayesian persuasion: a sender commits to a signaling scheme.", "game theory", "Bayesian methods"),
        ("Stackelberg security games allocate patrols; the attacker best-responds.", "game theory", "AI security"),
        ("We learn the structure of a Bayesian network under sparsity constraints.", "probabilistic graphical models", "Bayesian methods"),
        ("Factor graph optimization estimates robot poses from odometry.", "probabilistic graphical models", "graph learning"),
        ("Learned image compression trades rate against distortion.", "data compression", "model compression"),
        ("Sparse coding represents each signal by a few atoms.", "sparse coding", "code generation"),
        ("ICD coding assigns diagnosis codes to clinical notes.", "healthcare", "code generation"),
    ],
)
def test_a_term_of_another_field_is_not_read_as_the_ml_word_inside_it(text, tag, not_tag):
    # The longer term wins (decision 0023): 'Bayesian persuasion' is game theory, not Bayesian
    # inference; a security game is no attack on a model; a factor graph is no graph learning;
    # compressing images is not compressing models, nor is sparse or ICD coding writing code (0025).
    from generator.enrich.tagging import mentions

    found = {m.tag for m in mentions(text)}
    assert tag in found and not_tag not in found


def test_author_keywords_are_put_in_the_vocabulary_s_terms():

    assert normalise_keyword("Large Language Models (LLM)") == "large language models"
    assert normalise_keyword("Computer Vision: CV: Motion and tracking") == "motion and tracking"
    assert normalise_keyword("PatchSAE") == "PatchSAE"  # a name keeps its capitals


def test_a_given_area_wins_and_otherwise_the_tags_vote():
    from generator.enrich.tagging import area_of

    assert area_of("Anything at all.", (), "Robotics") == "Robotics"
    voted = area_of("We train a robot arm to grasp objects.", ("robotics",), None)
    assert voted in area_names()


def test_a_candidate_phrase_that_stops_inside_a_term_the_abstract_names_is_cut():
    # Issue 33: 'deep reinforcement' and 'neural network language' became tags of real papers.
    from generator.enrich.tagging import cut_phrases, mentions
    from generator.language.textutil import normalise_term

    text = (
        "We train a neural network language model with deep reinforcement learning. "
        "Our reinforcement learning agents transfer to image classification benchmarks."
    )
    phrases = candidate_phrases(text)
    assert all(key == normalise_term(spelling) for key, spelling, _ in phrases)  # keys as tags and key phrases are compared
    cut = cut_phrases(phrases, mentions(text))
    for piece in ["deep reinforcement", "neural network language", "network language", "learning agents", "neural network"]:
        assert normalise_term(piece) in cut  # a term's beginning or middle, or a phrase running out of one
    for whole in ["deep reinforcement learning", "reinforcement learning", "reinforcement learning agents", "image classification"]:
        assert normalise_term(whole) in {key for key, _, _ in phrases} and normalise_term(whole) not in cut


def test_a_term_s_last_words_are_cut_only_when_they_name_nothing_alone():
    # Issue 52: 'adversarial networks' is a piece of 'generative adversarial networks'; 'reinforcement
    # learning' of 'deep reinforcement learning' is a term of its own.
    from generator.enrich.tagging import cut_phrases, mentions, vocabulary
    from generator.language.textutil import normalise_term

    text = "We train generative adversarial networks with deep reinforcement learning for natural language processing."
    phrases = candidate_phrases(text)
    spelled = {normalise_term(spelling): spelling for _, spelling, _ in phrases}
    cut = cut_phrases(phrases + tuple((normalise_term(p), p, 1) for p in ("adversarial networks", "language processing")), mentions(text))
    assert ("adversarial", "network") not in vocabulary().matched
    assert normalise_term("adversarial networks") in cut and normalise_term("language processing") in cut
    assert normalise_term("reinforcement learning") not in cut and normalise_term("generative adversarial networks") not in cut, spelled


def test_the_middle_of_a_name_an_acronym_stands_for_is_cut_its_first_and_last_words_are_not():
    from generator.enrich.tagging import cut_phrases, mentions
    from generator.language.textutil import normalise_term

    text = "We propose the Evolving Graph Fourier Transform (EGFT) for dynamic graphs."
    phrases = tuple((normalise_term(p), p, 1) for p in ("graph fourier", "evolving graph", "graph fourier transform", "dynamic graphs"))
    cut = cut_phrases(phrases, mentions(text), ["Evolving Graph Fourier Transform"])
    assert cut == {normalise_term("graph fourier")}


def test_no_phrase_is_cut_in_an_abstract_naming_no_longer_term():
    from generator.enrich.tagging import cut_phrases, mentions

    text = "Sparse attention kernels speed up inference on commodity hardware."
    assert all(" " not in m.spelling for m in mentions(text))
    assert cut_phrases(candidate_phrases(text), mentions(text)) == frozenset()


def test_an_acronym_the_abstract_defines_as_something_else_is_not_that_tag():
    # Issue 33: 'GP' for 'General Purpose' hardware was tagged Gaussian processes.
    from generator.enrich.names import find_acronyms
    from generator.enrich.tagging import defined_otherwise, mentions

    def tags(text):
        defined = [(a.short, a.long) for a in find_acronyms(text)]
        return {m.tag for m in defined_otherwise(mentions(text), defined)}

    assert "Gaussian processes" not in tags("We design General Purpose (GP) accelerators; GP hardware runs it.")
    assert "Gaussian processes" in tags("We place a Gaussian process (GP) prior; the GP posterior is exact.")
    assert "graph neural networks" in tags("Graph convolutional networks (GCN) scale; we sample GCN layers.")
