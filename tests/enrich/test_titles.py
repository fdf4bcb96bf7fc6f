"""Titles: the sanity gate, the learned choices and how rules and model work together."""

from __future__ import annotations

import dataclasses

import pytest

from generator.enrich import titles
from generator.enrich.names import IntroducedName, find_acronyms, name_candidates
from generator.enrich.tagging import candidate_phrases
from generator.enrich.titlegate import title_defects
from generator.enrich.titles import MAX_SUMMARY_CHARS, Phrase, choose_name, derive_summary, derive_title, descriptor_candidates, topic_pair
from generator.language import learned


@pytest.mark.parametrize(
    "title, name, defects",
    [
        ("PPA: Proactive Privacy Amnesia for Safeguarding PII in LLMs", "PPA", []),
        ("Efficient Adaptation Framework for Continual Panoptic Segmentation", None, []),
        ("FLoRA: \\flora/ Retains the Performance Merits of \\lora/", "FLoRA", ["markup", "sentence or first person"]),
        ("Overfill: LLM Inference Comprises Prefill and Decode Stages", "Overfill", ["sentence or first person"]),
        ("Post-Training for Humans Communicate with Increasing Efficiency", None, ["sentence or first person"]),
        ("D2Z: Decay-To-Zero for Under an Optimal Peak LR", "D2Z", ["broken phrase"]),
        ("LASER: Scene Graphs for Supervised Approaches for Learning Scene Graphs", "LASER", ["broken phrase", "repeats itself"]),
        ("Learning to Generate Unit Tests for Automated Debugging", None, []),
        ("A Case Study of Personality Design in Chatbots", None, []),
        ("HRL: Hierarchical Reinforcement Learn- Ing", "HRL", ["split word"]),
        ("Learning Representations for", None, ["dangling end"]),
        ("Robust Learning -", None, ["dangling end"]),
        ("Generality of Our NAS Method", None, ["sentence or first person"]),
        ("It Has Long Been Hypothesised That", None, ["dangling end", "sentence or first person"]),
        ("Modern Paradigm in Machine Learning Involves Pre-Training", None, ["sentence or first person"]),
        ("ForwardGNN: ForwardGNN in This Work for GNNs", "ForwardGNN", ["name repeated"]),
        ("Learning System", None, ["too short"]),
        ("SGD", "SGD", []),
        ("A " + "Very Long " * 60 + "Title", None, ["too long"]),
        ("Sparse Models (i.e. Pruned", None, ["unbalanced", "aside"]),
        ("Large Language Models (reasoning)", None, ["aside"]),
        ("Planning Theory of Mind’", None, ["unbalanced"]),
        ("Models’ Ability to Plan", None, []),
        ("Proactive Privacy Amnesia for Safeguarding PII in LLMs (PPA)", "PPA", []),
        ("Privacy Amnesia for (PPA)", "PPA", ["dangling end"]),  # the phrase before the name dangles
        ("We Propose Privacy Amnesia (PPA)", "PPA", ["sentence or first person"]),
        ("PPA for PPA Models (PPA)", "PPA", ["name repeated"]),
        ("Method for Valid Inference from Free-Form Text (multiPPI++)", "multiPPI++", []),  # a name, not an aside
        ("Binary Cross-Entropy for Dense Retrieval Typically", None, ["dangling end"]),
        ('The "Quoted Benchmark for Agents', None, ["unbalanced"]),
        ("Ribeiro Et Al and Unit-Testing Datasets", None, ["broken phrase"]),  # a citation
        ("Behavior of LMs After Fine-Tuned on Data", None, ["broken phrase"]),  # a clause cut short
        ("Learning After Pretraining", None, []),
        ("For Tabletop Object Manipulation Tasks (SQPDNet)", "SQPDNet", ["broken phrase"]),
        ("SkillGen: Hybrid Skill Policy for Learning Skill Initiation, Control", "SkillGen", ["broken phrase"]),
        ("Utility, Time and Space Complexity", None, []),
        ("Effective Multi-Task Policy Architecture for Robotic Simulation Today", None, ["dangling end"]),
        ("Submodular Maximization Problem for Monotone Submodular Maximization Problem", None, ["repeats itself"]),
        ("Self-Boosting Feature Distillation for Knowledge Distillation", None, []),
        ("Either an Efficient Facility Placement", None, ["broken phrase"]),
        ("Differentially Private Stochastic Nonconvex Optimization with a Focus", None, ["broken phrase"]),
        ("Multi-View Learning with a Unified View", None, []),
        ("Plug-And-Play Network as a New for Deformable Image Registration", None, ["broken phrase"]),
        ("Open-World Grasping Pipeline for Demonstrate That Modern Models", None, ["broken phrase"]),
        ("Learning to Search for Structured Prediction", None, []),
        ("Pipeline for Demonstrate That Model, Control", None, ["broken phrase"]),  # each kind once, however many rules find it
    ],
)
def test_the_gate_names_every_defect_a_reader_would_see(title, name, defects):
    assert title_defects(title, name) == defects


