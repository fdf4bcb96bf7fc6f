"""Every repository path that code, templates, data files and docs name exists (issue 54): a
comment pointing to `tests/test_incremental.py` after the file moved sends a newcomer nowhere."""

from __future__ import annotations

import re
import subprocess

from helpers import ROOT

# A path as prose names it: a top-level folder of the repository, then path characters.
NAMED_PATH = re.compile(r"(?<![\w/.-])((?:generator|lab|bench|tests|scripts|docs|seeds|assets|overrides|\.github|\.ci)/[\w./*{},-]*[\w*}])")
# Where a path may be relative to instead of the repository: the theme's assets are named as
# the built site serves them ('assets/javascripts/map.js').
BASES = ("", "generator/plugin/theme/")
# Paths that are not this repository's, each with why.
ELSEWHERE = {
    "seeds/papers.txt": "the seeds file `abstracts-site new` writes in a new site (generator/plugin/newsite.py)",
    "assets/javascripts/workers/search": "Material's search worker in a built site (bench/search_bench.py)",
    "assets/javascripts/search": "a built site's search script, as bench/search_bench.py names it",
}
# Where the table of paths that moved is (a row: | `was` | `is` | ...): history (a decision
# record, before its Commits) may name a path as it was, if the table says where it is now.
MOVED_TABLE = "docs/dev/architecture.md"
# Files whose text names paths: code, templates, data, docs, workflows.
SUFFIXES = {".py", ".md", ".yml", ".yaml", ".j2", ".html", ".js", ".css", ".toml", ".cfg", ".txt", ".tsv"}


def _tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    return [name for name in listed if name and (name.endswith(tuple(SUFFIXES)) or name in ("Makefile", ".ci/run"))]


def _prose(name: str, text: str) -> str:
    """The text whose paths must exist: a decision record's Commits section quotes commit
    subjects as they were written, so it names paths as they were then."""
    if name.startswith("docs/decisions/"):
        return text.split("\n## Commits", 1)[0]
    return text


def _moved() -> dict[str, str]:
    """Path as it was -> path as it is, from the table in MOVED_TABLE."""
    text = (ROOT / MOVED_TABLE).read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|", text, re.MULTILINE))


def test_every_path_named_in_the_repository_exists():
    missing = []
    moved = {was: now for was, now in _moved().items() if (ROOT / now).exists()}
    for name in _tracked():
        path = ROOT / name
        if not path.exists() or name.startswith("seeds/") or name == "tests/architecture/test_paths.py":
            continue  # seeds are abstracts; this file names moved paths on purpose
        for match in NAMED_PATH.finditer(_prose(name, path.read_text(encoding="utf-8", errors="replace"))):
            named = match.group(1).rstrip(".")
            if named in ELSEWHERE or named.rsplit("/", 1)[-1].isupper() or any(c in named for c in "*{"):
                continue  # not this repository's, a placeholder ('seeds/FILE') or a pattern ('verdicts-*.tsv')
            if named in moved and (name.startswith("docs/decisions/") or name == MOVED_TABLE):
                continue  # history names it as it was; the table says where it went
            if not any((ROOT / base / named).exists() or _ignored(base + named) for base in BASES):
                missing.append(f"{name}: {named}")
    assert missing == []


def _ignored(path: str) -> bool:
    """Git ignores the path: a build or `make setup` writes it (docs/authors,
    docs/.abstracts-site/papers.pickle, the theme's assets/vendor/katex)."""
    return subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT).returncode == 0


def test_the_check_finds_a_path_that_moved():
    assert NAMED_PATH.findall("is byte-identical (tests/test_incremental.py). Each") == ["tests/test_incremental.py"]
    assert not (ROOT / "tests/test_incremental.py").exists()
    assert NAMED_PATH.findall("see generator/explore/data.py, then") == ["generator/explore/data.py"]
    assert NAMED_PATH.findall("`python -m lab.train` (lab/train.py, was scripts/train.py)") == ["lab/train.py", "scripts/train.py"]


def test_a_moved_path_is_where_the_table_says():
    """Every row of the table of moved paths: the old path is gone and the new one exists."""
    moved = _moved()
    assert "scripts/train.py" in moved
    assert [was for was in moved if (ROOT / was).exists()] == []
    assert [now for now in moved.values() if not (ROOT / now).exists()] == []
