"""Fit how related papers mix meaning into words (issue 34, decision 0016), leave one venue out.

    .venv/bin/python -m lab.tune_related                          # all corpora; writes generator/data/related.yml
    .venv/bin/python -m lab.tune_related --report tune-related.json
    .venv/bin/python -m lab.tune_related --related-by semantic       # the sentence model's setting (`make model`)
    .venv/bin/python -m lab.tune_related --related-by lexical        # the floor of words only
    .venv/bin/python -m lab.tune_related --floor-only [--related-by ...]      # the floor alone, setting kept

Fits one meaning source's setting (the built-in table's by default) and leaves the others'. For every corpus of ../shared/corpus, the papers are
derived as `make eval` derives them (titles, keywords and areas hidden) and embedded (through the
user's vector cache); then the related papers are found again with each setting of the grid
(similar.Mixing: weight, candidates by meaning, shared-topic penalty). A corpus's measure is its area
agreement@5 where it has areas, else its author-keyword lift, as a gain over words only.

Leave one venue out: for each venue (ijcai, iclr, corl, colm, 3dv), the setting is chosen on
the corpora of the other venues (the best mean gain, among the settings that keep reason
quality >= REASONS on each and lower none beyond its paired bootstrap interval) and reported
on the venue's own corpora, with the paired bootstrap interval of the change. The setting written to generator/data/related.yml is
chosen the same way on every corpus. Deterministic: the same corpora give the same file.

The floor of a strong link (decision 0030) is fitted for the chosen setting on the links three
blind judges judged (docs/dev/judgements/issue-34: issue 15's draw, every candidate link of
its 30 papers that a judge saw, by the judges' majority): the lowest FLOOR_STEP multiple at
which at most FLOOR_WRONG of the judged links ranked at or above it were judged wrong, with at
least FLOOR_MIN_LINKS of them. Reported leave one judged venue out (the wrong links among the
strong links shown, and the ceiling judge's sure links they hold) and, on the corpora with
areas, as the area agreement of the strong links beside the top five's.
`--related-by lexical` fits the floor of words only (no setting to choose).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import zlib
from pathlib import Path

import numpy as np
import yaml

from generator.language.textutil import normalise_term
from generator.link import corpus as linking
from generator.link.related import similar
from lab import evaluate as ev
from lab import judging, sample_check

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "generator" / "data" / "related.yml"
GRID = {"weight": (0.3, 0.5, 0.7, 1.0), "candidates": (0, 10, 20), "penalty": (0.3, 0.4, 0.5)}
WORDS_ONLY = {"weight": 0.0, "candidates": 0, "penalty": similar.UNSUPPORTED_PENALTY}  # as without the model
REASONS = 0.95
RESAMPLES = 1000
JUDGED = ROOT / "docs" / "dev" / "judgements" / "issue-34"
JUDGED_SEED, JUDGED_COUNT = 15, 10  # issue 15's draw (lab/judging.py capture's defaults)
FLOOR_WRONG = 0.40  # issue 52's target for the links shown as related
FLOOR_MIN_LINKS = 10
FLOOR_STEP = 0.01


def venue(name: str) -> str:
    return name.rstrip("0123456789")


def per_paper(papers, records) -> tuple[str, np.ndarray, np.ndarray | None]:
    """The corpus's measure per paper: (kind, values, random baseline values)."""
    index = {p.id: i for i, p in enumerate(papers)}
    lists = [[index[r.id] for r in p.related] for p in papers]
    areas = [r.primary_area for r in records]
    if any(areas):
        values = np.array(
            [
                np.mean([areas[j] == areas[i] for j in js if areas[j]]) if areas[i] and any(areas[j] for j in js) else np.nan
                for i, js in enumerate(lists)
            ]
        )
        return "area", values, None
    keys = [{normalise_term(k) for k in r.keywords} for r in records]
    randoms = ev.random_neighbours(len(papers), 5, ev.SEED)

    def overlap(some):
        return np.array(
            [
                np.mean([ev.jaccard(keys[i], keys[j]) for j in js if keys[j]]) if keys[i] and any(keys[j] for j in js) else np.nan
                for i, js in enumerate(some)
            ]
        )

    return "lift", overlap(lists), overlap(randoms)