def test_parameters_are_read_from_readable_files():
    choices = learned.parse(
        "name:\n  threshold: 0.4\n  bias: -1.0\n  weights: {rule=naming: 2.5}\nphrase:\n  bias: 0.1\n  weights: {}\n",
        "# word\ttitleness\nbenchmark\t1.25\nwe\t-3.0\n",
    )
    assert choices.name_threshold == 0.4 and choices.lead_threshold == 0.5  # the lead threshold's default
    assert choices.name.score({"rule=naming": 1.0, "unknown": 5.0}) == pytest.approx(1.5)
    assert choices.titleness == {"benchmark": 1.25, "we": -3.0}
    assert choices.sentence.score({"anything": 1.0}) == 0.0  # a model absent from the file scores nothing


def test_the_shipped_parameters_hold_a_model_for_each_choice():
    choices = learned.Choices.shipped()
    assert choices.name.weights and choices.lead.weights and choices.phrase.weights and choices.sentence.weights
    assert 0.0 < choices.name_threshold < 1.0 and 0.0 < choices.lead_threshold < 1.0
    assert "recipe" in choices.words and "gnncert" not in choices.words  # 'REcipe' is a highlighted word, 'GNNCert' a name
    assert len(choices.titleness) > 1000
    assert choices.titleness["rethinking"] > 0 > choices.titleness["propose"]  # learned: titles name, abstracts narrate


PPA = (
    "Large language models memorise personal data. We propose Proactive Privacy Amnesia (PPA), a method to "
    "safeguard PII in LLMs while keeping their utility. PPA forgets the key memories of PII and implants "
    "substitute memories. Experiments show PPA removes up to 100% of phone numbers at a small cost in utility."
)


def _with_thresholds(show: float, lead: float) -> learned.Choices:
    return dataclasses.replace(learned.Choices.shipped(), name_threshold=show, lead_threshold=lead)


def test_the_model_decides_whether_a_title_shows_the_name_and_leads_with_it():
    names = name_candidates(PPA, [], find_acronyms(PPA))
    assert [n.name for n in names][:1] == ["PPA"]
    lead, title = derive_title(PPA, names, _with_thresholds(0.0, 0.0))  # sure: the name leads
    assert lead is not None and title.startswith("PPA: Proactive Privacy Amnesia")
    lead, title = derive_title(PPA, names, _with_thresholds(1.0, 0.0))  # the lead model alone decides that a name leads
    assert lead is not None and title.startswith("PPA: ")
    lead, title = derive_title(PPA, names, _with_thresholds(0.0, 1.0))  # likely, not sure: the name follows the phrase
    assert title.startswith("Proactive Privacy Amnesia") and title.endswith(" (PPA)") and title_defects(title, "PPA") == []
    lead, title = derive_title(PPA, names, _with_thresholds(1.0, 1.0))  # never likely enough: the descriptive phrase alone
    assert lead is None and "PPA" not in title and title_defects(title) == []


PAIRED = (
    "Graph neural networks learn node embeddings. Message passing in graph neural networks mixes features of "
    "neighbouring nodes, and over-smoothing of node embeddings limits depth. We propose a residual gate that "
    "keeps node embeddings apart in deep graph neural networks. Our residual gate trains 64-layer networks."
)


def test_a_pair_of_topics_is_a_title_only_when_nothing_else_passes(monkeypatch):
    """'Graph Neural Networks and Node Embeddings' says what the paper is near; the proposal says what it does."""
    names = name_candidates(PAIRED, [], find_acronyms(PAIRED))
    candidates = descriptor_candidates(PAIRED, names)
    assert any(topic_pair(p) for p in candidates)  # the pair is proposed ...
    _, title = derive_title(PAIRED, names)
    assert not topic_pair(Phrase(title, "shown", 0)) and "Residual Gate" in title, title  # ... and loses to the proposal
    only_pairs = [p for p in candidates if topic_pair(p)]
    monkeypatch.setattr(titles, "descriptor_candidates", lambda text, names, choices=None, phrases=None: only_pairs)
    assert derive_title(PAIRED, names)[1] in {p.text for p in only_pairs}  # the last resort still gives a title


