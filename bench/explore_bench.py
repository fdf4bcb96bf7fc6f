"""Benchmark the exploring pages (topic map and browse) of built sites in headless Chromium.

Usage:

    .venv/bin/python -m bench.explore_bench /tmp/s4200                 # a site built before
    .venv/bin/python -m bench.explore_bench --build 4200 --build 12000 --keep /tmp/explore
    .venv/bin/python -m bench.explore_bench /tmp/before /tmp/after --runs 5 --json out.json

--build N makes a site from the shared corpora first, with the inputs of bench/bench.py
(4200: the five corpus files; 12000: those replicated 3x; 40, 2200) and `python -m
generator build`, into --keep (kept) or a temporary folder (removed at the end).

Each site is served by `python -m http.server` on 127.0.0.1 (no compression) and visited in
fresh browser contexts (empty cache, 1280 x 900) by Debian's Chromium. Columns:

    papers          papers in map.json
    broad / fine    region labels the map shows at first view / after zooming in with the
                    keyboard (three presses of +, past the zoom where finer topics take over),
                    as the map lists them in data-labels (drawn, inside the canvas, none
                    overlapping)
    map ms          first view interactive: the map's `topic-map-ready` performance mark, in
                    ms from the start of navigation (data fetched, parsed and drawn, handlers
                    on); median of --runs fresh visits (max in brackets)
    browse ms       the same for the browse page (`browse-ready`)
    map gz KB       map.json gzipped (level 6, about what GitHub Pages sends)
    browse gz KB    browse.json gzipped
    filter ms       a filter click on the browse page: from the click until the list and every
                    count are updated (synchronous), median (max) over clicks on the largest
                    area, its commonest tag, a second tag, and unchecking them again
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.bench import DEFAULT_CORPUS, prepare_inputs
from bench.search_bench import CHROMIUM, CHROMIUM_ARGS, Server, table

ZOOM_PRESSES = 3  # 1.5^3 = 3.4, past the map's FINE_ZOOM of 2.5
READY = "(name) => performance.getEntriesByName(name)[0]?.startTime ?? null"
# One click on a checkbox, timed around the synchronous event handlers it runs.
CLICK = """(selector) => { const box = document.querySelector(selector);
    const start = performance.now(); box.click(); return performance.now() - start; }"""


def build(size: int, corpus: Path, folder: Path) -> Path:
    inputs = prepare_inputs(size, corpus, folder / f"inputs-{size}")
    site = folder / f"site-{size}"
    result = subprocess.run(
        [sys.executable, "-m", "generator", "build", *map(str, inputs), "--site", str(site)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    if result.returncode:
        raise SystemExit(f"building {size} failed:\n{result.stderr[-3000:]}")
    return site


def gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def visit(browser, url: str, mark: str) -> tuple[object, object, float | None]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(f"performance.getEntriesByName('{mark}').length > 0", timeout=60_000)
    return context, page, page.evaluate(READY, mark)


def map_figures(browser, base: str, runs: int) -> dict:
    times, broad, fine = [], None, None
    for run in range(runs):
        context, page, ready = visit(browser, base + "map/", "topic-map-ready")
        times.append(ready)
        if run == 0:
            page.wait_for_function("document.querySelector('.topic-map').dataset.level === 'broad'")
            broad = len(json.loads(page.get_attribute(".topic-map", "data-labels")))
            page.locator(".topic-map canvas").focus()
            for _ in range(ZOOM_PRESSES):
                page.keyboard.press("+")
            page.wait_for_function("document.querySelector('.topic-map').dataset.level === 'fine'")
            fine = len(json.loads(page.get_attribute(".topic-map", "data-labels")))
        context.close()
    return {"broad": broad, "fine": fine, "map_ms": times}


def browse_figures(browser, site: Path, base: str, runs: int) -> dict:
    index = json.loads((site / "browse.json").read_text(encoding="utf-8"))
    papers = index["papers"]
    area = max(range(len(index["areas"])), key=lambda a: sum(p[2] == a for p in papers))
    tags = sorted(range(len(index["tags"])), key=lambda t: -sum(p[2] == area and t in p[4] for p in papers))[:2]
    boxes = [f".browse__facet--areas input[value='{area}']", *(f".browse__facet--tags input[value='{t}']" for t in tags)]
    times, clicks = [], []
    for run in range(runs):
        context, page, ready = visit(browser, base + "browse/", "browse-ready")
        times.append(ready)
        if run == 0:
            for selector in [*boxes, *reversed(boxes)]:  # check each, then uncheck them
                clicks.append(page.evaluate(CLICK, selector))
        context.close()
    return {"browse_ms": times, "filter_ms": clicks}


def measure(browser, site: Path, runs: int) -> dict:
    server = Server(site)
    try:
        figures = {"site": str(site), "papers": len(json.loads((site / "map.json").read_text(encoding="utf-8"))["x"])}
        figures |= map_figures(browser, server.base, runs)
        figures |= browse_figures(browser, site, server.base, runs)
    finally:
        server.close()
    figures["map_gz"] = gzipped(site / "map.json")
    figures["browse_gz"] = gzipped(site / "browse.json")
    return figures


def row(f: dict) -> list[str]:
    def spread(values: list[float]) -> str:
        return f"{statistics.median(values):.0f} ({max(values):.0f})"

    return [
        f["site"],
        str(f["papers"]),
        str(f["broad"]),
        str(f["fine"]),
        spread(f["map_ms"]),
        spread(f["browse_ms"]),
        f"{f['map_gz'] / 1e3:.0f}",
        f"{f['browse_gz'] / 1e3:.0f}",
        spread(f["filter_ms"]),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sites", nargs="*", type=Path, help="built site folders (with map.json and browse.json)")
    parser.add_argument("--build", type=int, action="append", default=[], help="build a site of this size first (40, 2200, 4200, 12000)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpora (default ../shared/corpus)")
    parser.add_argument("--keep", type=Path, help="build into this folder and keep it")
    parser.add_argument("--runs", type=int, default=5, help="fresh visits per page for the times (default 5)")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args(argv)
    if not args.sites and not args.build:
        parser.error("give built sites, --build SIZE, or both")

    work = args.keep or Path(tempfile.mkdtemp(prefix="explore-bench-"))
    try:
        sites = [*args.sites, *(build(size, args.corpus, work) for size in args.build)]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            results = [measure(browser, site, args.runs) for site in sites]
            browser.close()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    headers = ["site", "papers", "broad", "fine", "map ms", "browse ms", "map gz KB", "browse gz KB", "filter ms"]
    print(table([headers, *map(row, results)]))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
