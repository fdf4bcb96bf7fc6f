"""The publishing workflow, checked as zizmor (the GitHub Actions security linter) checks it:
actions pinned to commits, permissions per job, no credentials left behind by checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from helpers import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
# This repository's workflow and the one `abstracts-site new` gives every new site.
PUBLISHING = [WORKFLOWS / "pages.yml", ROOT / "generator" / "plugin" / "scaffold" / "pages.yml"]


def zizmor() -> str:
    # zizmor is a binary shipped in a wheel (the test extra): found beside this Python first.
    found = shutil.which("zizmor", path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    if found is None:
        pytest.skip("zizmor is not installed (pip install -e '.[test]')")
    return found


@pytest.mark.parametrize("workflow", PUBLISHING, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_zizmor_finds_nothing_in_the_workflows(workflow):
    result = subprocess.run([zizmor(), "--offline", "--no-progress", str(workflow)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout, result.stdout


@pytest.mark.parametrize("workflow", PUBLISHING, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_action_is_pinned_to_a_commit_with_its_release_named(workflow):
    uses = re.findall(r"^\s*(?:- )?uses: (\S+)(.*)$", workflow.read_text(encoding="utf-8"), re.M)
    assert len(uses) >= 4
    for action, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", action), action
        assert re.fullmatch(r" # v\d+\.\d+\.\d+", comment), (action, comment)
