"""Keep the search index whole under `mkdocs serve --dirty`.

A dirty rebuild renders only the pages whose Markdown changed (the generator rewrites
only those), and Material's search plugin then writes an index of just those pages. The
index of every page is kept here between rebuilds and written back whole. This module is
imported normally, so its state survives MkDocs loading the hook file afresh each rebuild.
"""

from __future__ import annotations

import json
from pathlib import Path

dirty = False  # set once by the hook's on_startup
_pages: dict[str, list[dict]] = {}  # page URL -> its search entries, in index order


def keep_whole(site_dir: Path) -> None:
    path = site_dir / "search" / "search_index.json"
    if not dirty or not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    fresh: dict[str, list[dict]] = {}
    for doc in index["docs"]:
        fresh.setdefault(doc["location"].split("#")[0], []).append(doc)
    kept = {url: docs for url, docs in _pages.items() if _exists(site_dir, url)}
    _pages.clear()
    _pages.update({**kept, **fresh})
    if kept.keys() - fresh.keys():
        index["docs"] = [doc for docs in _pages.values() for doc in docs]
        path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _exists(site_dir: Path, url: str) -> bool:
    return (site_dir / url / "index.html").is_file()
