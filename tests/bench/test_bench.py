"""The benchmark keeps working: a seconds-long run at ~40 papers (make bench runs all sizes)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from helpers import ROOT, corpus_file, run_bench
from sentence_models import install_tiny


def bench_module():
    from bench import bench

    return bench


@pytest.mark.slow
def test_small_benchmark_runs_and_reports_every_column(tmp_path):
    corpus_file("iclr2024.jsonl")  # skips cleanly where the corpora are absent
    out = tmp_path / "bench.json"
    result = run_bench("bench", "--sizes", "40", "--repeat", "1", "--json", str(out), timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "full/bare" in result.stdout and "full/plain" in result.stdout
    # Both inputs by default, a row each: the records as given, and their abstracts alone.
    rows = [line.split() for line in result.stdout.splitlines() if line.split()[:1] == ["40"]]
    assert [row[1] for row in rows][:2] == ["untitled", "titled"]  # the case most users start from first (issue 55)
    untitled = json.loads(out.read_text())["results"]["40-untitled"]["median"]
    assert untitled["papers"] == 40 and untitled["rewr"] == 0
    # The plain build (Material and its own search) made a page per paper and its one-file index.
    assert untitled["plain s"] > 0 and untitled["full/plain"] > 0
    plain = json.loads(out.read_text())["results"]["40-untitled"]["runs"][0]["plain"]
    assert plain["paper_pages"] == 40 and plain["search_index_bytes"] > 0
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


def test_the_timed_steps_find_every_meaning_vector_cached(tmp_path, monkeypatch):
    """On a new machine the first run's `generate` embedded every abstract: the bench embeds them
    untimed first (vectors_cached), into the user's cache that every step reads."""
    import sqlite3

    bench = bench_module()
    corpus_file("iclr2024.jsonl")
    monkeypatch.setenv("ABSTRACTS_SITE_CACHE", str(tmp_path / "cache"))
    install_tiny(tmp_path / "source")  # a sentence model and no vector, as on a new machine
    inputs = bench.prepare_inputs(40, bench.DEFAULT_CORPUS, tmp_path / "inputs", "untitled")
    bench.vectors_cached(bench.Project(bench.REPO), inputs, tmp_path / "work", 5, "auto")
    with sqlite3.connect(tmp_path / "cache" / "meanings.sqlite") as cache:
        assert cache.execute("SELECT count(*) FROM vectors").fetchone()[0] >= 40  # an abstract each, and tag names
    assert not (tmp_path / "work" / "docs").exists()  # only the vectors are kept


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_process_seen_before_it_execs_is_named_by_what_it_runs_after():
    # Pagefind, sampled between fork and exec, carried its parent's command and was not told
    # apart: the bench's "pf MiB" came out empty now and then.
    bench = bench_module()
    child = subprocess.Popen([sys.executable, "-c", "import os, time; time.sleep(0.5); os.execv('/bin/sleep', ['sleep', '0.6'])"])
    peaks = bench.TreePeaks(child.pid)
    child.wait(timeout=30)
    (row,) = peaks.stop()
    assert row["command"].startswith("sleep"), row


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_server_is_busy_while_a_child_process_of_it_runs():
    # Between timed edits the bench waits for `mkdocs serve` to be quiet: no Pagefind at work.
    bench = bench_module()
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


def test_untitled_input_is_the_abstracts_alone_in_the_seeds_format(tmp_path):
    # What most users start from: a heading naming the collection, then one abstract per
    # paragraph, and nothing else; the generator reads every record of it back.
    from generator.errors import Report
    from generator.sources.readers import read_text

    bench = bench_module()
    source = tmp_path / "iclr2024.jsonl"
    records = [
        {"id": "a", "title": "Given Title", "keywords": ["kw"], "authors": ["Ann"], "abstract": "First abstract,\nover two lines."},
        {"id": "b", "title": "Other", "abstract": "Second abstract with <b>markup</b>."},
    ]
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    text = bench.untitled_text(source)
    assert "Given Title" not in text and "kw" not in text and "Ann" not in text
    read = list(read_text(tmp_path / "iclr2024.txt", text, Report()))
    assert [r.abstract for r in read] == ["First abstract, over two lines.", "Second abstract with <b>markup</b>."]
    assert {r.collection for r in read} == {"ICLR 2024"} and all(r.title is None and not r.keywords for r in read)


def test_an_edit_of_untitled_input_changes_one_abstract_only(tmp_path):
    bench = bench_module()
    path = tmp_path / "iclr2024.txt"
    path.write_text("ICLR 2024\n\nFirst one.\n\nSecond one.\n\nThird one.\n", encoding="utf-8")
    bench.edit_record(path, 1, "marker7")
    assert path.read_text(encoding="utf-8") == "ICLR 2024\n\nFirst one.\n\nSecond one. We also report marker7 results.\n\nThird one.\n"


def test_the_plain_build_is_material_with_its_search_and_no_part_of_this_project(tmp_path):
    import yaml

    bench = bench_module()
    docs = tmp_path / "docs"
    (docs / "papers").mkdir(parents=True)
    (docs / "papers" / "one.md").write_text("---\ntemplate: paper.html\ntitle: One\n---\n\nText\n", encoding="utf-8")
    (docs / "tags.md").write_text("---\ntemplate: 'tags.html'\n---\n", encoding="utf-8")
    (docs / "about.md").write_text("No front matter; template: not.html\n", encoding="utf-8")
    templates = bench.page_templates(docs, tmp_path / "templates")
    assert sorted(p.name for p in templates.iterdir()) == ["paper.html", "tags.html"]
    assert (templates / "paper.html").read_text() == '{% extends "main.html" %}\n'

    text = bench.plain_config(bench.Project(ROOT), docs, tmp_path / "site", "A Title", templates)

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node))  # the site's site_url
    config = yaml.load(text, Loader=Loader)
    assert config["plugins"] == ["search"]
    assert config["theme"]["name"] == "material" and config["theme"]["custom_dir"] == str(templates)
    assert "extra_javascript" not in config and "extra_css" not in config
    assert config["site_name"] == "A Title" and config["docs_dir"] == str(docs)
    assert config["nav"] and config["markdown_extensions"]  # the same nav and Markdown as the full build
