"""Profile: where a site build's time goes, for one input of scripts/bench.py (issue 36).

    .venv/bin/python scripts/profile_build.py                          # untitled, ~4,200 papers
    .venv/bin/python scripts/profile_build.py --size 2200 --input titled --json profile.json

Four tables, each from its own fresh process on the same input files:

    stages        the generator as a one-off run makes it (forked workers on both cores):
                  wall seconds of each pass (read+enrich, link, render, write), as
                  pipeline.generate times them
    derivations   the generator once more in one process (ABSTRACTS_WORKERS=1, so that the
                  profiler sees all of the work) under cProfile: the CPU seconds of each
                  function the passes call directly (pipeline.load, enrich.paper.enrich_batch,
                  link.corpus.link, render.site.render_site, ...), largest first, and the
                  functions with the most time of their own (libraries included). cProfile
                  slows pure-Python code more than C code: read the shares, not the seconds
    build         `mkdocs build` of the full site (the abstracts plugin: generator, Pagefind),
                  then of the same Markdown bare (the project's theme, no plugin, no search)
                  and plain (Material with its search plugin, see bench.py's `plain`), in
                  process with MkDocs' phases and every plugin's hooks timed (wall seconds;
                  the page hooks are also inside the phase that calls them)
    beside        the processes the full build started (the generator's forked run with its
                  workers, the Markdown converter, Pagefind's indexing services): CPU seconds
                  and how long each was alive, grouped by the hook that started it

Input files are made as bench.py makes them (`--input titled|untitled`); all output is written
to a temporary folder, removed at the end (--keep to inspect it).
"""

from __future__ import annotations

import argparse
import json
import pstats
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench  # this folder's benchmark: its inputs, configs and project

# The generator in one process under cProfile; writes the stats to argv[2].
GENERATOR_PROBE = r"""
import cProfile, json, sys
from pathlib import Path
import generator.pipeline as pipeline
options = json.loads(sys.argv[1])
profiler = cProfile.Profile()
profiler.enable()
pipeline.generate([Path(p) for p in options["inputs"]], Path(options["out"]), pipeline.Settings(related=options["related"]))
profiler.disable()
profiler.dump_stats(sys.argv[2])
"""

# `mkdocs build` in this process, as its command line runs it, with its phases and every
# plugin's hooks timed; the process tree is sampled meanwhile (Linux /proc) for the CPU of
# every process the build starts. Prints one JSON object.
BUILD_PROBE = r"""
import json, os, sys, threading, time
from pathlib import Path
from mkdocs.commands import build as build_module
from mkdocs.config import load_config
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

phases, hooks, timeline = {}, {}, []
began = time.perf_counter()

def timed(table, key, function):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            end = time.perf_counter()
            table[key] = table.get(key, 0.0) + end - start
            if table is hooks:
                timeline.append((start - began, end - began, key))
    return wrapper

for name in ("get_files", "get_navigation", "_populate_page", "_build_page", "_build_theme_template"):
    setattr(build_module, name, timed(phases, name, getattr(build_module, name)))
Files.copy_static_files = timed(phases, "copy_static_files", Files.copy_static_files)
Page.validate_anchor_links = timed(phases, "validate_anchor_links", Page.validate_anchor_links)

TICK = os.sysconf("SC_CLK_TCK")
seen = {}  # pid -> [first seen, last seen, cpu seconds, command, parent pid]
sampling = True

def descendants(pid):
    out = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                out.append((int(child), pid))
    except OSError:
        pass
    for child, _ in list(out):
        out += descendants(child)
    return out

def sample():
    while sampling:
        now = time.perf_counter() - began
        for pid, parent in descendants(os.getpid()):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:120]
            except OSError:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / TICK
            row = seen.setdefault(pid, [now, now, 0.0, command, parent])
            row[1], row[2], row[4] = now, max(row[2], cpu), parent
        time.sleep(0.05)

# Every process started here is known from its start, however short its life; the sampler adds
# its CPU seconds.
def register(pid, command):
    # The sampler may have seen the child first, before its exec, still with this process's command.
    now = time.perf_counter() - began
    seen.setdefault(pid, [now, now, 0.0, "", os.getpid()])[3] = command[:120]

import subprocess
_popen_init = subprocess.Popen.__init__
def popen_init(self, args, *rest, **kwargs):
    _popen_init(self, args, *rest, **kwargs)
    register(self.pid, " ".join(map(str, args)) if isinstance(args, (list, tuple)) else str(args))
subprocess.Popen.__init__ = popen_init
_fork = os.fork
def fork():
    pid = _fork()
    if pid:
        register(pid, "python (forked)")
    return pid
os.fork = fork

sampler = threading.Thread(target=sample, daemon=True)
sampler.start()
config = load_config(sys.argv[1])
for event, methods in config.plugins.events.items():
    for index, method in enumerate(methods):
        owner = type(getattr(method, "__self__", None)).__name__
        methods[index] = timed(hooks, f"{owner}.on_{event}", method)
config.plugins.on_startup(command="build", dirty=False)
start = time.perf_counter()
build_module.build(config)
total = time.perf_counter() - start
config.plugins.on_shutdown()
sampling = False
sampler.join()
print(json.dumps({"seconds": total, "phases": phases, "hooks": hooks, "timeline": timeline,
                  "processes": [{"pid": pid, "parent": row[4], "first": row[0], "last": row[1], "cpu": row[2], "command": row[3]}
                                for pid, row in seen.items()]}))
"""

