"""Benchmark a reader's first search on built sites: time to the first result, bytes before it.

Usage (after building the sites, e.g. `python -m generator build CORPUS... --site /tmp/s4200`):

    .venv/bin/python -m bench.search_bench /tmp/s4200                   # one site
    .venv/bin/python -m bench.search_bench /tmp/before /tmp/after --runs 5 --json out.json

Each site is served by `python -m http.server` (a subprocess on 127.0.0.1, no compression)
and visited by Debian's headless Chromium through Playwright. The search engine is detected
from the files: `pagefind/pagefind-entry.json` (Pagefind) or `search/search_index.json`
(Material's built-in search).

Queries come from the site's papers.json: the names of --queries papers spread over the
corpus (a name is what readers type), and a distinctive phrase of --queries abstracts (the
three consecutive words rarest in the corpus); the paper they come from must be the first result.

Every run is a fresh browser context (empty cache: a first visit) that opens the home page,
and then, in two scenarios:

    cold   types the query as soon as the page has loaded (the `load` event)
    warm   types it once the page has fetched all it will (network idle): Material's
           search downloads and indexes its whole index in the background at page load

it clicks the search box and types the query (no delay between keys). Times are taken in the
page (performance.now): from the first keystroke until the expected paper is the first
result in `.md-search-result__list` (the same list for both engines). Bytes come from Chromium
(CDP Network.loadingFinished: encoded bytes on the wire, headers included) for every request
of the visit that finished by then: `all KB` counts the page too, `search KB` only the search
engine's files (search/, the search worker, pagefind/, assets/javascripts/search.js), and
`search gz KB` those files gzipped (level 6), about what a compressing host such as GitHub
Pages sends (Pagefind's index files are already compressed).

Columns: median (and max) over all queries x runs, per site and scenario; `found` counts
runs where the expected paper became the first result within --timeout seconds.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import re
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEARCH_FILES = re.compile(r"/(search/|pagefind/|assets/javascripts/workers/search|assets/javascripts/search\.js)")
WORD = re.compile(r"[A-Za-z][a-z]{3,}")

# Installed in the page before typing: the times of the first keystroke and of the moment the
# expected paper is the first result (the result list is the same for both engines).
WATCH = """(expected) => {
    const bench = window.__bench = {start: null, last: null, any: null, shown: null};
    addEventListener("keydown", () => {
        const now = performance.now();
        if (bench.start === null) bench.start = now;
        bench.last = now;
    }, {capture: true});
    const list = document.querySelector(".md-search-result__list");
    const check = () => {
        const first = list.querySelector(".md-search-result__item a[href]");
        if (bench.any === null && first) bench.any = performance.now();
        if (bench.shown === null && first && new URL(first.href).pathname.endsWith(expected)) {
            bench.shown = performance.now();
        }
    };
    new MutationObserver(check).observe(list, {childList: true, subtree: true, attributes: true});
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def engine(site: Path) -> str:
    if (site / "pagefind" / "pagefind-entry.json").is_file():
        return "pagefind"
    if (site / "search" / "search_index.json").is_file():
        return "material"
    raise SystemExit(f"{site}: no search index found (pagefind/ or search/search_index.json)")


def pick_queries(site: Path, count: int) -> list[tuple[str, str, str]]:
    """(kind, query, expected URL path suffix) for named papers and abstract phrases."""
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    papers = sorted(papers, key=lambda p: p["url"])
    rng = random.Random(5)
    named = [p for p in papers if p.get("name") and len(p["name"]) >= 4]
    unique = [p for p in named if sum(q["name"].lower() == p["name"].lower() for q in named) == 1]
    queries = [("name", p["name"], p["url"]) for p in rng.sample(unique, min(count, len(unique)))]
    # A distinctive phrase: the three consecutive words (of four letters or more) of the
    # abstract that are rarest in the corpus (largest sum of inverse document frequencies).
    texts = {p["url"]: [w.lower() for w in WORD.findall(abstract_text(site / p["url"] / "index.html"))] for p in papers}
    frequency = Counter(word for words in texts.values() for word in set(words))
    for paper in rng.sample(papers, min(count, len(papers))):
        words = texts[paper["url"]]
        windows = [words[i : i + 3] for i in range(len(words) - 2)]
        if windows:
            best = max(windows, key=lambda ws: sum(math.log(len(texts) / frequency[w]) for w in ws))
            queries.append(("phrase", " ".join(best), paper["url"]))
    return queries


def abstract_text(page: Path) -> str:
    html = page.read_text(encoding="utf-8")
    start = html.find('class="paper-abstract"')
    html = html[start : html.find("</div>", start)] if start >= 0 else ""
    return re.sub(r"<[^>]+>", " ", html)


class Server:
    def __init__(self, site: Path):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "--directory", str(site)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}/"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("http.server did not start")

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def gzip_size(site: Path, url: str) -> int:
    path = site / unquote(urlsplit(url).path).lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return len(gzip.compress(path.read_bytes(), compresslevel=6)) if path.is_file() else 0


