"""The topic map (generator.explore.mapfile.map_json) made in a forked process of its own: the
pipeline starts it as soon as linking has found each paper's related papers (`start`, handed to
linking as its `neighbours_found`), and takes it after rendering (`made`). Decision 0007."""

from __future__ import annotations

from collections.abc import Hashable

from generator.explore import mapfile
from generator.explore.topicmap import graph_of
from generator.model import Paper
from generator.runtime.parallel import Later

_ahead: list[tuple[Hashable, Later[str]]] = []  # what the map started ahead is of, and its process


def start(papers: list[Paper], lists: list[list[tuple[int, float]]], words=None) -> None:
    """Make the map of `papers` once each has the related papers `lists` names (per paper:
    other paper's index, cosine), in a forked process meanwhile. It needs their ids and scores,
    not the reasons worked out after them; `words`: their word TF-IDF rows (link.corpus)."""
    related = [tuple((papers[j].id, round(score, 3)) for j, score in found) for found in lists]
    cancel()  # a run that failed before rendering took its map
    _ahead[:] = [(_key(papers, related), Later(lambda: mapfile.map_json(papers, graph_of(lists), words)))]


def cancel() -> None:
    """The map started ahead, or handed to rendering, is not wanted (its run failed): its
    process is stopped (no-op for a map already taken)."""
    ahead, _ahead[:] = _ahead[:], []
    for _, later in ahead:
        later.cancel()


def map_for(papers: list[Paper]) -> Later[str]:
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
        found = Later(lambda: mapfile.map_json(papers))
    _ahead.append((wanted, found))
    return found


def _key(papers: list[Paper], related: list[tuple[tuple[str, float], ...]]) -> tuple:
    """Everything of the papers the map reads (generator.explore.data.map_data, link.document)."""
    return tuple(
        (p.id, p.text, p.title, p.given_title, p.summary, p.slug, p.area, p.tags, p.keyphrases, p.tag_choice.derived, links)
        for p, links in zip(papers, related)
    )
