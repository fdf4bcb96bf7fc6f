"""Golden cases: the name, title and summary derived from real abstracts, case by case.

`tests/enrich/golden/titles.yml` lists real abstracts by source (a seed file and record number,
or a corpus file of ../shared/corpus and the record's id, never the text itself: the
corpora are not copied into the project) with the real title beside what we derive. A
change to a derivation shows here as a diff of named cases, not only as an average.

    UPDATE_GOLDEN=1 pytest tests/enrich/test_golden.py   # accept the current derivations
    python tests/enrich/test_golden.py --add N           # add N seeded random corpus cases
"""

from __future__ import annotations

import os
import random
import sys
from dataclasses import replace

import pytest
import yaml

from generator.enrich.paper import enrich
from generator.enrich.titlegate import title_defects
from generator.errors import Report
from generator.sources.readers import read_file
from helpers import CORPUS, ROOT

GOLDEN = ROOT / "tests" / "enrich" / "golden" / "titles.yml"
HEADER = (
    "# Golden cases for names, titles and summaries (tests/enrich/test_golden.py).\n"
    "# source: seeds/FILE#RECORD or corpus/FILE#ID (read from ../shared/corpus, never copied here).\n"
    "# Regenerate the derived fields with: UPDATE_GOLDEN=1 pytest tests/enrich/test_golden.py\n"
)


def _record(source: str):
    where, key = source.rsplit("#", 1)
    folder, name = where.split("/", 1)
    path = (ROOT / "seeds" / name) if folder == "seeds" else (CORPUS / name)
    if not path.exists():
        pytest.skip(f"{path} not available")
    records = read_file(path, Report())
    if folder == "seeds":
        return records[int(key) - 1]
    return next(r for r in records if r.origin.record_id == key)


def derived(source: str) -> dict[str, str | None]:
    """What the generator shows for this abstract with every given field hidden."""
    record = _record(source)
    paper = enrich(replace(record, title=None, keywords=(), primary_area=None, tldr=None))
    return {"name": paper.name, "title": paper.title, "summary": paper.summary}


def load() -> list[dict]:
    return yaml.safe_load(GOLDEN.read_text(encoding="utf-8")) or []


def save(cases: list[dict]) -> None:
    GOLDEN.write_text(HEADER + yaml.safe_dump(cases, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")


CASES = load()


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_golden_case(case):
    now = derived(case["source"])
    if os.environ.get("UPDATE_GOLDEN"):
        case.update(now)
        save(CASES)
        return
    assert now == {k: case[k] for k in ("name", "title", "summary")}


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_golden_titles_pass_the_sanity_gate(case):
    lead = case["name"] if case["name"] and case["title"].startswith(f"{case['name']}: ") else None
    assert title_defects(case["title"], lead) == [], case["title"]


def _add(count: int, seed: int = 11) -> None:
    """Append `count` seeded random cases, spread over every corpus (for reviewing by eye)."""
    cases = load()
    known = {c["source"] for c in cases}
    rng = random.Random(seed)
    files = sorted(CORPUS.glob("*.jsonl"))
    for index in range(count):
        path = files[index % len(files)]
        record = rng.choice([r for r in read_file(path, Report()) if r.origin.record_id])
        source = f"corpus/{path.name}#{record.origin.record_id}"
        if source not in known:
            cases.append({"source": source, "real_title": record.title, **derived(source)})
    save(cases)


if __name__ == "__main__":
    _add(int(sys.argv[sys.argv.index("--add") + 1]) if "--add" in sys.argv else 0)
