"""Benchmark: build complete sites from the shared corpora at several sizes and print where time,
memory and bytes go, next to a bare `mkdocs build` of the same pages (issue 5).

Run from the repository root (the corpora live beside it, in ../shared/corpus/):

    .venv/bin/python -m bench.bench                                    # all sizes, medians of 3 runs
    .venv/bin/python -m bench.bench --repeat 1 --sizes 40,2200         # quick
    .venv/bin/python -m bench.bench --sizes 4200 --json bench.json     # also write every run as JSON
    .venv/bin/python -m bench.bench --repo /tmp/before                  # another checkout (before/after)
    .venv/bin/python -m bench.bench --repeat 1 --sizes 40              # CI smoke run, about 20 s
    .venv/bin/python -m bench.bench --sizes 2200 --edits 0             # without the `mkdocs serve` step
    .venv/bin/python -m bench.bench --sizes 4200 --inputs untitled     # only the seeds' case
    .venv/bin/python -m bench.bench --sizes 4200 --related-by lexical # words only (issue 34)
    .venv/bin/python -m bench.bench --sizes 4200 --first-builds         # no meaning vector cached (issue 51)

Sizes (approximate paper counts; the table shows the real count):

    40      the first 40 records of iclr2024.jsonl
    2200    iclr2024.jsonl
    4200    all five corpus files
    12000   the five corpora replicated 3x: the originals plus two variants of every record
            with `-rN` appended to the id, ` (replica N)` to the title, and a short varied
            sentence prefixed to the abstract (so no replica is merged as a duplicate)

Inputs (--inputs; both by default, untitled first, each size measured with each):

    titled      the corpus records as they are: JSON Lines with real titles, keywords, authors,
                links and areas
    untitled    the same abstracts as the seeds arrive: a plain-text file per corpus file, a
                heading line naming the collection, then one abstract per paragraph; no title,
                keyword or other field, so every title, name, summary and tag is derived
                (the case most users start from)

--repo runs another checkout's generator, mkdocs.yml, theme and docs/ with this venv (its
root goes first on PYTHONPATH and is the working directory), e.g. `git worktree add /tmp/before
HEAD~3` for a before/after comparison, or a copy of a working tree others are still editing.

Every input is written to a temporary folder outside the repository, and everything the
benchmark builds lives there too; it is removed at the end (--keep to inspect it). Each
measured step is a separate subprocess with NO_MKDOCS_2_WARNING=1; wall time is measured
around it and peak RSS comes from os.wait4's rusage (ru_maxrss: the largest of that process and
the children it waited for). On Linux the process tree is also sampled every 0.1 s (each
process's VmHWM in /proc): the peak of every process, for the per-process columns.

One run at one size does, in order:

    generate   `python -m generator generate INPUTS --out DOCS` into an empty folder
    no-op      the same command again into the same DOCS (nothing changed)
    warm       one abstract edited (a sentence appended), the same command into a copy of DOCS
               with its caches; the input is restored afterwards
    stages     the pipeline in-process (generator.pipeline.generate with its stage functions
               wrapped) into another empty folder: seconds and peak RSS of each stage
    full       `python -m generator build INPUTS --site SITE --config mkdocs.yml`: the plugin
               (the hook in older checkouts) runs the generator,
               then MkDocs builds the site
    bare       `python -m mkdocs build -f CONFIG` on DOCS from `generate` plus the hand-written
               docs (about.md), where CONFIG is a copy of mkdocs.yml without `hooks:`/`plugins:`
               (docs_dir/site_dir pointing into the temporary folder, custom_dir absolute or
               the package's theme with its scripts and styles,
               site_name set to the generated home page's title, as the full build sets it);
               with no `plugins:` MkDocs adds its default, `search`, which the Material theme
               makes Material's search plugin: bare writes Material's one-file search index
               (search/search_index.json) where full writes Pagefind's. So full/bare is the
               generator plus the difference between the two indexes (until issue 36 this said
               bare had no search; it always had Material's)
    plain      `python -m mkdocs build -f CONFIG` on the same DOCS, where CONFIG is what a user
               would otherwise write by hand: Material for MkDocs as it comes with its built-in
               search plugin (one search_index.json), the same nav and Markdown extensions, no
               package theme, scripts, styles or plugin of this project; the templates the
               generated pages name (`template: paper.html`) are stand-ins for Material's
               main.html. It differs from bare by the theme only: Material's page templates
               instead of the project's (paper pages with their related papers, tags, links).
               full/plain is what a user of this tool pays over a hand-made Material site
    serve      `python -m mkdocs serve --livereload --dirty` with the checkout's mkdocs.yml, its
               plugin's inputs pointed at copies of INPUTS; after the first build and search index,
               --edits times: a sentence with a new word is appended to one abstract of the first
               input file, and the served paper page is fetched every 20 ms until it holds the
               word (edit-to-served: what a reader of the open page waits); the server then
               finishes its background search index before the next edit

Meaning vectors are cached per user: every step runs with them warm (a user's every build after
the first), ensured by one untimed `generate` of each size's inputs before its runs
(`vectors_cached`); --first-builds times the first build instead.

Above the table: the load average and the machine's speed (`reference_seconds`, a fixed
pure-Python workload timed before and after the runs), to compare tables from different machines.

Columns of the main table (medians over --repeat runs; ratios are computed within each run,
then the median is taken):

    papers        paper pages in the full site (site/papers/**/index.html)
    gen s         wall time of `generate` into an empty folder, interpreter start-up included
    gen cpu       user + system CPU seconds of that process and its workers (steadier than wall
                  time on a busy machine; both cores count)
    gen MiB       peak RSS of that process
    gen in s      the generator's own timing of that run as it prints it (`... in X s`):
                  the pipeline without interpreter start-up and imports
    warm s        wall time of the `warm` step: one abstract edited, caches on disk (a new process)
    noop s        wall time of the second, no-op `generate` into the same folder
    noop in s     the generator's own timing of the no-op run
    rewr          files the no-op run rewrote (mtime or inode changed), plus created/removed ones
    edit s        median edit-to-served seconds under `mkdocs serve` (see `serve`; targets <= 2 s
                  at ~2,200 papers, <= 3 s at ~4,200)
    edit cpu      median CPU seconds the server used from the edit to the page served
    full s        wall time of `python -m generator build` (generator + MkDocs, one process)
    full MiB      peak RSS of that process and its children (the largest of them)
    mkdocs MiB    peak RSS of the build's own process (MkDocs rendering every page)
    child MiB     peak RSS of its largest other child (the generator's forked run and workers)
    pf MiB        peak RSS of its largest Pagefind service process (the search index; a large
                  site is indexed in parts, one process each). Target: each <= 1 GB at ~12,000
    bare s        wall time of the bare `mkdocs build` of the same Markdown, plugin disabled
    bare MiB      peak RSS of that process
    full/bare     full s / bare s: the generator's overhead on a build (target <= 1.15 at ~4,200)
    cpu f/b       the same ratio of CPU seconds (the generator's forked workers and Pagefind
                  count; on an idle 2-core machine wall time can be lower than CPU time)
    plain s       wall time of the plain build (Material and its search, see `plain`)
    plain MiB     peak RSS of that process
    full/plain    full s / plain s: what the tool costs over a hand-made Material site
    site MB       total bytes of the full site (every file, shared assets included), 10^6 bytes
    KB/page       mean bytes of a paper page's index.html (shared assets excluded), 10^3 bytes
    max KB        largest paper page's index.html
    search MB     what a reader's first search downloads, raw. Pagefind (site/pagefind/): the
                  search script, parts.json, pagefind.js, its worker and wasm, the entry and
                  metadata files and the largest index chunk of each part of the index, and
                  the 10 largest result fragments: an upper
                  bound for a one-word query (bench/search_bench.py measures real searches
                  in Chromium). Material's search (an older checkout, --repo): its
                  search/search_index.json, which every first search downloads whole
    gz MB         the same files, gzip level 6 (about what a compressing host such as GitHub
                  Pages sends; Pagefind's index files are already compressed)

The second table gives the pipeline stages from the `stages` step: median seconds and peak RSS
during each stage (Linux: the high-water mark is reset before each stage through
/proc/self/clear_refs; elsewhere it is the process's running peak). `import` is importing
generator.pipeline (scikit-learn included), after interpreter start-up.

The JSON (--json PATH) holds the machine, the settings, the medians and every single run.
"""

