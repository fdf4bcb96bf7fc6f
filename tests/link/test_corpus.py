"""Corpus-level links: mentions of names other papers introduce, related papers' limits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.language.textutil import normalise_term
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


@pytest.fixture(scope="module")
def seeds_records():
    from generator.errors import Report
    from generator.sources.readers import input_files, read_file
    from helpers import SEEDS

    report = Report()
    return [record for path in input_files([SEEDS], report) for record in read_file(path, report)]


def test_grouping_tags_changes_what_a_page_shows_not_what_is_related(seeds_records, monkeypatch):
    # Issue 33: a tag no other paper carries becomes a key phrase; the related papers, found by
    # the tags as derived (enrich.tags.derived_terms), stay as they were. Their reasons name only
    # what the pages show (issue 52), so they follow what grouping shows.
    from collections import Counter

    from generator.enrich.paper import enrich_batch
    from generator.link import corpus

    papers = enrich_batch(seeds_records)
    grouped = corpus.link(papers, 5)
    monkeypatch.setattr(corpus, "grouping_tags", lambda papers, max_keyphrases=6, model=None: papers)
    ungrouped = corpus.link(papers, 5)

    lone = [t for t, n in Counter(t for p in ungrouped for t in dict.fromkeys(p.tags)).items() if n == 1]
    assert lone  # the seeds have derived tags that one paper carries
    usage = Counter(t for p in grouped for t in dict.fromkeys(p.tags))
    assert all(n >= 2 for t, n in usage.items() if not any(t in p.tag_choice.given for p in grouped))
    assert any(t in p.keyphrases for p in grouped for t in lone)  # kept on its page as a key phrase
    by_id = {p.id: p for p in grouped}
    for a, b in zip(grouped, ungrouped):
        assert [(r.id, r.score, r.strength) for r in a.related] == [(r.id, r.score, r.strength) for r in b.related]
        assert corpus.document(a) == corpus.document(b)
        for r in a.related:
            shown = {normalise_term(t) for p in (a, by_id[r.id]) for t in (*p.tags, *p.keyphrases)}
            assert all(normalise_term(reason) in shown or reason in (a.name, by_id[r.id].name, a.area) for reason in r.reasons)
