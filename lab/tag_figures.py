"""Issue 33's tag figures per corpus from leave-one-venue-out reports, before beside after.

    python -m lab.train_tags --no-write --report after.json         # in each checkout
    python -m lab.tag_figures after.json [--before before.json]

Columns (lab/evaluate.py computes them; keywords and titles hidden, tag models
fitted without the corpus's venue, IJCAI with models fitted on every keyword venue):

    broad once   papers carrying a one-word tag that their abstract names at most once (<= 8%)
    one-paper    distinct tags carried by one paper only (<= 15%)
    largest      the largest tag's share of papers (<= 10% on a corpus of 1,000+ papers)
    exact        recall of reachable author keywords, exact (not lower than before by > 0.01)
    lenient      the same, lenient (>= 0.70)
    related      area agreement@5 (IJCAI) or keyword lift (the others): related papers' quality
    tags/paper   mean tags per paper
"""

from __future__ import annotations

import json
from pathlib import Path

import click

COLUMNS = (
    ("broad once", "tags", "broad_once", "{:.1%}"),
    ("one-paper", "tags", "singleton_tags", "{:.1%}"),
    ("largest", "tags", "largest_tag_share", "{:.1%}"),
    ("exact", "keywords", "recall_exact", "{:.3f}"),
    ("lenient", "keywords", "recall_lenient", "{:.3f}"),
    ("related", "related", None, "{:.3f}"),
    ("tags/paper", "tags", "mean_tags", "{:.2f}"),
)


def value(result: dict, section: str, key: str | None) -> float | None:
    metrics = result.get(section) or {}
    if key is None:  # related papers: area agreement where there are areas, else keyword lift
        found = metrics.get("area_agreement")
        return found if found is not None else metrics.get("keyword_lift")
    found = metrics.get(key)
    return found if isinstance(found, (int, float)) else None


def cell(after: float | None, before: float | None, fmt: str) -> str:
    if after is None:
        return "–"
    return fmt.format(after) if before is None else f"{fmt.format(before)} → {fmt.format(after)}"


@click.command()
@click.argument("report", type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--before", type=click.Path(exists=True, path_type=Path, dir_okay=False), help="An earlier report, shown before each figure.")
def main(report: Path, before: Path | None) -> None:
    after_results = json.loads(report.read_text(encoding="utf-8"))
    before_results = json.loads(before.read_text(encoding="utf-8")) if before else {}
    click.echo("| corpus | papers | " + " | ".join(name for name, *_ in COLUMNS) + " |")
    click.echo("|---" * (len(COLUMNS) + 2) + "|")
    for corpus in sorted(after_results):
        result, earlier = after_results[corpus], before_results.get(corpus, {})
        cells = [cell(value(result, s, k), value(earlier, s, k) if earlier else None, fmt) for _, s, k, fmt in COLUMNS]
        click.echo(f"| {corpus} | {result.get('papers')} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
