"""Corpus-level links: mentions of names other papers introduce, related papers' limits."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from generator.enrich.paper import enrich
from generator.link.corpus import add_mentions, add_related, link
from generator.model import Origin, Record


def papers_from(*abstracts: str):
    return [enrich(Record(abstract=a, origin=Origin("t.txt", i + 1, i + 1), collection="C")) for i, a in enumerate(abstracts)]


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


def test_related_vectors_are_scikit_learns_tfidf():
    # similar.vectorize builds with numpy what TfidfVectorizer built (linking no longer imports it).
    from sklearn.feature_extraction.text import TfidfVectorizer

    from generator.link.related.similar import vectorize

    topics = ["graph neural networks", "diffusion models", "robot grasping", "language model agents", "protein folding"]
    documents = [
        f"We study {topics[i % 5]} and {topics[(i * 2 + 1) % 5]} with the model-{i % 3} of 2024, again {topics[i % 5]}." for i in range(30)
    ]
    words, both, terms = vectorize(documents)
    expected = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), stop_words="english", max_df=0.5, dtype=np.float32)
    matrix = expected.fit_transform(documents)
    assert list(terms) == list(expected.get_feature_names_out())
    assert abs(both - matrix).max() < 1e-6
    unigrams = TfidfVectorizer(sublinear_tf=True, stop_words="english", max_df=0.5, dtype=np.float32).fit_transform(documents)
    assert abs(abs(words @ words.T) - abs(unigrams @ unigrams.T)).max() < 1e-6  # same cosines


def test_vectors_from_document_beginnings_read_ahead_are_the_vectors_of_whole_documents():
    # Linking reads each document's beginning (title, abstract) while key phrases are scored and
    # only the rest (tags, key phrases) after: the same words, numbered alike, the same vectors.
    from generator.link.related import similar

    heads = ["Graph Neural Networks for ΟΔΟΣ", "", "We study ΣΊΣΥΦΟΣ and İstanbul data", "words words graph", "   spaced  out  "]
    tails = [" graph neural networks diffusion", " lonely tail, words before their head", "", " istanbul neural", " spaced out again graph"]
    documents = [head + tail for head, tail in zip(heads, tails)] * 5
    whole = similar.numbered(documents)
    joined = similar._continued(similar.numbered(heads * 5), documents)
    assert joined.words == whole.words and joined.flat.tolist() == whole.flat.tolist() and joined.lengths.tolist() == whole.lengths.tolist()
    expected = similar._vectors(documents, None)
    found = similar._vectors(documents, None, similar.numbered(heads * 5))
    assert (
        list(found.terms) == list(expected.terms)
        and (found.matrix != expected.matrix).nnz == 0
        and (found.raw_words != expected.raw_words).nnz == 0
    )
    assert similar._continued(similar.numbered(["Graph neur"]), ["Graph neural networks"]) is None  # a head must end between words


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


def test_a_slightly_less_similar_paper_sharing_a_topic_beats_one_sharing_only_words():
    # Issue 15: links whose papers share no tag, phrase or name could only be explained by a
    # lone word, and their keywords overlap about as much as random pairs'.
    from generator.link.related.similar import neighbours

    documents = [
        "bees entrance counts microphones hive acoustic sensors wooden boxes",
        "bees entrance counts microphones hive acoustic sensors wooden winter",  # the closest by words alone
        "bees entrance counts microphones hive acoustic sensors cameras",
        *[f"unrelated topic number{i} protein folding robot grasping" for i in range(6)],
    ]
    # Paper 1 shares only words with paper 0; paper 2 also shares a named topic.
    topics = [
        frozenset({"pollinator monitoring"}),
        frozenset(),
        frozenset({"pollinator monitoring"}),
        *[frozenset({"protein folding"})] * 6,
    ]
    by_words = neighbours(documents, [""] * len(documents), 1)
    by_topics = neighbours(documents, [""] * len(documents), 1, topics=topics)
    assert by_words.lists[0][0][0] == 1
    assert by_topics.lists[0][0][0] == 2


def test_key_phrases_follow_the_verb_list_in_use():
    """Training swaps the verb list per held-out venue: whether 'findings suggest' is a phrase
    must follow the list in use, not the one an earlier fold cached."""
    import dataclasses

    from generator.language import learned
    from generator.link.corpus import _phrase_like

    try:
        for verbs, expected in ((frozenset(), True), (frozenset({"suggest"}), False), (frozenset(), True)):
            learned.use(dataclasses.replace(learned.choices(), verbs=verbs))
            assert _phrase_like("findings suggest") is expected
    finally:
        learned.use(None)


def test_candidates_judged_together_are_judged_as_one_at_a_time():
    # link judges the shape of ~200,000 candidate phrases at once, each first and last word once.
    from generator.link.keyphrases import phrase_like, phrases_like

    phrases = [
        "instruction tuning",
        "enables agents",
        "Findings Suggest",
        "fully connected layers",
        "efficiently trained models",
        "model is robust",
        "Large Language Models",
        "reinforcement learning",
        "learning reinforcement",
        "robust",
        "novel framework",
    ]
    judged = phrases_like(phrases)
    assert judged == [phrase_like(p) for p in phrases]
    assert True in judged and False in judged


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