JOINED = (
    "Zeroth-order optimization algorithms estimate gradients from function values. We give a stability analysis "
    "of zeroth-order optimization algorithms under convex and non-convex losses. The stability analysis yields "
    "generalization bounds for zeroth-order optimization algorithms."
)


def test_two_terms_the_abstract_joins_make_a_title_that_says_how_they_relate():
    phrases = {p.text: p.rule for p in descriptor_candidates(JOINED, [])}
    assert phrases.get("Stability Analysis of Zeroth-Order Optimization Algorithms") == "keyphrases-joined", phrases
    assert "Zeroth-Order Optimization Algorithms and Stability Analysis" in phrases  # the pair is still proposed
    _, title = derive_title(JOINED, [])
    assert title == "Stability Analysis of Zeroth-Order Optimization Algorithms"


MENTIONED = (
    "Sparse autoencoders find features in vision transformers. Sparse autoencoders are trained on patch "
    "activations. We also report results on medical imaging."
)


def test_a_pair_with_a_term_the_abstract_only_mentions_is_the_last_resort_of_all():
    """'Sparse Autoencoders and Medical Imaging': 'medical imaging' is said once, in passing."""
    phrases = titles._keyphrase_pair(MENTIONED, learned.Choices.shipped(), candidate_phrases(MENTIONED))
    assert [p.rule for p in phrases if topic_pair(p)] == ["keyphrases-mentioned"], phrases
    ranked = [phrases[-1], Phrase("Vision Transformers", "subject", 0), Phrase("Autoencoders and Features", "keyphrases", 0)]
    assert [p.rule for p in titles._pairs_last(ranked)] == ["subject", "keyphrases", "keyphrases-mentioned"]


def test_topic_pairs_are_short_phrases_joined_by_and():
    assert topic_pair(Phrase("Dynamical Systems and Latent States", "proposal", 0))
    assert topic_pair(Phrase("Anything", "keyphrases", 0))  # the rule that joins two topics
    assert not topic_pair(Phrase("Residual Gate for Deep Graph Neural Networks", "proposal", 0))
    assert not topic_pair(Phrase("Learning Fast and Slow Dynamics of Large Graphs With Many Node Types", "proposal", 0))


def test_names_follow_the_word_list_given():
    """Training passes word lists per held-out venue: whether 'REcipe' highlights a common word
    must follow the list given, not the one an earlier fold cached."""
    abstract = "We propose REcipe, a method for merging. REcipe merges models well."
    for common, expected in ((frozenset(), ["REcipe"]), (frozenset({"recipe"}), []), (frozenset(), ["REcipe"])):
        choices = dataclasses.replace(learned.Choices.shipped(), words=common)
        assert [n.name for n in name_candidates(abstract, [], [], choices=choices)] == expected


def test_no_candidate_means_no_name():
    assert choose_name([], PPA) == (None, False)
    assert choose_name([IntroducedName("PPA", None, "", "mentioned")], PPA) == (None, False)  # mentioned, not introduced


def test_the_summary_states_what_the_paper_does_not_its_background():
    summary = derive_summary(PPA)
    assert summary.startswith("We propose Proactive Privacy Amnesia"), summary
    assert summary.count("(") == summary.count(")") and len(summary) <= MAX_SUMMARY_CHARS


@pytest.mark.parametrize(
    "abstract, urls, expected",
    [
        # Coined names whose capitals make them look like a highlighted word ('REcipe') are names.
        ("We propose GNNCert, a certified defense against graph perturbations. GNNCert is fast.", [], "GNNCert"),
        ("We introduce ODEFormer, the first transformer able to infer ODE systems.", [], "ODEFormer"),
        # Capitalised compounds right after the verb.
        ("To address this, we propose Tree-Planner, which reframes task planning.", [], "Tree-Planner"),
        ("This paper presents Kosmos-G, a model that leverages multimodal LLMs.", [], "Kosmos-G"),
        ("We introduce Würstchen, a novel architecture for text-to-image synthesis.", [], "Würstchen"),
        ("Our model, Coeditor, is a fine-tuned language model for code editing.", [], "Coeditor"),
        ("We present Emu, a multimodal foundation model.", [], "Emu"),
        # A name only the code link carries.
        ("We study resolution in diffusion models.", ["https://scalecrafter.github.io/ScaleCrafter/"], "ScaleCrafter"),
        ("We study hierarchical graph generation.", ["https://github.com/Karami-m/HiGen_main"], "HiGen"),
    ],
)
def test_names_the_abstract_introduces_are_proposed(abstract, urls, expected):
    names = name_candidates(abstract, [], find_acronyms(abstract), urls=urls)
    assert expected in [n.name for n in names if n.rule != "mentioned"]