from __future__ import annotations

import argparse
import compileall
import gzip
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
CORPUS_FILES = ("iclr2024.jsonl", "ijcai2024.jsonl", "colm2025.jsonl", "corl2025.jsonl", "iclr2018.jsonl")
SIZES = (40, 2200, 4200, 12000)
# Folders and root files the generator owns; everything else in docs/ is hand-written.
GENERATED_FOLDERS = ("papers", "tags", "areas", "collections")
GENERATED_ROOT_FILES = ("index.md", "glossary.md", "papers.json")
GENERATED_MARKER = b"abstracts-site"
REPLICA_OPENERS = (
    "We revisit this problem from a fresh angle.",
    "This work studies a question of growing practical interest.",
    "Here we report a complementary set of experiments.",
    "The following summarises an extended version of the study.",
    "We present a revised account of our approach.",
    "This abstract describes a follow-up investigation.",
    "Our aim is to clarify a point that earlier work left open.",
    "We examine the setting under somewhat different assumptions.",
    "This note reports results on additional benchmarks.",
    "In this version we broaden the scope of the analysis.",
    "We build on recent progress in the area.",
    "The study below was carried out independently.",
)

# Runs inside a fresh interpreter: the pipeline with its stage functions wrapped to record
# seconds and peak RSS. Stage functions that no longer exist are simply not reported.
STAGE_PROBE = r"""
import importlib, json, resource, sys, time
started = time.perf_counter()
from pathlib import Path

def peak_kib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        pass

import generator.pipeline as pipeline
stages = [{"stage": "import", "seconds": time.perf_counter() - started, "peak_kib": peak_kib()}]

# Newer pipelines import their stages when a run has work to do: those are wrapped where they live.
# Each name's homes, newest layout first (stage packages, then the flat modules of older checkouts).
HOMES = {
    "link": ["generator.link.corpus", "generator.link"],
    "glossary": ["generator.link.corpus", "generator.link"],
    "render_site": ["generator.render.site", "generator.render"],
}

def home_of(name):
    if callable(getattr(pipeline, name, None)):
        return pipeline
    for module_name in HOMES.get(name, []):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if callable(getattr(module, name, None)):
            return module
    return None

def wrap(name, label):
    module = home_of(name)
    if module is None:
        return
    function = getattr(module, name)
    def timed(*args, **kwargs):
        reset_peak()
        began = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            stages.append({"stage": label, "seconds": time.perf_counter() - began, "peak_kib": peak_kib()})
    setattr(module, name, timed)

for name, label in [("load", "read+enrich"), ("link", "link"), ("glossary", "glossary"),
                    ("render_site", "render"), ("write_site", "write")]:
    wrap(name, label)

options = json.loads(sys.argv[1])
began = time.perf_counter()
chosen = {"related_by": options["related_by"]} if "related_by" in options else {}  # older checkouts have no such setting
summary = pipeline.generate([Path(p) for p in options["inputs"]], Path(options["out"]), pipeline.Settings(related=options["related"], **chosen))
# A stage no wrapper saw (newer one-off runs write their files from a process of their own, not
# through write_site) is reported with the pipeline's own time for it.
for label, seconds in getattr(summary, "stage_seconds", {}).items():
    if label not in {stage["stage"] for stage in stages}:
        stages.append({"stage": label, "seconds": seconds, "peak_kib": peak_kib()})
print(json.dumps({
    "stages": stages,
    "generate_seconds": time.perf_counter() - began,
    "pipeline_stage_seconds": getattr(summary, "stage_seconds", {}),
    "papers": getattr(summary, "papers", None),
}))
"""


class StepFailed(Exception):
    pass


@dataclass
class Proc:
    seconds: float
    peak_rss_mib: float
    stdout: str
    stderr: str
    cpu_seconds: float = 0.0  # user + system of the process and the children it waited for
    peaks: list[dict] = field(default_factory=list)  # every process of the tree: command, peak_rss_mib


class TreePeaks:
    """Samples a running process tree every 0.1 s: the peak RSS (VmHWM) of each process seen.
    Linux only (elsewhere nothing is found); a process living under 0.1 s may be missed."""

    def __init__(self, root: int):
        self.root = root
        self.peaks: dict[int, dict] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def stop(self) -> list[dict]:
        self._stop.set()
        self._thread.join()
        return [{"pid": pid, **peak} for pid, peak in sorted(self.peaks.items())]

    def _sample(self) -> None:
        while not self._stop.wait(0.1):
            pending = [self.root]
            while pending:
                pid = pending.pop()
                pending += self._children(pid)
                peak = self._peak_mib(pid)
                if peak is None:
                    continue
                entry = self.peaks.setdefault(pid, {"command": "", "root": pid == self.root, "peak_rss_mib": 0.0})
                # Read again each time: a process seen between fork and exec has its parent's
                # command line until it execs (Pagefind was then not told apart: pf MiB empty).
                entry["command"] = self._command(pid) or entry["command"]
                entry["peak_rss_mib"] = max(entry["peak_rss_mib"], peak)

    @staticmethod
    def _children(pid: int) -> list[int]:
        found = []
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as handle:
                    found += [int(child) for child in handle.read().split()]
        except OSError:
            pass
        return found

    @staticmethod
    def _peak_mib(pid: int) -> float | None:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    @staticmethod
    def _command(pid: int) -> str:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                return handle.read().replace(b"\0", b" ").decode(errors="replace").strip()[:200]
        except OSError:
            return ""


