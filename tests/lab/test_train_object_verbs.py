"""Learning the words abstracts put before a verb's object (lab/train_object_verbs.py): the
share rule, and the shipped list is what the corpora give."""

from __future__ import annotations

import pytest

from lab import train_object_verbs


def test_a_word_is_listed_by_its_share_of_uses_before_an_object():
    abstracts = [
        "Momentum plays a role. Noise plays the part. Data plays an important role.",  # 3 of 5 'plays'
        "It plays well. Everything plays out.",
        "Detection networks the reader knows. " + "Networks learn. " * 7,  # 1 of 8
        "Rare words impede the flow.",  # 1 use: too few to tell
    ]
    learned = train_object_verbs.object_verbs(abstracts)
    assert "plays" in learned
    assert "networks" not in learned
    assert "impede" not in learned
    assert "the" not in learned and "." not in learned  # objects' first words and punctuation are no verbs


def test_the_shipped_list_is_what_the_corpora_give():
    from generator.language.learned import PhraseModel

    abstracts = train_object_verbs.corpus_abstracts(train_object_verbs.ROOT.parent / "shared" / "corpus")
    if not abstracts:
        pytest.skip("no shared corpora")
    assert set(train_object_verbs.object_verbs(abstracts)) == PhraseModel.shipped().object_verbs
