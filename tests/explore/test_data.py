"""Region names on the topic map: what a reader sees written over a region must name its papers."""

from collections import Counter

import numpy as np
from scipy import sparse

from generator.explore.data import COHERENT, FILL_DISTANCE, GRID, _densest, _label, first_view, named_regions
from generator.explore.topics import _truncated_svd


def name(*groups: tuple[int, set[str]], others: int = 400) -> str | None:
    """The broad label of a region made of `groups` (count, terms) in a collection with
    `others` more papers about something else."""
    terms = [set(t) for count, t in groups for _ in range(count)]
    members = np.arange(len(terms))
    terms += [{"other topic", f"paper {i}"} for i in range(others)]
    return _label(terms, members, Counter(t for s in terms for t in s), 2, set())


def test_two_topics_on_the_same_papers_make_one_label():
    assert name((60, {"alignment", "RLHF"}), (40, {"alignment"})) == "alignment · RLHF"


def test_two_topics_on_different_papers_are_not_joined():
    assert name((50, {"molecules"}), (50, {"speech and audio"})) in {"molecules", "speech and audio"}


def test_a_narrower_term_of_the_same_words_is_not_repeated():
    assert name((60, {"robotics", "robotic manipulation"}), (40, {"robotics"})) == "robotics"


def test_a_term_too_rare_in_the_region_or_too_long_is_no_label():
    assert name((5, {"a rare phrase"}), (95, {"too many words to be a label"})) is None


def test_a_term_of_loose_words_only_is_no_label():
    assert name((70, {"deep neural networks"}), (40, {"molecules"})) == "molecules"


def test_a_large_mix_stays_unnamed_unless_the_map_would_show_too_few_names():
    def labels(fields: int) -> list[str]:
        terms = [{f"topic {i % 4}"} for i in range(200)]  # a mix: four topics, a quarter of its papers each
        terms += [{f"field {j}"} for j in range(fields) for _ in range(60)]
        features = np.repeat(np.eye(fields + 1), [200] + [60] * fields, axis=0)
        return [label for label, _ in named_regions(terms, features, fields + 1, Counter(t for s in terms for t in s), broad=True)]

    assert sorted(labels(6)) == [f"field {j}" for j in range(6)]
    assert labels(1) == ["topic 0", "field 0"]


def test_the_papers_topic_directions_are_the_leading_singular_directions():
    # 300 papers on 5 topics (each a mix of their words) with scattered other words.
    rng = np.random.default_rng(1)
    topics = rng.random((300, 5)) ** 4 @ (rng.random((5, 500)) < 0.05)
    matrix = sparse.csr_matrix(topics + sparse.random(300, 500, density=0.01, random_state=2))
    expected = np.linalg.svd(matrix.toarray(), compute_uv=False)[:5]
    assert np.allclose(np.linalg.norm(_truncated_svd(matrix, 5), axis=0), expected, rtol=0.01)


def test_a_label_sits_where_its_papers_are_thickest():
    thick = np.random.default_rng(0).normal([0.2, 0.7], 0.01, size=(30, 2))
    scattered = np.random.default_rng(1).uniform(0, 1, size=(10, 2))
    assert np.allclose(_densest(np.vstack([scattered, thick])), [0.2, 0.7], atol=0.02)


def test_the_first_view_names_dense_parts_no_broad_label_names():
    # Issue 52: a mixed broad region stays unnamed, and its patches had no name zoomed out.
    broad = [{"label": "diffusion models", "x": 2000, "y": 2000, "size": 300}]
    far = int(2000 + 2 * FILL_DISTANCE * GRID)
    fine = [
        {"label": "federated learning", "x": far, "y": far, "size": 60},  # far from every broad label: shown
        {"label": "adversarial robustness", "x": far, "y": 2000, "size": 80},  # larger: placed first of the fill
        {"label": "score distillation", "x": 2100, "y": 2100, "size": 70},  # under a broad label: zoomed in only
        {"label": "diffusion models · sampling", "x": 9000, "y": 9000, "size": 50},  # a broad label's name
        {"label": "assorted methods", "x": 9000, "y": 2000, "size": 90},  # its term names too few of its papers
    ]
    shares = [0.6, 0.5, 0.9, 0.8, COHERENT / 2]
    assert [r["label"] for r in first_view(broad, fine, shares)] == ["diffusion models", "adversarial robustness", "federated learning"]
