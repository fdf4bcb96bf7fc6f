"""The search index: Pagefind's chunked index of the built site, in <site>/pagefind/.

Material's search plugin writes one index of every page that each reader downloads before
the first result (14.6 MB, 4.3 MB gzipped, at 4,200 papers). Pagefind splits its index into
chunks by word and keeps each page's excerpt in its own fragment, so a search fetches only
what it needs. The binary comes with the `pagefind[bin]` package; it runs offline.

What is indexed is marked in the templates: paper pages' title, summary, tags, key phrases
and abstract (theme/paper.html), other pages' content inside .search-scope
(theme/main.html) minus the lists and tables of papers left out below. The browser side
is theme/assets/javascripts/search.js.

The whole site folder is indexed after every build. Under `mkdocs serve --dirty` the pages
that were not rebuilt keep their HTML there, so the index stays whole; under `serve` it is
built in a background thread (one at a time, the newest request last) so that the page
reload after an edit does not wait for it. The new index replaces the old one in one move.
The plugin keeps one Indexer for the life of `mkdocs serve` (MkDocs keeps a plugin that has
`on_startup` across rebuilds), so the thread outlives the build that started it.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.plugins.abstracts")

BUNDLE = "pagefind"  # folder at the site root; search.js loads pagefind/pagefind.js from it
# Pagefind also writes its own UIs; the site uses only pagefind.js (and what it loads).
UNUSED = (
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js",
)
# Boilerplate: the headings' permalink signs (else a title reads "About this site¶") and the
# "Abstract" heading of every paper page. On tag, area, collection and other pages the lists
# and tables name papers: indexed, they would make those pages match every paper's words;
# their title and introduction remain.
EXCLUDE = (".headerlink", ".paper-abstract > #abstract") + tuple(
    f".search-scope > {tag}" for tag in ("ul", "ol", "table", "div", "details")
)

class Indexer:
    """Indexes the built site after each build: at once, or (`background`, under `mkdocs serve`)
    in one worker thread that always indexes the newest request."""

    def __init__(self, *, background: bool = False):
        self.background = background
        self._lock = threading.Lock()
        self._wanted: tuple[Path, str] | None = None
        self._worker: threading.Thread | None = None

    def index(self, site_dir: Path, *, language: str = "en") -> None:
        if not self.background:
            build(site_dir, language=language)
            return
        with self._lock:
            self._wanted = (site_dir, language)
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="search-index", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                job, self._wanted = self._wanted, None
                if job is None:
                    self._worker = None
                    return
            try:
                build(job[0], language=job[1])
            except Exception as error:  # e.g. a plain `serve` cleaning the site folder meanwhile
                # The server keeps running and the next rebuild indexes again; the reader is told.
                log.warning(f"abstracts: search index not updated: {error}")


def build(site_dir: Path, *, language: str = "en") -> int:
    """Write the index of every page in `site_dir` to `site_dir`/pagefind; return the page count."""
    from pagefind_bin import get_executable

    started = time.perf_counter()
    fresh, old, target = site_dir / f".{BUNDLE}-new", site_dir / f".{BUNDLE}-old", site_dir / BUNDLE
    shutil.rmtree(fresh, ignore_errors=True)
    command = [str(get_executable()), "--site", str(site_dir), "--output-path", str(fresh), "--force-language", language]
    for selector in EXCLUDE:
        command += ["--exclude-selectors", selector]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        shutil.rmtree(fresh, ignore_errors=True)
        raise PluginError(f"search index: pagefind failed ({result.returncode}): {(result.stderr or result.stdout).strip()}")
    for name in UNUSED:
        (fresh / name).unlink(missing_ok=True)
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    fresh.rename(target)
    shutil.rmtree(old, ignore_errors=True)
    pages = re.search(r"Indexed (\d+) pages?", result.stdout)
    count = int(pages.group(1)) if pages else 0
    log.info(f"abstracts: search index of {count} pages in {time.perf_counter() - started:.1f} s")
    return count
