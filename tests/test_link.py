"""Corpus-level links: mentions of names other papers introduce, related papers' limits."""

from __future__ import annotations

from generator.enrich import enrich
from generator.link import add_mentions, link
from generator.model import Origin, Record


def papers_from(*abstracts: str):
    return [enrich(Record(abstract=a, origin=Origin("t.txt", i + 1, i + 1), collection="C")) for i, a in enumerate(abstracts)]


def test_a_name_another_paper_introduces_is_a_mention_both_ways():
    papers = add_mentions(papers_from(
        "We propose PatchSAE, a sparse autoencoder for vision transformers that explains adaptation.",
        "We compare our probing method with PatchSAE on CLIP and find complementary concepts.",
    ))
    assert [m.name for m in papers[1].mentions] == ["PatchSAE"]
    assert [m.id for m in papers[0].mentioned_by] == [papers[1].id]


def test_same_letters_with_another_meaning_are_not_a_mention():
    papers = add_mentions(papers_from(
        "We propose Sharpness-Aware Minimization (SAM), an optimizer that seeks flat minima for sharpness.",
        "We adapt the Segment Anything Model (SAM) to medical images with prompts.",
        "Building on SAM, we study how sharpness relates to label noise in deep networks.",
    ))
    assert papers[1].mentions == ()
    assert [m.name for m in papers[2].mentions] == ["SAM"]


def test_field_names_and_capitalised_words_are_never_mentions():
    papers = add_mentions(papers_from(
        "We propose Neural, a network. Neural methods are everywhere in deep learning research.",
        "Neural networks trained with GPT-4 labels and ChatGPT feedback improve reasoning.",
    ))
    assert papers[1].mentions == ()


def test_no_paper_is_recommended_more_than_ten_times():
    abstracts = [f"We study graph neural networks for molecule property prediction, variant {i} with message passing." for i in range(40)]
    abstracts[0] = "Graph neural networks message passing molecule property prediction benchmark hub paper."
    linked = link(papers_from(*abstracts), 5)
    received: dict[str, int] = {}
    for paper in linked:
        assert len(paper.related) == 5 and paper.id not in {r.id for r in paper.related}
        for related in paper.related:
            received[related.id] = received.get(related.id, 0) + 1
    assert max(received.values()) <= 10
    assert len(received) == len(linked)  # everyone is recommended somewhere