def measure(kind: str, values: np.ndarray, randoms: np.ndarray | None, rows: np.ndarray | None = None) -> float:
    """The corpus's area agreement or keyword lift over `rows` (all papers by default); NaN
    where no paper has a label."""
    rows = np.arange(len(values)) if rows is None else rows
    if np.isnan(values[rows]).all():
        return float("nan")
    if kind == "area":
        return float(np.nanmean(values[rows]))
    return float(np.nanmean(values[rows]) / np.nanmean(randoms[rows]))


def judged_links(papers, records, meanings, mixing: similar.Mixing, name: str, verdicts: list[dict[str, str]], sure: dict) -> list[dict]:
    """Every candidate link of corpus `name`'s drawn papers that a judge saw, with its strength
    under `mixing`, the judges' majority (wrong or not), whether today's list shows it and
    whether the ceiling judge named it surely right."""
    indices, ranking = linking.candidate_strengths(papers, ev.RELATED, meanings, mixing)
    shown = {p.id: {r.id for r in p.related} for p in papers}
    rows = []
    for i in sample_check.drawn_records(len(records), JUDGED_SEED, JUDGED_COUNT):  # the draw judging.py captured
        key = judging.paper_key({"corpus": name, "record": i})
        for j, strength in zip(indices[i].tolist(), ranking[i].tolist()):
            said = [v[item] for v in verdicts if (item := judging.item_id(key, "link", str(j))) in v]
            rows.append(
                {
                    "corpus": name,
                    "strength": round(strength, 3),
                    "wrong": sum(v == "wrong" for v in said) * 2 > len(said) if said else None,
                    "shown": papers[j].id in shown[papers[i].id],
                    "sure": j in sure.get(key, (set(), set()))[0],
                }
            )
    return rows


def fit_floor(rows: list[dict]) -> float | None:
    """The lowest floor keeping at most FLOOR_WRONG judged-wrong links among the judged links at
    or above it (at least FLOOR_MIN_LINKS of them); None when no floor does."""
    judged = sorted((r["strength"], r["wrong"]) for r in rows if r["wrong"] is not None)
    for step in range(0, int(2 / FLOOR_STEP)):
        floor = round(step * FLOOR_STEP, 2)
        kept = [wrong for strength, wrong in judged if strength >= floor]
        if len(kept) < FLOOR_MIN_LINKS:
            return None
        if sum(kept) <= FLOOR_WRONG * len(kept):
            return floor
    return None


def floor_report(rows: list[dict], floor: float | None) -> dict:
    """The strong links shown (at or above `floor`): how many, judged wrong of judged, the
    ceiling's sure links among them (of all sure links shown or not)."""
    strong = [r for r in rows if r["shown"] and floor is not None and r["strength"] >= floor]
    judged = [r for r in strong if r["wrong"] is not None]
    return {
        "floor": floor,
        "strong": len(strong),
        "shown": sum(r["shown"] for r in rows),
        "judged": len(judged),
        "wrong": sum(r["wrong"] for r in judged),
        "sure_strong": sum(r["sure"] for r in strong),
    }


def area_split(papers, records, floor: float) -> tuple[float, float, float]:
    """Area agreement of the top five and of the strong links (papers with an area), and the share of links strong."""
    index = {p.id: i for i, p in enumerate(papers)}
    areas = [r.primary_area for r in records]
    top, strong, count = [], [], 0
    for i, paper in enumerate(papers):
        for r in paper.related:
            j = index[r.id]
            count += r.strength >= floor
            if areas[i] and areas[j]:
                top.append(areas[i] == areas[j])
                if r.strength >= floor:
                    strong.append(areas[i] == areas[j])
    return float(np.mean(top)), float(np.mean(strong)) if strong else float("nan"), count / max(1, sum(len(p.related) for p in papers))


