"""Screenshots of the built seeds site for the README: home, a paper (light and dark), a paper's
strong and weaker related papers (light and dark), map, browse, search;
and, given a site of papers with authors, an author page and the Reading list (light and dark).

Usage: python -m bench.screenshots [SITE_DIR] [OUT_DIR] [AUTHORED_SITE_DIR]   (after `mkdocs build`)
The seeds name no authors; an authored site, e.g. of the first 40 IJCAI 2024 records:
    head -40 ../shared/corpus/ijcai2024.jsonl > /tmp/ijcai40.jsonl
    python -m generator build /tmp/ijcai40.jsonl --site /tmp/ijcai40
Serves each site on 127.0.0.1 and drives Debian's Chromium through Playwright.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.search_bench import CHROMIUM, CHROMIUM_ARGS


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(site: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", type=Path, default=Path("site"), help="the built seeds site (default: site)")
    parser.add_argument(
        "out", nargs="?", type=Path, default=Path("assets/screenshots"), help="where the PNGs go (default: assets/screenshots)"
    )
    parser.add_argument(
        "authored", nargs="?", type=Path, help="a built site of papers with authors, for an author page and the Reading list"
    )
    arguments = parser.parse_args()
    site, out = arguments.site, arguments.out
    if not (site / "papers").is_dir():
        parser.error(f"{site}: no built site here (no papers/ folder); run `mkdocs build` first")
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
        related_links(browser, site, base, out)
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
        if arguments.authored:
            authored_pages(browser, arguments.authored, out)
        browser.close()
    server.shutdown()
    print(f"screenshots written to {out}/")


def related_links(browser, site: Path, base: str, out: Path) -> None:
    """A paper's related papers, strong and weaker ones (decision 0030), light and dark: the
    first paper (by folder name) whose page shows both."""
    paper = next(
        p
        for p in sorted((site / "papers").iterdir())
        if all(part in (p / "index.html").read_text(encoding="utf-8") for part in ('id="related-papers"', 'id="also-near"'))
    )
    for scheme in ("light", "dark"):
        page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page.goto(f"{base}/papers/{paper.name}/")
        first, last = (page.locator(selector).bounding_box() for selector in (".paper-related >> nth=0", ".paper-related--weaker"))
        assert first is not None and last is not None
        margin = 24
        page.screenshot(
            path=out / f"related-{scheme}.png",
            full_page=True,
            clip={
                "x": first["x"] - margin,
                "y": first["y"] - margin,
                "width": max(first["width"], last["width"]) + 2 * margin,
                "height": last["y"] + last["height"] - first["y"] + 2 * margin,
            },
        )
        page.close()


def authored_pages(browser, site: Path, out: Path) -> None:
    """The busiest author's page, and a Reading list of three of their and their co-authors' papers."""
    import json
    from collections import Counter
    from urllib.parse import quote

    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    counts = Counter(name for p in papers for name in p["authors"])
    author = min(counts, key=lambda name: (-counts[name], -sum(len(p["authors"]) for p in papers if name in p["authors"]), name))
    for scheme in ("light", "dark"):
        page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page.goto(f"{base}/authors/author/?name={quote(author)}")
        page.wait_for_selector(".author-page[data-ready=true]")
        page.screenshot(path=out / f"author-{scheme}.png")
        for paper in papers[:3]:
            page.goto(f"{base}/{paper['url']}")
            page.locator(".paper-reading button.reading-toggle").click()
        page.screenshot(path=out / f"paper-saved-{scheme}.png")
        page.goto(f"{base}/reading-list/")
        page.wait_for_selector(".reading-list__paper >> nth=2")
        page.screenshot(path=out / f"reading-list-{scheme}.png", full_page=True)
        page.close()
    server.shutdown()


if __name__ == "__main__":
    main()
