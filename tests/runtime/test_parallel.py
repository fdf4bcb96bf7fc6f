"""Work spread over cores, and pages remembered between runs of one process, never change
what is generated: the same input gives byte-identical files either way."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from dataclasses import replace
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.link.corpus import glossary
from generator.pipeline import Settings, generate
from generator.render import site as render
from generator.runtime import parallel
from helpers import corpus_file


def corpus_slice(tmp_path: Path, count: int) -> Path:
    lines = corpus_file("colm2025.jsonl").read_text(encoding="utf-8").splitlines()[:count]
    source = tmp_path / "papers.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return source


def generated(docs: Path) -> dict[str, bytes]:
    return {
        p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file() and ".abstracts-site" not in p.parts
    }


@pytest.mark.slow
def test_parallel_and_serial_runs_write_identical_sites(tmp_path, monkeypatch):
    source = corpus_slice(tmp_path, parallel.MIN_ITEMS + 10)  # enough papers for the workers to start
    assert parallel.workers() >= 1
    monkeypatch.setenv("ABSTRACTS_WORKERS", "1")
    generate([source], tmp_path / "serial", Settings())
    monkeypatch.setenv("ABSTRACTS_WORKERS", "2")
    generate([source], tmp_path / "parallel", Settings())
    serial, forked = generated(tmp_path / "serial"), generated(tmp_path / "parallel")
    assert len([name for name in serial if name.startswith("papers/")]) == parallel.MIN_ITEMS + 10
    assert serial == forked


def test_feed_gives_results_in_order_while_items_still_come_in_workers_and_in_process(monkeypatch):
    offset = 5  # a closure: workers inherit it; the items travel pickled
    sizes = []

    def derive(batch):
        sizes.append(len(batch))
        return [x * 2 + offset for x in batch]

    for workers, count in (("2", parallel.MIN_ITEMS + 3 * parallel.BATCH + 7), ("1", parallel.MIN_ITEMS + 7), ("2", 10)):
        monkeypatch.setenv("ABSTRACTS_WORKERS", workers)
        with parallel.Feed(derive) as feed:
            for x in range(count):
                feed.put(x)
            assert list(feed.results()) == [x * 2 + offset for x in range(count)]
    assert sizes and max(sizes) == parallel.BATCH  # in process: the batches recorded here


def test_an_input_error_after_the_workers_started_is_reported_and_stops_them(tmp_path):
    source = corpus_slice(tmp_path, parallel.MIN_ITEMS + 10)
    with source.open("a", encoding="utf-8") as handle:
        handle.write("{not json\n")
    with pytest.raises(InputError, match=f"{parallel.MIN_ITEMS + 11}: invalid JSON"):
        generate([source], tmp_path / "site", Settings())
    assert not multiprocessing.active_children()


def test_halves_are_the_first_and_second_half_in_workers_and_in_process(monkeypatch):
    items = list(range(parallel.MIN_ITEMS + 5))
    offset = 3  # a closure: the forked half inherits it
    middle = len(items) // 2
    expected = [[x + offset for x in items[:middle]], [x + offset for x in items[middle:]]]
    assert parallel.in_two_processes(lambda some: [x + offset for x in some], items) == expected
    monkeypatch.setenv("ABSTRACTS_WORKERS", "1")
    assert parallel.in_two_processes(lambda some: [x + offset for x in some], items) == expected
    assert parallel.in_two_processes(lambda some: list(some), items[:10]) == [items[:10]]  # too few to split


def test_an_edit_rerenders_the_same_pages_as_a_fresh_process(tmp_path):
    """Under `mkdocs serve` the renderer reuses the last run's pages: after an edit its output
    must equal a cold render of the edited papers."""
    from generator.context import running
    from generator.enrich.paper import enrich
    from generator.errors import Report
    from generator.link.corpus import link
    from generator.runtime.session import Session
    from generator.sources.readers import read_files

    records = read_files([corpus_slice(tmp_path, 40)], Report())
    papers = link([enrich(r) for r in records], 5)
    session = Session()  # as the plugin keeps it under `mkdocs serve`
    with running(session):
        render.render_site(papers, glossary(papers), "Site")
    edited = list(papers)
    edited[3] = replace(edited[3], summary="An edited summary that every page listing it must show.")
    session.next_run()
    with running(session):
        warm = render.render_site(edited, glossary(edited), "Site")
    assert len(session.states.get("paper pages", dict)) == len(edited)  # remembered, then reused for all but one page
    cold = render.render_site(edited, glossary(edited), "Site")
    assert warm == cold
    assert "An edited summary" in warm[f"papers/{edited[3].slug}.md"]
    assert json.loads(warm["papers.json"])["papers"][3]["summary"].startswith("An edited summary")


def test_meanwhile_runs_while_the_workers_work_or_when_asked(monkeypatch):
    import multiprocessing

    items = list(range(parallel.MIN_ITEMS + 5))
    workers_alive = []
    parallel.while_workers_run(lambda: workers_alive.append(len(multiprocessing.active_children())))
    with parallel.Feed(lambda batch: [x + 1 for x in batch]) as fed:  # items that come one by one
        for x in items:
            fed.put(x)
        assert list(fed.results()) == [x + 1 for x in items]
    if parallel.forks():
        assert workers_alive and workers_alive[0] >= 2  # ran before the results were read
    monkeypatch.setenv("ABSTRACTS_WORKERS", "1")
    ran = []
    parallel.while_workers_run(lambda: ran.append(True))
    with parallel.Feed(lambda batch: list(batch)) as fed:
        for x in items:
            fed.put(x)
        assert list(fed.results()) == items and ran == []  # no pool: not yet
    parallel.run_meanwhile()
    assert ran == [True]
    # Runs that failed before their tasks ran (a bad input under `mkdocs serve`) leave one, not one each.
    task = lambda: ran.append(True)
    parallel.while_workers_run(task)
    parallel.while_workers_run(task)
    parallel.run_meanwhile()
    assert ran == [True, True]


def test_key_phrases_of_the_last_papers_worked_out_elsewhere_are_the_ones_found_at_once(tmp_path, monkeypatch):
    from generator.enrich.models import Models
    from generator.errors import Report
    from generator.link import corpus as link
    from generator.pipeline import RunCache, load
    from generator.sources.readers import input_files

    source = corpus_slice(tmp_path, parallel.MIN_ITEMS + 10)  # enough for linking's forked process
    report = Report()
    papers = load(input_files([source], report), Settings(), report, RunCache(tmp_path / "docs"))
    papers = link.drop_dominant_tags(link.unique_slugs(link.drop_common_names(papers)))
    at_once = link.add_keyphrases(papers)
    cut = len(papers) - int(len(papers) * link.KEYPHRASES_ELSEWHERE)
    assert 0 < cut < len(papers)
    elsewhere = link._from_texts(papers, cut, link.phrase_counts(papers), Models.shipped())[3]
    assert [(p.keyphrases, p.tag_choice.fill_order) for p in at_once[cut:]] == elsewhere
    assert link.add_keyphrases(papers, ahead=(cut, lambda: elsewhere)) == at_once
    assert sum(p.keyphrases != q.keyphrases for p, q in zip(papers, at_once)) > len(papers) // 2  # they were found


def test_a_later_raises_its_error_each_time_asked_and_a_cancelled_one_leaves_no_process():
    def failing():
        raise ValueError("no result")

    later = parallel.Later(failing)
    for _ in range(2):  # asked again (a failed run cleaning up): the same error, not another
        with pytest.raises(ValueError, match="no result"):
            later.result()
    if not parallel.forks():
        return
    blocked = parallel.Later(lambda: "x" * (1 << 20))  # more than a pipe holds: it waits for a reader
    pid = blocked._pid
    blocked.cancel()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped and reaped


def test_a_later_says_whether_its_result_would_keep_this_process_waiting(tmp_path):
    go = tmp_path / "go"

    def when_told() -> str:
        while not go.exists():
            time.sleep(0.01)
        return "done"

    if not parallel.forks():
        go.touch()  # Later runs it here, at once
    later = parallel.Later(when_told)
    if parallel.forks():
        assert not later.done()  # the forked process waits for the file
        go.touch()
    deadline = time.monotonic() + 30
    while not later.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert later.done() and later.result() == "done" and later.done()


def _killed_on(batch: list[int]) -> list[int]:
    if 13 in batch:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
    return batch


def test_a_killed_worker_ends_the_run_with_an_error_instead_of_a_wait_forever():
    if not parallel.forks():
        pytest.skip("no workers on this machine")
    started = time.monotonic()
    with pytest.raises(InputError, match="worker process was killed"):
        with parallel.Feed(_killed_on) as feed:
            for item in range(parallel.MIN_ITEMS + parallel.BATCH):
                feed.put(item)
            list(feed.results())
    assert time.monotonic() - started < 30


def _blas_threads(env: dict[str, str]) -> set[int]:
    import subprocess
    import sys

    probe = "import generator, numpy, scipy.linalg; from threadpoolctl import threadpool_info; print(sorted({i['num_threads'] for i in threadpool_info()}))"
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_blas_runs_one_thread_per_process_unless_the_user_chose(monkeypatch):
    # The generator's processes fill the cores already: more BLAS threads only spin on them.
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _blas_threads(env) == {1}
    assert _blas_threads({**env, "OPENBLAS_NUM_THREADS": "2"}) == {2}
