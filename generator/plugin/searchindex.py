"""The search index: Pagefind's chunked index of the built site, in <site>/pagefind/.

A reader's first search fetches only the chunks of its words and the excerpts it shows, where
Material's search plugin sends one index of every page. The binary comes with the
`pagefind[bin]` package and runs offline. What is indexed is marked in the templates
(plugin/theme/paper.html, main.html: `data-pagefind-*`); the browser side is
plugin/theme/assets/javascripts/search.js.

- A one-off build streams each page to a Pagefind service process as MkDocs renders it
  (`Stream`), so indexing runs on the other core; pages MkDocs wrote without passing them on
  are read from the site folder, and if a written page differs from what was streamed the
  folder is indexed whole instead.
- Otherwise (`build`), and under `mkdocs serve` in a background thread after each build, the
  site folder is indexed; the new index replaces the old one in one move. The plugin keeps one
  Indexer for the life of the server.
- A site of more than PART_PAGES pages is indexed in parts (each page by a hash of its path),
  one service process each, written one after another: Pagefind needs about four times what it
  indexed to write the bundle. The first part is pagefind/, the others pagefind/part-N/, listed
  in pagefind/parts.json and merged when searching.

Figures and the alternatives measured: decision 0004.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import queue
import shutil
import subprocess
import threading
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    import io

log = logging.getLogger("mkdocs.plugins.abstracts")

BUNDLE = "pagefind"  # folder at the site root; search.js loads pagefind/pagefind.js from it
# Pagefind also writes its own UIs; the site uses only pagefind.js (and what it loads).
UNUSED = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
)
# Boilerplate: the headings' permalink signs (else a title reads "About this site¶") and the
# "Abstract" heading of every paper page. On tag, area, collection and other pages the lists
# and tables name papers: indexed, they would make those pages match every paper's words;
# their title and introduction remain.
EXCLUDE = (".headerlink", ".paper-abstract > #abstract") + tuple(
    f".search-scope > {tag}" for tag in ("ul", "ol", "table", "div", "details")
)

OUTBOX_PAGES = 64  # pages sent ahead of Pagefind at most
PART_PAGES = 6000  # pages per index part, bounding Pagefind's memory while it writes (decision 0004)
RETRIES = 1  # a background index that failed (a bundle found incomplete) is made again once
PARTS_FILE = "parts.json"  # in the bundle: the folders of the other parts, for search.js


class Indexer:
    """Indexes the built site after each build: at once, or (`background`, under `mkdocs serve`)
    in one worker thread that always indexes the newest request."""

    def __init__(self, *, background: bool = False):
        self.background = background
        self._lock = threading.Lock()
        self._wanted: tuple[Path, str, int] | None = None  # site folder, language, pages per part
        self._worker: threading.Thread | None = None

    def index(self, site_dir: Path, *, language: str = "en", part_pages: int = PART_PAGES) -> None:
        if not self.background:
            build(site_dir, language=language, part_pages=part_pages)
            return
        with self._lock:
            self._wanted = (site_dir, language, part_pages)
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
            site_dir, language, part_pages = job
            for attempt in range(RETRIES + 1):
                try:
                    build(site_dir, language=language, part_pages=part_pages)
                    break
                except Exception as error:  # e.g. a plain `serve` cleaning the site folder meanwhile
                    with self._lock:
                        newer = self._wanted is not None
                    if newer or attempt == RETRIES:
                        # The server keeps running and the next rebuild indexes again; the reader is told.
                        log.warning(f"abstracts: search index not updated: {error}")
                        break
                    log.info(f"abstracts: search index not updated ({error}); indexing again")


class Seen:
    """Under `mkdocs serve`: what the site's pages were when it was last indexed, so that a
    rebuild that changed no page is not indexed again. An editor that saves a file in two
    writes (truncate, then write) makes MkDocs build twice; the second build changes nothing,
    yet indexing the whole site again kept the other core busy for seconds, under the next
    edit's build (decision 0004). Pages are compared by a hash of the HTML MkDocs rendered for them;
    under --dirty a page not rendered is unchanged."""

    def __init__(self) -> None:
        self._indexed: dict[str, int | None] | None = None  # page -> hash of its HTML, as last indexed
        self._pages: frozenset[str] = frozenset()
        self._rendered: dict[str, int] = {}

    def build_starts(self, pages: Iterable[str]) -> None:
        """A build of these pages (site-relative paths of their HTML) begins."""
        self._pages = frozenset(pages)
        self._rendered = {}

    def rendered(self, path: str, html: str) -> None:
        self._rendered[path] = hash(html)

    def changed(self) -> bool:
        """Whether this build's site may differ from the one last indexed (always, before any)."""
        last = self._indexed
        if last is None or self._pages != last.keys():
            return True
        # A page not rendered now keeps its HTML; one that no build vouched for (None) counts as changed.
        return None in last.values() or any(last[path] != digest for path, digest in self._rendered.items() if path in last)

    def indexing(self) -> None:
        """The site as this build left it is being indexed."""
        last = self._indexed or {}
        # None: a page neither rendered now nor known from before, which cannot be vouched for.
        self._indexed = {path: self._rendered.get(path, last.get(path)) for path in self._pages}


