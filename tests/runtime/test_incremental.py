"""Under `mkdocs serve` the generator remembers what each run derived (generator.runtime.session) and
recomputes only what an edit changes. Whatever it remembers, the files it leaves must be the
very bytes a cold run writes for the same input: after edits, additions and deletions."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from generator.pipeline import Settings, generate
from generator.runtime.session import Session
from helpers import corpus_file


def generated(docs: Path) -> dict[str, bytes]:
    return {
        p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file() and ".abstracts-site" not in p.parts
    }


def records(name: str, start: int, count: int) -> list[dict]:
    lines = corpus_file(name).read_text(encoding="utf-8").splitlines()[start : start + count]
    return [json.loads(line) for line in lines]


def save(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def edit(rows: list[dict], donors: list[dict], rng: random.Random) -> str:
    """One edit an author makes: reword an abstract, add a sentence about another paper's
    topic (its words, tags and names), cut a sentence, or retitle a paper."""
    row = rng.choice(rows)
    kind = rng.choice(["reword", "borrow", "cut", "retitle"])
    sentences = row["abstract"].split(". ")
    if kind == "reword":
        words = row["abstract"].split()
        words[rng.randrange(len(words))] = rng.choice(rng.choice(donors)["abstract"].split())
        row["abstract"] = " ".join(words)
    elif kind == "borrow":
        row["abstract"] += " " + rng.choice(rng.choice(donors)["abstract"].split(". ")).strip().rstrip(".") + "."
    elif kind == "cut" and len(sentences) > 2:
        del sentences[rng.randrange(len(sentences))]
        row["abstract"] = ". ".join(sentences)
    else:
        row["title"] = f"{row.get('title') or 'Untitled'}: A Revised Study"
    return f"{kind} {row['id']}"


@pytest.mark.slow
def test_runs_that_remember_write_what_a_cold_run_writes(tmp_path):
    rng = random.Random(14)
    files = {"colm2025.jsonl": records("colm2025.jsonl", 0, 45), "corl2025.jsonl": records("corl2025.jsonl", 0, 25)}
    # A warning while reading (a \url{} that is not http(s)): a file remembered from an earlier run reports it again.
    files["corl2025.jsonl"][2]["abstract"] += r" Our logs are at \url{ftp://example.org/logs}."
    donors = records("colm2025.jsonl", 45, 15) + records("corl2025.jsonl", 25, 10)
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    docs, session = tmp_path / "docs", Session()

    def run_and_compare(step: str) -> None:
        for name, rows in files.items():
            save(inputs / name, rows)
        warm = generate([inputs], docs, Settings(), session)
        cold_docs = tmp_path / "cold"
        shutil.rmtree(cold_docs, ignore_errors=True)
        cold = generate([inputs], cold_docs, Settings())
        assert warm.papers == cold.papers == sum(map(len, files.values())), step
        assert warm.report.warnings == cold.report.warnings and any("ftp://" in w for w in cold.report.warnings), step
        assert generated(docs) == generated(cold_docs), step

    run_and_compare("first run")
    for number in range(7):
        name = rng.choice(sorted(files))
        rows = files[name]
        action = ["edit", "add", "delete"][number % 3]
        if action == "edit":
            step = edit(rows, donors, rng)
        elif action == "add":
            row = donors.pop(rng.randrange(len(donors)))
            rows.insert(rng.randrange(len(rows) + 1), row)
            step = f"add {row['id']}"
        else:
            step = f"delete {rows.pop(rng.randrange(len(rows)))['id']}"
        run_and_compare(f"step {number}: {step} in {name}")

    # A generated page removed by hand is written again, though the run remembers writing it.
    page = sorted((docs / "papers").iterdir())[3]
    page.unlink()
    files["colm2025.jsonl"][0]["abstract"] += " We release our code."
    run_and_compare(f"{page.name} removed by hand")
    assert page.is_file()


@pytest.mark.parametrize("margin, moved", [(40, 0.002), (2, 0.5)])
def test_remembered_candidate_search_finds_what_a_cold_search_finds(margin, moved, monkeypatch):
    # generator.link.related.candidates keeps each paper's best candidates between runs and corrects them
    # after an edit: the same indices and cosines as a search from scratch, after edits
    # (including words that enter or leave the vocabulary), additions and deletions. With a
    # margin of 2, and papers that moved by up to 0.5 only corrected, its bound on the papers
    # it did not keep decides for many papers.
    from generator.link.related import candidates
    from generator.link.related.candidates import nearest, nearest_after_edit

    monkeypatch.setattr(candidates, "MARGIN", margin)
    monkeypatch.setattr(candidates, "MOVED", moved)
    from generator.link.related.similar import vectors

    rng = random.Random(7)
    documents = [row["abstract"] for row in records("colm2025.jsonl", 0, 260)]
    donors = [row["abstract"] for row in records("corl2025.jsonl", 0, 40)]
    last = None
    exercised = 0
    for number in range(19):
        if number:
            action = ["reword", "rare", "borrow", "typo", "rare", "add", "copy", "delete", "reword"][number % 9]
            index = rng.randrange(len(documents))
            if action == "reword":
                words = documents[index].split()
                words[rng.randrange(len(words))] = rng.choice(rng.choice(donors).split())
                documents[index] = " ".join(words)
            elif action == "borrow":
                documents[index] += " " + rng.choice(rng.choice(donors).split(". ")) + "."
            elif action == "typo":  # a word no other abstract has, and then a second one has it
                documents[index] += " We call it frobnicated."
                documents[rng.randrange(len(documents))] += " It is frobnicated too."
            elif action == "rare":  # a word of two abstracts leaves one: the other abstract's row moves, unedited
                having = defaultdict(set)
                for at, document in enumerate(documents):
                    for word in set(re.findall(r"[a-z]{7,}", document.lower())):
                        having[word].add(at)
                word = rng.choice(sorted(w for w, at in having.items() if len(at) == 2))
                at = min(having[word])
                documents[at] = re.sub(rf"(?i)\b{word}\b", "", documents[at])
            elif action == "copy":  # two papers with the same document
                documents[index] = documents[(index + 1) % len(documents)]
            elif action == "add":
                documents.insert(index, donors.pop())
            else:
                del documents[index]
        found = vectors(documents)
        warm = nearest_after_edit(last, found.raw_words, found.word_terms, documents, 40)
        cold = nearest(found.raw_words, found.word_terms, documents, 40)
        assert np.array_equal(warm[0], cold[0]) and np.array_equal(warm[1], cold[1]), number
        # Rows it recomputed whole have an exact bound; most rows were only corrected.
        exercised += last is not None and len(last.documents) == len(documents)
        last = warm[2]
    assert exercised >= 8


def test_a_run_that_makes_its_topic_map_later_leaves_what_a_cold_run_writes_once_finished(tmp_path):
    """Under `mkdocs serve` the reload does not wait for the topic map: generate(later=True)
    returns before map.json is made and `finish()` writes it. Finished, the folder holds the
    cold run's bytes, and the run counts as done: the same input again does nothing, and a
    map removed by hand is made again."""
    rows = records("colm2025.jsonl", 0, 40)
    inputs, docs, session = tmp_path / "inputs", tmp_path / "docs", Session()
    inputs.mkdir()

    def cold() -> dict[str, bytes]:
        shutil.rmtree(tmp_path / "cold", ignore_errors=True)
        generate([inputs], tmp_path / "cold", Settings())
        return generated(tmp_path / "cold")

    for step in range(3):
        if step:  # new words: the edited paper moves on the map
            rows[step]["abstract"] += " We also study protein folding with graph transformers on molecular benchmarks."
        save(inputs / "colm2025.jsonl", rows)
        warm = generate([inputs], docs, Settings(), session, later=True)
        assert warm.finish is not None and warm.finish() == ["map.json"], step
        assert generated(docs) == cold(), step
    again = generate([inputs], docs, Settings(), session, later=True)
    assert again.finish is None and again.write.written == []
    (docs / "map.json").unlink()
    made = generate([inputs], docs, Settings(), session, later=True)
    assert made.finish is not None and made.finish() == ["map.json"]
    assert generated(docs) == cold()


def test_a_retitled_paper_shows_its_new_title_on_the_remembered_glossary(tmp_path):
    """Under `mkdocs serve` the glossary is rendered again only when what it shows changed: a
    paper that defines an acronym, retitled, is listed under its new title (as a cold run lists it)."""
    rows = records("colm2025.jsonl", 0, 30)
    inputs, docs, session = tmp_path / "inputs", tmp_path / "docs", Session()
    inputs.mkdir()
    save(inputs / "colm2025.jsonl", rows)
    generate([inputs], docs, Settings(), session)
    glossary = (docs / "glossary.md").read_text(encoding="utf-8")
    row = next(r for r in rows if r["title"] and f"[{r['title']}](papers/" in glossary)
    row["title"] += ": Revised"
    save(inputs / "colm2025.jsonl", rows)
    generate([inputs], docs, Settings(), session)
    generate([inputs], tmp_path / "cold", Settings())
    assert f"[{row['title']}](papers/" in (docs / "glossary.md").read_text(encoding="utf-8")
    assert (docs / "glossary.md").read_bytes() == (tmp_path / "cold" / "glossary.md").read_bytes()


def test_a_remembered_shared_topic_check_follows_the_candidates_topics():
    # Under `mkdocs serve` a paper's row of 'shares no topic' flags (similar._unsupported) is
    # kept while its paper and candidates keep their topics: a candidate that gains a topic
    # of the paper, or another candidate in the row, is checked again.
    from generator.context import running
    from generator.link.related.similar import _unsupported

    session = Session()
    topics = [frozenset({"diffusion models"}), frozenset({"robot learning"}), frozenset({"graph neural networks"})]
    indices = np.array([[1, 2], [0, 2], [0, 1]])
    with running(session):
        assert _unsupported(indices, topics).tolist() == [[True, True], [True, True], [True, True]]
    session.next_run()
    topics[1] = frozenset({"robot learning", "diffusion models"})  # an edit: paper 1 now names paper 0's topic
    with running(session):
        assert _unsupported(indices, topics).tolist() == [[False, True], [False, True], [True, True]]
    session.next_run()
    indices[0] = [2, 1]  # the same candidates in another order
    with running(session):
        remembered = _unsupported(indices, topics).tolist()
    assert remembered == [[True, False], [False, True], [True, True]]
    assert remembered == _unsupported(indices, topics).tolist()


def test_an_edit_that_makes_a_phrase_recur_changes_another_papers_key_phrases_as_a_cold_run_does(tmp_path):
    # Paper 0's 'modern web agents' is in no other abstract (scored as a phrase used once);
    # once paper 1 uses it too, paper 0's key phrases change, though paper 0 did not.
    rows = records("colm2025.jsonl", 0, 45)
    inputs, docs, session = tmp_path / "inputs", tmp_path / "docs", Session()
    inputs.mkdir()

    def key_phrases(folder: Path) -> dict[str, list[str]]:
        return {p["source"]["id"]: p["keyphrases"] for p in json.loads((folder / "papers.json").read_text(encoding="utf-8"))["papers"]}

    save(inputs / "colm2025.jsonl", rows)
    generate([inputs], docs, Settings(), session)
    before = key_phrases(docs)
    rows[1]["abstract"] += " We also study modern web agents."
    save(inputs / "colm2025.jsonl", rows)
    generate([inputs], docs, Settings(), session)
    generate([inputs], tmp_path / "cold", Settings())
    assert generated(docs) == generated(tmp_path / "cold")
    assert key_phrases(docs)[rows[0]["id"]] != before[rows[0]["id"]]


def test_papers_json_is_the_whole_json_document_with_characters_beyond_the_bmp(tmp_path):
    """papers.json is joined from each paper's encoded record (as UTF-8 bytes): it must be the
    document json.dumps writes for the whole, in a one-off run and after an edit under serve,
    whatever the characters (an emoji, accents, quotes, a line separator)."""
    rows = records("iclr2024.jsonl", 0, 12)
    rows[0]["title"] = '🏹Arrow: a "quoted" café method\u2028 with λ-calculus'
    rows[1]["tldr"] = "Ünïcödé with 𝔽 and a \\ backslash."
    inputs = tmp_path / "in.jsonl"
    save(inputs, rows)

    def whole_document(docs: Path) -> None:
        written = (docs / "papers.json").read_bytes()
        document = json.loads(written)
        assert any(p["title"].startswith("🏹Arrow") for p in document["papers"])
        expected = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
        assert written == expected.encode("utf-8")

    generate([inputs], tmp_path / "cold")
    whole_document(tmp_path / "cold")
    session, served = Session(), tmp_path / "served"
    generate([inputs], served, Settings(), session)
    rows[1]["tldr"] = "Ünïcödé again, with 🎯 and 𝔽."
    save(inputs, rows)
    generate([inputs], served, Settings(), session)
    whole_document(served)
    assert (
        json.loads((served / "papers.json").read_bytes())["papers"]
        != json.loads((tmp_path / "cold" / "papers.json").read_bytes())["papers"]
    )


def test_each_feed_is_dated_by_its_own_collections_files_and_an_edit_rewrites_only_its_feed(tmp_path, monkeypatch):
    """Abstracts carry no dates: a feed is dated by the newest file its collection was read
    from. Saving one collection's file re-dates that feed alone; the others keep their bytes
    and are not written again under serve."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first, second = tmp_path / "iclr2024.jsonl", tmp_path / "colm2025.jsonl"
    save(first, records("iclr2024.jsonl", 0, 8))
    save(second, records("colm2025.jsonl", 0, 8))
    os.utime(first, (1_600_000_000, 1_600_000_000))  # 2020-09-13
    os.utime(second, (1_700_000_000, 1_700_000_000))  # 2023-11-14
    docs, session = tmp_path / "docs", Session()
    generate([first, second], docs, Settings(), session)
    feeds = {p.name: p.read_text(encoding="utf-8") for p in (docs / "feeds").glob("*.xml")}
    assert len(feeds) == 2
    iclr = next(name for name, text in feeds.items() if "<title>ICLR 2024</title>" in text)
    colm = next(name for name in feeds if name != iclr)
    assert "<updated>2020-09-13T12:26:40Z</updated>" in feeds[iclr] and "2023" not in re.findall(r"<updated>(\d{4})", feeds[iclr])
    assert "<updated>2023-11-14T22:13:20Z</updated>" in feeds[colm] and "2020" not in re.findall(r"<updated>(\d{4})", feeds[colm])

    rows = records("iclr2024.jsonl", 0, 8)
    rows[2]["abstract"] += " We add one sentence."
    save(first, rows)
    os.utime(first, (1_750_000_000, 1_750_000_000))  # 2025-06-15
    summary = generate([first, second], docs, Settings(), session)
    assert f"feeds/{iclr}" in summary.write.written and f"feeds/{colm}" not in summary.write.written
    assert "<updated>2025-06-15T15:06:40Z</updated>" in (docs / "feeds" / iclr).read_text(encoding="utf-8")
    assert (docs / "feeds" / colm).read_text(encoding="utf-8") == feeds[colm]
    cold = tmp_path / "cold"
    generate([first, second], cold)
    assert generated(cold) == generated(docs)
