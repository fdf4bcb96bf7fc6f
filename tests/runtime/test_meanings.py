"""Related papers by meaning in a run: vectors embedded once per text and model and kept in the
cache, an edit under serve embedding only its abstract, the `related_by` modes (the built-in
table by default), and a cache that cannot be used. With the tiny model the tests make (tests/sentence_models.py)."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import frontmatter
import numpy as np
import pytest

from generator import pipeline
from generator.errors import InputError
from generator.language.meaning import encoder as encoder_module
from generator.language.meaning import table
from generator.language.meaning.model import default_folder
from generator.pipeline import Settings, generate
from generator.runtime.meanings import VectorStore, meaning_vectors, store_path
from generator.runtime.session import Session
from helpers import SEEDS
from sentence_models import install_tiny


@pytest.fixture
def tiny_installed(tmp_path):
    """The tiny model installed where builds look; removed afterwards with the vectors."""
    model = install_tiny(tmp_path / "source")
    yield model
    shutil.rmtree(default_folder(), ignore_errors=True)
    store_path().unlink(missing_ok=True)


@pytest.fixture
def embedded(monkeypatch):
    """Every text the encoder embeds in this test, in order."""
    texts: list[str] = []
    embed = encoder_module.Encoder.embed

    def counting(self, batch, progress=False):
        texts.extend(batch)
        return embed(self, batch, progress)

    monkeypatch.setattr(encoder_module.Encoder, "embed", counting)
    return texts


def corpus(tmp_path: Path, count: int = 30) -> Path:
    """The first `count` seed abstracts as JSON Lines."""
    paragraphs = [p.strip() for f in sorted(SEEDS.glob("*.txt")) for p in f.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps({"abstract": p}) + "\n" for p in paragraphs[:count]), encoding="utf-8")
    return path


def related_of(docs: Path) -> dict[str, list[str]]:
    return {p.stem: [r["title"] for r in frontmatter.load(p).metadata.get("related", [])] for p in sorted((docs / "papers").glob("*.md"))}


def test_each_abstract_is_embedded_once_and_the_next_build_reads_the_cache(tmp_path, tiny_installed, embedded):
    source = corpus(tmp_path)
    first = generate([source], tmp_path / "one", Settings(related_by="semantic"))
    assert len(embedded) == 30
    embedded.clear()
    generate([source], tmp_path / "two", Settings(related_by="semantic"))  # another docs folder: the cache is the user's
    assert embedded == []
    assert related_of(tmp_path / "one") == related_of(tmp_path / "two")
    assert first.papers == 30


def test_meaning_changes_which_papers_are_related_and_lexical_ignores_the_model(tmp_path, tiny_installed):
    source = corpus(tmp_path)
    generate([source], tmp_path / "semantic", Settings(related_by="semantic"))
    generate([source], tmp_path / "table", Settings(related_by="table"))
    generate([source], tmp_path / "lexical", Settings(related_by="lexical"))
    shutil.rmtree(default_folder())
    generate([source], tmp_path / "without", Settings(related_by="auto"))
    generate([source], tmp_path / "words", Settings(related_by="lexical"))
    assert related_of(tmp_path / "table") == related_of(tmp_path / "without")  # auto without the model: the table
    assert related_of(tmp_path / "lexical") == related_of(tmp_path / "words")
    assert related_of(tmp_path / "semantic") != related_of(tmp_path / "lexical")
    assert related_of(tmp_path / "table") != related_of(tmp_path / "lexical")


def test_without_the_model_auto_finds_related_papers_by_the_built_in_table_and_semantic_is_an_error(tmp_path):
    source = corpus(tmp_path, 5)
    summary = generate([source], tmp_path / "docs", Settings(related_by="auto"))
    notes = [line for line in summary.lines() if line.startswith("note:")]
    assert len(notes) == 1 and "by meaning from abstracts-site-meaning-table: 5 of 5 abstract(s) embedded" in notes[0]
    with pytest.raises(InputError, match="model install"):
        generate([source], tmp_path / "docs2", Settings(related_by="semantic"))


def test_without_any_meaning_source_auto_says_once_that_related_papers_are_by_words_only(tmp_path, monkeypatch):
    monkeypatch.setattr(table, "table_folder", lambda: tmp_path / "no-table")
    source, session = corpus(tmp_path, 5), Session()
    summary = generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    notes = [line for line in summary.lines() if line.startswith("note:")]
    assert len(notes) == 1 and "by words only: the meaning table in" in notes[0] and "install abstracts-site again" in notes[0]
    source.write_text(source.read_text(encoding="utf-8").replace("We", "Here we", 1), encoding="utf-8")
    again = generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    assert not [line for line in again.lines() if line.startswith("note:")]  # said once per server
    generate([source], tmp_path / "words", Settings(related_by="lexical"))
    assert related_of(tmp_path / "docs") == related_of(tmp_path / "words")
    with pytest.raises(InputError, match="related_by: table"):
        generate([source], tmp_path / "docs2", Settings(related_by="table"))


def test_under_serve_an_edit_embeds_only_the_edited_abstract_and_the_note_is_said_once(tmp_path, tiny_installed, embedded):
    source = corpus(tmp_path, 30)  # enough papers for candidates taken by meaning (similar.FITTED_MIXING.candidates)
    session = Session()
    generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    assert len(embedded) == 30
    embedded.clear()
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    rows[3]["abstract"] += " We also report results on grasping."
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    assert len(embedded) == 1 and embedded[0].endswith("We also report results on grasping.")
    # What the server shows after the edit is what a build from scratch makes of the edited file.
    generate([source], tmp_path / "cold", Settings(related_by="auto"))
    served = {p.name: p.read_text(encoding="utf-8") for p in sorted((tmp_path / "docs" / "papers").glob("*.md"))}
    cold = {p.name: p.read_text(encoding="utf-8") for p in sorted((tmp_path / "cold" / "papers").glob("*.md"))}
    assert served == cold and len(served) == 30


def test_a_model_installed_while_serving_takes_over_from_the_table_at_the_next_edit(tmp_path):
    source, session = corpus(tmp_path, 12), Session()
    first = generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    assert any("from abstracts-site-meaning-table: 12 of 12" in line for line in first.lines())
    try:
        install_tiny(tmp_path / "source")
        source.write_text(source.read_text(encoding="utf-8").replace("We", "Here we", 1), encoding="utf-8")
        then = generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
        # Every abstract embedded by the model: none of the table's vectors (another size) is reused.
        assert any("from tiny-bert: 12 of 12" in line for line in then.lines())
        assert all(related_of(tmp_path / "docs").values())
    finally:
        shutil.rmtree(default_folder(), ignore_errors=True)
        store_path().unlink(missing_ok=True)


def notes_of(summary) -> list[str]:
    return [line for line in summary.lines() if line.startswith("note:")]


def test_under_serve_many_new_abstracts_are_linked_by_the_table_until_the_model_embedded_them_aside(tmp_path, tiny_installed, monkeypatch):
    monkeypatch.setattr(pipeline, "EMBED_ASIDE_FROM", 10)
    source, docs = corpus(tmp_path, 30), tmp_path / "docs"
    asked, told = threading.Event(), []
    session = Session(rebuild=asked.set, tell=told.append)
    first = generate([source], docs, Settings(related_by="auto"), session)
    assert any("tiny-bert embeds 30 new abstract(s) in the background" in line for line in notes_of(first))
    assert any("from abstracts-site-meaning-table: 30 of 30" in line for line in notes_of(first))
    generate([source], tmp_path / "table", Settings(related_by="table"))
    assert related_of(docs) == related_of(tmp_path / "table")  # served at once, linked by the table
    assert asked.wait(60), "the server was never asked to build again"
    assert "tiny-bert are ready (30 abstract(s) embedded" in told[-1]
    then = generate([source], docs, Settings(related_by="auto"), session)  # the build the server runs then
    assert any("from tiny-bert: 0 of 30 abstract(s) embedded" in line for line in notes_of(then))
    # What the server shows now is what a one-off build makes with the model.
    generate([source], tmp_path / "cold", Settings(related_by="auto"))
    served = {p.name: p.read_text(encoding="utf-8") for p in sorted((docs / "papers").glob("*.md"))}
    cold = {p.name: p.read_text(encoding="utf-8") for p in sorted((tmp_path / "cold" / "papers").glob("*.md"))}
    assert served == cold and len(served) == 30
    assert related_of(docs) != related_of(tmp_path / "table")


def test_a_model_that_fails_aside_leaves_the_site_linked_by_the_table_and_is_not_tried_again(tmp_path, tiny_installed, monkeypatch):
    monkeypatch.setattr(pipeline, "EMBED_ASIDE_FROM", 10)

    def broken(self, texts, progress=False):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(encoder_module.Encoder, "embed", broken)
    source, told = corpus(tmp_path, 30), []
    session = Session(tell=told.append)
    generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    session.embedding.join(60)
    assert told == [
        "related papers stay by meaning from the built-in table: tiny-bert could not embed the abstracts (RuntimeError: out of memory)"
    ]
    source.write_text(source.read_text(encoding="utf-8").replace("We", "Here we", 1), encoding="utf-8")
    again = generate([source], tmp_path / "docs", Settings(related_by="auto"), session)
    assert any("from abstracts-site-meaning-table: 1 of 30" in line for line in notes_of(again))
    assert not any("in the background" in line for line in notes_of(again))


def test_a_cache_that_cannot_be_read_is_reported_and_the_build_goes_on(tmp_path, tiny_installed):
    store_path().parent.mkdir(parents=True, exist_ok=True)
    store_path().write_bytes(b"this is not an SQLite database" * 100)
    summary = generate([corpus(tmp_path, 8)], tmp_path / "docs", Settings(related_by="semantic"))
    warnings = [line for line in summary.lines() if "meaning vectors could not be used" in line]
    assert len(warnings) == 1 and str(store_path()) in warnings[0]
    assert all(related_of(tmp_path / "docs").values())


def test_vectors_are_kept_per_model_and_text(tmp_path, tiny_installed):
    store = VectorStore(tmp_path / "v.sqlite", tiny_installed)
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return np.eye(32, dtype=np.float32)[[len(t) % 32 for t in texts]]

    first, made = meaning_vectors(["a", "bb", "a"], tiny_installed, embed, store)
    assert made == 2 and calls == [["a", "bb"]]  # a repeated text once
    again, made = meaning_vectors(["bb", "a", "ccc"], tiny_installed, embed, store)
    assert made == 1 and calls[-1] == ["ccc"]
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[1], first[0])
    other = VectorStore(tmp_path / "v.sqlite", type(tiny_installed)(**{**vars(tiny_installed), "identity": "another:model"}))
    assert other.get([b"x"]) == {}
    _, made = meaning_vectors(["a"], tiny_installed, embed, other)
    assert made == 1  # another model's vectors are never used
