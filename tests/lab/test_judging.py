"""The blind-judgement protocol (lab/judging.py): items shared by versions are judged once,
the judge sees no version, and the counts follow the verdicts."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from lab import judging


def capture(label, tags, related, weaker=()):
    paper = {
        "corpus": "corl2022",
        "record": 4,
        "id": "abc",
        "title": "Real Title",
        "keywords": ["grasping"],
        "abstract": "We learn to grasp objects from few demonstrations.",
        "tags": tags,
        "keyphrases": [],
        "related": [
            {"record": r, "title": f"Paper {r}", "abstract": f"Abstract of paper {r}.", "reasons": [], "strong": r not in weaker}
            for r in related
        ],
    }
    return {"label": label, "commit": "0000000", "seed": 15, "count": 1, "papers": [paper]}


def write(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_items_are_judged_once_blind_and_counted_per_version(tmp_path):
    before = write(tmp_path / "before.json", capture("before", ["grasping", "evaluation"], [7, 9]))
    after = write(tmp_path / "after.json", capture("after", ["grasping", "imitation learning"], [7, 11], weaker={11}))
    runner = CliRunner()
    made = runner.invoke(judging.main, ["items", before, after, "--out", str(tmp_path / "round")])
    assert made.exit_code == 0, made.output
    brief = (tmp_path / "round" / "brief.md").read_text()
    ids = re.findall(r"`([0-9a-f]{10})`", brief)
    # 3 distinct tags and 3 distinct links; the shared tag and link appear once.
    assert len(ids) == len(set(ids)) == 6
    assert brief.count("**grasping**") == 1 and brief.count("**Paper 7**") == 1
    assert "before" not in brief and "after" not in brief  # no version label reaches the judge
    key = {item["id"]: item for item in json.loads((tmp_path / "round" / "items.json").read_text())["items"]}
    wrong = {i for i, item in key.items() if item.get("tag") == "evaluation" or item.get("title") == "Paper 11"}
    verdicts = tmp_path / "verdicts.tsv"
    verdicts.write_text("\n".join(f"{i} {'wrong' if i in wrong else 'ok'} reason" for i in ids) + "\n")
    counted = runner.invoke(judging.main, ["count", str(verdicts), before, after])
    assert counted.exit_code == 0, counted.output
    before_part, after_part = counted.output.split("## after")
    assert "| corl2022 | 1 of 2 | 0 of 2 | 0 of 2 | 0 |" in before_part and "tag 'evaluation'" in before_part
    # The wrong link is a weaker one (below the floor): links shown as related hold none wrong.
    assert "| corl2022 | 0 of 2 | 1 of 2 | 0 of 1 | 0 |" in after_part and "link to 'Paper 11'" in after_part


def test_known_verdicts_stay_and_calibrate_the_next_judge(tmp_path):
    before = write(tmp_path / "before.json", capture("before", ["grasping", "evaluation"], [7]))
    later = write(tmp_path / "later.json", capture("later", ["grasping", "robot manipulation"], [7]))
    runner = CliRunner()
    runner.invoke(judging.main, ["items", before, "--out", str(tmp_path / "r1")])
    first = re.findall(r"`([0-9a-f]{10})`", (tmp_path / "r1" / "brief.md").read_text())
    known = tmp_path / "known.tsv"
    known.write_text("\n".join(f"{i} ok" for i in first) + "\n")
    made = runner.invoke(judging.main, ["items", before, later, "--out", str(tmp_path / "r2"), "--known", str(known)])
    assert made.exit_code == 0, made.output
    brief = (tmp_path / "r2" / "brief.md").read_text()
    assert re.findall(r"`([0-9a-f]{10})`", brief) == [judging.item_id("corl2022#4", "tag", "robot manipulation")]
    assert "calibration" in brief and "tag 'evaluation' on a paper: ok" in brief
    # Not judged is said, not guessed.
    counted = runner.invoke(judging.main, ["count", str(known), later])
    assert "| corl2022 | 0 of 1 | 0 of 1 | 0 of 1 | 1 |" in counted.output


def test_a_round_of_tags_only_leaves_the_links_not_judged(tmp_path):
    before = write(tmp_path / "before.json", capture("before", ["grasping", "evaluation"], [7, 9]))
    runner = CliRunner()
    made = runner.invoke(judging.main, ["items", before, "--out", str(tmp_path / "round"), "--only", "tag"])
    assert made.exit_code == 0, made.output
    brief = (tmp_path / "round" / "brief.md").read_text()
    ids = re.findall(r"`([0-9a-f]{10})`", brief)
    assert len(ids) == 2 and "**Paper 7**" not in brief
    verdicts = tmp_path / "verdicts.tsv"
    verdicts.write_text("\n".join(f"{i} ok" for i in ids) + "\n")
    counted = runner.invoke(judging.main, ["count", str(verdicts), before])
    assert "| corl2022 | 0 of 2 | 0 of 0 | 0 of 0 | 2 |" in counted.output


def test_the_ceiling_brief_lists_the_whole_venue_and_found_counts_right_links(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    titles = ["Grasping with few demonstrations", "Tactile grasping", "Language models", "Real Title", "Dexterous grasps"]
    (corpus / "corl2022.jsonl").write_text("".join(json.dumps({"title": t, "abstract": "x"}) + "\n" for t in titles), encoding="utf-8")
    before = write(tmp_path / "before.json", capture("before", [], [1, 2]))
    after = write(tmp_path / "after.json", capture("after", [], [1, 4]))
    runner = CliRunner()
    made = runner.invoke(judging.main, ["ceiling", before, "--out", str(tmp_path / "ceiling"), "--corpus", str(corpus)])
    assert made.exit_code == 0, made.output
    brief = (tmp_path / "ceiling" / "brief.md").read_text()
    assert "## Paper corl2022#4" in brief and "We learn to grasp objects" in brief
    assert all(f"- {n}: {t}" in brief for n, t in enumerate(titles))  # every title of the venue, by record number
    answers = tmp_path / "ceiling.tsv"
    answers.write_text("corl2022#4\t1 4? 0\n", encoding="utf-8")
    counted = runner.invoke(judging.main, ["found", str(answers), before, after])
    assert counted.exit_code == 0, counted.output
    lines = counted.output.splitlines()
    assert (
        lines[0]
        == "before: 2 links shown; at most 2 surely right (2 counting the unsure); they hold 1 of 2 sure and 0 of 1 unsure right links; the strong links hold 1 of the sure ones"
    )
    assert (
        lines[1]
        == "after: 2 links shown; at most 2 surely right (2 counting the unsure); they hold 1 of 2 sure and 1 of 1 unsure right links; the strong links hold 1 of the sure ones"
    )


def test_frontier_hides_the_least_evidenced_tags_first_and_reports_judges_agreement(tmp_path):
    data = capture("now", ["evaluation", "imitation learning", "benchmark suite"], [7])
    paper = data["papers"][0]
    paper["abstract"] = "We study imitation learning for grasping. Our imitation learning policy grasps unseen objects."
    paper["tag_scores"] = {"imitation learning": 0.8}
    now = write(tmp_path / "now.json", data)
    ids = {tag: judging.item_id("corl2022#4", "tag", tag) for tag in paper["tags"]}
    link = judging.item_id("corl2022#4", "link", "7")
    (tmp_path / "a.tsv").write_text(f"{ids['evaluation']} wrong\n{ids['imitation learning']} ok\n{ids['benchmark suite']} ok\n{link} ok\n")
    (tmp_path / "b.tsv").write_text(
        f"{ids['evaluation']} wrong\n{ids['imitation learning']} ok\n{ids['benchmark suite']} ok\n{link} wrong\n"
    )
    runner = CliRunner()
    result = runner.invoke(
        judging.main, ["frontier", now, "--judge", str(tmp_path / "a.tsv"), "--judge", str(tmp_path / "b.tsv"), "--target", "0.2"]
    )
    assert result.exit_code == 0, result.output
    assert "judges agree on 75.0% of the 4 tags and links" in result.output
    assert "3 judged tags, 1 wrong (mean of the judges): 33.3%" in result.output
    # The tag the abstract names twice is the best evidenced; the two it does not name go first.
    assert "keep the 1 best evidenced tags (33%), hiding 1 right and 1 wrong" in result.output
    assert "| corl2022 | 3 | 1 |" in result.output
    missing = runner.invoke(judging.main, ["frontier", now, "--judge", str(tmp_path / "none-*.tsv")])
    assert missing.exit_code != 0 and "no verdict file matches" in missing.output


def test_a_small_sample_fails_a_target_it_meets_often():
    assert round(judging.exceeding(20, 0.10, 0.10), 3) == 0.323  # more than 2 of 20 wrong
    assert judging.exceeding(20, 0.0, 0.10) == 0.0


def test_the_majority_of_several_judges_is_one_verdict_and_a_tie_is_wrong(tmp_path):
    (tmp_path / "a.tsv").write_text("aaaaaaaaaa ok\nbbbbbbbbbb wrong\ncccccccccc ok\n")
    (tmp_path / "b.tsv").write_text("aaaaaaaaaa ok\nbbbbbbbbbb ok\ncccccccccc wrong\n")
    (tmp_path / "c.tsv").write_text("aaaaaaaaaa wrong\nbbbbbbbbbb wrong\n")
    out = tmp_path / "majority.tsv"
    made = CliRunner().invoke(judging.main, ["majority", *(str(tmp_path / f"{j}.tsv") for j in "abc"), "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert judging.read_verdicts(out) == {"aaaaaaaaaa": "ok", "bbbbbbbbbb": "wrong", "cccccccccc": "wrong"}


def test_an_untitled_paper_is_listed_for_the_ceiling_judge_by_its_opening_words():
    words = " ".join(f"w{i}" for i in range(40))
    assert judging._title_or_opening({"title": "A Title", "abstract": words}) == "A Title"
    shown = judging._title_or_opening({"abstract": words})
    assert shown.startswith("(untitled) w0 w1") and shown.endswith("w24 …")


def test_tags_judged_wrong_are_the_mean_of_their_judges_with_wilson_intervals(tmp_path):
    now = write(tmp_path / "now.json", capture("now", ["grasping", "evaluation", "robotics"], []))
    ids = {tag: judging.item_id("corl2022#4", "tag", tag) for tag in ("grasping", "evaluation", "robotics")}
    (tmp_path / "a.tsv").write_text(f"{ids['grasping']} ok\n{ids['evaluation']} wrong\n")
    (tmp_path / "b.tsv").write_text(f"{ids['grasping']} ok\n{ids['evaluation']} ok\n")
    shown = CliRunner().invoke(judging.main, ["wrong", now, "--judge", str(tmp_path / "a.tsv"), "--judge", str(tmp_path / "b.tsv")])
    assert shown.exit_code == 0, shown.output
    low, high = judging.wilson(0.5, 2)
    assert f"| corl2022 | 2 | 0.5 (25.0%) | [{low:.2f}, {high:.2f}] | 1 |" in shown.output  # 'robotics': judged by none
    assert 0.0 < low < 0.25 < high < 1.0
    assert judging.wilson(0, 0) == (0.0, 1.0)
