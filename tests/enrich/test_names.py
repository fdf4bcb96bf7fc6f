"""Acronyms with their expansions and the name a paper introduces (generator.enrich.names)."""

from __future__ import annotations

import pytest

from generator.enrich.names import find_acronyms, looks_like_name
from generator.enrich.paper import enrich
from generator.model import Origin, Record


@pytest.mark.parametrize(
    "text, short, long",
    [
        ("we use Adaptive Entropy-aware Optimization (AEO) here", "AEO", "Adaptive Entropy-aware Optimization"),
        ("the REcipe MErging DYnamics (REMEDY) method", "REMEDY", "REcipe MErging DYnamics"),
        ("linear decay-to-zero (D2Z) schedule", "D2Z", "decay-to-zero"),
        ("Hierarchical and Separate Skill Discovery (HiSSD), a", "HiSSD", "Hierarchical and Separate Skill Discovery"),
        ("Large Language Models (LLMs) are", "LLM", "Large Language Models"),
    ],
)
def test_acronym_expansions(text, short, long):
    assert (find_acronyms(text)[0].short, find_acronyms(text)[0].long) == (short, long)


@pytest.mark.parametrize(
    "token, expected",
    [
        ("PatchSAE", True),
        ("MM1.5", True),
        ("AndroidWorld", True),
        ("REMEDY", True),
        ("Watch-Less-Do-More", True),
        ("LLM", False),
        ("LLMs", False),
        ("RL", False),
        ("3D", False),
        ("0.011B", False),
        ("REcipe", False),
        ("Multi-Track", False),
        ("Transformer", False),
    ],
)
def test_what_looks_like_a_name(token, expected):
    assert looks_like_name(token) is expected


@pytest.mark.parametrize(
    "abstract, name",
    [
        # Real corpus sentences (iclr2024): the short form after a spelled-out long form is the name.
        (
            "This paper presents a novel approach named Physics guided Neural Network for Air Quality Prediction (AirPhyNet). It works.",
            "AirPhyNet",
        ),
        (
            "The resultant method that we call saliency unlearning (SalUn) narrows the gap. WARNING: this paper contains offensive images.",
            "SalUn",
        ),
        ("In this paper, we propose NOise Robust Temporal Optimal traNsport (Norton) that addresses noisy correspondence.", "Norton"),
        ("We introduce the FRactional-Order graph Neural Dynamical network (FROND), a new continuous graph neural network.", "FROND"),
        (
            "We propose a novel training-free detection strategy called Divergent N-Gram Analysis (DNA-GPT). Given a text, we truncate it.",
            "DNA-GPT",
        ),
        # A long form that is one name stays the name.
        ("We introduce Real2Render2Real (R2R2R), a scalable pipeline for generating robot training data.", "Real2Render2Real"),
        # Built on a model family, but a new name; the family with a size is only used.
        ("To this end, we present LLaMA-Adapter, a lightweight adaption method for instruction tuning.", "LLaMA-Adapter"),
        ("We fine-tune Llama2-70B and GPT-4o-mini on our data and report accuracy.", None),
        # A family and a variant or part named after it (iclr2024): the real titles carry the family name.
        (
            "We present SOTOPIA, an open-ended environment to simulate social interactions between agents. We evaluate "
            "them with a holistic evaluation framework called SOTOPIA-Eval. With SOTOPIA, we find differences.",
            "SOTOPIA",
        ),
        (
            "To bridge this gap, we propose MetaMath, a finetuned language model that specializes in mathematical reasoning. "
            "We bootstrap questions, which results in a new dataset called MetaMathQA. MetaMath outperforms open LLMs.",
            "MetaMath",
        ),
        # A coined short form is a name though its long form holds a known term ('language model').
        ("We introduce the Brain Language Model (BrainLM), a foundation model for fMRI recordings. BrainLM generalises.", "BrainLM"),
        # A version is no variant: the newer model is the name.
        ("We present DNAFormer, a genome model. We then train a larger model called DNAFormer-2. DNAFormer-2 is better.", "DNAFormer-2"),
    ],
)
def test_names_introduced_in_the_many_ways_abstracts_do(abstract, name):
    paper = enrich(Record(abstract=abstract, origin=Origin("t.txt", 1, 1), collection="C"))
    assert paper.name == name
