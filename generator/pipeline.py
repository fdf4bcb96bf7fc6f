"""The pipeline in passes: sources -> enrich -> link -> render -> write."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import cast

from generator.errors import InputError, Report
from generator.model import Paper, Record
from generator.output.files import WriteResult, write_later, write_site
from generator.runtime.background_writer import Writer
from generator.runtime.heap import collector_paused
from generator.runtime.parallel import Forking, forks, meanwhile, run_meanwhile
from generator.runtime.runcache import RunCache, run_fingerprint
from generator.runtime.session import Session
from generator.sources.readers import input_files, records_as_read, shown_path

# The passes' own modules (numpy, scipy, Jinja2, the learned data: ~0.4 s of CPU) are imported
# by the functions that run them: a run that finds nothing changed (the no-op rebuild) needs none.

PROGRESS_THRESHOLD = 500  # show a progress bar only when a run takes noticeable time


def _prepare_passes() -> None:
    """Import what linking and rendering use and load their models (~0.4 s at start-up), while
    enrich's workers run: this process would only wait for them meanwhile."""
    import generator.explore.topics
    import generator.link.corpus
    import generator.render.site
    import generator.runtime.map_process  # noqa: F401
    from generator.enrich.tagevidence import tag_model
    from generator.link.keyphrases import phrase_model

    phrase_model()
    tag_model()


@dataclass(frozen=True)
class Settings:
    related: int = 5
    site_title: str | None = None
    progress: bool = False
    source_root: Path | None = None  # input paths are shown relative to this folder
    site_url: str | None = None  # makes feed links absolute


@dataclass
class Summary:
    papers: int
    collections: list[str]
    report: Report
    write: WriteResult
    seconds: float
    stage_seconds: dict[str, float] = field(default_factory=dict)
    # With generate(..., later=True): writes the files no page waits for (the topic map) and
    # completes the run; their paths. Called once, before the next run into the same folder.
    finish: Callable[[], list[str]] | None = field(default=None, repr=False)

    def lines(self) -> list[str]:
        out = [
            f"{self.papers} papers in {len(self.collections)} collection(s): {', '.join(self.collections)}",
            f"{len(self.report.duplicates)} duplicate abstract(s) merged; {len(self.report.warnings)} warning(s)",
            f"{len(self.write.written)} file(s) written, {self.write.unchanged} unchanged, "
            f"{len(self.write.removed)} stale removed in {self.seconds:.2f} s",
        ]
        out += [f"duplicate: {d}" for d in self.report.duplicates]
        out += [f"warning: {w}" for w in self.report.warnings]
        out += [f"kept hand-written docs/{f}; its generated version was not written" for f in self.write.kept_hand_written]
        return out


def merge_duplicates(records: list[Record], report: Report) -> list[tuple[Record, list[Record]]]:
    """Identical abstracts (after case and whitespace normalisation) become one paper."""
    return list(merged_as_read(records, report))


def merged_as_read(records: Iterable[Record], report: Report) -> Iterator[tuple[Record, list[Record]]]:
    """`merge_duplicates`, each paper's first record as soon as it is read, with the list of its
    repeats: they are added to it as they are read (it is whole once `records` are all read)."""
    from generator.enrich.paper import paper_id

    groups: dict[str, tuple[Record, list[Record]]] = {}
    for record in records:
        key = paper_id(record.abstract)
        if key in groups:
            first, others = groups[key]
            others.append(record)
            report.duplicates.append(f"{record.origin.where()} repeats {first.origin.where()}; merged into one page")
        else:
            groups[key] = (record, [])
            yield groups[key]


def load(files: list[Path], settings: Settings, report: Report, run_cache: RunCache, session: Session | None = None) -> list[Paper]:
    """The papers of `files`: from the caches, or derived by workers that start on the first
    records while the rest are read (at 4,242 papers reading took 0.35 s of one core, the
    other idle, before they started)."""
    from generator.enrich.paper import enrich_batch, paper_id
    from generator.enrich.tagevidence import tag_model
    from generator.enrich.tagging import vocabulary
    from generator.language.learned import choices
    from generator.runtime.parallel import Feed

    vocabulary(), choices(), tag_model()  # the learned data, loaded once before the workers fork (0.06 s)
    records = records_as_read(files, report, settings.source_root, session.files if session is not None else None)
    merged, cached = [], []
    # Each record travels with its id, worked out here when duplicates were merged.
    with Feed(cast("Callable[[list[tuple[Record, str]]], list[Paper]]", lambda batch: enrich_batch(*zip(*batch)))) as missing:
        for record, duplicates in merged_as_read(records, report):
            key, paper = run_cache.paper(record)
            merged.append((record, duplicates))
            cached.append((key, paper))
            if paper is None:
                missing.put((record, paper_id(record.abstract)))
        from tqdm import tqdm  # here, once the workers run, not on the one busy core before (8 ms)

        show = settings.progress and missing.count >= PROGRESS_THRESHOLD
        derived = iter(tqdm(missing.results(), total=missing.count, desc="enrich", unit="paper", disable=not show, leave=False))
        papers = []
        for (record, duplicates), (key, paper) in zip(merged, cached):
            fresh = paper is None
            if fresh:
                paper = next(derived)
            assert paper is not None  # cached, or derived just now
            run_cache.keep(record, key, paper, fresh)
            if duplicates:
                paper = replace(paper, also_in=tuple(d.origin for d in duplicates))
            papers.append(paper)
    return papers


