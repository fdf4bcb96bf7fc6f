"""The topic map is started as soon as linking has found related papers, and is the very map
that would be made from the linked papers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.errors import Report
from generator.explore import mapfile
from generator.explore.topicmap import _graph, graph_of
from generator.link.corpus import link
from generator.pipeline import RunCache, Settings, load
from generator.runtime import map_process, parallel
from generator.sources.readers import input_files
from helpers import SEEDS


@pytest.fixture(scope="module")
def seeds_papers(tmp_path_factory):
    report = Report()
    papers = load(input_files([SEEDS], report), Settings(), report, RunCache(tmp_path_factory.mktemp("docs")))
    return papers


def _forks(monkeypatch) -> list[int]:
    started = []
    later = parallel.Later.__init__

    def counted(self, function):
        started.append(1)
        later(self, function)

    monkeypatch.setattr(parallel.Later, "__init__", counted)
    return started


def test_the_map_started_while_linking_is_the_one_made_from_the_linked_papers(seeds_papers, monkeypatch):
    forks = _forks(monkeypatch)
    linked = link(seeds_papers, 5, neighbours_found=map_process.start)
    assert forks == [1]  # the map started while linking
    ahead = map_process.map_for(linked)
    assert forks == [1]  # and the rendering takes it: no second process
    assert ahead.result() == mapfile.map_json(linked)


def test_the_graph_from_neighbour_lists_is_the_graph_of_related_papers(seeds_papers):
    linked = link(seeds_papers, 5, neighbours_found=map_process.start)
    map_process.map_for(linked).result()
    index = {p.id: i for i, p in enumerate(linked)}
    lists = [[(index[r.id], r.score + 0.0004) for r in p.related] for p in linked]  # cosines round to the scores
    assert (graph_of(lists) != _graph(linked)).nnz == 0


def test_papers_linking_did_not_start_it_for_get_their_own_map(seeds_papers):
    linked = link(seeds_papers, 5, neighbours_found=map_process.start)
    edited = [replace(linked[0], title="Another title"), *linked[1:]]
    own = map_process.map_for(edited)
    assert [later for _, later in map_process._ahead] == [own]  # the map started ahead is dropped (stopped)
    assert '"Another title"' in own.result() and own.result() == mapfile.map_json(edited)