def fitted_floors(kept_papers: dict, source_name: str | None, setting: dict, without: dict) -> tuple[float, dict, list[dict]]:
    """The floor fitted on every judged link, per held-out venue the floor fitted without it, and
    the report rows (judged venues, then corpora with areas)."""
    verdicts = [judging.read_verdicts(path) for path in sorted(JUDGED.glob("verdicts-judge*.tsv"))]
    sure = judging.read_ceiling(JUDGED / "ceiling.tsv")
    mixing = similar.Mixing(setting["weight"], setting["candidates"], setting["penalty"])
    linked = {
        name: (linked_with(papers, meanings, setting), records, meanings) for name, (papers, records, meanings) in kept_papers.items()
    }
    judged = {
        name: judged_links(papers, records, meanings if setting["weight"] > 0 else None, mixing, name, verdicts, sure)
        for name, (papers, records, meanings) in linked.items()
        if name in judging.DEFAULT_CORPORA
    }
    everything = [row for rows in judged.values() for row in rows]
    floor = fit_floor(everything)
    if floor is None:
        raise SystemExit(f"no floor keeps at most {FLOOR_WRONG:.0%} judged-wrong links for {source_name}")
    floors = {held: fit_floor([r for r in everything if venue(r["corpus"]) != held]) for held in without}
    report = []
    for name, rows in judged.items():
        held_floor = floors.get(venue(name), floor)
        row = {
            "corpus": name,
            **floor_report(rows, held_floor),
            "sure": sum(len(s) for k, (s, _) in sure.items() if k.startswith(name + "#")),
        }
        report.append(row)
        print(
            f"{name:10s} floor {held_floor} (fitted without {venue(name)}{'' if held_floor is not None else f': none meets the target; the file keeps {floor}'}): "
            f"{row['strong']} of {row['shown']} links strong, "
            f"{row['wrong']} of {row['judged']} judged wrong, {row['sure_strong']} of {row['sure']} sure links"
        )
    for name, (papers, records, _) in linked.items():
        if any(r.primary_area for r in records):
            held_floor = floors.get(venue(name), floor)
            top, strong, share = area_split(papers, records, held_floor)
            report.append({"corpus": name, "floor": held_floor, "area_top5": top, "area_strong": strong, "strong_share": share})
            print(f"{name:10s} floor {held_floor}: area agreement {top:.3f} (top five) -> {strong:.3f} (strong, {share:.0%} of links)")
    return floor, {held: (f if f is not None else floor) for held, f in floors.items()}, report


def linked_with(papers, meanings, setting) -> list:
    mixing = similar.Mixing(setting["weight"], setting["candidates"], setting["penalty"])
    return linking.add_related(papers, ev.RELATED, meanings=meanings if setting["weight"] > 0 else None, mixing=mixing)


