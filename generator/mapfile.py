"""map.json, the topic map's data (positions, areas, regions: generator.explore), made on
the other core. Linking starts it as soon as each paper's related papers are found (`start`):
it needs their ids and scores, not the reasons worked out after them, and the TF-IDF it
vectorizes topics from is still remembered then (generator.similar). The rendering takes it
(`made`), or makes it itself for papers linking did not start it for. One forked process for
the topic vectors and the layout, where there were two (one while linking, one while
rendering, which had to wait for the first: a process cannot wait for its parent's child).
"""

from __future__ import annotations

import json
from collections.abc import Hashable

from threadpoolctl import threadpool_limits

from .explore import map_data
from .layout import MARKER
from .model import Paper
from .parallel import Later
from .topicmap import graph_of, positions

_ahead: list[tuple[Hashable, Later[str]]] = []  # what the map started ahead is of, and its process


def json_text(data: dict) -> str:
    """A generated JSON file's text (marked as generated, compact)."""
    return json.dumps({"generated_by": MARKER, **data}, ensure_ascii=False, separators=(",", ":")) + "\n"


def area_order(papers: list[Paper]) -> list[str]:
    """The areas, most papers first (the map's colours, the home page's chart)."""
    counts: dict[str, int] = {}
    for paper in papers:
        counts[paper.area] = counts.get(paper.area, 0) + 1
    return sorted(counts, key=lambda area: (-counts[area], area))


def map_json(papers: list[Paper], graph=None) -> str:
    # One BLAS thread: more compete with the process rendering pages for the same cores (on two
    # busy cores the map took 1.6-5.9 s of CPU with them, 0.8 s without).
    with threadpool_limits(1):
        return json_text(map_data(papers, positions(papers, graph), area_order(papers)))


def start(papers: list[Paper], lists: list[list[tuple[int, float]]]) -> None:
    """Make the map of `papers` once each has the related papers `lists` names (per paper:
    other paper's index, cosine), in a forked process meanwhile."""
    related = [tuple((papers[j].id, round(score, 3)) for j, score in found) for found in lists]
    cancel()  # a run that failed before rendering took its map
    _ahead[:] = [(_key(papers, related), Later(lambda: map_json(papers, graph_of(lists))))]


def cancel() -> None:
    """The map started ahead, or handed to rendering, is not wanted (its run failed): its
    process is stopped (no-op for a map already taken)."""
    ahead, _ahead[:] = _ahead[:], []
    for _, later in ahead:
        later.cancel()


def made(papers: list[Paper]) -> Later[str]:
    """The map of `papers`: the one started ahead when it is of these very papers, else one
    started now. Remembered until the next run starts, so that `cancel` stops it if this run
    fails before taking it."""
    ahead, _ahead[:] = _ahead[:], []
    wanted = _key(papers, [tuple((r.id, r.score) for r in p.related) for p in papers])
    found = None
    for key, later in ahead:
        if found is None and key == wanted:
            found = later
        else:
            later.cancel()  # another corpus's: not waited for
    if found is None:
        found = Later(lambda: map_json(papers))
    _ahead.append((wanted, found))
    return found


def _key(papers: list[Paper], related: list[tuple[tuple[str, float], ...]]) -> tuple:
    """Everything of the papers the map reads (generator.explore.map_data, link.document)."""
    return tuple(
        (p.id, p.text, p.title, p.given_title, p.summary, p.slug, p.area, p.tags, p.keyphrases, links)
        for p, links in zip(papers, related)
    )
