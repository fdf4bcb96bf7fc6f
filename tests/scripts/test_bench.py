"""The benchmark keeps working: a seconds-long run at ~40 papers (make bench runs all sizes)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from helpers import ROOT, corpus_file


@pytest.mark.slow
def test_small_benchmark_runs_and_reports_every_column(tmp_path):
    corpus_file("iclr2024.jsonl")  # skips cleanly where the corpora are absent
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, "scripts/bench.py", "--sizes", "40", "--repeat", "1", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "full/bare" in result.stdout
    # How fast the machine was, to compare tables from machines of different speeds.
    assert "machine speed: reference workload" in result.stdout
    machine = json.loads(out.read_text())["machine"]
    assert 0 < machine["reference_seconds_before"] < 60 and 0 < machine["reference_seconds_after"] < 60
    median = json.loads(out.read_text())["results"]["40"]["median"]
    assert median["papers"] == 40
    assert median["rewr"] == 0  # a no-op regeneration rewrites nothing
    assert median["KB/page"] <= 30_000  # bytes of HTML per paper page
    assert median["full s"] > 0 and median["bare s"] > 0 and median["search MB"] > 0
    # Peak memory per process of the full build: MkDocs', the generator's forked run, Pagefind's.
    assert median["mkdocs MiB"] > 0 and median["child MiB"] > 0 and median["pf MiB"] > 0
    assert median["full MiB"] >= max(median["mkdocs MiB"], median["pf MiB"]) * 0.9


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_server_is_busy_while_a_child_process_of_it_runs():
    # Between timed edits the bench waits for `mkdocs serve` to be quiet: no Pagefind at work.
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', 'import time; time.sleep(3)'])"]
    )
    try:
        deadline = time.monotonic() + 2
        while not bench.busy_children(parent.pid) and time.monotonic() < deadline:
            pass
        assert bench.busy_children(parent.pid)
        parent.wait(timeout=30)
    finally:
        parent.kill()
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
    try:
        assert not bench.busy_children(idle.pid)
    finally:
        idle.kill()
        idle.wait()
