"""Corpus-level links: mentions of names other papers introduce, related papers' limits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.link.corpus import add_mentions
from helpers import papers_from


def test_a_name_another_paper_introduces_is_a_mention_both_ways():
    papers = add_mentions(
        papers_from(
            "We propose PatchSAE, a sparse autoencoder for vision transformers that explains adaptation.",
            "We compare our probing method with PatchSAE on CLIP and find complementary concepts.",
        )
    )
    assert [m.name for m in papers[1].mentions] == ["PatchSAE"]
    assert [m.id for m in papers[0].mentioned_by] == [papers[1].id]


def test_same_letters_with_another_meaning_are_not_a_mention():
    papers = add_mentions(
        papers_from(
            "We propose Sharpness-Aware Minimization (SAM), an optimizer that seeks flat minima for sharpness.",
            "We adapt the Segment Anything Model (SAM) to medical images with prompts.",
            "Building on SAM, we study how sharpness relates to label noise in deep networks.",
        )
    )
    assert papers[1].mentions == ()
    assert [m.name for m in papers[2].mentions] == ["SAM"]


def test_field_names_and_capitalised_words_are_never_mentions():
    papers = add_mentions(
        papers_from(
            "We propose Neural, a network. Neural methods are everywhere in deep learning research.",
            "Neural networks trained with GPT-4 labels and ChatGPT feedback improve reasoning.",
        )
    )
    assert papers[1].mentions == ()


def test_a_paper_with_changes_is_the_paper_dataclasses_replace_makes():
    import pickle

    from generator.model import Related, paper_with

    paper = papers_from("We propose PatchSAE, a sparse autoencoder for vision transformers that explains adaptation.")[0]
    changes = {"keyphrases": ("sparse autoencoder",), "tags": ("interpretability",), "related": (Related("x", "T", "t", 0.5, ("a",)),)}
    made = paper_with(paper, **changes)
    assert made == replace(paper, **changes) and made is not paper
    assert pickle.loads(pickle.dumps(made)) == made and hash(made) == hash(replace(paper, **changes))
    assert paper.keyphrases != made.keyphrases  # the original is left as it was
    with pytest.raises(TypeError):
        paper_with(paper, keyphrase=("typo",))