@pytest.mark.parametrize(
    "abstract, urls, not_expected",
    [
        ("We propose REcipe MErging DYnamics (REMEDY) for model merging.", [], "REcipe"),
        ("We propose Self-Supervised, a term we avoid. Self-Supervised learning helps.", [], "Self-Supervised"),
        ("We build on transformers.", ["https://github.com/huggingface/transformers"], "transformers"),
    ],
)
def test_words_that_are_not_names_are_not_proposed(abstract, urls, not_expected):
    names = name_candidates(abstract, [], find_acronyms(abstract), urls=urls)
    assert not_expected not in [n.name for n in names]


@pytest.mark.parametrize(
    "abstract, broken, expected",
    [
        # The verb's object came before it: 'formalize as' names no object.
        (
            "Do transformers think ahead during inference? We test these hypotheses by training language models "
            "without propagating gradients to past timesteps, a scheme we formalize as myopic training. "
            "In a constructed synthetic data setting, we find clear evidence for pre-caching.",
            "As Myopic Training",
            "Finding Clear Evidence for Pre-Caching",
        ),
        # A light verb's object carries the meaning: no 'Taking ...' title.
        (
            "Model checklists have emerged as a useful tool. In this work, we take a more principled approach to "
            "unit-testing datasets by proposing a taxonomy based on the V-information literature.",
            "Taking",
            None,
        ),
        # 'This research aims to understand X' states the topic; an adverb before 'varying' ends the phrase.
        (
            "Large language models produce hallucinations. This research aims to understand the human perception of "
            "LLM hallucinations by systematically varying the degree of hallucination. Results indicate that humans "
            "rank content as truthful and user engagement behaviors mirror this pattern.",
            "Mirror",
            "Human Perception of LLM Hallucinations",
        ),
    ],
)
def test_phrases_that_read_as_clause_pieces_are_not_titles(abstract, broken, expected):
    title = derive_title(abstract, name_candidates(abstract, [], find_acronyms(abstract)))[1]
    assert broken.lower() not in title.lower(), title
    assert expected is None or expected in title, title


def test_letters_highlighted_for_an_acronym_are_mended_in_titles():
    abstract = (
        "Embodied agents often ignore changed environments. Here, we propose Pre-emptive Action Revision by "
        "Environmental feeDback (PRED) that allows an embodied agent to revise its action. "
        "We propose Audio Noise Awareness using Visuals of Indoors for NAVIgation for quieter robot path planning."
    )
    title = derive_title(abstract, name_candidates(abstract, [], find_acronyms(abstract)))[1]
    assert "feeDback" not in title and "NAVIgation" not in title, title


def test_a_common_abbreviation_is_not_a_name():
    abstract = "Mamba outperforms SoTA transformer-based policies. SoTA results show that SoTA methods fail on long tasks."
    assert "SoTA" not in [n.name for n in name_candidates(abstract, [], find_acronyms(abstract))]


def test_a_past_tense_makes_no_gerund():
    from generator.enrich.titles import _purpose, contribution_phrases

    phrases = [p.text for p in contribution_phrases("In this work we proposed pure or approximate DP algorithms for pairwise learning.")]
    assert phrases and not any("eding" in p for p in phrases), phrases
    assert _purpose(" to structured prediction problems", learned.Choices.shipped()) is None  # 'to' before a noun phrase, not a verb


@pytest.mark.parametrize(
    "verb, expected",
    [("embed", "embedding"), ("shift", "shifting"), ("control", "controlling"), ("plan", "planning"), ("study", "studying")],
)
def test_gerunds_are_spelled_right(verb, expected):
    from generator.language.textutil import gerund

    assert gerund(verb) == expected


@pytest.mark.parametrize(
    "phrase, article",
    [
        ("Unified Framework", "A "),
        ("Universal Model", "A "),
        ("European Dataset", "A "),
        ("One-Shot Learner", "A "),
        ("Unintended Bias", "An "),
        ("Unlearning Method", "An "),
        ("Online Planner", "An "),
        ("LLM Agent", "An "),
        ("GPU Kernel", "A "),
        ("X-Ray Benchmark", "An "),
        ("Agent", "An "),
    ],
)
def test_a_title_article_follows_the_sound_of_the_next_word(phrase, article):
    """'UniGNN: A Unified Framework', never 'An Unified Framework' (a title the appositive rule gave)."""
    from generator.enrich.titles import _article

    assert _article(phrase) == article
