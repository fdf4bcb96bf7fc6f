"""The pipeline's passes end to end (generator.pipeline.generate): a run writes the site, a run
with nothing changed does nothing, repeated abstracts become one page, a bad output folder is a
clean error."""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.pipeline import Settings, generate
from helpers import SEEDS

ABSTRACT = "We propose PatchSAE, a sparse autoencoder that explains how CLIP adapts to new tasks in vision transformers."


def test_a_run_writes_the_site_and_the_same_run_again_writes_nothing(tmp_path):
    docs = tmp_path / "docs"
    first = generate([SEEDS], docs, Settings())
    assert first.papers == 38 and first.write.written
    assert {"read+enrich", "link", "render", "write"} <= first.stage_seconds.keys()
    again = generate([SEEDS], docs, Settings())
    assert again.papers == 38 and not again.write.written
    assert again.stage_seconds.keys() == {"check"}  # nothing derived


def test_a_repeated_abstract_is_one_page_and_reported(tmp_path):
    source = tmp_path / "papers.txt"
    source.write_text(f"Test\n\n{ABSTRACT}\n\n{ABSTRACT.upper()}\n", encoding="utf-8")
    summary = generate([source], tmp_path / "docs", Settings(source_root=tmp_path))
    assert summary.papers == 1
    assert summary.report.duplicates == ["papers.txt:5 repeats papers.txt:3; merged into one page"]
    assert len(list((tmp_path / "docs" / "papers").glob("*.md"))) == 1


def test_an_output_folder_that_is_a_file_is_a_clean_error(tmp_path):
    (tmp_path / "docs").write_text("not a folder", encoding="utf-8")
    with pytest.raises(InputError, match="output folder is a file"):
        generate([SEEDS], tmp_path / "docs", Settings())
