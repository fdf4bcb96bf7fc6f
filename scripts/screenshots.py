"""Screenshots of the built seeds site for the README: home, a paper (light and dark), map, browse, search.

Usage: python scripts/screenshots.py [SITE_DIR] [OUT_DIR]   (after `mkdocs build`)
Serves SITE_DIR on 127.0.0.1 and drives Debian's Chromium through Playwright.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

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


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(site: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    site = Path(sys.argv[1] if len(sys.argv) > 1 else "site")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "assets/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    paper = next(p for p in sorted((site / "papers").iterdir()) if p.name.startswith("efm-"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for scheme in ("light", "dark"):
            page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
            page.goto(f"{base}/papers/{paper.name}/")
            page.wait_for_selector(".katex")
            page.screenshot(path=out / f"paper-{scheme}.png")
            page.close()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/")
        page.screenshot(path=out / "home.png")
        page.goto(f"{base}/map/")
        # data-labels: the map script wrote it once the map and its region names were drawn.
        page.wait_for_selector(".topic-map[data-labels]")
        page.screenshot(path=out / "map.png")
        page.goto(f"{base}/browse/")
        page.wait_for_selector(".browse[data-ready=true]")
        page.locator(".browse__facet--tags input[type=checkbox]").first.check()
        page.screenshot(path=out / "browse.png")
        page.goto(f"{base}/")
        page.keyboard.press("/")
        page.keyboard.type("PatchSAE")
        # aria-busy: the search script sets it to false once the results of the query show.
        page.wait_for_selector(".md-search-result__list[aria-busy=false] .md-search-result__item")
        page.screenshot(path=out / "search.png")
        browser.close()
    server.shutdown()
    print(f"screenshots written to {out}/")


if __name__ == "__main__":
    main()
