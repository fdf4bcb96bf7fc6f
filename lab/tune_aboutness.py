"""Fit when a paper is about a tag its words gave it, by meaning (issue 52, decision 0031).

    .venv/bin/python -m lab.tune_aboutness                # writes generator/data/aboutness.yml and aboutness/
    .venv/bin/python -m lab.tune_aboutness --check        # prints the figures, writes nothing

For each meaning source that can run here (the sentence model when installed, the built-in
table always), every vocabulary tag's name is embedded (generator/data/aboutness/<source>.npy,
float16 unit rows, in the order of aboutness.yml's `tags`). The floor below which a derived tag
is shown as a key phrase (link.aboutness) is fitted on the tags issue 33's blind judges judged
(docs/dev/judgements/issue-33: six draws, two judges each; a tag's wrongness is the mean of
its judges'), recomputed under today's code with words only (the tags a site shows before this
step): the lowest FLOOR_STEP multiple at which at most TARGET of the judged tags at or above it
were judged wrong. Leave one judged venue out: each venue's floor is fitted on the other venues'
judged tags (`without_venue`, used by lab/sample_check.py), and the figures printed per venue
are those floors applied to the venue's own tags. Printed beside: the frontier (right tags
hidden per wrong tag removed) of the name cosine and of the words' own ranking
(judging.evidence_rank). Deterministic: the same corpora and verdicts give the same files.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml

from generator.enrich.tagging import vocabulary
from generator.enrich.tags import title_names
from generator.errors import Report
from generator.language.meaning.model import Unavailable, find
from generator.language.meaning.source import Source, embedder
from generator.language.meaning.table import find_table
from generator.pipeline import paper_meanings
from lab import judging, sample_check, train_tags

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "generator" / "data" / "aboutness.yml"
VECTORS = ROOT / "generator" / "data" / "aboutness"
JUDGED = ROOT / "docs" / "dev" / "judgements" / "issue-33"
# Issue 33's draws: (seed, corpora), as docs/dev/judgements/issue-33/README.md made them.
DRAWS = (
    (15, ("corl2022", "3dv2025", "iclr2017")),
    (33, ("colm2024", "corl2024", "iclr2018")),
    (47, ("colm2025", "corl2023", "ijcai2024")),
    (61, ("corl2025", "ijcai2022", "iclr2024")),
    (73, ("corl2021", "ijcai2020", "ijcai2021")),
    (89, ("colm2024", "ijcai2024", "iclr2024")),
)
DRAWN = 10  # papers per corpus
TARGET = 0.10
FLOOR_STEP = 0.01
FRONTIER_TARGETS = (0.15, 0.12, 0.10)


def sources() -> list[Source]:
    """The meaning sources that can run here: the sentence model when installed, and the table."""
    found: list[Source] = []
    try:
        found.append(find())
    except Unavailable as why:
        print(f"the sentence model is not installed ({why}): its tag names are left as they are", file=sys.stderr)
    return [*found, find_table()]


def judged_tags(corpus_dir: Path) -> list[dict]:
    """Every tag the six draws show today (words only, tag models fitted without the corpus's
    venue) that issue 33's judges judged: paper, tag, venue, and the judges' mean wrongness."""
    judges = judging.judges_from(tuple(str(JUDGED / f"verdicts-*-judge{name}.tsv") for name in "AB"))
    corpora = train_tags.keyword_corpora(corpus_dir)
    derived: dict[str, tuple] = {}
    judged, unjudged = [], 0
    for seed, names in DRAWS:
        for name in names:
            if name not in derived:
                derived[name] = sample_check.derived_corpus(corpus_dir, name, corpora, "lexical")
            records, papers = derived[name]
            for record in sample_check.drawn_records(len(records), seed, DRAWN):
                paper = papers[record]
                for tag in paper.tags:
                    said = [j[i] for j in judges if (i := judging.item_id(f"{name}#{record}", "tag", tag)) in j]
                    if not said:
                        unjudged += 1
                        continue
                    wrong = sum(v == "wrong" for v in said) / len(said)
                    judged.append(
                        {"paper": paper, "tag": tag, "corpus": name, "record": record, "venue": train_tags.venue(name), "wrong": wrong}
                    )
    print(f"{len(judged)} judged tags shown today ({sum(t['wrong'] for t in judged):g} wrong), {unjudged} shown but not judged")
    return judged


def fitted_floor(cosines: np.ndarray, wrong: np.ndarray, titled: np.ndarray) -> float:
    """The lowest FLOOR_STEP multiple at which at most TARGET of the tags kept are wrong: those at
    or above it, and those the paper's title names (`titled`: link.aboutness never hides them)."""
    for step in range(0, 100):
        floor = round(step * FLOOR_STEP, 2)
        kept = titled | (cosines >= floor)
        if kept.any() and wrong[kept].sum() / kept.sum() <= TARGET:
            return floor
    return 1.0


def frontier(scores: np.ndarray, wrong: np.ndarray) -> str:
    """For each FRONTIER_TARGETS share: the tags kept, and the right and wrong tags hidden, when
    the lowest scored tags are hidden until the share judged wrong among those kept reaches it."""
    best_first = [float(w) for w in wrong[np.argsort(-scores, kind="stable")]]
    cells = []
    for target in FRONTIER_TARGETS:
        reached = judging.hidden_to_reach(best_first, target)
        cells.append(f"{reached[0]} kept, {reached[1]:g} right / {reached[2]:g} wrong hidden" if reached else "not reached")
    return " | ".join(cells)


