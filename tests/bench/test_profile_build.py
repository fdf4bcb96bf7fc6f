"""The build profile keeps working: its four tables and its time line at ~40 papers (issues 36 and 55 run it at 4,200)."""

from __future__ import annotations

import json

import pytest

from helpers import corpus_file, run_bench


@pytest.mark.slow
def test_profile_of_a_small_untitled_build_names_the_derivations_hooks_and_processes(tmp_path):
    corpus_file("iclr2024.jsonl")  # skips cleanly where the corpora are absent
    out = tmp_path / "profile.json"
    result = run_bench("profile_build", "--size", "40", "--input", "untitled", "--floor", "0", "--json", str(out))
    assert result.returncode == 0, result.stderr[-3000:]
    profile = json.loads(out.read_text())
    assert set(profile["stages"]) >= {"read+enrich", "link", "render"}
    # Untitled input: the title is derived for each paper, and the profile sees it (one process).
    derivations = {row[2] for row in profile["derivations"]}
    assert any("enrich.titles" in name or "_name_and_title" in name for name in derivations), derivations
    assert any(row[0] == "link" for row in profile["derivations"])
    builds = profile["builds"]
    assert set(builds) == {"full", "bare", "plain"} and all(b["seconds"] > 0 for b in builds.values())
    # The plugin's hooks run in the full build only; the plain build runs Material's search instead.
    assert builds["full"]["hooks"]["AbstractsPlugin.on_pre_build"] > 0
    assert not any(hook.startswith("AbstractsPlugin") for hook in builds["plain"]["hooks"])
    assert any(hook.startswith("SearchPlugin") for hook in builds["plain"]["hooks"])
    assert builds["full"]["phases"]["_build_page"] > 0
    # Beside the full build: Pagefind's indexing service and the generator's forked run.
    commands = " ".join(p["command"] for p in builds["full"]["processes"])
    assert "pagefind" in commands
    assert "Processes beside the full build" in result.stdout and "Derivations" in result.stdout
    # The time line: what MkDocs waited on, the generator's passes, each process's CPU, the share used.
    timeline = result.stdout.split("The full build's time line", 1)[1]
    for row in ("MkDocs waits", "MkDocs pages", "generator passes", "MkDocs ", "generator ", "Pagefind", "all (2 cores)"):
        assert f"\n{row}" in timeline, row
    assert "core-seconds" in timeline and "MkDocs waited" in timeline
    assert "L" in timeline.split("generator passes", 1)[1].split("\n", 1)[0]  # the link pass shows