def feed_dates(files: list[Path], papers: list[Paper], source_root: Path | None) -> dict[str, str]:
    """Each collection's feed date. Abstracts carry no dates: SOURCE_DATE_EPOCH (reproducible
    builds), else the newest of the input files the collection's papers were read from, so
    that saving one collection's file leaves the other collections' feeds as they were (they
    were all dated by the newest input file: every edit re-dated and rewrote every feed)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return dict.fromkeys(sorted({p.collection for p in papers}), _timestamp(int(epoch)))
    # Keyed as records name their file (relative to source_root when there is one).
    modified = {shown_path(f, source_root): int(f.stat().st_mtime) for f in files}
    newest: dict[str, int] = {}
    for paper in papers:
        for origin in (paper.origin, *paper.also_in):  # a merged duplicate's file counts too
            newest[paper.collection] = max(newest.get(paper.collection, 0), modified.get(origin.file, 0))
    return {collection: _timestamp(seconds) for collection, seconds in sorted(newest.items())}


def _timestamp(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def site_title_for(papers: list[Paper], settings: Settings) -> str:
    if settings.site_title:
        return settings.site_title
    collections = sorted({p.collection for p in papers})
    return collections[0] if len(collections) == 1 else "Paper abstracts"


def generate(
    inputs: list[Path], docs_dir: Path, settings: Settings = Settings(), session: Session | None = None, later: bool = False
) -> Summary:
    """Generate the pages for `inputs` into `docs_dir`; a caller that runs again (mkdocs serve)
    passes the same `session` each time, so an edit recomputes only what it changes.
    `later`: return before the topic map is made (at 4,200 papers its process finished ~1 s
    after the pages); the caller completes the run with `summary.finish()`."""
    start = time.perf_counter()
    report = Report()
    stages: dict[str, float] = {}

    def lap(name: str, began: float) -> float:
        now = time.perf_counter()
        stages[name] = now - began
        return now

    t = time.perf_counter()
    if docs_dir.exists() and not docs_dir.is_dir():
        raise InputError(str(docs_dir), "output folder is a file")
    files = input_files(inputs, report)
    run_cache = RunCache(docs_dir, session.papers if session is not None else None)
    fingerprint = run_fingerprint(files, (settings.related, settings.site_title, str(settings.source_root), settings.site_url))
    if run_cache.unchanged(fingerprint, docs_dir):
        # Nothing changed since the last run: nothing to derive, nothing to write.
        state = run_cache.state
        report.warnings, report.duplicates = state["warnings"], state["duplicates"]
        unchanged = WriteResult(unchanged=len(state["files"]))
        return Summary(
            state["papers"], state["collections"], report, unchanged, time.perf_counter() - start, {"check": time.perf_counter() - t}
        )
    if session is not None:
        session.next_run()
    meanwhile(_prepare_passes)
    # A one-off run's files are written by a process of their own as they are made (forked
    # now, while this one is small); under `mkdocs serve` an edit writes a few files here.
    writer = Writer(docs_dir) if session is None and forks() else None
    try:
        with collector_paused():
            papers = load(files, settings, report, run_cache, session)
            run_meanwhile()  # when no workers ran (a small run, an edit)
            t = lap("read+enrich", t)
            from generator.link.corpus import glossary, link
            from generator.render.site import listing_files, render_site
            from generator.runtime import map_process

            updated = feed_dates(files, papers, settings.source_root)
            # The glossary reads only the papers' acronyms and ids, settled when linking
            # lists papers early: made then once, not again for rendering (0.02 s at 4,242 papers).
            terms: list = []

            def list_early(titled: list[Paper]) -> None:
                # The pages that list papers without their related ones, made and written on
                # the other core while related papers are found (a one-off run's).
                terms[:] = glossary(titled)
                cast(Writer, writer).elsewhere(partial(listing_files, titled, terms, updated, settings.site_url))

            # A one-off run's enrich cache is saved while linking waits for its forked process.
            papers = link(
                papers,
                settings.related,
                session if session is not None else Forking(),  # the run context: what to reuse, where to fork
                list_early if writer is not None else None,
                run_cache.save_papers if writer is not None else None,
                neighbours_found=map_process.start,  # the topic map is made on the other core meanwhile
            )
            t = lap("link", t)
            pending: dict | None = {} if later else None
            topic_map = map_process.made(papers)
            outputs = render_site(
                papers,
                terms or glossary(papers),
                site_title_for(papers, settings),
                updated,
                settings.site_url,
                session,
                writer,
                listed=writer is not None,
            )
            if pending is None:
                outputs["map.json"] = topic_map.result()  # last: the other pages were made meanwhile
            else:
                pending["map.json"] = topic_map
            t = lap("render", t)
    except BaseException:
        from generator.runtime import map_process

        map_process.cancel()  # the topic map linking may have started is not wanted now
        if writer is not None:
            writer.abandon()
        raise
    remembered = session.written if session is not None else None
    written = writer.close() if writer is not None else write_site(docs_dir, cast("dict[str, str | bytes]", outputs), remembered)
    del outputs  # the pages' text (~0.3 GB at 12,000 papers) is not held while the caches are pickled
    collections = sorted({p.collection for p in papers})
    summary = Summary(len(papers), collections, report, written, 0.0, stages)

    def finish() -> list[str]:
        write_later(docs_dir, {path: made.result() for path, made in cast(dict, pending).items()}, written, remembered)
        run_cache.save(fingerprint, written.sizes, summary)  # only now: a run cut short is not taken for done
        return sorted(cast(dict, pending))

    if pending:
        summary.finish = finish
    else:
        run_cache.save(fingerprint, written.sizes, summary)
    lap("write", t)
    summary.seconds = time.perf_counter() - start
    return summary