# The functions whose direct callees are the derivations, in pass order: (file ending, function).
HUBS = (
    ("read+enrich", "generator/pipeline.py", "load"),
    ("read+enrich", "generator/enrich/paper.py", "enrich_batch"),
    ("link", "generator/link/corpus.py", "link"),
    ("link", "generator/link/corpus.py", "add_related"),
    ("render", "generator/render/site.py", "render_site"),
    ("render", "generator/render/site.py", "listing_files"),
    ("write", "generator/output/files.py", "write_site"),
)


def short(function: tuple[str, int, str]) -> str:
    """module:function for a pstats key, from the path's package folders onwards."""
    path, _, name = function
    if path == "~":
        return name  # a built-in
    parts = Path(path).with_suffix("").parts
    for anchor in ("generator", "site-packages"):
        if anchor in parts:
            parts = parts[parts.index(anchor) + (anchor == "site-packages") :]
            break
    else:
        parts = parts[-2:]
    return f"{'.'.join(parts)}:{name}"


def run_seconds(stats: pstats.Stats) -> float:
    """The profiled run's CPU seconds: the largest cumulative time of any function in it."""
    return max(row[3] for row in stats.stats.values())  # type: ignore[attr-defined]


def derivation_rows(stats: pstats.Stats, total: float, share_floor: float) -> list[list[str]]:
    """Rows (pass, hub, callee, CPU s, share) of every hub's direct callees above `share_floor`
    of the whole run (`total` CPU seconds)."""
    table = stats.stats  # type: ignore[attr-defined]
    rows = []
    for stage, ending, name in HUBS:
        hub = next((key for key in table if key[0].endswith(ending) and key[2] == name), None)
        if hub is None:
            continue
        callees = sorted(direct_callees(table, hub), reverse=True)
        for seconds, callee in callees:
            if seconds / total >= share_floor:
                rows.append([stage, short(hub), short(callee), f"{seconds:.2f}", f"{seconds / total:.1%}"])
    return rows


def direct_callees(table: dict, caller: tuple) -> list[tuple[float, tuple]]:
    """(CPU seconds spent through the call, callee) for each function `caller` calls; a
    comprehension, generator expression or lambda of the caller's is looked through (Python
    3.11 profiles them as functions of their own), its callees counted as the caller's."""
    out = []
    for callee, (_, _, _, _, callers) in table.items():
        if caller not in callers:
            continue
        if callee[2] in ("<listcomp>", "<genexpr>", "<lambda>", "<dictcomp>", "<setcomp>") and callee[0] == caller[0]:
            out += direct_callees(table, callee)
        else:
            out.append((callers[caller][3], callee))
    return out


def own_time_rows(stats: pstats.Stats, total: float, count: int) -> list[list[str]]:
    table = stats.stats  # type: ignore[attr-defined]
    ranked = sorted(table.items(), key=lambda item: item[1][2], reverse=True)[:count]
    return [[short(key), f"{row[1]}", f"{row[2]:.2f}", f"{row[2] / total:.1%}"] for key, row in ranked]


def build_rows(builds: dict[str, dict]) -> list[list[str]]:
    """MkDocs' phases and the hooks, one column per build."""
    names = list(builds)
    rows = [["wall s", *[f"{b['seconds']:.2f}" for b in builds.values()]]]
    phases = sorted({p for b in builds.values() for p in b["phases"]}, key=lambda p: -builds[names[0]]["phases"].get(p, 0))
    rows += [[f"phase {p}", *[f"{b['phases'].get(p, 0):.2f}" for b in builds.values()]] for p in phases]
    hooks = sorted({h for b in builds.values() for h in b["hooks"]}, key=lambda h: -max(b["hooks"].get(h, 0) for b in builds.values()))
    rows += [[f"hook {h}", *[f"{b['hooks'].get(h, 0):.2f}" if h in b["hooks"] else "-" for b in builds.values()]] for h in hooks]
    return rows


