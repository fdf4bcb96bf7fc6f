"""Tags before and after a change over whole corpora (lab/tag_changes.py): the pages that
lose or gain a tag are counted and listed, and a missing corpus is a clear error."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lab import tag_changes


def page(title, tags):
    return {"title": title, "keywords": ["kw"], "tags": tags, "keyphrases": []}


def test_diff_counts_and_lists_the_pages_a_tag_leaves_and_joins(tmp_path):
    before = tmp_path / "before.json"
    after = tmp_path / "after.json"
    before.write_text(json.dumps({"c": [page("Spectral bias", ["fairness"]), page("Fair ranking", ["fairness"]), page("Other", ["a"])]}))
    after.write_text(json.dumps({"c": [page("Spectral bias", []), page("Fair ranking", ["fairness"]), page("Other", ["a", "fairness"])]}))
    result = CliRunner().invoke(tag_changes.main, ["diff", str(before), str(after), "--tag", "fairness"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2 of 3 papers' tags change"
    assert "  fairness: -1 +1" in lines
    assert "- c | Spectral bias | kw" in lines and "+ c | Other | kw" in lines
    assert not any("Fair ranking" in line for line in lines)


def test_dump_names_a_missing_corpus(tmp_path):
    result = CliRunner().invoke(tag_changes.main, ["dump", str(tmp_path / "out.json"), "--corpus", str(tmp_path), "nope"])
    assert result.exit_code == 2
    assert "nope.jsonl" in result.output and not (tmp_path / "out.json").exists()
