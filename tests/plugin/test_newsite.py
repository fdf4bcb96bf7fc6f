"""`abstracts-site new DIR` makes a site folder its user owns, and the command line's errors
are one line with exit status 2, never a traceback."""

from __future__ import annotations

import os

import pytest
import yaml

from helpers import mkdocs_build, run_cli


def test_new_makes_a_site_that_builds_strictly(tmp_path):
    result = run_cli("new", "conference-site", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "conference-site"
    for path in (
        "mkdocs.yml",
        "README.md",
        "requirements.txt",
        ".gitignore",
        ".github/workflows/pages.yml",
        "docs/about.md",
        "seeds/papers.txt",
    ):
        assert (folder / path).is_file(), path
    assert not (folder / "overrides").exists()  # the theme is used from the package
    config = yaml.load((folder / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert config["site_name"] == "Conference Site"
    assert config["plugins"] == [{"abstracts": {"inputs": ["seeds"], "related": "5", "related_by": "auto"}}]
    assert "mkdocs build --strict" in (folder / ".github" / "workflows" / "pages.yml").read_text()

    built = mkdocs_build(folder)
    assert built.returncode == 0, built.stderr
    pages = sorted((folder / "site" / "papers").glob("*/index.html"))
    assert len(pages) == 5
    assert "PatchSAE" in next(p for p in pages if p.parent.name.startswith("patchsae")).read_text(encoding="utf-8")
    # What the build wrote into docs/ is what the new site's .gitignore leaves out of git.
    ignored = [
        line.removeprefix("docs/").rstrip("/") for line in (folder / ".gitignore").read_text().splitlines() if line.startswith("docs/")
    ]
    written = {p.name for p in (folder / "docs").iterdir() if p.name != "about.md"}
    assert written <= set(ignored)
    assert set(ignored) - written == {"authors"}  # made only for records that name their authors


def test_new_can_copy_the_theme_to_edit_it(tmp_path):
    result = run_cli("new", "site", "--title", "Workshop Papers", "--copy-theme", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "site"
    paper_template = folder / "overrides" / "paper.html"
    assert paper_template.is_file() and (folder / "overrides" / "partials" / "search.html").is_file()
    assert "custom_dir: overrides" in (folder / "mkdocs.yml").read_text()
    paper_template.write_text(paper_template.read_text().replace("{% block content %}", "{% block content %}<p>edited-copy-3c1f</p>", 1))
    assert mkdocs_build(folder).returncode == 0
    page = next((folder / "site" / "papers").glob("patchsae*/index.html")).read_text(encoding="utf-8")
    assert "edited-copy-3c1f" in page and "Workshop Papers" in page


def test_new_into_an_existing_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    assert run_cli("new", "empty", cwd=tmp_path).returncode == 0
    assert (tmp_path / "empty" / "mkdocs.yml").is_file()


@pytest.mark.parametrize(
    "args, message",
    [
        (["new", "full"], "error: full: folder exists and is not empty; name a new or empty folder"),
        (["new", "file.txt"], "error: file.txt: is a file, not a folder"),
        (["build", "--site", "out"], "error: no inputs: name files or folders of abstracts"),
        (["generate", "--out", "out"], "error: no inputs: name files or folders of abstracts"),
        (["build", "missing.txt", "--site", "out"], "error: missing.txt: no such file or folder"),
        (["generate", "missing/", "--out", "out"], "error: missing: no such file or folder"),
        (["generate", "dangling.txt", "--out", "out"], "error: dangling.txt: no such file or folder"),
        (["build", "file.txt"], "error: no site folder: name one with --site DIR"),
        (["serve"], "error: mkdocs.yml: no such file (make a site with `abstracts-site new DIR`, then serve it from DIR)"),
    ],
)
def test_errors_are_one_line_with_exit_status_2(tmp_path, args, message):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.md").write_text("mine")
    (tmp_path / "file.txt").write_text("Papers\n\nAn abstract about graphs.\n")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "gone.txt")
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
    assert (tmp_path / "full" / "notes.md").read_text() == "mine"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
@pytest.mark.parametrize("name", ["locked.txt", "locked-folder"])
def test_unreadable_inputs_are_one_line_with_exit_status_2(tmp_path, name):
    path = tmp_path / name
    if name.endswith(".txt"):
        path.write_text("Papers\n\nAn abstract.\n")
    else:
        path.mkdir()
        (path / "a.txt").write_text("Papers\n\nAn abstract.\n")
    path.chmod(0)
    try:
        result = run_cli("generate", name, "--out", "out", cwd=tmp_path)
    finally:
        path.chmod(0o755)
    assert result.returncode == 2 and result.stderr.startswith(f"error: {name}: cannot read") and "Traceback" not in result.stderr
