"""Shared fixtures: paths to the seeds and corpora, a temp-file helper, and one built seeds site."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
CORPUS = ROOT.parent / "shared" / "corpus"
MKDOCS = ROOT / ".venv" / "bin" / "mkdocs"


def run_cli(*args: str, cwd: Path = ROOT, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run `python -m generator ...` as a user would, capturing its output."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def mkdocs_build(folder: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in a site folder, as its author runs it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([str(MKDOCS), "build", "--strict"], cwd=folder, env=env, capture_output=True, text=True, timeout=300)


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


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus {path} not available")
    return path


class Dom(HTMLParser):
    """Every element (tag, attributes), comment, and the visible text outside math spans
    of an HTML fragment: what the tests check for markup injected from input."""

    def __init__(self, html: str = ""):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.comments: list[str] = []
        self.text: list[str] = []
        self._math = 0
        if html:
            self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if tag == "span" and "arithmatex" in (attributes.get("class") or ""):
            self._math += 1

    def handle_endtag(self, tag):
        if tag == "span" and self._math:
            self._math -= 1

    def handle_comment(self, data):
        self.comments.append(data)

    def handle_data(self, data):
        if not self._math:
            self.text.append(data)
