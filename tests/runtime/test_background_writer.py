"""A one-off run writes its files in a process of its own while it makes the rest: pages are on
disk before the run is done rendering, and a run that fails or cannot write ends cleanly."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.link import corpus as link
from generator.output.files import write_site
from generator.pipeline import Settings, generate
from generator.render import site as render
from generator.runtime import parallel
from helpers import SEEDS

pytestmark = pytest.mark.skipif(not parallel.forks(), reason="the writer is a forked process (Linux, two cores)")


def _children() -> set[int]:
    found = set()
    for task in Path("/proc/self/task").iterdir():
        found.update(int(pid) for pid in (task / "children").read_text().split())
    return found


def test_paper_pages_are_on_disk_while_the_home_page_is_rendered(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    seen: list[bool] = []
    area_chart = render.area_chart
    first_page = []

    def paper_page(paper_and_record):
        first_page.append(paper_and_record[0].slug)
        return paper_page.rendered(paper_and_record)

    def chart_waiting(areas):
        # Drawn for the home page, after every paper page: their files appear meanwhile
        # (before, only once the whole site was rendered).
        page = docs / "papers" / f"{first_page[0]}.md"
        deadline = time.monotonic() + 10
        while not page.is_file() and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.append(page.is_file())
        return area_chart(areas)

    paper_page.rendered = render._paper_page
    monkeypatch.setattr(render, "_paper_page", paper_page)
    monkeypatch.setattr(render, "area_chart", chart_waiting)
    summary = generate([SEEDS], docs, Settings())
    assert seen == [True]
    assert "papers.json" in summary.write.written and summary.write.written == sorted(summary.write.written)


def test_the_writer_writes_what_write_site_writes(tmp_path, monkeypatch):
    streamed = generate([SEEDS], tmp_path / "streamed", Settings())
    monkeypatch.setenv("ABSTRACTS_WORKERS", "1")  # no forked processes: written here by write_site
    direct = generate([SEEDS], tmp_path / "direct", Settings())
    assert streamed.write == direct.write
    files = lambda docs: {
        p.relative_to(docs).as_posix(): p.read_bytes() for p in docs.rglob("*") if p.is_file() and ".abstracts-site" not in p.parts
    }
    assert files(tmp_path / "streamed") == files(tmp_path / "direct")


def test_stale_pages_go_after_a_streamed_run(tmp_path):
    docs = tmp_path / "docs"
    write_site(docs, {"papers/gone.md": "---\ngenerated_by: abstracts-site\n---\n", "papers/.left.md.tmp": "x"})
    (docs / "papers" / "mine.md").write_text("hand-written\n", encoding="utf-8")
    summary = generate([SEEDS], docs, Settings())
    assert summary.write.removed == ["papers/gone.md"]
    assert sorted(p.name for p in (docs / "papers").iterdir() if not p.name.endswith(".md") or p.name in ("gone.md", "mine.md")) == [
        "mine.md"
    ]


def test_a_failed_run_leaves_no_writer_behind(tmp_path, monkeypatch):
    before = _children()

    def broken(*args, **kwargs):
        raise RuntimeError("linking failed")

    monkeypatch.setattr(link, "link", broken)
    with pytest.raises(RuntimeError, match="linking failed"):
        generate([SEEDS], tmp_path / "docs", Settings())
    assert _children() <= before
    assert not (tmp_path / "docs" / ".abstracts-site" / "state.json").exists()  # not taken for done


def test_a_run_that_fails_while_its_topic_map_is_made_ends_and_leaves_no_process(tmp_path, monkeypatch):
    """Linking starts the topic map in a process of its own; its result (1 MB here, as at a few
    hundred papers) is more than a pipe holds, so that process waits for a reader. A run that
    fails in rendering must still end with its error: it once waited forever for the writer,
    whose pipe that process held open."""
    from generator.explore import mapfile

    def timed_out(*args):
        raise TimeoutError("the failed run did not end")

    def broken(*args):
        raise RuntimeError("rendering failed")

    before = _children()
    monkeypatch.setattr(mapfile, "map_json", lambda papers, graph=None, words=None: "x" * (1 << 20))  # as map_process calls it
    monkeypatch.setattr(render, "area_chart", broken)
    previous = signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(60)
    try:
        with pytest.raises(RuntimeError, match="rendering failed"):
            generate([SEEDS], tmp_path / "docs", Settings())
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert _children() <= before  # the map's process stopped, the writer ended


def test_a_folder_that_cannot_be_written_is_one_clean_error(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "papers").write_text("a file where the papers' folder goes\n", encoding="utf-8")
    before = _children()
    with pytest.raises(InputError, match="cannot write"):
        generate([SEEDS], docs, Settings())
    assert _children() <= before
    os.remove(docs / "papers")


def test_listing_pages_are_on_disk_while_related_papers_are_found(tmp_path, monkeypatch):
    from generator.link.related import similar

    docs = tmp_path / "docs"
    seen: list[bool] = []
    neighbours = similar.neighbours

    def neighbours_waiting(*args, **kwargs):
        # Tag, area and collection pages list no related papers: made meanwhile, elsewhere.
        deadline = time.monotonic() + 10
        while not (docs / "browse.json").is_file() and time.monotonic() < deadline:  # written last
            time.sleep(0.01)
        seen.append((docs / "tags" / "index.md").is_file() and (docs / "glossary.md").is_file())
        return neighbours(*args, **kwargs)

    monkeypatch.setattr(link, "neighbours", neighbours_waiting)
    summary = generate([SEEDS], docs, Settings())
    assert seen == [True]
    assert {"tags/index.md", "glossary.md", "browse.json", "index.md"} <= set(summary.write.written)


def test_a_failure_where_listing_pages_are_made_is_the_run_s_error(tmp_path, monkeypatch):
    def broken(*args):
        raise RuntimeError("listing failed")

    monkeypatch.setattr(render, "listing_files", broken)
    before = _children()
    with pytest.raises(RuntimeError, match="listing failed"):
        generate([SEEDS], tmp_path / "docs", Settings())
    assert _children() <= before
