"""The title CPU bench keeps working: enrich timed with its title and name part, at 40 papers (issue 55 runs it at 4,242)."""

from __future__ import annotations

import json

from helpers import corpus_file, run_bench


def test_title_cpu_times_the_title_part_of_enrich_and_digests_the_titles(tmp_path):
    corpus_file("iclr2024.jsonl")  # skips cleanly where the corpora are absent
    out = tmp_path / "title_cpu.json"
    result = run_bench("title_cpu", "--size", "40", "--rounds", "2", "--runs", "1", "--json", str(out))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "title+name CPU s" in result.stdout
    (rounds,) = json.loads(out.read_text()).values()
    assert len(rounds) == 2 and all(r["papers"] == 40 for r in rounds)
    # The title and name part is inside enrich, and the same abstracts get the same titles each round.
    assert all(0 < r["titles"] < r["enrich"] for r in rounds)
    assert rounds[0]["digest"] == rounds[1]["digest"]


def test_a_checkout_that_fails_is_named(tmp_path):
    corpus_file("iclr2024.jsonl")
    result = run_bench("title_cpu", "--size", "40", "--rounds", "1", "--repo", str(tmp_path))
    assert result.returncode != 0 and str(tmp_path) in result.stderr
