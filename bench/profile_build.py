"""Profile: where a site build's time goes, for one input of bench/bench.py (issue 36).

    .venv/bin/python -m bench.profile_build                            # untitled, ~4,200 papers
    .venv/bin/python -m bench.profile_build --size 2200 --input titled --json profile.json

Four tables and a time line, each from its own fresh process on the same input files:

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
    time line     the full build in slots of 1/80 of its length (issue 55): each process's
                  CPU in each slot (▄ one core busy, █ both), grouped by the function that
                  forked it; the generator's passes; MkDocs' page phases and what it waited on

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

from bench import bench  # the benchmark: its inputs, configs and project

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
PAGE_PHASES = ("_populate_page", "_build_page")
began = time.perf_counter()

def timed(table, key, function):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            end = time.perf_counter()
            table[key] = table.get(key, 0.0) + end - start
            if table is hooks or key in PAGE_PHASES:
                timeline.append((start - began, end - began, key))
    return wrapper

for name in ("get_files", "get_navigation", "_populate_page", "_build_page", "_build_theme_template"):
    setattr(build_module, name, timed(phases, name, getattr(build_module, name)))
Files.copy_static_files = timed(phases, "copy_static_files", Files.copy_static_files)
Page.validate_anchor_links = timed(phases, "validate_anchor_links", Page.validate_anchor_links)

TICK = os.sysconf("SC_CLK_TCK")
seen = {}  # pid -> [first seen, last seen, cpu seconds, command, parent pid, [(moment, cpu seconds)]]
sampling = True
EVENTS = sys.argv[2]  # what forked processes tell (passes, forks): one JSON object a line

def tell(**event):
    # Appended in one write: the processes that tell share the file.
    with open(EVENTS, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(event) + "\n")

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
        for pid, parent in [(os.getpid(), 0), *descendants(os.getpid())]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:120]
            except OSError:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / TICK
            row = seen.setdefault(pid, [now, now, 0.0, command, parent, []])
            row[1], row[2], row[4] = now, max(row[2], cpu), parent
            row[5].append((round(now, 3), row[2]))
        time.sleep(0.05)

# Every process started here is known from its start, however short its life; the sampler adds
# its CPU seconds.
def register(pid, command):
    # The sampler may have seen the child first, before its exec, still with this process's command.
    now = time.perf_counter() - began
    seen.setdefault(pid, [now, now, 0.0, "", os.getpid(), []])[3] = command[:120]

import subprocess
_popen_init = subprocess.Popen.__init__
def popen_init(self, args, *rest, **kwargs):
    _popen_init(self, args, *rest, **kwargs)
    register(self.pid, " ".join(map(str, args)) if isinstance(args, (list, tuple)) else str(args))
subprocess.Popen.__init__ = popen_init
import traceback
MACHINERY = ("/runtime/parallel.py", "/plugin/bothends.py", "/multiprocessing/")

def forked_by():
    for frame in reversed(traceback.extract_stack()[:-2]):
        if "/generator/" in frame.filename and not any(part in frame.filename for part in MACHINERY):
            module = frame.filename.rsplit("/generator/", 1)[1].removesuffix(".py").replace("/", ".")
            return f"{module}:{frame.name}"
    return "other"

_fork = os.fork
def fork():
    pid = _fork()
    if pid:
        register(pid, "python (forked)")
        tell(kind="fork", pid=pid, parent=os.getpid(), by=forked_by(), at=time.perf_counter() - began)
    return pid
os.fork = fork

# The generator's passes, as pipeline.generate times them, wherever it runs.
import generator.pipeline as pipeline
_timed = pipeline._Run.timed
def timed_pass(self, stage, step, *args):
    start = time.perf_counter() - began
    try:
        return _timed(self, stage, step, *args)
    finally:
        tell(kind="pass", name=stage, start=start, end=time.perf_counter() - began, pid=os.getpid())
pipeline._Run.timed = timed_pass
_generate = pipeline.generate
def generate(*args, **kwargs):
    start = time.perf_counter() - began
    try:
        return _generate(*args, **kwargs)
    finally:
        tell(kind="pass", name="generate", start=start, end=time.perf_counter() - began, pid=os.getpid())
pipeline.generate = generate

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
events = [json.loads(line) for line in Path(EVENTS).read_text(encoding="utf-8").splitlines()] if Path(EVENTS).exists() else []
print(json.dumps({"seconds": total, "began": start - began, "pid": os.getpid(), "phases": phases, "hooks": hooks, "timeline": timeline, "events": events,
                  "processes": [{"pid": pid, "parent": row[4], "first": row[0], "last": row[1], "cpu": row[2], "command": row[3], "series": row[5]}
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
    processes = {p["pid"]: p for p in build["processes"] if p["pid"] != build["pid"]}
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


# Who forked a process (the nearest generator function that is not the forking machinery),
# as the timeline names it; any other is shown as its function.
ROLES = {
    "plugin.mkdocs_plugin:on_pre_build": "generator",
    "pipeline:load": "enrich workers",
    "runtime.background_writer:__init__": "file writer",
    "runtime.map_process:start": "topic map",
    "runtime.map_process:map_for": "topic map",
    "plugin.pageconvert:__init__": "page converter",
    "plugin.pagetemplates:_fork_before": "page templates",
    "runtime.background_writer:elsewhere": "pages made aside",
}
SHADES = " ▁▂▃▄▅▆▇█"  # CPU in a time slot: ▄ is one core busy, █ both
PASS_MARKS = {"generate": "·", "read+enrich": "E", "link": "L", "render": "R", "write": "W"}
SPAN_MARKS = {"on_pre_build": "g", "on_post_build": "s", "_populate_page": "c", "_build_page": "t"}


def process_roles(build: dict) -> dict[int, str]:
    """Each sampled process's role: MkDocs itself, a fork named by its forker, Pagefind; a
    process none of these explains takes its parent's role."""
    forks = {event["pid"]: ROLES.get(event["by"], event["by"]) for event in build.get("events", []) if event["kind"] == "fork"}
    processes = {p["pid"]: p for p in build["processes"]}

    def role(pid: int, depth: int = 0) -> str:
        if pid == build["pid"]:
            return "MkDocs"
        if pid in forks:
            return forks[pid]
        process = processes.get(pid)
        if process is None or depth > 20:
            return "other"
        if "pagefind" in process["command"]:
            return "Pagefind"
        return role(process["parent"], depth + 1)

    return {pid: role(pid) for pid in processes}


