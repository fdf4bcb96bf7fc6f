"""Shared fixtures: a temp-file helper, one built seeds site, one site built from hostile records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import ROOT, SEEDS, hostile_records, run_cli
from sentence_models import isolate

# Builds under test use a cache of their own: never the user's sentence model or vectors (a
# machine with the model would build other related papers), never filling the user's cache.
TEST_CACHE = isolate()


@pytest.fixture(scope="session", autouse=True)
def _test_cache():
    yield TEST_CACHE
    shutil.rmtree(TEST_CACHE, ignore_errors=True)


@pytest.fixture
def write_files(tmp_path: Path):
    """write_files({"a.txt": "..."}) -> the folder holding them (bytes values are written raw)."""

    def write(files: dict[str, str | bytes]) -> Path:
        for name, content in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8", newline="")
        return tmp_path

    return write


@pytest.fixture(scope="session")
def seeds_site(tmp_path_factory) -> tuple[Path, Path]:
    """The seeds built with the project's mkdocs.yml (strict): (site folder, generated docs folder)."""
    base = tmp_path_factory.mktemp("seeds-site")
    site, docs = base / "site", base / "docs"
    result = run_cli("build", str(SEEDS), "--site", str(site), "--docs", str(docs), "--config", str(ROOT / "mkdocs.yml"))
    assert result.returncode == 0, result.stderr
    return site, docs


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory) -> tuple[Path, list[dict], str]:
    """A site built from hostile_records(): (site folder, the records, the build's log)."""
    folder = tmp_path_factory.mktemp("hostile-given")
    records = hostile_records()
    source = folder / "hostile.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = run_cli("build", str(source), "--site", str(folder / "site"))
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "site", records, result.stderr
