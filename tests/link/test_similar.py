"""Related papers (generator.link.related.similar): TF-IDF as scikit-learn makes it, candidates sharing a topic first, no paper recommended more than ten times, each link's strength and the floor of a strong one."""

from __future__ import annotations

import numpy as np

from generator.link.corpus import link
from helpers import papers_from


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
    expected = similar._vectors(documents)
    found = similar._vectors(documents, similar.numbered(heads * 5))
    assert (
        list(found.terms) == list(expected.terms)
        and (found.matrix != expected.matrix).nnz == 0
        and (found.raw_words != expected.raw_words).nnz == 0
    )
    assert similar._continued(similar.numbered(["Graph neur"]), ["Graph neural networks"]) is None  # a head must end between words


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
    by_words = neighbours(documents, 1)
    by_topics = neighbours(documents, 1, topics=topics)
    assert by_words.lists[0][0][0] == 1
    assert by_topics.lists[0][0][0] == 2


def test_the_topic_map_is_handed_the_word_vectors_the_related_papers_were_found_by():
    from generator.link.corpus import document, link
    from generator.link.related.similar import vectorize

    handed = []
    papers = link(
        papers_from(*[f"We study topic {i} with graph neural networks and message passing {i % 3}." for i in range(12)]),
        3,
        neighbours_found=lambda papers, lists, words: handed.append((papers, lists, words)),
    )
    ((seen, lists, words),) = handed
    assert len(lists) == len(papers) and all(len(found) == 3 for found in lists)
    assert (words != vectorize([document(p) for p in seen])[0]).nnz == 0


def test_a_paper_close_in_meaning_outranks_one_sharing_a_few_words_and_without_meanings_nothing_changes():
    # Issue 34: meaning vectors (generator.language.meaning) mixed into the word scores. Paper 1
    # shares more words with paper 0; paper 2 says the same in other words (its vector is 0's).
    from generator.link.related import similar

    mixing = similar.Mixing(weight=0.5, candidates=similar.FITTED_MIXING.candidates, penalty=similar.FITTED_MIXING.penalty)

    documents = [
        "pose estimation of objects from images for robotic grasping",
        "pose estimation of dancers filmed on stage, for animating characters in games with motion capture suits and markers",
        "recovering where a thing sits and how it is turned, seen by a camera, to pick it up",
        "where a thing sits and how it is turned, seen by a camera",
        # In pairs: each is recommended by its twin and takes no slot of papers 0-3.
        *[f"protein folding molecules study{i // 2} energy{i // 2}" for i in range(30)],
    ]
    rng = np.random.default_rng(0)
    meanings = rng.standard_normal((len(documents), 16)).astype(np.float32)
    meanings[2] = meanings[0] + 0.05 * meanings[2]
    meanings /= np.linalg.norm(meanings, axis=1, keepdims=True)
    by_words = similar.neighbours(documents, 2)
    by_meaning = similar.neighbours(documents, 2, meanings=meanings, mixing=mixing)  # whatever related.yml holds
    assert by_words.lists[0][0][0] == 1
    assert by_meaning.lists[0][0][0] == 2
    again = similar.neighbours(documents, 2)
    assert again.lists == by_words.lists


def test_the_candidates_taken_by_meaning_carry_their_word_cosines():
    from generator.link.related import similar

    documents = [f"graph {'neural ' * (i % 3)}networks for molecules number{i} and proteins{i % 4}" for i in range(25)]
    meanings = np.random.default_rng(1).standard_normal((25, 8)).astype(np.float32)
    meanings /= np.linalg.norm(meanings, axis=1, keepdims=True)
    found = similar.vectors(documents)
    indices, cosine = similar._nearest(found, documents, 10)
    merged, merged_cosine, closeness, _ = similar.in_meaning(indices, cosine, meanings, found.words, 3)
    expected = (found.words @ found.words.T).toarray()
    for i in range(25):
        row = merged[i].tolist()
        assert len(set(row)) == 10 and i not in row
        closest = [j for j in np.argsort(-(meanings @ meanings[i]), kind="stable").tolist() if j != i][:3]
        assert set(row[:3]) == set(closest)
        assert np.allclose(merged_cosine[i], expected[i, row], atol=1e-5)
        assert np.allclose(closeness[i], meanings[row] @ meanings[i], atol=1e-6)


def test_each_link_carries_the_ranking_its_list_is_ordered_by_and_is_strong_at_or_above_the_floor():
    from generator.link.related.similar import Mixing

    topics = ["graph neural networks", "diffusion models", "robot grasping", "language model agents", "protein folding"]
    abstracts = [f"We study {topics[i % 5]} for {topics[(i * 3 + 1) % 5]} with variant {i} and message passing {i % 4}." for i in range(30)]
    papers = papers_from(*abstracts)
    everything = link(papers, 5, mixing=Mixing(0.0, 0, 0.1, floor=-10.0))
    strengths = [r.strength for p in everything for r in p.related]
    assert all(r.strong for p in everything for r in p.related)
    for paper in everything:
        assert [r.strength for r in paper.related] == sorted((r.strength for r in paper.related), reverse=True)
    floor = float(np.median(strengths))
    split = link(papers, 5, mixing=Mixing(0.0, 0, 0.1, floor=floor))
    for before, after in zip(everything, split):
        # The floor decides only which links are strong: the same five, in the same order.
        assert [(r.id, r.strength) for r in after.related] == [(r.id, r.strength) for r in before.related]
        assert [r.strong for r in after.related] == [r.strength >= floor for r in after.related]
    assert 0 < sum(r.strong for p in split for r in p.related) < len(strengths)


def test_the_floor_is_fitted_per_meaning_source_and_words_only_has_its_own():
    from generator.link.related.similar import DEFAULT_SOURCE, fitted_mixing, mixing_without

    words, table = fitted_mixing(None), fitted_mixing(DEFAULT_SOURCE)
    assert 0 < words.floor < table.floor  # word-only rankings run lower than rankings mixed with meaning
    assert mixing_without("ijcai", None).floor == words.floor  # no judged links of that venue to leave out
    assert fitted_mixing("a-source-never-fitted") == table
