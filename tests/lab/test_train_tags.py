"""Training the tag and key-phrase models (lab/train_tags.py): deterministic, blind to a
paper's own venue, and 'generic' only for phrases many abstracts write and few authors give."""

from __future__ import annotations

import pytest

from generator.model import Origin, Record
from helpers import ROOT
from lab import train_tags

CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_training_twice_gives_the_same_model():
    corpora = train_tags.keyword_corpora(CORPUS)
    candidates = train_tags.extract({name: corpora[name] for name in ("3dv2025", "corl2021")})
    assert train_tags.fit(candidates) == train_tags.fit(candidates)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_a_papers_own_venue_never_tells_the_key_phrase_model_its_keywords():
    corpora = train_tags.keyword_corpora(CORPUS)
    corl = {name: records for name, records in corpora.items() if name.startswith(("corl", "3dv"))}
    everywhere = train_tags.keyword_phrases(corl)
    without_corl = train_tags.keyword_phrases(corl, without="corl")
    assert "robot manipulation" in everywhere
    assert set(without_corl) < set(everywhere)
    assert all(everywhere[phrase] >= count for phrase, count in without_corl.items())


def test_a_phrase_many_abstracts_write_and_few_authors_give_is_generic():
    def record(i, abstract, keywords):
        return Record(abstract, Origin("c.jsonl", i, i), "C", keywords=tuple(keywords))

    dnn = "We train deep neural networks for {} with sparse rewards."
    papers = [record(i, dnn.format(topic), [topic]) for i, topic in enumerate(["grasping", "locomotion"] * 10)]
    # 'sparse reward' is written as often, but two of twenty papers file under it (10%).
    papers[0] = record(0, dnn.format("grasping"), ["grasping", "sparse rewards"])
    papers[1] = record(1, dnn.format("locomotion"), ["locomotion", "sparse reward"])
    generic = train_tags.generic_phrases({"c": papers})
    assert "deep neural network" in generic and "neural network" in generic
    assert "sparse reward" not in generic
    assert "deep neural network" not in train_tags.generic_phrases({"c": papers[: train_tags.GENERIC_MIN_ABSTRACTS - 1]})
