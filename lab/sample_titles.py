"""Print random derived titles of a held-out corpus beside the real ones, to judge by eye.

    python -m lab.sample_titles [--corpus DIR] [--seed 2026] [--count 40] NAME

The issue's "40 random titles" check (issue 11): the title, name and summary models are
fitted without the corpus's venue (`train.train`, as the leave-one-venue-out report does),
the corpus is derived with titles, keywords and TL;DRs hidden (`evaluate.derive`), and
`count` papers drawn with random.Random(seed) are printed as a numbered list: derived
title, then the real one. The output is text to read; nothing is scored.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import click

from generator.enrich.models import Models
from lab import train
from lab.evaluate import derive, load

ROOT = Path(__file__).resolve().parent.parent


@click.command()
@click.argument("name")
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.option("--seed", default=2026, show_default=True, type=int)
@click.option("--count", default=40, show_default=True, type=click.IntRange(1), help="Titles to print.")
def main(name: str, corpus_dir: Path, seed: int, count: int) -> None:
    held_out = train.venue(name)
    examples = [e for e in train.extract(corpus_dir) if train.venue(e.corpus) != held_out]
    models = replace(Models.shipped(), choices=train.train(examples))
    records = load(corpus_dir / f"{name}.jsonl")
    papers, _ = derive(records, models=models)
    for number, i in enumerate(sorted(random.Random(seed).sample(range(len(records)), min(count, len(records)))), 1):
        click.echo(f"{number}. {papers[i].title} — real: {records[i].title}")


if __name__ == "__main__":
    main()