def wire_bytes(request) -> int:
    """Bytes of the response on the wire: headers and (possibly compressed) body."""
    sizes = request.sizes()
    return sizes["responseHeadersSize"] + sizes["responseBodySize"]


def one_run(browser, site: Path, base: str, query: str, expected: str, scenario: str, timeout: float) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    finished = []  # Playwright reports the requests of the page's workers too (Pagefind searches in one)
    context.on("requestfinished", lambda request: finished.append(request))
    try:
        page.goto(base, wait_until="load")
        if scenario == "warm":
            page.wait_for_load_state("networkidle")
        page.evaluate(WATCH, expected)
        page.locator(".md-search__input").click()
        page.keyboard.type(query)
        try:
            page.wait_for_function("window.__bench.shown !== null", timeout=timeout * 1000, polling=20)
            found = True
        except Exception:
            found = False
        bench = page.evaluate("window.__bench")
        first = page.locator(".md-search-result__item a[href]").first
        shown_first = urlsplit(first.get_attribute("href")).path if first.count() else None
        done = {request.url: wire_bytes(request) for request in list(finished)}
        search_urls = [url for url in done if SEARCH_FILES.search(urlsplit(url).path)]
        return {
            "query": query,
            "expected": expected,
            "scenario": scenario,
            "found": found,
            "first_result": shown_first,
            "ms_any": bench["any"] - bench["start"] if bench["any"] is not None else None,
            "ms": bench["shown"] - bench["start"] if found else None,
            "ms_after_last_key": bench["shown"] - bench["last"] if found else None,
            "all_bytes": sum(done.values()),
            "search_bytes": sum(done[url] for url in search_urls),
            "search_gzip_bytes": sum(gzip_size(site, url) for url in search_urls),
            "requests": len(done),
            "search_files": sorted(urlsplit(u).path for u in search_urls),
        }
    finally:
        context.close()


def summarise(runs: list[dict]) -> dict:
    found = [r for r in runs if r["found"]]

    def stat(key: str, how, among: list[dict] = found) -> float | None:
        values = [r[key] for r in among if r[key] is not None]
        return how(values) if values else None

    return {
        "runs": len(runs),
        "found": len(found),
        "ms to any": stat("ms_any", statistics.median, runs),
        "ms": stat("ms", statistics.median),
        "max ms": stat("ms", max),
        "ms after last key": stat("ms_after_last_key", statistics.median),
        "all KB": stat("all_bytes", statistics.median),
        "search KB": stat("search_bytes", statistics.median),
        "max search KB": stat("search_bytes", max),
        "search gz KB": stat("search_gzip_bytes", statistics.median),
    }


def table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sites", nargs="+", type=Path, help="built site folders (with papers.json)")
    parser.add_argument("--queries", type=int, default=5, help="names and phrases to search for, each (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="fresh visits per query and scenario (default 3)")
    parser.add_argument("--scenarios", default="cold,warm", help="cold, warm or both (default cold,warm)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds to wait for the first result (default 20)")
    parser.add_argument("--json", type=Path, help="also write every run here")
    args = parser.parse_args(argv)

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for site in args.sites:
            kind = engine(site)
            queries = pick_queries(site, args.queries)
            papers = len(json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"])
            server = Server(site)
            try:
                for scenario in args.scenarios.split(","):
                    runs = []
                    for _, query, expected in queries:
                        for _ in range(args.runs):
                            runs.append(one_run(browser, site, server.base, query, expected, scenario, args.timeout))
                            print(
                                f"{site} {scenario} {query!r}: {runs[-1]['ms']} ms, {runs[-1]['search_bytes']} B,"
                                f" first {runs[-1]['first_result']}",
                                file=sys.stderr,
                            )
                    results[f"{site} {scenario}"] = {
                        "site": str(site),
                        "engine": kind,
                        "papers": papers,
                        "scenario": scenario,
                        "median": summarise(runs),
                        "runs": runs,
                    }
            finally:
                server.close()
        browser.close()

    headers = [
        "site",
        "engine",
        "papers",
        "scenario",
        "found",
        "ms to any",
        "ms",
        "max ms",
        "ms after last key",
        "all KB",
        "search KB",
        "max search KB",
        "search gz KB",
    ]
    rows = [headers]
    for outcome in results.values():
        m = outcome["median"]
        rows.append(
            [
                outcome["site"],
                outcome["engine"],
                str(outcome["papers"]),
                outcome["scenario"],
                f"{m['found']}/{m['runs']}",
                *("-" if m[k] is None else f"{m[k]:.0f}" for k in ("ms to any", "ms", "max ms", "ms after last key")),
                *("-" if m[k] is None else f"{m[k] / 1e3:.0f}" for k in ("all KB", "search KB", "max search KB", "search gz KB")),
            ]
        )
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
