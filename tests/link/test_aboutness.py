"""Tags by aboutness (generator.link.aboutness, decision 0031): a derived tag whose name the
paper's meaning is far from is shown as a key phrase; given and title-named tags never are;
related papers do not change; the shipped name vectors are the sources' own."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import yaml

from generator.enrich.tags import derived_terms
from generator.language.meaning.source import embedder
from generator.language.meaning.table import find_table
from generator.link.aboutness import Aboutness, fitted_aboutness, shown_by_aboutness, tags_not_about
from generator.link.corpus import link, meaning_text
from generator.model import paper_with
from helpers import papers_from

ROOT = Path(__file__).resolve().parents[2]
TABLE = "abstracts-site-meaning-table"
MODEL = "all-MiniLM-L6-v2"


def _unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def _aboutness(floor: float = 0.3) -> Aboutness:
    # Three tags along three axes: a paper's cosine with a tag is its vector's component on the tag's axis.
    return Aboutness(floor, {"flow matching": 0, "segmentation": 1, "robotics": 2}, np.eye(3, dtype=np.float32))


def _paper(tags: tuple[str, ...], given: tuple[str, ...] = (), title: str = "A method", shown_as_phrases: tuple[str, ...] = ()):
    [paper] = papers_from("We propose a method and evaluate it on standard benchmarks.")
    return paper_with(
        paper, tags=tags, title=title, tag_choice=dataclasses.replace(paper.tag_choice, given=given, as_phrases=shown_as_phrases)
    )


def test_a_derived_tag_below_the_floor_is_not_what_the_paper_is_about():
    paper = _paper(("flow matching", "segmentation", "robotics"))
    assert tags_not_about(paper, _unit(0.9, 0.2, 0.1), _aboutness()) == ("segmentation", "robotics")
    assert tags_not_about(paper, _unit(0.6, 0.5, 0.6), _aboutness()) == ()


def test_given_and_title_named_tags_are_never_set_apart():
    paper = _paper(("flow matching", "segmentation", "robotics"), given=("robotics",), title="Continual Panoptic Segmentation")
    assert tags_not_about(paper, _unit(1.0, 0.0, 0.0), _aboutness()) == ()


def test_a_tag_without_a_name_vector_keeps_the_rule_of_words():
    paper = _paper(("flow matching", "a filled-up key phrase"))
    assert tags_not_about(paper, _unit(0.0, 1.0, 0.0), _aboutness()) == ("flow matching",)


def test_tags_set_apart_are_shown_as_key_phrases_and_the_rest_is_untouched():
    about = _paper(("flow matching",))
    not_about = _paper(("flow matching", "segmentation"), shown_as_phrases=("robotics",))
    meanings = np.stack([_unit(1.0, 0.0, 0.0), _unit(1.0, 0.1, 0.0)])
    first, second = shown_by_aboutness([about, not_about], meanings, _aboutness())
    assert first is about  # nothing set apart: the very same paper
    assert second.tags == not_about.tags and second.tag_choice.as_phrases == ("robotics", "segmentation")
    assert shown_by_aboutness([about], None, _aboutness()) == [about]  # words only
    assert shown_by_aboutness([about], meanings[:1], None) == [about]  # a source with no name vectors


def test_the_fitted_floors_and_vectors_are_read_per_source():
    assert fitted_aboutness(None) is None and fitted_aboutness("some-other-model") is None
    data = yaml.safe_load((ROOT / "generator" / "data" / "aboutness.yml").read_text(encoding="utf-8"))
    for source in (TABLE, MODEL):
        aboutness = fitted_aboutness(source)
        assert aboutness is not None and 0.0 < aboutness.floor < 1.0
        assert list(aboutness.rows) == data["tags"] and aboutness.vectors.shape[0] == len(data["tags"])
        assert np.allclose(np.linalg.norm(aboutness.vectors, axis=1), 1.0, atol=2e-3)  # float16 unit rows
        for venue, floor in data["sources"][source]["without_venue"].items():
            assert fitted_aboutness(source, venue).floor == floor
        assert fitted_aboutness(source, "a venue never judged").floor == aboutness.floor


def test_the_shipped_name_vectors_are_the_tables_own():
    aboutness = fitted_aboutness(TABLE)
    assert aboutness is not None
    tags = list(aboutness.rows)[::20]
    made = embedder(find_table())(tags, False)
    shipped = aboutness.vectors[[aboutness.rows[tag] for tag in tags]]
    assert np.min(np.sum(made * shipped, axis=1)) > 0.999  # tune_aboutness.py ran after the table last changed


@pytest.fixture(scope="module")
def seeds_by_the_table():
    from generator.enrich.paper import enrich
    from generator.errors import Report
    from generator.sources.readers import read_file
    from helpers import hidden

    records = [r for path in sorted((ROOT / "seeds").glob("*.txt")) for r in read_file(path, Report())]
    papers = [enrich(hidden(record)) for record in records]
    meanings = embedder(find_table())([meaning_text(p) for p in papers], False)
    return papers, meanings


def test_the_seeds_test_time_adaptation_paper_keeps_only_tags_it_is_about(seeds_by_the_table):
    papers, meanings = seeds_by_the_table
    with_meaning = link(list(papers), 5, meanings=meanings, aboutness=fitted_aboutness(TABLE))
    words_only = link(list(papers), 5, meanings=meanings)
    [tta] = [p for p in with_meaning if "test-time adaptation" in p.text.lower() and "entropy" in p.text.lower()]
    [tta_words] = [p for p in words_only if p.id == tta.id]
    assert {"segmentation", "benchmarks"} <= set(tta_words.tags)  # named in passing: the words alone tag it
    assert not {"segmentation", "benchmarks"} & set(tta.tags)
    assert "segmentation" in tta.keyphrases  # still on the page, as a key phrase
    # Related papers are found by the terms as derived: the same lists either way.
    assert [[r.id for r in p.related] for p in with_meaning] == [[r.id for r in p.related] for p in words_only]
    assert [derived_terms(p) for p in with_meaning] == [derived_terms(p) for p in words_only]


def test_key_phrases_filled_up_as_tags_are_checked_by_their_embedded_names():
    asked: list[list[str]] = []

    def embed(names: list[str]) -> np.ndarray:
        asked.append(names)
        return np.stack([_unit(0.0, 0.0, 1.0) if name == "computer science" else _unit(1.0, 0.0, 0.0) for name in names])

    aboutness = dataclasses.replace(_aboutness(), embed_others=embed)
    first = _paper(("flow matching", "computer science", "energy-weighted flow"))
    second = _paper(("computer science",))
    meanings = np.stack([_unit(1.0, 0.0, 0.0), _unit(1.0, 0.0, 0.0)])
    checked = shown_by_aboutness([first, second], meanings, aboutness)
    assert asked == [["computer science", "energy-weighted flow"]]  # each other name once, in one batch
    assert checked[0].tag_choice.as_phrases == ("computer science",) and checked[1].tag_choice.as_phrases == ("computer science",)
    # Without a way to embed them, such tags keep the rule of words.
    assert shown_by_aboutness([first], meanings[:1], _aboutness()) == [first]


def test_a_build_embeds_other_names_through_the_vector_cache(tmp_path, monkeypatch):
    from generator.pipeline import fitted_aboutness_for

    monkeypatch.setenv("ABSTRACTS_SITE_CACHE", str(tmp_path))
    aboutness = fitted_aboutness_for(find_table())
    assert aboutness is not None and aboutness.embed_others is not None
    vectors = aboutness.embed_others(["computer science", "signed distance function"])
    assert vectors.shape == (2, find_table().dimension)
    assert np.allclose(vectors, embedder(find_table())(["computer science", "signed distance function"], False))
    assert fitted_aboutness_for(None) is None