def beside_rows(build: dict) -> list[list[str]]:
    """The full build's processes: each child of the build's process with all of its own
    descendants, grouped by the hook running when it appeared."""
    processes = {p["pid"]: p for p in build["processes"]}
    root_children = [p for p in processes.values() if p["parent"] not in processes]

    def subtree(pid: int) -> list[dict]:
        out = [processes[pid]]
        for other in processes.values():
            if other["parent"] == pid:
                out += subtree(other["pid"])
        return out

    def started_in(moment: float) -> str:
        """The last hook that began before the process was first seen (sampled every 0.05 s)."""
        hooks = [hook for start, _, hook in build["timeline"] if start <= moment]
        return hooks[-1] if hooks else "before the first hook"

    groups: dict[tuple[str, str], list[float]] = {}
    for child in sorted(root_children, key=lambda p: p["first"]):
        kind = "pagefind" if "pagefind" in child["command"] else "python (forked)"
        tree = subtree(child["pid"])
        key = (started_in(child["first"]), kind)
        count, cpu, alive = groups.get(key, [0, 0.0, 0.0])
        groups[key] = [count + 1, cpu + sum(p["cpu"] for p in tree), alive + max(p["last"] for p in tree) - child["first"]]
    return [[hook, kind, f"{int(v[0])}", f"{v[1]:.2f}", f"{v[2]:.2f}"] for (hook, kind), v in groups.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, choices=bench.SIZES, default=4200, help="input size as in bench.py (default: 4200)")
    parser.add_argument("--input", choices=bench.INPUT_KINDS, default="untitled", help="input kind as in bench.py (default: untitled)")
    parser.add_argument(
        "--corpus", type=Path, default=bench.DEFAULT_CORPUS, help=f"folder of the corpus files (default: {bench.DEFAULT_CORPUS})"
    )
    parser.add_argument("--floor", type=float, default=0.01, help="derivations listed: at least this share of the run (default: 0.01)")
    parser.add_argument("--top", type=int, default=15, help="functions listed by their own time (default: 15)")
    parser.add_argument("--json", type=Path, default=None, help="also write the measurements as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    args = parser.parse_args()
    project = bench.Project(bench.REPO)
    work = Path(tempfile.mkdtemp(prefix="abstracts-profile-"))
    python, related = sys.executable, 5
    try:
        inputs = bench.prepare_inputs(args.size, args.corpus, work / "inputs", args.input)
        files = [str(p) for p in inputs]
        logs = work / "logs"

        stages = bench.run(
            [python, "-c", bench.STAGE_PROBE, json.dumps({"inputs": files, "out": str(work / "stage-docs"), "related": related})],
            logs,
            "stages",
            project,
        )
        stage_seconds = json.loads(stages.stdout.strip().splitlines()[-1])["pipeline_stage_seconds"]

        bench.settle()
        profile = work / "generator.prof"
        environment = {**project.env(), "ABSTRACTS_WORKERS": "1"}
        subprocess.run(
            [
                python,
                "-c",
                GENERATOR_PROBE,
                json.dumps({"inputs": files, "out": str(work / "profile-docs"), "related": related}),
                str(profile),
            ],
            check=True,
            env=environment,
            cwd=project.root,
        )
        stats = pstats.Stats(str(profile))
        total = run_seconds(stats)
        derivations = derivation_rows(stats, total, args.floor)
        own = own_time_rows(stats, total, args.top)

        docs = work / "docs"
        docs.mkdir()
        bench.stage_hand_written(project.docs, docs)
        # Each config made just before its build: plain's stand-in templates are those the
        # Markdown the full build wrote names.
        configs = {
            "full": lambda: bench.serve_config(project, docs, work / "site-full", inputs),
            "bare": lambda: bench.bare_config(project, docs, work / "site-bare", None),
            "plain": lambda: bench.plain_config(project, docs, work / "site-plain", None, bench.page_templates(docs, work / "templates")),
        }
        builds = {}
        for name, make in configs.items():
            config = work / f"mkdocs-{name}.yml"
            config.write_text(make(), encoding="utf-8")
            proc = bench.run([python, "-c", BUILD_PROBE, str(config)], logs, f"build-{name}", project)
            builds[name] = json.loads(proc.stdout.strip().splitlines()[-1])
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(f"\n{args.size} papers ({args.input}); machine speed: reference workload {bench.reference_seconds():.3f} s\n")
    print("Generator passes (one-off run, forked workers; wall seconds):\n")
    print(bench.table([["pass", "s"], *[[name, f"{seconds:.2f}"] for name, seconds in stage_seconds.items()]]))
    print(
        f"\nDerivations (one process under cProfile, {total:.1f} CPU s in all; callees of each pass's functions, >= {args.floor:.0%} of the run):\n"
    )
    print(bench.table([["pass", "called from", "derivation", "CPU s", "share"], *derivations]))
    print(f"\nFunctions with the most time of their own (top {args.top}):\n")
    print(bench.table([["function", "calls", "own s", "share"], *own]))
    print("\nMkDocs builds of the same Markdown (wall seconds; page hooks are also inside the phases):\n")
    print(bench.table([["", *builds], *build_rows(builds)]))
    print("\nProcesses beside the full build (each with its descendants):\n")
    print(bench.table([["first seen after", "process", "count", "CPU s", "alive s"], *beside_rows(builds["full"])]))
    if args.json:
        record = {"size": args.size, "input": args.input, "stages": stage_seconds, "derivations": derivations, "own": own, "builds": builds}
        args.json.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