def process_peaks(peaks: list[dict]) -> dict:
    """The per-process columns of a step: its own process, Pagefind's, and the largest other child."""

    def largest(rows: list[dict]) -> float | None:
        return max((row["peak_rss_mib"] for row in rows), default=None)

    pagefind = [row for row in peaks if "pagefind" in Path(row["command"].split(" ", 1)[0]).name]
    return {
        "main_peak_rss_mib": largest([row for row in peaks if row["root"]]),
        "pagefind_peak_rss_mib": largest(pagefind),
        "pagefind_processes": len(pagefind),
        "child_peak_rss_mib": largest([row for row in peaks if not row["root"] and row not in pagefind]),
        "processes": peaks,
    }


@dataclass(frozen=True)
class Project:
    """The checkout under test: its generator package (with its theme), mkdocs.yml and docs/."""

    root: Path
    metadata: Path | None = None  # a folder with the checkout's own plugin entry point (plugin_metadata)

    @property
    def config(self) -> Path:
        return self.root / "mkdocs.yml"

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def env(self) -> dict[str, str]:
        # Its own generator package first, ahead of the editable install in the venv.
        folders = [str(self.root), str(self.metadata) if self.metadata else None, os.environ.get("PYTHONPATH")]
        path = os.pathsep.join(filter(None, folders))
        return {**os.environ, "PYTHONPATH": path, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def plugin_metadata(root: Path, folder: Path) -> Path | None:
    """A distribution's metadata naming the checkout's own MkDocs plugin entry point, when it
    differs from the installed one (a checkout from before the plugin moved): MkDocs finds plugins
    by entry point, and the first distribution of a name on sys.path (PYTHONPATH comes first) wins."""
    import tomllib
    from importlib import metadata

    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project.get("entry-points", {}).get("mkdocs.plugins", {})
    installed = {
        entry.name: entry.value for entry in metadata.distribution(project["name"]).entry_points if entry.group == "mkdocs.plugins"
    }
    if not wanted or wanted == installed:
        return None
    info = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", encoding="utf-8")
    lines = ["[mkdocs.plugins]", *(f"{name} = {value}" for name, value in wanted.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def run(command: list[str], logs: Path, name: str, project: Project) -> Proc:
    """Run one command to completion: wall time, and peak RSS of exactly that process tree."""
    logs.mkdir(parents=True, exist_ok=True)
    out_path, err_path = logs / f"{name}.out", logs / f"{name}.err"
    with out_path.open("w") as out, err_path.open("w") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=err, env=project.env(), cwd=project.root)
        tree = TreePeaks(proc.pid)
        try:
            # wait4, not RUSAGE_CHILDREN deltas: ru_maxrss of RUSAGE_CHILDREN is the largest child
            # so far, which hides a smaller run after a bigger one.
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            peaks = tree.stop()
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    stdout, stderr = out_path.read_text(errors="replace"), err_path.read_text(errors="replace")
    if proc.returncode != 0:
        tail = "\n".join((stderr or stdout).strip().splitlines()[-15:])
        raise StepFailed(f"{name}: exit status {proc.returncode}: {' '.join(command)}\n{tail}")
    return Proc(seconds, usage.ru_maxrss / 1024, stdout, stderr, usage.ru_utime + usage.ru_stime, peaks)


# ---- inputs -----------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


INPUT_KINDS = ("untitled", "titled")  # the case most users start from first (issue 55)


def prepare_inputs(size: int, corpus: Path, folder: Path, kind: str = "titled") -> list[Path]:
    """The input files for one size and kind; files under `folder` are written once and reused.
    `titled`: the corpus records as they are (JSON Lines with titles, keywords, authors...).
    `untitled`: the same abstracts as the seeds arrive, plain text (untitled_text)."""
    titled = titled_inputs(size, corpus, folder)
    if kind == "titled":
        return titled
    paths = []
    for path in titled:
        target = folder / "untitled" / f"{path.stem}.txt"
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(untitled_text(path), encoding="utf-8")
        paths.append(target)
    return paths


def untitled_text(path: Path) -> str:
    """A JSON Lines file of records in the seeds' format: a heading line naming the collection
    (as the generator names the file's), then each abstract as a paragraph of one line. Titles,
    keywords, authors, links and areas are gone: every title, name, summary and tag is derived."""
    from generator.sources.readers import collection_from_stem

    return "\n\n".join([collection_from_stem(path.stem), *abstracts_of(path)]) + "\n"


def abstracts_of(path: Path) -> list[str]:
    """The abstracts of a JSON Lines file of records, each on one line (white space collapsed)."""
    return [" ".join(json.loads(line)["abstract"].split()) for line in read_jsonl(path)]


def titled_inputs(size: int, corpus: Path, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    if size == 40:
        # Same file name as the corpus file, so the collection keeps its name.
        target = folder / "iclr2024.jsonl"
        if not target.exists():
            target.write_text("\n".join(read_jsonl(corpus / "iclr2024.jsonl")[:40]) + "\n", encoding="utf-8")
        return [target]
    if size == 2200:
        return [corpus / "iclr2024.jsonl"]
    if size == 4200:
        return [corpus / name for name in CORPUS_FILES]
    if size == 12000:
        paths = []
        for name in CORPUS_FILES:
            target = folder / name
            if not target.exists():
                target.write_text(replicate(read_jsonl(corpus / name), copies=3), encoding="utf-8")
            paths.append(target)
        return paths
    raise ValueError(f"unknown size {size}")


def replicate(lines: list[str], copies: int) -> str:
    out = list(lines)
    for replica in range(1, copies):
        for number, line in enumerate(lines):
            record = json.loads(line)
            # Varied across records, and never the same opener for two replicas of one record:
            # identical abstracts would be merged as duplicates.
            first = int(hashlib.sha1(str(record.get("id", number)).encode()).hexdigest(), 16)
            opener = REPLICA_OPENERS[(first + replica) % len(REPLICA_OPENERS)]
            record["abstract"] = f"{opener} {record['abstract']}"
            record["id"] = f"{record.get('id', number)}-r{replica}"
            if record.get("title"):
                record["title"] = f"{record['title']} (replica {replica})"
            out.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(out) + "\n"


# ---- measurements on folders ------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    return {
        path.relative_to(folder).as_posix(): (stat.st_mtime_ns, stat.st_ino, stat.st_size)
        for path in folder.rglob("*")
        if path.is_file() and (stat := path.stat())
    }


def changed_files(before: dict, after: dict) -> dict[str, list[str]]:
    return {
        "rewritten": sorted(k for k in before.keys() & after.keys() if before[k] != after[k]),
        "created": sorted(after.keys() - before.keys()),
        "removed": sorted(before.keys() - after.keys()),
    }


def site_metrics(site: Path) -> dict:
    total = files = html = 0
    for path in site.rglob("*"):
        if path.is_file():
            size = path.stat().st_size
            total += size
            files += 1
            if path.suffix == ".html":
                html += size
    pages = [p.stat().st_size for p in (site / "papers").rglob("index.html")] if (site / "papers").is_dir() else []
    first_search = first_search_files(site)
    return {
        "site_bytes": total,
        "site_files": files,
        "html_bytes": html,
        "paper_pages": len(pages),
        "paper_html_mean_bytes": statistics.fmean(pages) if pages else 0.0,
        "paper_html_max_bytes": max(pages, default=0),
        "search_index_bytes": sum(len(data) for data in first_search),
        "search_index_gzip_bytes": sum(len(gzip.compress(data, compresslevel=6)) for data in first_search),
    }


def first_search_files(site: Path) -> list[bytes]:
    """The files a reader's first search downloads (see `search MB` above)."""
    bundle = site / "pagefind"
    if not (bundle / "pagefind-entry.json").is_file():
        index = site / "search" / "search_index.json"
        return [index.read_bytes()] if index.is_file() else []
    # A large site's index is in parts (pagefind/parts.json): each part's entry, metadata and
    # largest chunk are fetched too; the 10 largest fragments of them all.
    listing = bundle / "parts.json"
    parts = json.loads(listing.read_text(encoding="utf-8"))["parts"] if listing.is_file() else []
    folders = [bundle, *(bundle / part for part in parts)]
    languages = [next(iter(json.loads((f / "pagefind-entry.json").read_text(encoding="utf-8"))["languages"].values())) for f in folders]
    by_size = lambda found: sorted(found, key=lambda p: p.stat().st_size)
    # The first part's scripts and wasm serve every part.
    paths = [site / "assets" / "javascripts" / "search.js", listing]
    paths += [bundle / name for name in ("pagefind.js", "pagefind-worker.js", f"wasm.{languages[0]['wasm']}.pagefind")]
    for folder, language in zip(folders, languages):
        paths += [folder / "pagefind-entry.json", folder / f"pagefind.{language['hash']}.pf_meta", *by_size(folder.glob("index/*"))[-1:]]
    paths += by_size(path for folder in folders for path in folder.glob("fragment/*"))[-10:]
    return [path.read_bytes() for path in paths if path.is_file()]


def markdown_identical(left: Path, right: Path) -> bool:
    """Did `generate` and the build's plugin produce the same generated files (determinism)?"""

    def generated(folder: Path) -> dict[str, bytes]:
        found = {}
        for path in folder.rglob("*"):
            relative = path.relative_to(folder).as_posix()
            if path.is_file() and (relative.split("/")[0] in GENERATED_FOLDERS or relative in GENERATED_ROOT_FILES):
                found[relative] = path.read_bytes()
        return found

    return generated(left) == generated(right)


def is_generated(path: Path) -> bool:
    with path.open("rb") as handle:
        return GENERATED_MARKER in handle.read(4096)


def stage_hand_written(source: Path, stage: Path) -> None:
    """Copy the hand-written docs (about page; in older checkouts also styles and vendored assets) as generator.cli.stage_docs does."""
    for item in sorted(source.iterdir()):
        if item.name in GENERATED_FOLDERS or (item.name in GENERATED_ROOT_FILES and is_generated(item)):
            continue
        if item.is_dir():
            shutil.copytree(item, stage / item.name, dirs_exist_ok=True)
        else:
            shutil.copy2(item, stage / item.name)


def site_title(docs: Path) -> str | None:
    """The home page's title: the full build sets site_name to it (the collection's name)."""
    import yaml

    text = (docs / "index.md").read_text(encoding="utf-8") if (docs / "index.md").is_file() else ""
    match = re.match(r"---\n(.*?)\n---", text, re.S)
    if not match:
        return None
    title = (yaml.safe_load(match.group(1)) or {}).get("title")
    return str(title) if title else None


# The package's theme and what the plugin adds to a site with it (generator/plugin/assets.py): a bare
# build of a checkout whose theme lives in the package gets them from its mkdocs.yml instead.
PACKAGE_THEMES = (Path("generator") / "plugin" / "theme", Path("generator") / "theme")  # this layout, older checkouts'


def bare_config(project: Project, docs: Path, site: Path, name: str | None) -> str:
    """mkdocs.yml without `hooks:` or `plugins:`, pointed at `docs` and `site`, with absolute
    theme paths; the package's theme (a checkout with the plugin) as its custom_dir."""
    out, skipping = [], False
    seen = set()
    theme = next((project.root / t for t in PACKAGE_THEMES if (project.root / t).is_dir()), project.root / PACKAGE_THEMES[0])
    for line in project.config.read_text(encoding="utf-8").splitlines():
        top = re.match(r"([A-Za-z_][\w-]*)\s*:", line)
        if top:
            key = top.group(1)
            skipping = key in ("hooks", "plugins")
            seen.add(key)
            if key == "theme" and theme.is_dir():
                out += [line, f"  custom_dir: {json.dumps(str(theme))}"]
                continue
            if key == "docs_dir":
                line = f"docs_dir: {json.dumps(str(docs))}"
            elif key == "site_dir":
                line = f"site_dir: {json.dumps(str(site))}"
            elif key == "site_name" and name:
                line = f"site_name: {json.dumps(name)}"
        if skipping:
            continue  # the key, its list items (indented or not) and comments inside it
        custom = re.match(r"(\s+custom_dir:\s*)(['\"]?)([^'\"#\s]+)\2(.*)$", line)
        if custom and theme.is_dir():
            continue  # one custom_dir: the package's theme, which the pages need (the site's overrides are not)
        if custom and not Path(custom.group(3)).is_absolute():
            line = f"{custom.group(1)}{json.dumps(str(project.root / custom.group(3)))}{custom.group(4)}"
        out.append(line)
    for key, value in (("docs_dir", docs), ("site_dir", site)):
        if key not in seen:
            out.append(f"{key}: {json.dumps(str(value))}")
    if theme.is_dir():
        from generator.plugin import assets  # this checkout's list; the theme's files are the project's

        for key, paths in (("extra_javascript", assets.JAVASCRIPT), ("extra_css", assets.CSS)):
            out += [f"{key}:", *(f"  - {path}" for path in paths)]
    return "\n".join(out) + "\n"


def reported_seconds(output: str) -> float | None:
    """The generator's own timing (`... file(s) written ... in 0.40 s`): the pipeline without start-up."""
    match = re.search(r"file\(s\) written.* in ([\d.]+) s\b", output)
    return float(match.group(1)) if match else None


# ---- one run ----------------------------------------------------------------------------------


def empty_vector_cache(folder: Path) -> None:
    """The steps that follow start with no meaning vector cached, as a new machine's first build
    after its set-up: ABSTRACTS_SITE_CACHE set to a new `folder` that holds only the user's
    installed models (a link to them), so the sentence model is found and every abstract embedded."""
    from generator.language.meaning.model import cache_root

    models = cache_root() / "models"
    folder.mkdir(parents=True)
    if models.is_dir():
        (folder / "models").symlink_to(models.resolve())
    os.environ["ABSTRACTS_SITE_CACHE"] = str(folder)


def generate_command(files: list[str], out: Path, related: int, related_by: str) -> list[str]:
    """`python -m generator generate` of `files` into `out`, as every timed step runs it."""
    how = [] if related_by == "auto" else ["--related-by", related_by]
    return [sys.executable, "-m", "generator", "generate", *files, "--out", str(out), "--related", str(related), *how]


def vectors_cached(project: Project, inputs: list[Path], work: Path, related: int, related_by: str) -> None:
    """One untimed `generate` of the inputs, so that every meaning vector is in the user's cache
    before the timed steps, which measure builds with warm vectors (a user's every build after
    the first); else a new machine's first run would time the model, not the generator."""
    run(generate_command([str(p) for p in inputs], work / "docs", related, related_by), work / "logs", "vectors", project)
    shutil.rmtree(work / "docs", ignore_errors=True)


def one_run(
    project: Project, inputs: list[Path], work: Path, related: int, serve_edits: int, related_by: str = "auto", first_builds: bool = False
) -> dict:
    """`related_by` other than auto is passed to every step (`--related-by`, the plugin's
    `related_by`): how related papers are found (issue 34). `first_builds`: `generate` and
    `full` each start with an empty vector cache (the other steps find what `generate` embedded)."""
    python = sys.executable
    how = [] if related_by == "auto" else ["--related-by", related_by]
    # Every folder a step writes is kept until the whole benchmark ends. On ext4 without a
    # journal (this project's CI machines) creating a file scans the inodes deleted in the last
    # 30-35 s: a step that wrote 5,000 files right after the previous step's folder was removed
    # paid 1-3 s of kernel time (perf: 84% in recently_deleted) that measures the removal,
    # not the step. `mkdocs serve` removes its own site folder when it stops: the next run
    # waits for those deletions to age first (`settle`).
    settle()
    # Copies, with the same names (a file's name is its collection's): the warm and serve steps edit them.
    (work / "inputs").mkdir(parents=True, exist_ok=True)
    inputs = [Path(shutil.copy2(path, work / "inputs" / path.name)) for path in inputs]
    files = [str(p) for p in inputs]
    logs = work / "logs"
    docs, stage_docs, full_docs = work / "docs", work / "stage-docs", work / "full-docs"
    full_site, bare_site = work / "site-full", work / "site-bare"
    result: dict = {}

    generate = generate_command(files, docs, related, related_by)
    if first_builds:
        empty_vector_cache(work / "vectors-generate")
    first = run(generate, logs, "generate", project)
    result["generate"] = {
        "seconds": first.seconds,
        "cpu_seconds": first.cpu_seconds,
        "peak_rss_mib": first.peak_rss_mib,
        "reported_seconds": reported_seconds(first.stdout),
        "output": first.stdout.strip().splitlines()[:4],
    }

    before = snapshot(docs)
    second = run(generate, logs, "noop", project)
    changes = changed_files(before, snapshot(docs))
    result["noop"] = {
        "seconds": second.seconds,
        "peak_rss_mib": second.peak_rss_mib,
        "reported_seconds": reported_seconds(second.stdout),
        "files": len(before),
        "rewritten": len(changes["rewritten"]),
        "created": len(changes["created"]),
        "removed": len(changes["removed"]),
        "changed_examples": (changes["rewritten"] + changes["created"] + changes["removed"])[:5],
        "output": second.stdout.strip().splitlines()[:4],
    }

    # Warm: one abstract edited, the same command into a copy of the folder (with its caches).
    warm_docs = work / "warm-docs"
    shutil.copytree(docs, warm_docs)
    original = inputs[0].read_bytes()
    edit_record(inputs[0], 0, "warm")
    warm = run(generate_command(files, warm_docs, related, related_by), logs, "warm", project)
    inputs[0].write_bytes(original)
    result["warm"] = {
        "seconds": warm.seconds,
        "cpu_seconds": warm.cpu_seconds,
        "peak_rss_mib": warm.peak_rss_mib,
        "reported_seconds": reported_seconds(warm.stdout),
    }

    probe = run(
        [
            python,
            "-c",
            STAGE_PROBE,
            json.dumps({"inputs": files, "out": str(stage_docs), "related": related, **({"related_by": related_by} if how else {})}),
        ],
        logs,
        "stages",
        project,
    )
    result["stages"] = json.loads(probe.stdout.strip().splitlines()[-1])
    result["stages"]["process_seconds"] = probe.seconds
    result["stages"]["process_peak_rss_mib"] = probe.peak_rss_mib

    if first_builds:
        empty_vector_cache(work / "vectors-full")
    full = run(
        [
            python,
            "-m",
            "generator",
            "build",
            *files,
            "--site",
            str(full_site),
            "--docs",
            str(full_docs),
            "--related",
            str(related),
            "--config",
            str(project.config),
            *how,
        ],
        logs,
        "full",
        project,
    )
    mkdocs_said = re.search(r"Documentation built in ([\d.]+) seconds", full.stderr + full.stdout)
    result["full"] = {
        "seconds": full.seconds,
        "cpu_seconds": full.cpu_seconds,
        "peak_rss_mib": full.peak_rss_mib,
        "mkdocs_reported_seconds": float(mkdocs_said.group(1)) if mkdocs_said else None,
        **process_peaks(full.peaks),
        **site_metrics(full_site),
    }
    result["same_markdown"] = markdown_identical(docs, full_docs)

    stage_hand_written(project.docs, docs)
    result["bare"] = mkdocs_build(
        project, work / "mkdocs-bare.yml", bare_config(project, docs, bare_site, site_title(docs)), bare_site, logs, "bare"
    )
    result["full_over_bare"] = full.seconds / result["bare"]["seconds"]
    result["full_over_bare_cpu"] = full.cpu_seconds / result["bare"]["cpu_seconds"]

    plain_site, templates = work / "site-plain", page_templates(docs, work / "plain-templates")
    result["plain"] = mkdocs_build(
        project, work / "mkdocs-plain.yml", plain_config(project, docs, plain_site, site_title(docs), templates), plain_site, logs, "plain"
    )
    result["full_over_plain"] = full.seconds / result["plain"]["seconds"]
    if serve_edits:
        result["serve"] = edit_to_served(project, inputs, work / "serve", logs, serve_edits, related_by)
    return result


def mkdocs_build(project: Project, config: Path, text: str, site: Path, logs: Path, name: str) -> dict:
    """`mkdocs build -f config` (written with `text`, building `site`): its time, memory and the site it made."""
    config.write_text(text, encoding="utf-8")
    built = run([sys.executable, "-m", "mkdocs", "build", "-f", str(config)], logs, name, project)
    return {"seconds": built.seconds, "cpu_seconds": built.cpu_seconds, "peak_rss_mib": built.peak_rss_mib, **site_metrics(site)}


# ---- edit to served ---------------------------------------------------------------------------

# When `mkdocs serve` last removed its temporary site folder (thousands of files), and how long
# ext4 without a journal treats deleted inodes as recent (fs/ext4/ialloc.c: 30 s, 35 s while
# the inode table block is dirty).
_deleted_at: float | None = None
RECENTLY_DELETED_SECONDS = 36


def settle() -> None:
    """Wait until the files `mkdocs serve` removed no longer slow the creation of new ones."""
    if _deleted_at is not None:
        time.sleep(max(0.0, _deleted_at + RECENTLY_DELETED_SECONDS - time.monotonic()))


def edit_record(path: Path, index: int, marker: str) -> None:
    """Append a sentence with `marker` to the abstract of record `index` (0-based) of a JSON Lines
    file or of a plain-text one as untitled_text writes them (a heading, then one line each)."""
    sentence = f" We also report {marker} results."
    if path.suffix == ".txt":
        paragraphs = path.read_text(encoding="utf-8").rstrip("\n").split("\n\n")
        paragraphs[index + 1] = paragraphs[index + 1].rstrip() + sentence
        path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        return
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[index])
    record["abstract"] = record["abstract"].rstrip() + sentence
    lines[index] = json.dumps(record, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def page_of_record(docs: Path, path: Path, index: int) -> str:
    """The site path of the paper made from record `index` (0-based) of input `path`, from papers.json."""
    papers = json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"]
    for paper in papers:
        source = paper["source"]
        if Path(source["file"]).name == path.name and source["record"] == index + 1:
            return paper["url"]
    raise StepFailed(f"no paper of {path.name} record {index + 1} in papers.json")


def serve_config(project: Project, docs: Path, site: Path, inputs: list[Path], related_by: str = "auto") -> str:
    """The checkout's mkdocs.yml with its plugin's inputs replaced and paths made absolute (and
    its `related_by` set, unless auto)."""
    text = bare_config(project, docs, site, None)  # docs_dir, site_dir, absolute custom_dir; no plugins
    plugins = re.search(r"^plugins:\n(?:[ \t#-].*\n|\n)*", project.config.read_text(encoding="utf-8") + "\n", re.M)
    block = plugins.group(0) if plugins else "plugins:\n  - abstracts:\n      inputs: []\n"
    block = re.sub(r"^(\s+inputs:).*$", lambda m: f"{m.group(1)} {json.dumps([str(p) for p in inputs])}", block, flags=re.M)
    if related_by != "auto":
        block = re.sub(r"^[ \t]+related_by:.*\n", "", block, flags=re.M)
        setting = f"related_by: {related_by}"
        block = re.sub(r"^([ \t]+)(inputs:.*)$", lambda m: f"{m.group(1)}{m.group(2)}\n{m.group(1)}{setting}", block, count=1, flags=re.M)
    theme = next((project.root / t for t in PACKAGE_THEMES if (project.root / t).is_dir()), project.root / PACKAGE_THEMES[0])
    if theme.is_dir():  # the plugin adds the theme and its assets itself
        text = without_package_theme(text)
    return text + block


def without_package_theme(config: str) -> str:
    """bare_config's text without the package's theme (custom_dir) and its scripts and styles."""
    config = re.sub(r"^  custom_dir: .*\n", "", config, count=1, flags=re.M)
    return re.sub(r"^extra_(javascript|css):\n(  - .*\n)*", "", config, flags=re.M)


def plain_config(project: Project, docs: Path, site: Path, name: str | None, templates: Path) -> str:
    """The build a user would otherwise make by hand: Material for MkDocs as it comes, with its
    built-in search plugin, on the same Markdown, nav and Markdown extensions (the checkout's
    mkdocs.yml without the plugin, the package's theme and its assets). `templates`: a custom_dir
    where each template the generated pages name (`template: paper.html`) is Material's main.html."""
    text = without_package_theme(bare_config(project, docs, site, name))
    text = re.sub(r"^(theme:\n)", lambda m: f"{m.group(1)}  custom_dir: {json.dumps(str(templates))}\n", text, count=1, flags=re.M)
    return text + "plugins:\n  - search\n"


def page_templates(docs: Path, folder: Path) -> Path:
    """`folder` with a template for every one the Markdown under `docs` names in its front
    matter, each only Material's main.html, so that a plain Material build renders every page."""
    folder.mkdir(parents=True, exist_ok=True)
    names = set()
    for page in docs.rglob("*.md"):
        with page.open(encoding="utf-8") as handle:
            head = handle.read(400)
        match = re.search(r"^template:\s*['\"]?([\w./-]+?)['\"]?\s*$", head.split("\n---", 1)[0], re.M)
        if head.startswith("---") and match:
            names.add(match.group(1))
    for name in names:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text('{% extends "main.html" %}\n', encoding="utf-8")
    return folder


def fetch(url: str) -> str:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return ""


def cpu_of(pid: int) -> float:
    """CPU seconds of a running process, its threads and the children it has waited for (Linux;
    0 elsewhere): on a shared machine a steadier measure of the work than wall time."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def busy_children(pid: int) -> bool:
    """Whether the process has child processes (Linux; False elsewhere): under `mkdocs serve`,
    Pagefind indexing or the topic map's process still at work."""
    try:
        return any(path.read_text().split() for path in Path(f"/proc/{pid}/task").glob("*/children"))
    except OSError:
        return False


def edit_to_served(project: Project, inputs: list[Path], work: Path, logs: Path, edits: int, related_by: str = "auto") -> dict:
    """`mkdocs serve --livereload --dirty` on a site of `inputs`; `edits` times, one abstract is
    edited in its input file and the served paper page is polled (every 20 ms) until it holds
    the edit. Between edits the server is left to finish (the search index is rebuilt in the
    background after each build) so that each edit starts from a quiet server."""
    global _deleted_at
    import socket

    docs, site = work / "docs", work / "site"
    docs.mkdir(parents=True, exist_ok=True)
    stage_hand_written(project.docs, docs)
    config = work / "mkdocs-serve.yml"
    config.write_text(serve_config(project, docs, site, inputs, related_by), encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}/"
    log = logs / "serve.err"
    logs.mkdir(parents=True, exist_ok=True)
    indexed = lambda: log.read_text(errors="replace").count("search index of")
    command = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dirty", "-f", str(config), "-a", f"127.0.0.1:{port}"]
    with log.open("w") as err:
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=project.env(), cwd=project.root)
    try:
        started = time.perf_counter()
        while indexed() < 1:  # the first build and its search index
            if server.poll() is not None or time.perf_counter() - started > 1800:
                raise StepFailed(f"serve: no site at {base}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:]))
            time.sleep(0.2)
        target = inputs[0]
        url = base + page_of_record(docs, target, 7)
        seconds, cpu = [], []
        for number in range(edits):
            marker = f"benchedit{number}q{os.getpid()}"
            done = indexed()
            used = cpu_of(server.pid)
            began = time.perf_counter()
            edit_record(target, 7, marker)
            while marker not in fetch(url):
                if server.poll() is not None or time.perf_counter() - began > 300:
                    raise StepFailed(f"serve: edit {number} never served at {url}")
                time.sleep(0.02)
            seconds.append(time.perf_counter() - began)
            cpu.append(cpu_of(server.pid) - used)
            # Quiet again: its search index logged, and no process of it still at work. An edit
            # seen twice (the file written in two steps) builds twice and indexes twice: the
            # second index ran on into the next edit when only the first was waited for.
            while (indexed() <= done or busy_children(server.pid)) and time.perf_counter() - began < 300:
                time.sleep(0.1)
        return {
            "seconds": seconds,
            "median_seconds": statistics.median(seconds),
            "cpu_seconds": cpu,
            "median_cpu_seconds": statistics.median(cpu),
            "url": url,
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        _deleted_at = time.monotonic()  # it removed its site folder on the way out


# ---- summarising ------------------------------------------------------------------------------


def median_of(runs: list[dict], *path: str) -> float | None:
    values = []
    for run_ in runs:
        value = run_
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            values.append(value)
    return statistics.median(values) if values else None


COLUMNS = [
    # header, path into a run, format, scale
    ("papers", ("full", "paper_pages"), "{:.0f}", 1),
    ("gen s", ("generate", "seconds"), "{:.2f}", 1),
    ("gen cpu", ("generate", "cpu_seconds"), "{:.2f}", 1),
    ("gen MiB", ("generate", "peak_rss_mib"), "{:.0f}", 1),
    ("gen in s", ("generate", "reported_seconds"), "{:.2f}", 1),
    ("warm s", ("warm", "seconds"), "{:.2f}", 1),
    ("noop s", ("noop", "seconds"), "{:.2f}", 1),
    ("noop in s", ("noop", "reported_seconds"), "{:.2f}", 1),
    ("rewr", ("noop", "changed"), "{:.0f}", 1),
    ("edit s", ("serve", "median_seconds"), "{:.2f}", 1),
    ("edit cpu", ("serve", "median_cpu_seconds"), "{:.2f}", 1),
    ("full s", ("full", "seconds"), "{:.1f}", 1),
    ("full MiB", ("full", "peak_rss_mib"), "{:.0f}", 1),
    ("mkdocs MiB", ("full", "main_peak_rss_mib"), "{:.0f}", 1),
    ("child MiB", ("full", "child_peak_rss_mib"), "{:.0f}", 1),
    ("pf MiB", ("full", "pagefind_peak_rss_mib"), "{:.0f}", 1),
    ("bare s", ("bare", "seconds"), "{:.1f}", 1),
    ("bare MiB", ("bare", "peak_rss_mib"), "{:.0f}", 1),
    ("full/bare", ("full_over_bare",), "{:.2f}", 1),
    ("cpu f/b", ("full_over_bare_cpu",), "{:.2f}", 1),
    ("plain s", ("plain", "seconds"), "{:.1f}", 1),
    ("plain MiB", ("plain", "peak_rss_mib"), "{:.0f}", 1),
    ("full/plain", ("full_over_plain",), "{:.2f}", 1),
    ("site MB", ("full", "site_bytes"), "{:.1f}", 1e-6),
    ("KB/page", ("full", "paper_html_mean_bytes"), "{:.1f}", 1e-3),
    ("max KB", ("full", "paper_html_max_bytes"), "{:.1f}", 1e-3),
    ("search MB", ("full", "search_index_bytes"), "{:.2f}", 1e-6),
    ("gz MB", ("full", "search_index_gzip_bytes"), "{:.2f}", 1e-6),
]


def summarise(runs: list[dict]) -> dict:
    for run_ in runs:
        noop = run_.get("noop", {})
        noop["changed"] = noop.get("rewritten", 0) + noop.get("created", 0) + noop.get("removed", 0)
    medians = {header: median_of(runs, *path) for header, path, _, _ in COLUMNS}
    stage_names: list[str] = []
    for run_ in runs:
        for stage in run_["stages"]["stages"]:
            if stage["stage"] not in stage_names:
                stage_names.append(stage["stage"])
    stages = {}
    for name in stage_names:
        seconds = [s["seconds"] for r in runs for s in r["stages"]["stages"] if s["stage"] == name]
        peaks = [s["peak_kib"] / 1024 for r in runs for s in r["stages"]["stages"] if s["stage"] == name]
        stages[name] = {"seconds": statistics.median(seconds), "peak_rss_mib": statistics.median(peaks)}
    medians["stages"] = stages
    medians["same_markdown"] = all(r.get("same_markdown") for r in runs)
    return medians


def table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def result_key(size: int, kind: str) -> str:
    """A result's key in the JSON: the size for titled input (as before untitled input was
    measured, so old and new files compare), `SIZE-untitled` for the other."""
    return str(size) if kind == "titled" else f"{size}-{kind}"


def row_label(key: str) -> list[str]:
    size, _, kind = key.partition("-")
    return [size, kind or "titled"]


def main_table(results: dict[str, dict]) -> str:
    rows = [["size", "input"] + [header for header, *_ in COLUMNS]]
    for key, outcome in results.items():
        if "error" in outcome:
            rows.append(row_label(key) + ["error"] + [""] * (len(COLUMNS) - 1))
            continue
        medians = outcome["median"]
        rows.append(
            row_label(key) + ["-" if medians[header] is None else fmt.format(medians[header] * scale) for header, _, fmt, scale in COLUMNS]
        )
    return table(rows)


def stage_table(results: dict[str, dict]) -> str:
    names: list[str] = []
    for outcome in results.values():
        for name in outcome.get("median", {}).get("stages", {}):
            if name not in names:
                names.append(name)
    if not names:
        return ""
    rows = [["size", "input"] + [f"{n} s" for n in names] + [f"{n} MiB" for n in names]]
    for key, outcome in results.items():
        stages = outcome.get("median", {}).get("stages", {})
        rows.append(
            row_label(key)
            + [f"{stages[n]['seconds']:.2f}" if n in stages else "-" for n in names]
            + [f"{stages[n]['peak_rss_mib']:.0f}" if n in stages else "-" for n in names]
        )
    return table(rows)


def parse_kinds(text: str) -> list[str]:
    kinds = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [kind for kind in kinds if kind not in INPUT_KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(f"input {', '.join(unknown) or text!r}: choose from {', '.join(INPUT_KINDS)}")
    return kinds


def reference_seconds(rounds: int = 5) -> float:
    """CPU seconds of a fixed pure-Python workload of the generator's kind (a regex over text,
    words counted in a dict, splitting and joining), the least of `rounds`: how fast this
    machine is, whatever checkout is benchmarked. Machines of one kind differ: the same
    generator run took 4.9-5.2 s on one (session 11) and 6.2-8.5 s on another (session 12).
    Compare tables from different machines as time divided by this."""
    text = " ".join(f"word{i % 997} Term{i % 89}, value-{i % 13}." for i in range(160_000))
    token = re.compile(r"[A-Za-z][\w-]*")
    best = float("inf")
    for _ in range(rounds):
        began = time.process_time()
        counts: dict[str, int] = {}
        for word in token.findall(text):
            key = word.lower()
            counts[key] = counts.get(key, 0) + 1
        sorted(counts.items())
        " ".join(reversed(text.split()))
        best = min(best, time.process_time() - began)
    return best


def parse_sizes(text: str) -> list[int]:
    sizes = []
    for part in text.split(","):
        part = part.strip().lower().replace("_", "")
        value = int(float(part[:-1]) * 1000) if part.endswith("k") else int(part)
        if value not in SIZES:
            raise argparse.ArgumentTypeError(f"size {part}: choose from {', '.join(map(str, SIZES))}")
        sizes.append(value)
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=parse_sizes, default=list(SIZES), help="comma-separated, from 40,2200,4200,12000 (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the table shows medians (default: 3)")
    parser.add_argument(
        "--inputs",
        type=parse_kinds,
        default=list(INPUT_KINDS),
        help="comma-separated: titled (the corpus records), untitled (their abstracts as plain text, as the seeds arrive); default: both",
    )
    parser.add_argument("--related", type=int, default=5, help="related papers per paper (default: 5)")
    parser.add_argument(
        "--related-by",
        choices=("auto", "lexical", "table", "semantic"),
        default="auto",
        help="how related papers are found in every step (default: auto: the sentence model when installed, else the built-in table)",
    )
    parser.add_argument(
        "--first-builds",
        action="store_true",
        help="`generate` and `full` each start with no meaning vector cached (a new machine's first build; the installed model is kept)",
    )
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help=f"folder of the corpus files (default: {DEFAULT_CORPUS})")
    parser.add_argument(
        "--repo", type=Path, default=REPO, help="checkout to benchmark, e.g. a copy or a git worktree of another commit (default: this one)"
    )
    parser.add_argument("--edits", type=int, default=5, help="edits timed under `mkdocs serve` per run, 0 to skip (default: 5)")
    parser.add_argument("--json", type=Path, default=None, help="also write the medians and every run as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (inputs and logs) and print its path")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    missing = [name for name in CORPUS_FILES if not (args.corpus / name).is_file()]
    if missing:
        parser.error(f"{args.corpus}: missing {', '.join(missing)} (see --corpus)")

    project = Project(args.repo.resolve())
    if not (project.root / "generator").is_dir() or not project.config.is_file():
        parser.error(f"{project.root}: not a checkout of this project (no generator/ or mkdocs.yml)")
    # Its modules' bytecode, as every run after a user's first has it (the steps run with
    # PYTHONDONTWRITEBYTECODE): else each step compiled all of them again (0.05 s a run).
    compileall.compile_dir(project.root / "generator", quiet=1)
    load_before = os.getloadavg()
    reference_before = reference_seconds()
    temporary = Path(tempfile.mkdtemp(prefix="abstracts-bench-"))
    project = Project(project.root, plugin_metadata(project.root, temporary / "metadata"))
    results: dict[str, dict] = {}
    try:
        for size in args.sizes:
            for kind in args.inputs:
                key = result_key(size, kind)
                inputs = prepare_inputs(size, args.corpus, temporary / "inputs" / str(size), kind)
                runs = []
                try:
                    if not args.first_builds and args.related_by != "lexical":
                        vectors_cached(project, inputs, temporary / f"vectors-{key}", args.related, args.related_by)
                    for number in range(1, args.repeat + 1):
                        print(f"size {size}, {kind}: run {number}/{args.repeat} ...", file=sys.stderr, flush=True)
                        runs.append(
                            one_run(
                                project,
                                inputs,
                                temporary / f"run-{key}-{number}",
                                args.related,
                                args.edits,
                                args.related_by,
                                args.first_builds,
                            )
                        )
                except StepFailed as failure:
                    print(f"size {size}, {kind}: {failure}", file=sys.stderr)
                    results[key] = {"error": str(failure), "runs": runs}
                    continue
                results[key] = {"inputs": [str(p) for p in inputs], "median": summarise(runs), "runs": runs}
    finally:
        if args.keep:
            print(f"kept {temporary}", file=sys.stderr)
        else:
            shutil.rmtree(temporary, ignore_errors=True)

    load_after = os.getloadavg()
    reference_after = reference_seconds()
    print(f"\nMedians of {args.repeat} run(s); ratios per run, then median. Sizes in 10^3/10^6 bytes.")
    # Timings on a shared machine are only as good as its idleness and its speed: say both.
    print(f"{project.root}; {os.cpu_count()} CPUs; load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(
        f"related papers: --related-by {args.related_by}"
        + ("; generate and full with no meaning vector cached" if args.first_builds else "")
    )
    print(
        f"machine speed: reference workload {reference_before:.3f} s before, {reference_after:.3f} s after (CPU, least of 5; lower is faster)\n"
    )
    print(main_table(results))
    stages = stage_table(results)
    if stages:
        print("\nGenerator stages (in-process; peak RSS during each stage):\n")
        print(stages)
    differing = [key for key, o in results.items() if "median" in o and not o["median"]["same_markdown"]]
    if differing:
        print(f"\nnote: `generate` and the build's plugin wrote different Markdown at size(s) {', '.join(differing)}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": {
                        "python": platform.python_version(),
                        "platform": platform.platform(),
                        "cpus": os.cpu_count(),
                        "load_average_before": load_before,
                        "load_average_after": load_after,
                        "reference_seconds_before": reference_before,
                        "reference_seconds_after": reference_after,
                    },
                    "settings": {
                        "repo": str(project.root),
                        "sizes": args.sizes,
                        "inputs": args.inputs,
                        "repeat": args.repeat,
                        "related": args.related,
                        "corpus": str(args.corpus),
                    },
                    "results": results,
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
        print(f"\nJSON written to {args.json}")
    return 1 if any("error" in outcome for outcome in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
