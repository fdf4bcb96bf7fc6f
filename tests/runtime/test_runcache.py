"""Incremental runs: a no-op run does nothing, an edit derives only the edited abstract again."""

from __future__ import annotations

from pathlib import Path

import generator.enrich.paper as enriching
from generator.pipeline import generate
from generator.runtime import runcache as cache

ABSTRACTS = [
    "We propose AlphaNet, a network for graph classification with message passing.",
    "We introduce BetaBench, a benchmark for evaluating graph neural networks on molecules.",
    "This paper studies the convergence of stochastic gradient descent for deep networks.",
]


def write_input(folder: Path, abstracts: list[str]) -> Path:
    path = folder / "in.txt"
    path.write_text("Cache Test\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def counting_enrich(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = enriching.enrich_batch

    def enrich_batch(records, ids=None):
        calls.extend(record.abstract for record in records)
        return real(records, ids)

    monkeypatch.setattr(enriching, "enrich_batch", enrich_batch)  # the pipeline imports it when a run has work
    return calls


def test_nothing_changed_means_nothing_derived_or_written(tmp_path, monkeypatch):
    source, docs = write_input(tmp_path, ABSTRACTS), tmp_path / "docs"
    first = generate([source], docs)
    calls = counting_enrich(monkeypatch)
    again = generate([source], docs)
    assert calls == [] and again.write.written == []
    assert again.write.unchanged == len(first.write.written) + first.write.unchanged
    assert again.papers == 3 and "check" in again.stage_seconds


def test_an_edit_derives_only_the_edited_abstract(tmp_path, monkeypatch):
    source, docs = write_input(tmp_path, ABSTRACTS), tmp_path / "docs"
    generate([source], docs)
    calls = counting_enrich(monkeypatch)
    edited = ABSTRACTS[:2] + [ABSTRACTS[2] + " It converges fast."]
    write_input(tmp_path, edited)
    summary = generate([source], docs)
    assert calls == [edited[2]]
    assert summary.papers == 3
    assert any("It converges fast." in (docs / f).read_text() for f in summary.write.written if f.startswith("papers/"))


def test_a_deleted_output_or_new_code_rebuilds(tmp_path, monkeypatch):
    source, docs = write_input(tmp_path, ABSTRACTS), tmp_path / "docs"
    generate([source], docs)
    page = next((docs / "papers").glob("*.md"))
    page.unlink()
    assert page.relative_to(docs).as_posix() in generate([source], docs).write.written
    calls = counting_enrich(monkeypatch)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "another generator version")
    generate([source], docs)
    assert len(calls) == 3  # the enrich cache of another version is never used
