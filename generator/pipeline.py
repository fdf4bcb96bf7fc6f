"""The pipeline in passes: sources -> enrich -> link -> render -> write."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from generator import options
from generator.context import running
from generator.errors import InputError, Report
from generator.model import Paper, Record
from generator.output.files import WriteResult, write_later, write_site
from generator.runtime.background_writer import Writer
from generator.runtime.heap import collector_paused
from generator.runtime.parallel import Forking, forks, run_meanwhile, while_workers_run
from generator.runtime.runcache import RunCache, run_fingerprint
from generator.runtime.session import Session
from generator.sources.readers import file_records, input_files, records_as_read, shown_path

if TYPE_CHECKING:
    from generator.language.meaning.source import Source
    from generator.link.aboutness import Aboutness
    from generator.render.site import Files

T = TypeVar("T")

# The passes' own modules (numpy, scipy, Jinja2, the learned data) are imported by the functions
# that run them: a run that finds nothing changed (the no-op rebuild) needs none (decision 0002).

PROGRESS_THRESHOLD = 500  # show a progress bar only when a run takes noticeable time
# Under serve, more new abstracts than this (about 2 s of the sentence model's time) are embedded
# on a thread while the site is served linked by the built-in table (decision 0028).
EMBED_ASIDE_FROM = 200


def _prepare_passes() -> None:
    """Import what linking and rendering use while enrich's workers run: this process would
    only wait for them meanwhile (decision 0007). (Their learned models are loaded already:
    `load` loads them all before the workers fork.)"""
    import generator.explore.topics
    import generator.link.corpus
    import generator.render.site
    import generator.runtime.map_process  # noqa: F401


def _load_meaning_table() -> None:
    """The built-in meaning table loaded while enrich's workers run, as the passes' other models
    are; the sentence model is loaded only when some abstract is new (decision 0016)."""
    from generator.language.meaning.source import embedder
    from generator.language.meaning.table import find_table

    embedder(find_table())


@dataclass(frozen=True)
class Settings:
    related: int = options.RELATED.default
    site_title: str | None = None
    progress: bool = False
    source_root: Path | None = None  # input paths are shown relative to this folder
    site_url: str | None = None  # makes feed links absolute
    # How related papers are found: by words and meaning ("auto": the sentence model where it is
    # installed, else the built-in table; "table"; "semantic": the model, an error without it)
    # or by words only ("lexical"). See meaning_source.
    related_by: str = options.RELATED_BY.default


RELATED_BY = options.RELATED_BY.choices


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
        out += [f"note: {n}" for n in self.report.notes]
        out += [f"duplicate: {d}" for d in self.report.duplicates]
        out += [f"warning: {w}" for w in self.report.warnings]
        out += [f"cannot read {u}" for u in self.report.unreadable]
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
    records while the rest are read (decision 0007)."""
    from generator.enrich.models import Models
    from generator.enrich.paper import enrich_batch, paper_id
    from generator.runtime.parallel import Feed

    Models.shipped()  # the learned data, loaded once before the workers fork
    if session is not None:
        session.reading(files)
    # Under serve a file read before is not parsed again, and one that cannot be read keeps its last records.
    records = records_as_read(files, report, settings.source_root, session.file_records if session is not None else file_records)
    merged, cached = [], []

    def enriched(batch: list[tuple[Record, str]]) -> list[Paper]:
        # Each record travels with its id, worked out here when duplicates were merged.
        return enrich_batch([record for record, _ in batch], [key for _, key in batch])

    with Feed(enriched) as missing:
        for record, duplicates in merged_as_read(records, report):
            key, paper = run_cache.paper(record)
            merged.append((record, duplicates))
            cached.append((key, paper))
            if paper is None:
                missing.put((record, paper_id(record.abstract)))
        from tqdm import tqdm  # here, once the workers run, not on the one busy core before

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


def meaning_source(settings: Settings, report: Report, session: Session | None = None) -> Source | None:
    """What related papers take meaning vectors from, or None (words only): "auto" the sentence
    model where it is installed, else the built-in table, and words only (said once) when neither
    can run; "table" the table; "semantic" the model, an error without it (decision 0027)."""
    from generator.language.meaning.model import Unavailable, find
    from generator.language.meaning.source import best_source
    from generator.language.meaning.table import find_table

    if settings.related_by not in RELATED_BY:
        raise InputError("related_by", f"{settings.related_by!r} is not one of {', '.join(RELATED_BY)}")
    if settings.related_by == "lexical":
        return None
    try:
        return {"auto": best_source, "table": find_table, "semantic": find}[settings.related_by]()
    except Unavailable as why:
        if settings.related_by != "auto":
            raise InputError(f"related_by: {settings.related_by}", str(why)) from None
        said = session.said if session is not None else set()
        if "semantic" not in said:
            report.notes.append(f"related papers are found by words only: {why}")
            said.add("semantic")
        return None