class Stream:
    """Pages to `pagefind --service` processes as they are rendered (one per part of at most
    `part_pages` of the site's `pages`); `finish` writes the bundle."""

    def __init__(self, *, language: str = "en", pages: int = 0, part_pages: int = PART_PAGES):
        self.started = time.perf_counter()
        self.language = language
        self.part_pages = part_pages
        self.sizes: dict[str, int] = {}  # site-relative path -> bytes streamed
        self._parts = [_Service(language) for _ in range(_part_count(pages, part_pages))]

    def add(self, path: str, html: str) -> None:
        """Index one page; `path` is where it lies in the site (papers/x/index.html)."""
        self.sizes[path] = len(html.encode("utf-8"))
        self._parts[_part_of(path, len(self._parts))].add(path, indexed_region(html))

    def finish(self, site_dir: Path) -> int:
        """Add the site's other pages, write the bundle to `site_dir`/pagefind; the page count.
        Falls back to indexing the folder (`build`) when the site holds other bytes than streamed."""
        fresh = site_dir / f".{BUNDLE}-new"
        try:
            pages = {path: site_dir / path for path in _site_pages(site_dir)}
            if any(pages[path].stat().st_size != size for path, size in self.sizes.items() if path in pages):
                self.close()
                return build(site_dir, language=self.language, part_pages=self.part_pages)
            for path in sorted(pages.keys() - self.sizes.keys()):
                if (html := _read_page(site_dir, path)) is not None:
                    self.add(path, html)
            shutil.rmtree(fresh, ignore_errors=True)
            folders = _part_folders(fresh, len(self._parts))
            # One part at a time, each process ended before the next writes: only one holds
            # its index at the size writing takes.
            for service, folder in zip(self._parts, folders):
                service.write(folder)
                service.close()
        finally:
            self.close()
        try:
            count = _page_count(folders)
        except (OSError, ValueError) as error:  # a bundle not wholly written: index the folder instead
            log.info(f"abstracts: streamed search index incomplete ({error}); indexing the site folder")
            return build(site_dir, language=self.language, part_pages=self.part_pages)
        _install(site_dir, parts=len(self._parts))
        log.info(
            f"abstracts: search index of {count} pages in {time.perf_counter() - self.started:.1f} s (streamed, {len(self._parts)} part(s))"
        )
        return count

    def close(self) -> None:
        for service in self._parts:
            service.close()


def indexed_region(html: str) -> str:
    """What Pagefind needs of a page: its <article> (Material's content, where the theme marks
    what is indexed), in a document of its own: far fewer bytes sent and less of Pagefind's CPU,
    for the same bundle byte for byte (decision 0004). The whole page when a
    data-pagefind-* mark lies outside the article (a site's own template may put one there)."""
    start, end = html.find("<article"), html.rfind("</article>")
    if start < 0 or end < start:
        return html
    region = html[start : end + len("</article>")]
    if region.count("data-pagefind-") != html.count("data-pagefind-"):
        return html
    opening = html.find("<html")
    root = html[opening : html.find(">", opening) + 1] if opening >= 0 else "<html>"
    return f"<!doctype html>{root}<body>{region}</body></html>"