def fit_source(source: Source, tags: list[str], judged: list[dict]) -> tuple[np.ndarray, dict]:
    """The source's tag name vectors and its fitted entry (floor and floors without each venue)."""
    embed = embedder(source)
    names = np.asarray(embed(tags, False), dtype=np.float32)
    rows = {tag: row for row, tag in enumerate(tags)}
    meanings = paper_meanings([t["paper"] for t in judged], source, Report())
    # A judged tag that is no vocabulary tag (a key phrase filled up as a tag) is embedded as a build embeds it.
    others = sorted({t["tag"] for t in judged} - set(rows))
    other_vectors = dict(zip(others, np.asarray(embed(others, False), dtype=np.float32)))
    cosines = np.array(
        [float(meanings[k] @ (names[rows[t["tag"]]] if t["tag"] in rows else other_vectors[t["tag"]])) for k, t in enumerate(judged)]
    )
    wrong = np.array([t["wrong"] for t in judged])
    venues = np.array([t["venue"] for t in judged])
    titled = np.array([title_names(t["tag"], t["paper"].title) for t in judged])
    floor = fitted_floor(cosines, wrong, titled)
    without = {str(v): fitted_floor(cosines[venues != v], wrong[venues != v], titled[venues != v]) for v in sorted(set(venues))}
    # A title-named tag is never hidden: ranked above every other in the frontiers.
    aboutness = np.where(titled, 2.0, cosines)
    print(f"\n## {source.name}: floor {floor:.2f} (at most {TARGET:.0%} of the judged tags kept judged wrong)\n")
    print(
        f"{len(judged)} judged tags ({len(others)} of them no vocabulary tag), {titled.sum()} named by the paper's title ({wrong[titled].sum():g} wrong)"
    )
    print(
        f"AUC right vs wrong: name cosine {judging.auc(cosines, wrong < 0.5):.3f}, with title-named tags first {judging.auc(aboutness, wrong < 0.5):.3f}, ",
        end="",
    )
    ranks = np.array([_rank_score(judging.evidence_rank(_as_capture(t), t["tag"])) for t in judged])
    print(f"the words' ranking {judging.auc(ranks, wrong < 0.5):.3f}")
    print(f"\nfrontier (at most {', '.join(f'{t:.0%}' for t in FRONTIER_TARGETS)} judged wrong):")
    print(f"- the words' ranking: {frontier(ranks, wrong)}")
    print(f"- the name cosine:    {frontier(cosines, wrong)}")
    print(f"- title-named, then the name cosine (shipped): {frontier(aboutness, wrong)}")
    print("\n| venue | floor without it | judged wrong, all tags | kept at that floor: judged wrong |\n|---|---|---|---|")
    pooled = defaultdict(float)
    for venue, venue_floor in without.items():
        own = venues == venue
        kept = own & (titled | (cosines >= venue_floor))
        pooled["kept"] += kept.sum()
        pooled["wrong"] += wrong[kept].sum()
        print(f"| {venue} | {venue_floor:.2f} | {wrong[own].sum():g} of {own.sum()} | {wrong[kept].sum():g} of {kept.sum()} |")
    print(
        f"| pooled | | {wrong.sum():g} of {len(wrong)} | {pooled['wrong']:g} of {pooled['kept']:g} ({pooled['wrong'] / max(pooled['kept'], 1):.1%}) |"
    )
    entry = {"floor": floor, "vectors": f"aboutness/{source.name}.npy", "without_venue": without}
    return names, entry


def _rank_score(rank: tuple[int, int, float]) -> float:
    tier, named, evidence = rank
    return tier * 10 + named + evidence


def _as_capture(item: dict) -> dict:
    """The judged tag's paper as judging.evidence_rank reads a captured one."""
    paper = item["paper"]
    return {"abstract": paper.text, "tag_scores": dict(paper.tag_choice.scores)}


def write(tags: list[str], fitted: dict[str, tuple[np.ndarray, dict]]) -> None:
    VECTORS.mkdir(exist_ok=True)
    data = yaml.safe_load(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}
    kept_sources = data.get("sources") or {}
    if data.get("tags") != tags:  # the vectors of a source not fitted here no longer match the tags
        kept_sources = {}
    for name, (names, entry) in fitted.items():
        np.save(VECTORS / f"{name}.npy", names.astype(np.float16), allow_pickle=False)
        kept_sources[name] = entry
    header = (
        "# When a paper is about a tag its words gave it (generator/link/aboutness.py, decision 0031): per meaning\n"
        "# source, the floor of the cosine between the paper's meaning and the tag name's (vectors in aboutness/,\n"
        "# one row per tag below). Written by lab/tune_aboutness.py (make train); do not edit by hand.\n"
    )
    body = yaml.safe_dump({"sources": dict(sorted(kept_sources.items())), "tags": tags}, sort_keys=False, allow_unicode=True)
    DATA.write_text(header + body, encoding="utf-8")
    print(f"\nwritten: {DATA.relative_to(ROOT)} and {', '.join(f'aboutness/{name}.npy' for name in fitted)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--check", action="store_true", help="print the figures; write nothing")
    args = parser.parse_args()
    tags = sorted(vocabulary().tag_area)
    judged = judged_tags(args.corpus)
    fitted = {source.name: fit_source(source, tags, judged) for source in sources()}
    if not args.check:
        write(tags, fitted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