def cpu_in_slots(series: list, edges: list[float]) -> list[float]:
    """CPU seconds a process used in each slot between `edges`, from its sampled cumulative CPU."""
    import numpy as np

    if not series:
        return [0.0] * (len(edges) - 1)
    moments, cpu = zip(*series)
    at = np.interp(edges, moments, cpu, left=0.0, right=cpu[-1])
    return list(np.diff(at))


def span_marks(spans: list[tuple[float, float, str]], edges: list[float], marks: dict[str, str], least: float = 0.25) -> str:
    """One character a slot: the mark of a span kind covering at least `least` of it."""
    out = []
    for left, right in zip(edges, edges[1:]):
        cover: dict[str, float] = {}
        for start, end, name in spans:
            overlap = min(end, right) - max(start, left)
            if overlap > 0 and name in marks:
                cover[name] = cover.get(name, 0.0) + overlap
        # A span kind listed later in `marks` wins over an earlier one wherever it shows.
        shown = [name for name in marks if cover.get(name, 0.0) >= least * (right - left)]
        best = shown[-1] if shown else None
        out.append(marks[best] if best is not None else " ")
    return "".join(out)


def timeline(build: dict, width: int = 80) -> list[str]:
    """The full build on a time line (issue 55): what each process did in each slot of the build
    (CPU, ▄ one core, █ both), the generator's passes and what MkDocs waited on."""
    start, seconds = build["began"], build["seconds"]
    slot = seconds / width
    edges = [start + index * slot for index in range(width + 1)]
    roles = process_roles(build)
    cpu: dict[str, list[float]] = {}
    for process in build["processes"]:
        used = cpu_in_slots(process["series"], edges)
        row = cpu.setdefault(roles[process["pid"]], [0.0] * width)
        cpu[roles[process["pid"]]] = [a + b for a, b in zip(row, used)]
    hook_spans = [(a, b, name.rsplit(".", 1)[1]) for a, b, name in build["timeline"] if "." in name]
    page_spans = [(a, b, name) for a, b, name in build["timeline"] if name in SPAN_MARKS]
    passes = [(e["start"], e["end"], e["name"]) for e in build.get("events", []) if e["kind"] == "pass"]

    def shade(values: list[float]) -> str:
        return "".join(SHADES[min(8, max(0, round(v / slot / 2 * 8)))] for v in values)

    label = 22
    axis = [" "] * width
    for mark in range(0, int(seconds) + 1, 5):
        column = int(mark / slot)
        text = f"|{mark}s"
        if column + len(text) <= width:
            axis[column : column + len(text)] = text
    lines = [f"{'':<{label}}{''.join(axis)}"]
    lines.append(f"{'MkDocs waits':<{label}}{span_marks(hook_spans, edges, SPAN_MARKS)}")
    lines.append(f"{'MkDocs pages':<{label}}{span_marks(page_spans, edges, SPAN_MARKS)}")
    lines.append(f"{'generator passes':<{label}}{span_marks(passes, edges, PASS_MARKS)}")
    order = ["MkDocs", "generator", "enrich workers", "file writer", "topic map", "page converter", "page templates", "Pagefind"]
    for role in sorted(cpu, key=lambda r: (order.index(r) if r in order else len(order), r)):
        lines.append(f"{role[: label - 2]:<{label}}{shade(cpu[role])}")
    total = [sum(values) for values in zip(*cpu.values())]
    lines.append(f"{'all (2 cores)':<{label}}{shade(total)}")
    busy = sum(total)
    lines.append("")
    lines.append(
        f"slot {slot:.2f} s. Waits: {SPAN_MARKS['on_pre_build']} = on_pre_build (the generator), {SPAN_MARKS['on_post_build']} = on_post_build "
        "(the search index); pages: c = read and convert (_populate_page), t = template (_build_page); passes: "
        "E read+enrich, L link, R render, W write, · the generator's start."
    )
    lines.append(
        f"CPU in the build: {busy:.1f} s of {2 * seconds:.1f} core-seconds ({busy / (2 * seconds):.0%}); "
        + ", ".join(f"{role} {sum(values):.1f} s" for role, values in sorted(cpu.items(), key=lambda item: -sum(item[1])))
    )
    waits = {name: sum(b - a for a, b, n in hook_spans if n == name) for name in ("on_pre_build", "on_post_build")}
    lines.append(f"MkDocs waited {waits['on_pre_build']:.1f} s for the generator and {waits['on_post_build']:.1f} s for the search index.")
    return lines


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
            proc = bench.run([python, "-c", BUILD_PROBE, str(config), str(work / f"events-{name}.jsonl")], logs, f"build-{name}", project)
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
    print("\nThe full build's time line (CPU of each process in each slot: ▄ one core busy, █ both):\n")
    print("\n".join(timeline(builds["full"])))
    if args.json:
        record = {"size": args.size, "input": args.input, "stages": stage_seconds, "derivations": derivations, "own": own, "builds": builds}
        args.json.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