class _Service:
    """One `pagefind --service` process and its index. Messages are base64 JSON, each
    followed by a comma, answered in the same form."""

    def __init__(self, language: str):
        from pagefind_bin import get_executable

        self._process = subprocess.Popen(
            [str(get_executable()), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self._answers: dict[int | None, dict] = {}
        self._ended = False  # the service closed its output
        self._count = 0  # answers received
        self._answered = threading.Condition()
        self._sent = 0
        # Bounded: when Pagefind falls behind (a busy machine), MkDocs waits rather than the
        # pages piling up in memory (decision 0004).
        self._outbox: queue.Queue[bytes | None] = queue.Queue(maxsize=OUTBOX_PAGES)
        threading.Thread(target=self._read, name="pagefind-read", daemon=True).start()
        threading.Thread(target=self._write, name="pagefind-write", daemon=True).start()
        config = {"exclude_selectors": list(EXCLUDE), "force_language": language}
        self._index = self._ask({"type": "NewIndex", "config": config})["index_id"]

    def add(self, path: str, html: str) -> None:
        self._send({"type": "AddFile", "index_id": self._index, "file_path": path, "url": None, "file_contents": html})

    def write(self, folder: Path) -> None:
        """Write the bundle of what was added into `folder`, once every page is answered for."""
        # The service works on several messages at once: the bundle is written only when
        # every page has been answered for (else it raced the last pages: an empty entry file).
        with self._answered:
            if not self._answered.wait_for(lambda: self._count == self._sent or self._ended, timeout=600):
                raise PluginError("search index: pagefind did not answer")
            answers = list(self._answers.values())
            self._answers.clear()
        errors = [a.get("message", "") for a in answers if a.get("type") == "Error"]
        if errors:
            raise PluginError(f"search index: pagefind failed: {errors[0]}")
        self._ask({"type": "WriteFiles", "index_id": self._index, "output_path": str(folder)})

    def close(self) -> None:
        if self._process.returncode is not None:
            return
        self._outbox.put(None)
        try:
            self._process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _send(self, payload: dict) -> int:
        self._sent += 1
        message = json.dumps({"message_id": self._sent, "payload": payload}).encode("utf-8")
        self._outbox.put(base64.b64encode(message) + b",")
        return self._sent

    def _ask(self, payload: dict) -> dict:
        number = self._send(payload)
        with self._answered:
            if not self._answered.wait_for(lambda: number in self._answers or self._ended, timeout=600):
                raise PluginError("search index: pagefind did not answer")
            if number not in self._answers:
                raise PluginError(f"search index: pagefind ended ({self._process.wait()})")
            answer = self._answers.pop(number)
        if answer.get("type") == "Error":
            raise PluginError(f"search index: pagefind failed: {answer.get('message')}")
        return answer

    def _write(self) -> None:
        stdin = cast("IO[bytes]", self._process.stdin)  # stdin=PIPE: never None
        while (message := self._outbox.get()) is not None:
            try:
                stdin.write(message)
                stdin.flush()
            except OSError:
                break
        try:
            stdin.close()
        except OSError:
            pass

    def _read(self) -> None:
        buffered = b""
        stdout = cast("io.BufferedReader", self._process.stdout)  # stdout=PIPE, buffered: never None
        while chunk := stdout.read1(1 << 16):
            buffered += chunk
            *messages, buffered = buffered.split(b",")
            for message in messages:
                answer = json.loads(base64.b64decode(message))
                payload = answer.get("payload", {})
                with self._answered:
                    self._answers[answer.get("message_id")] = payload  # None: a message it could not read
                    self._count += 1
                    self._answered.notify_all()
        with self._answered:
            self._ended = True
            self._answered.notify_all()


def _part_count(pages: int, part_pages: int) -> int:
    return max(1, -(-pages // part_pages))


def _part_of(path: str, parts: int) -> int:
    """The part a page is indexed in. By a hash of its path: each part a sample of the whole
    site (similar word statistics, so scores compare across parts), and a page stays in its
    part from build to build, whether streamed or read from the folder."""
    return zlib.crc32(path.encode("utf-8")) % parts


def _part_folders(fresh: Path, parts: int) -> list[Path]:
    """Where each part's bundle is written: the first is the bundle itself."""
    return [fresh] + [fresh / _part_folder(number) for number in range(1, parts)]


def _part_folder(number: int) -> str:
    return f"part-{number}"


def _site_pages(site_dir: Path) -> list[str]:
    """The site's HTML pages (site-relative paths), not the bundles in pagefind/ and beside it.
    Depth first, each folder in the order the file system lists it, as the Pagefind CLI walked
    the site: the order pages are added decides the bytes of the bundle (not what it finds).
    A folder removed while it is walked (a rebuild under serve) is passed over."""
    bundles = {BUNDLE, f".{BUNDLE}-new", f".{BUNDLE}-old"}
    pages: list[str] = []

    def walk(folder: str, prefix: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            relative = prefix + entry.name
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_folder and relative not in bundles:
                walk(entry.path, relative + "/")
            elif not is_folder and relative.endswith(".html"):
                pages.append(relative)

    walk(str(site_dir), "")
    return pages


def _read_page(site_dir: Path, path: str) -> str | None:
    """A listed page's HTML; None when it is gone since (a rebuild under serve removed it)."""
    try:
        return (site_dir / path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None


def _page_count(folders: list[Path]) -> int:
    """Pages indexed in the bundles written to `folders`, as their entry files say."""
    count = 0
    for folder in folders:
        entry = json.loads((folder / "pagefind-entry.json").read_text(encoding="utf-8"))
        count += sum(language.get("page_count", 0) for language in entry.get("languages", {}).values())
    return count


def _install(site_dir: Path, *, parts: int = 1) -> None:
    """The new bundle (in .pagefind-new) replaces the old one in one move, minus unused UIs;
    with the list of its other parts (their own scripts and wasm are not used either)."""
    fresh, old, target = site_dir / f".{BUNDLE}-new", site_dir / f".{BUNDLE}-old", site_dir / BUNDLE
    for name in UNUSED:
        (fresh / name).unlink(missing_ok=True)
    folders = [_part_folder(number) for number in range(1, parts)]
    for folder in folders:
        for path in (fresh / folder).iterdir():
            if path.is_file() and path.name != "pagefind-entry.json" and not path.name.endswith(".pf_meta"):
                path.unlink()
    (fresh / PARTS_FILE).write_text(json.dumps({"parts": [f"{folder}/" for folder in folders]}) + "\n", encoding="utf-8")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    fresh.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def build(site_dir: Path, *, language: str = "en", part_pages: int = PART_PAGES) -> int:
    """Write the index of every page in `site_dir` to `site_dir`/pagefind; return the page count.
    In parts of at most `part_pages` pages, as a streamed build has them; each part read from
    the folder, indexed and written by its own process before the next starts."""
    started = time.perf_counter()
    fresh = site_dir / f".{BUNDLE}-new"
    shutil.rmtree(fresh, ignore_errors=True)
    pages = _site_pages(site_dir)
    shares: list[list[str]] = [[] for _ in range(_part_count(len(pages), part_pages))]
    for path in pages:
        shares[_part_of(path, len(shares))].append(path)
    folders = _part_folders(fresh, len(shares))
    try:
        for share, folder in zip(shares, folders):
            service = _Service(language)
            try:
                for path in share:
                    if (html := _read_page(site_dir, path)) is not None:
                        service.add(path, indexed_region(html))
                service.write(folder)
            finally:
                service.close()
        count = _page_count(folders)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    _install(site_dir, parts=len(shares))
    log.info(f"abstracts: search index of {count} pages in {time.perf_counter() - started:.1f} s ({len(shares)} part(s))")
    return count
