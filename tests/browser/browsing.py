"""What the browser tests share: Chromium started as this machine allows, a local server that answers like GitHub Pages, a tab that records console errors and requests off 127.0.0.1, axe-core, and probes of the site's pages."""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

import frontmatter
import pytest

from helpers import ROOT

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

sync_api = pytest.importorskip("playwright.sync_api")


expect = sync_api.expect


CHROMIUM = Path("/usr/bin/chromium")


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


# Under CI (.ci/run sets CI) a missing browser or axe-core fails these tests instead of skipping
# them: `make test` installs both, so a skip there would hide a broken setup.
IN_CI = bool(os.environ.get("CI"))


EFM = "papers/efm-energy-weighted-flow-matching/"


PAGE_TYPES = {
    "home": "",
    "paper": EFM,
    "tag": "tags/large-language-models/",
    "area": "areas/generative-models/",
    "collection": "collections/iclr-2025-papers/",
    "glossary": "glossary/",
    "map": "map/",
    "browse": "browse/",
    "reading-list": "reading-list/",  # empty in a fresh tab: tests/browser/test_reading_list.py fills one
    "404": "no/such/paper/",
}


def launch_chromium(playwright):
    """Debian's Chromium: Playwright never downloads a browser here."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files like a Pages host: quiet, and a missing path gets the site's 404.html."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class Tab:
    """A browser tab on the site that remembers what went wrong while it was open."""

    def __init__(self, context, base: str):
        self.base = base
        self.page = context.new_page()
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.expected_404: set[str] = set()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        context.on("request", self._request)

    def _console(self, message) -> None:
        # A missing page is answered with 404.html and status 404; Chromium logs that status.
        if message.type == "error" and message.location.get("url") not in self.expected_404:
            self.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def _request(self, request) -> None:
        if urlsplit(request.url).hostname != "127.0.0.1" and not request.url.startswith(("data:", "blob:")):
            self.foreign.append(request.url)

    def open(self, path: str, **options):
        self.response = self.page.goto(self.base + path, **options)
        return self.page

    def settle(self) -> None:
        """Wait until the page has fetched all it will (late fonts and scripts included)."""
        self.page.wait_for_load_state("networkidle")

    def forget(self) -> None:
        self.errors.clear()
        self.foreign.clear()
        self.expected_404.clear()

    def assert_clean(self) -> None:
        assert not self.errors, self.errors
        assert not self.foreign, self.foreign


def paper_meta(published, slug_prefix: str) -> dict:
    _, docs, _ = published
    path = next(p for p in sorted((docs / "papers").glob("*.md")) if p.name.startswith(slug_prefix))
    return frontmatter.load(path).metadata


def headings(page) -> list[tuple[int, str]]:
    return [
        (int(tag[1]), text)
        for tag, text in page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "els => els.map(e => [e.tagName, e.textContent.trim()])")
    ]


def axe_violations(page, impacts=("serious", "critical")) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
    return [
        {"rule": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [" ".join(n["target"]) for n in v["nodes"]][:5]}
        for v in violations
        if v["impact"] in impacts
    ]


def meta(page, key: str) -> str | None:
    attribute = "property" if key.startswith("og:") else "name"
    element = page.query_selector(f'head meta[{attribute}="{key}"]')
    return element.get_attribute("content") if element else None


def math_rendered(page) -> None:
    page.wait_for_function("[...document.querySelectorAll('.arithmatex')].every(e => e.dataset.rendered)")


# 1 and 8: every page type loads cleanly, from 127.0.0.1 only, accessible, with its reader metadata.
# Dark mode shares the theme's CSS with light mode; its contrast is checked on one page of each layout.
CHECKS = [(kind, "light") for kind in PAGE_TYPES] + [(kind, "dark") for kind in ("home", "paper", "glossary")]


def search(page, query: str):
    """Type `query` into the header's search box; the first result's item once shown."""
    box = page.locator(".md-search__input")
    box.click()
    box.fill("")
    box.press_sequentially(query)
    results = page.locator(".md-search-result__list")
    expect(results).to_have_attribute("aria-busy", "false")  # the results of the whole query
    return results.locator("> .md-search-result__item").first


MEASURE = """async () => {
    await document.fonts.ready;  // KaTeX's fonts change the width of math
    const root = document.documentElement;
    const rendered = [...document.querySelectorAll(".arithmatex")].every(e => e.dataset.rendered);
    return [rendered, root.scrollWidth, root.clientWidth];
}"""


DATA_PAGES_READY = "!document.querySelector('.topic-map:not([data-ready=true]), .browse:not([data-ready=true])')"


YELLOW_PIXELS = """() => { const c = document.querySelector('.topic-map canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 240 && d[i + 1] > 190 && d[i + 2] < 60 && d[i + 3] > 128) n += 1; return n; }"""


def map_labels(page, level: str) -> list[dict]:
    page.wait_for_function(f"document.querySelector('.topic-map').dataset.level === '{level}'")
    return json.loads(page.get_attribute(".topic-map", "data-labels"))


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    return [
        (a["label"], b["label"])
        for n, a in enumerate(boxes)
        for b in boxes[n + 1 :]
        if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]
    ]


HOSTILE = {
    "title": 'Quotes "here" </title><script>window.__ran = 1</script><img src=x onerror="window.__ran = 4">',
    "tldr": 'A summary "quoted" and <img src=x onerror="window.__ran = 2"> inside.',
    "abstract": "We study how the generator treats <script>window.__ran = 3</script> markup in an abstract "
    "about large language models, with enough words for tags and related papers to be derived.",
}


CLICKED_PAGES = ["", "map/", "browse/", "tags/", "areas/", "collections/", "glossary/"]