def paper_meanings(papers: Sequence[Paper], source: Source, report: Report, memory: dict | None = None, progress: bool = False) -> Any:
    """Each paper's meaning vector by `source`: from `memory` (a server's last run), the user's
    vector cache (the sentence model's vectors), or embedded now (the model is loaded only when
    some abstract is new). An unusable cache is a warning in `report`; what was embedded and how
    long it took, a note (a line in the build's log)."""
    from generator.link.corpus import meaning_text

    texts = [meaning_text(p) for p in papers]
    began = time.perf_counter()
    vectors, embedded, store = stored_vectors(texts, source, memory, progress and len(texts) >= PROGRESS_THRESHOLD)
    if store is not None and store.failed:
        report.warn(str(store.path), f"the cache of meaning vectors could not be used ({store.failed})")
    kept = f"; kept in {store.path} for the next builds" if store is not None and embedded else ""
    report.notes.append(
        f"related papers by meaning from {source.name}: {embedded} of {len(texts)} abstract(s) embedded in "
        f"{time.perf_counter() - began:.1f} s{kept}"
    )
    return vectors


def stored_vectors(texts: list[str], source: Source, memory: dict | None = None, show: bool = False) -> tuple[Any, int, Any]:
    """One unit vector per text by `source`, how many were embedded now, and the user's vector
    cache they went through (None for a source not worth storing: the table): from `memory` (a
    server's last run), that cache, or embedded now (`show`: with a progress bar)."""
    from generator.language.meaning.source import embedder, worth_storing
    from generator.runtime.meanings import VectorStore, meaning_vectors, store_path

    store = VectorStore(store_path(), source) if worth_storing(source) else None
    vectors, embedded = meaning_vectors(texts, source, lambda missing: embedder(source)(missing, show), store, memory)
    return vectors, embedded, store


def name_embedder(source: Source) -> Callable[[list[str]], Any]:
    """How linking embeds tag names the shipped vectors lack (key phrases filled up as tags,
    link.aboutness): by `source`, through the user's vector cache as abstracts are (a name
    embedded once is read back in later builds)."""
    return lambda names: stored_vectors(names, source)[0]


def fitted_aboutness_for(source: Source | None, venue: str | None = None) -> Aboutness | None:
    """The aboutness fitted for `source` (link.aboutness.fitted_aboutness; None: words only, or
    a source with no tag name vectors), embedding other names by it (name_embedder)."""
    from generator.link.aboutness import fitted_aboutness

    if source is None:
        return None
    fitted = fitted_aboutness(source.name, venue)
    return replace(fitted, embed_others=name_embedder(source)) if fitted is not None else None


def serving_meanings(papers: Sequence[Paper], model: Source, report: Report, session: Session) -> tuple[Any, Source]:
    """Under `mkdocs serve`: each paper's vector by the sentence model `model`, and `model`; but
    while more than EMBED_ASIDE_FROM abstracts have no vector of it yet, the built-in table's
    vectors (and the table) for this run, the model embedding them on a thread meanwhile: the
    site is served at once, and the server builds again, linked by the model, when they are
    ready. Where the model failed on that thread, the table for the rest of the session."""
    from generator.language.meaning.model import Unavailable
    from generator.language.meaning.source import embedder
    from generator.language.meaning.table import find_table
    from generator.link.corpus import meaning_text
    from generator.runtime.meanings import BackgroundEmbedding, VectorStore, missing_texts, store_path

    try:
        table = find_table()
    except Unavailable:  # no stand-in: the model embeds now
        return paper_meanings(papers, model, report, session.meanings), model
    aside = session.embedding
    if aside is not None and aside.succeeded():
        session.meanings.setdefault(model.identity, {}).update(aside.vectors)  # also where the store could not keep them
        session.embedding = aside = None
    if aside is None:
        store = VectorStore(store_path(), model)
        missing = missing_texts([meaning_text(p) for p in papers], model, store, session.meanings)
        if len(missing) <= EMBED_ASIDE_FROM:
            return paper_meanings(papers, model, report, session.meanings), model

        def ready(count: int, seconds: float) -> None:
            session.embeddings_done += 1
            session.tell(
                f"related papers by meaning from {model.name} are ready ({count} abstract(s) embedded in {seconds:.0f} s): building again"
            )
            session.rebuild()

        def failed(why: str) -> None:
            session.tell(f"related papers stay by meaning from the built-in table: {model.name} could not embed the abstracts ({why})")

        embed = embedder(model)  # loaded here: a model that cannot load fails this run, not the thread
        session.embedding = aside = BackgroundEmbedding(missing, lambda texts: embed(texts, False), store, ready, failed)
        aside.start()
        report.notes.append(
            f"{model.name} embeds {len(missing)} new abstract(s) in the background; until they are ready, related papers "
            "are by meaning from the built-in table, and the site is built again when they are"
        )
    return paper_meanings(papers, table, report, session.meanings), table


