"""map.json, the topic map's data: positions, areas, regions (generator.explore.data). The
pipeline makes it in a process of its own while pages render (generator.runtime.map_process)."""

from __future__ import annotations

import json

from threadpoolctl import threadpool_limits

from generator.explore.data import map_data
from generator.explore.topicmap import positions
from generator.layout import MARKER
from generator.model import Paper


def json_text(data: dict) -> str:
    """A generated JSON file's text (marked as generated, compact)."""
    return json.dumps({"generated_by": MARKER, **data}, ensure_ascii=False, separators=(",", ":")) + "\n"


def area_order(papers: list[Paper]) -> list[str]:
    """The areas, most papers first (the map's colours, the home page's chart)."""
    counts: dict[str, int] = {}
    for paper in papers:
        counts[paper.area] = counts.get(paper.area, 0) + 1
    return sorted(counts, key=lambda area: (-counts[area], area))


def map_json(papers: list[Paper], graph=None, words=None) -> str:
    """map.json's text; `graph`: the related-papers graph, `words`: the papers' word TF-IDF rows,
    when linking made them already."""
    # One BLAS thread: more compete with the process rendering pages for the same cores, and
    # the map took several times the CPU with them (decision 0007).
    with threadpool_limits(1):
        return json_text(map_data(papers, positions(papers, graph), area_order(papers), words))
