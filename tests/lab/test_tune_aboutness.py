"""The aboutness floor's fit (lab/tune_aboutness.py): the lowest floor that keeps at most a
tenth of the judged tags wrong, title-named tags always kept; the frontier counts what hiding costs."""

from __future__ import annotations

import numpy as np

from lab import judging, tune_aboutness


def test_the_floor_is_the_lowest_that_keeps_at_most_a_tenth_wrong():
    cosines = np.array([0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.70, 0.80, 0.90, 0.95])
    wrong = np.array([0.5, 1.0, 0.5, 0, 0, 0, 0, 0, 0, 0])
    none_titled = np.zeros(10, dtype=bool)
    # Below 0.21 the 0.20 tag (wrong) stays: 1.5 of 9 = 17%; at 0.21, 0.5 of 8 = 6% <= 10%.
    assert tune_aboutness.fitted_floor(cosines, wrong, none_titled) == 0.21
    # A title-named tag is kept whatever the floor: the floor rises to make up for its half verdict.
    titled = none_titled.copy()
    titled[0] = True
    assert tune_aboutness.fitted_floor(cosines, wrong, titled) == 0.31


def test_the_frontier_counts_the_right_and_wrong_tags_hidden():
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05])
    wrong = np.array([0, 0, 0, 0, 0, 0, 0, 1.0, 0, 1.0])
    cells = tune_aboutness.frontier(scores, wrong).split(" | ")
    assert cells[0] == "9 kept, 0 right / 1 wrong hidden"  # 15%: the last one goes (1 of 9 = 11%)
    assert cells[2] == "7 kept, 1 right / 2 wrong hidden"  # 10%: both wrong ones go
    assert judging.auc(scores, wrong < 0.5) == 15 / 16