def site_title_for(papers: list[Paper], settings: Settings) -> str:
    if settings.site_title:
        return settings.site_title
    collections = sorted({p.collection for p in papers})
    return collections[0] if len(collections) == 1 else "Paper abstracts"


def generate(
    inputs: list[Path], docs_dir: Path, settings: Settings = Settings(), session: Session | None = None, later: bool = False
) -> Summary:
    """Generate the pages for `inputs` into `docs_dir`: read, enrich, link, render, write. A caller
    that runs again (mkdocs serve) passes the same `session` each time, so an edit recomputes
    only what it changes. `later`: return before the topic map is made; the caller completes
    the run with `summary.finish()`."""
    run = _Run(inputs, docs_dir, settings, session, later)
    if run.unchanged():
        return run.as_before()  # the no-op rebuild: nothing to derive, nothing to write
    with run.passes():
        papers = run.timed("read+enrich", run.read_and_enrich)
        papers = run.timed("link", run.link, papers)
        run.timed("render", run.render, papers)
    return run.write(papers)


class _Run:
    """One run of `generate`: its inputs, caches and timings, and the processes it starts (a
    one-off run's files are written by a process of their own as they are made; the topic map
    is made in another while related papers are explained and pages rendered: decision 0007)."""

    def __init__(self, inputs: list[Path], docs_dir: Path, settings: Settings, session: Session | None, later: bool):
        self.began = self.lap = time.perf_counter()
        self.docs_dir, self.settings, self.session = docs_dir, settings, session
        self.report = Report()
        self.stage_seconds: dict[str, float] = {}
        if docs_dir.exists() and not docs_dir.is_dir():
            raise InputError(str(docs_dir), "output folder is a file")
        self.files = input_files(inputs, self.report)
        self.cache = RunCache(docs_dir, session.papers if session is not None else None)
        self.meaning_source = meaning_source(settings, self.report, session)
        self.fingerprint = run_fingerprint(
            self.files,
            (
                settings.related,
                settings.site_title,
                str(settings.source_root),
                settings.site_url,
                self.meaning_source and self.meaning_source.identity,
                session.embeddings_done if session is not None else 0,  # vectors made aside since: link again
            ),
        )
        self.pending: dict | None = {} if later else None  # the files handed to summary.finish
        self.writer: Writer | None = None
        self.outputs: Files | None = None
        self.updated: dict[str, str] = {}
        self.terms: list = []  # the glossary, once made

    def unchanged(self) -> bool:
        return self.cache.unchanged(self.fingerprint, self.docs_dir)

    def as_before(self) -> Summary:
        state = self.cache.state
        self.report.warnings, self.report.duplicates = state["warnings"], state["duplicates"]
        self.report.unreadable = state.get("unreadable", [])
        now = time.perf_counter()
        return Summary(
            state["papers"],
            state["collections"],
            self.report,
            WriteResult(unchanged=len(state["files"])),
            now - self.began,
            {"check": now - self.lap},
        )

    @contextmanager
    def passes(self) -> Iterator[None]:
        """Around the passes: the session told a run starts, the passes' modules imported while
        enrich's workers run, the one-off run's writer forked (while this process is small), the
        run context opened for the stages (generator.context: the session under serve, which
        answers what they may reuse; a Forking context otherwise), the cycle collector paused;
        on failure, the processes started are stopped."""
        if self.session is not None:
            self.session.next_run()
        from generator.language.meaning.source import worth_storing

        while_workers_run(_prepare_passes)
        if self.meaning_source is not None and not worth_storing(self.meaning_source) and self.settings.related > 0:
            while_workers_run(_load_meaning_table)
        self.writer = Writer(self.docs_dir) if self.session is None and forks() else None
        try:
            with running(self.session if self.session is not None else Forking()), collector_paused():
                yield
        except BaseException:
            from generator.runtime import map_process

            map_process.cancel()  # the topic map linking may have started is not wanted now
            if self.writer is not None:
                self.writer.abandon()
            raise

    def timed(self, stage: str, step: Callable[..., T], *args: Any) -> T:
        result = step(*args)
        now = time.perf_counter()
        self.stage_seconds[stage], self.lap = now - self.lap, now
        return result

    def read_and_enrich(self) -> list[Paper]:
        papers = load(self.files, self.settings, self.report, self.cache, self.session)
        run_meanwhile()  # when no workers ran (a small run, an edit)
        return papers

    def link(self, papers: list[Paper]) -> list[Paper]:
        from generator.link.corpus import glossary, link
        from generator.link.related.similar import fitted_mixing
        from generator.render.site import listing_files
        from generator.runtime import map_process

        self.updated = feed_dates(self.files, papers, self.settings.source_root)
        writer = self.writer
        meanings, source = self.meanings(papers)

        def list_early(titled: list[Paper]) -> None:
            # The pages that list papers without their related ones, made and written on the
            # other core while related papers are found (a one-off run's); the glossary reads
            # only acronyms and ids, settled by then, and is made once.
            self.terms[:] = glossary(titled)
            cast(Writer, writer).elsewhere(partial(listing_files, titled, self.terms, self.updated, self.settings.site_url))

        return link(
            papers,
            self.settings.related,
            list_early if writer is not None else None,
            self.cache.save_papers if writer is not None else None,  # the enrich cache saved while linking waits
            neighbours_found=map_process.start,  # the topic map is made on the other core meanwhile
            meanings=meanings,
            mixing=fitted_mixing(source.name if source is not None else None),
            aboutness=fitted_aboutness_for(source) if meanings is not None else None,
        )

    def meanings(self, papers: list[Paper]) -> tuple[Any, Source | None]:
        """Each paper's meaning vector and the source they are by (None, None: words only): from
        the vector cache, or embedded now (issue 34); under serve, many new abstracts by the
        table while the model embeds them aside (serving_meanings)."""
        from generator.language.meaning.source import worth_storing

        source = self.meaning_source
        if source is None or self.settings.related == 0:
            return None, source
        if self.session is not None and worth_storing(source):
            return serving_meanings(papers, source, self.report, self.session)
        memory = self.session.meanings if self.session is not None else None
        return paper_meanings(papers, source, self.report, memory, progress=self.settings.progress), source

    def render(self, papers: list[Paper]) -> None:
        """The files' text into self.outputs (a one-off run's writer writes them meanwhile)."""
        from generator.link.corpus import glossary
        from generator.render.site import render_site
        from generator.runtime import map_process

        topic_map = map_process.map_for(papers)
        site_title = site_title_for(papers, self.settings)
        outputs = render_site(
            papers,
            self.terms or glossary(papers),
            site_title,
            self.updated,
            self.settings.site_url,
            self.writer,
            listed=self.writer is not None,
        )
        if self.pending is None:
            outputs["map.json"] = topic_map.result()  # last: the other pages were made meanwhile
        else:
            self.pending["map.json"] = topic_map
        self.outputs = outputs

    def write(self, papers: list[Paper]) -> Summary:
        """Write what is left to write, remember the run, and say what it did."""
        remembered = self.session.written if self.session is not None else None
        outputs, self.outputs = self.outputs, None  # the pages' text is not held while the caches are pickled
        if self.writer is not None:
            written = self.writer.close()
        else:
            written = write_site(self.docs_dir, cast("dict[str, str | bytes]", outputs), remembered)
        del outputs
        summary = Summary(len(papers), sorted({p.collection for p in papers}), self.report, written, 0.0, self.stage_seconds)
        pending = self.pending

        def finish() -> list[str]:
            write_later(self.docs_dir, {path: made.result() for path, made in cast(dict, pending).items()}, written, remembered)
            self.cache.save(self.fingerprint, written.sizes, summary)  # only now: a run cut short is not taken for done
            return sorted(cast(dict, pending))

        if pending:
            summary.finish = finish
        else:
            self.cache.save(self.fingerprint, written.sizes, summary)
        self.timed("write", lambda: None)
        summary.seconds = time.perf_counter() - self.began
        return summary
