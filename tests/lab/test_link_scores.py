"""lab/link_scores.py: the AUC it prints (lab.judging.auc), and the judged links' verdicts it reads."""

from __future__ import annotations

import math

import numpy as np

from lab import judging, link_scores


def _auc(right: list[float], wrong: list[float]) -> float:
    return judging.auc(np.array(right + wrong), np.array([True] * len(right) + [False] * len(wrong)))


def test_auc_counts_pairs_and_ties_half():
    assert _auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert _auc([0.1], [0.9]) == 0.0
    assert _auc([0.5, 0.9], [0.5]) == 0.75
    assert math.isnan(_auc([], [0.3]))


def test_a_tie_between_judges_is_wrong_as_the_majority_command_counts_it():
    two = [{"a": "ok", "b": "ok"}, {"a": "wrong"}]
    assert judging.majority_of(two) == {"a": ("wrong", 1, 2), "b": ("ok", 0, 1)}


def test_every_judged_link_has_one_verdict_and_the_ceiling_names_sure_links():
    verdicts = link_scores.majority_verdicts()
    assert len(verdicts) >= 350  # 232 links judged in issue 52's round, 198 kept from issue 34
    assert set(verdicts.values()) == {"ok", "wrong"}
    sure = link_scores.sure_links()
    assert sum(len(s) for key, s in sure.items() if key.startswith(("rss2024", "uai2023", "alt2025", "aaai2022"))) == 13