def intervals(kept: dict, name: str, settings: list[dict]) -> list[tuple[float, float]]:
    """Per setting, the 95% paired bootstrap interval of its change over words only on corpus
    `name` (the same resampled papers for every setting; seeded by the corpus's name)."""
    kind, before, randoms = kept[(name, json.dumps(WORDS_ONLY, sort_keys=True))]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    samples = rng.integers(0, len(before), (RESAMPLES, len(before)))
    if np.isnan(before).all():
        return [(float("nan"), float("nan"))] * len(settings)

    def resampled(values: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            if kind == "area":
                return np.nanmean(values[samples], axis=1)
            return np.nanmean(values[samples], axis=1) / np.nanmean(randoms[samples], axis=1)

    base = resampled(before)
    out = []
    for setting in settings:
        difference = resampled(kept[(name, json.dumps(setting, sort_keys=True))][1]) - base
        low, high = np.nanpercentile(difference, [2.5, 97.5])
        out.append((float(low), float(high)))
    return out


def choose(results: dict, bounds: dict, corpora: list[str], settings: list[dict]) -> dict:
    """The setting with the best mean gain on `corpora`, among those that keep reason quality
    >= REASONS on each and lower no labelled corpus beyond its bootstrap interval (the issue's
    own test of a loss; a loss inside the interval is noise). A corpus with neither areas nor
    author keywords (iclr2024) counts for its reasons only."""
    labelled = [c for c in corpora if not np.isnan(results[c][0]["value"])]

    def score(k: int) -> float:
        if any(results[c][k]["reasons"] < REASONS for c in corpora) or any(bounds[c][k][1] < 0 for c in labelled):
            return -np.inf
        return float(np.mean([results[c][k]["value"] / results[c][0]["value"] - 1 for c in labelled]))

    if len(settings) == 1:
        return WORDS_ONLY  # words only: nothing to choose
    best = max(range(1, len(settings)), key=lambda k: (score(k), -k))
    return settings[best] if score(best) > 0 else WORDS_ONLY


def source_name(related_by: str) -> str:
    """The related.yml entry a build with `related_by` reads (words-only without meaning vectors)."""
    found = ev.meaning_source_of(related_by)
    return found.name if found is not None else similar.WORDS_ONLY


def refit_floor(args: argparse.Namespace) -> int:
    """The floor of the source's fitted setting, fitted again (and written unless --check)."""
    source = source_name(args.related_by)
    fitted = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    entry = fitted["sources"][source]
    setting = {"weight": entry["semantic_weight"], "candidates": entry["semantic_candidates"], "penalty": entry["semantic_penalty"]}
    kept_papers = {}
    for path in sorted(args.corpus.glob("*.jsonl")):
        records = ev.load(path)
        if path.stem in judging.DEFAULT_CORPORA or any(r.primary_area for r in records):
            papers, _ = ev.derive(records, ev.RELATED)
            kept_papers[path.stem] = (papers, records, ev.meanings_of(papers, args.related_by))
    floor, floors, report = fitted_floors(kept_papers, source, setting, entry["without_venue"])
    print(f"floor of a strong link: {floor}")
    entry["link_floor"] = floor
    for held, held_entry in entry["without_venue"].items():
        held_entry["link_floor"] = floors[held]
    if not args.check:
        write(fitted)
        print(f"written {DATA.relative_to(ROOT)} for {source}")
    if args.report:
        args.report.write_text(json.dumps({"floor": report}, indent=1) + "\n", encoding="utf-8")
    return 0


def write(fitted: dict) -> None:
    DATA.write_text(
        "# How related papers mix meaning into words, and the floor of a strong link, per meaning source\n"
        "# (generator/link/related/similar.py, decisions 0016, 0027 and 0030). Written by lab/tune_related.py (leave one venue out over ../shared/corpus); do not edit by hand.\n"
        + yaml.safe_dump(fitted, sort_keys=True),
        encoding="utf-8",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--report", type=Path, default=None, help="also write every figure as JSON here")
    parser.add_argument("--check", action="store_true", help="print the figures, leave generator/data/related.yml as it is")
    parser.add_argument(
        "--related-by",
        choices=("table", "semantic", "lexical"),
        default="table",
        help="the meaning source to fit for: the built-in table, the sentence model (`make model`), or words only (its floor)",
    )
    parser.add_argument(
        "--floor-only",
        action="store_true",
        help="keep the source's fitted setting and fit its floor again (after the judged links change)",
    )
    args = parser.parse_args()
    if args.floor_only:
        return refit_floor(args)
    settings = [WORDS_ONLY]
    if args.related_by != "lexical":
        settings += [dict(zip(GRID, values)) for values in itertools.product(*GRID.values())]
    results: dict[str, list[dict]] = {}
    kept: dict[str, tuple] = {}
    kept_papers: dict[str, tuple] = {}  # what the floor is fitted and reported on
    for path in sorted(args.corpus.glob("*.jsonl")):
        records = ev.load(path)
        papers, _ = ev.derive(records, ev.RELATED)
        meanings = ev.meanings_of(papers, args.related_by)
        if path.stem in judging.DEFAULT_CORPORA or any(r.primary_area for r in records):
            kept_papers[path.stem] = (papers, records, meanings)
        results[path.stem] = []
        for setting in settings:
            linked = linked_with(papers, meanings, setting)
            kind, values, randoms = per_paper(linked, records)
            metrics = {m.key: m.value for m in ev.related_metrics(linked, records, ev.RELATED, ev.SEED)}
            results[path.stem].append(
                {
                    "setting": setting,
                    "kind": kind,
                    "value": measure(kind, values, randoms),
                    "reasons": metrics["reason_quality"],
                    "max_recommended": metrics["max_recommended"],
                    "never_recommended": metrics["never_recommended"],
                }
            )
            kept[(path.stem, json.dumps(setting, sort_keys=True))] = (kind, values, randoms)
        print(path.stem, " ".join(f"{r['value']:.3f}" for r in results[path.stem]), flush=True)

    names = sorted(results)
    bounds = {name: intervals(kept, name, settings) for name in names}
    report: dict = {"grid": GRID, "held_out": {}}
    rows_out = []
    without_venue = {}
    for held in sorted({venue(n) for n in names}):
        chosen = choose(results, bounds, [n for n in names if venue(n) != held], settings)
        without_venue[held] = {
            "semantic_weight": chosen["weight"],
            "semantic_candidates": chosen["candidates"],
            "semantic_penalty": chosen["penalty"],
        }
        for name in (n for n in names if venue(n) == held):
            k = settings.index(chosen)
            low, high = bounds[name][k]
            row = {
                "corpus": name,
                "chosen_without_venue": chosen,
                "kind": results[name][0]["kind"],
                "before": results[name][0]["value"],
                "after": results[name][k]["value"],
                "interval": [low, high],
                "reasons": [results[name][0]["reasons"], results[name][k]["reasons"]],
                "max_recommended": results[name][k]["max_recommended"],
                "never_recommended": results[name][k]["never_recommended"],
            }
            rows_out.append(row)
            print(
                f"{name:10s} {row['kind']:4s} {row['before']:.3f} -> {row['after']:.3f} "
                f"[{low:+.3f}, {high:+.3f}] reasons {row['reasons'][0]:.3f} -> {row['reasons'][1]:.3f} "
                f"hub {row['max_recommended']} never {row['never_recommended']:.3f} (w {chosen['weight']}, "
                f"+{chosen['candidates']}, penalty {chosen['penalty']})"
            )
    report["held_out"] = rows_out
    final = choose(results, bounds, names, settings)
    report["chosen"] = final
    print("chosen on every corpus:", final)
    source = source_name(args.related_by)
    floor, floors, report["floor"] = fitted_floors(kept_papers, source, final, without_venue)
    print(f"floor of a strong link: {floor}")
    for held, entry in without_venue.items():
        entry["link_floor"] = floors[held]
    if not args.check:
        fitted = yaml.safe_load(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}
        fitted.setdefault("sources", {})[source] = {
            "semantic_weight": final["weight"],
            "semantic_candidates": final["candidates"],
            "semantic_penalty": final["penalty"],
            "link_floor": floor,
            # What was chosen without each venue: lab/sample_check.py judges a venue with it.
            "without_venue": without_venue,
        }
        write(fitted)
        print(f"written {DATA.relative_to(ROOT)} for {source}")
    if args.report:
        args.report.write_text(json.dumps({"results": results, "intervals": bounds, **report}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
