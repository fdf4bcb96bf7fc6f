"""The exploring pages' benchmark keeps working: one visit per page on the seeds site (seconds)."""

from __future__ import annotations

import json

import pytest

from helpers import run_bench

pytest.importorskip("playwright.sync_api")


def test_explore_benchmark_reports_labels_times_and_sizes(seeds_site, tmp_path):
    site, _ = seeds_site
    out = tmp_path / "explore.json"
    result = run_bench("explore_bench", str(site), "--runs", "1", "--json", str(out), timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "map gz KB" in result.stdout and "filter ms" in result.stdout
    [figures] = json.loads(out.read_text(encoding="utf-8"))
    assert figures["papers"] == 38
    # Labels drawn at first view, and the finer level reached by zooming in. How many finer
    # labels the middle of a 38-paper map holds depends on the layout (0 to 2): the browser
    # tests check finer labels where the topics are.
    assert figures["broad"] >= 3 and isinstance(figures["fine"], int)
    assert 0 < figures["map_ms"][0] < 30_000 and 0 < figures["browse_ms"][0] < 30_000
    assert len(figures["filter_ms"]) == 6 and max(figures["filter_ms"]) < 1_000
    assert 0 < figures["browse_gz"] < figures["map_gz"]
