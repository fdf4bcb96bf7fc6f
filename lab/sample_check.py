"""Print random papers of held-out corpora with their tags and related papers, to judge by eye.

    python -m lab.sample_check [--corpus DIR] [--seed 15] [--count 10] [NAME ...]

The issue's "30-paper check" (issue 15): for each corpus (default corl2022, 3dv2025,
iclr2017), the tag models are fitted without the corpus's venue (`train_tags.train`, as
the leave-one-venue-out report does), the corpus is derived with keywords and titles hidden
(`evaluate.derive`), and `count` papers drawn with random.Random(seed) are printed: real
title, author keywords, abstract, derived tags and key phrases, and the real titles of the related papers
with their reasons. The output is text to read; nothing is scored.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import click

from generator.link.related import similar
from generator.pipeline import fitted_aboutness_for
from lab import train_tags
from lab.evaluate import derive, load, meaning_source_of

ROOT = Path(__file__).resolve().parent.parent


def drawn_records(n: int, seed: int, count: int) -> list[int]:
    """The record numbers of a corpus of `n` records that random.Random(seed) draws, `count` of them, in order."""
    return sorted(random.Random(seed).sample(range(n), min(count, n)))


def derived_corpus(corpus_dir: Path, name: str, corpora: dict, related_by: str = "lexical") -> tuple[list, list]:
    """Corpus `name`'s records and its papers derived with titles and keywords hidden, tag models
    fitted without the corpus's venue, and related papers by `related_by`: mixed, and tags checked
    by meaning (link.aboutness), as fitted for that source without the venue (generator/data's
    related.yml and aboutness.yml, without_venue)."""
    records = load(corpus_dir / f"{name}.jsonl")
    held_out = train_tags.venue(name)
    models = train_tags.train({k: r for k, r in corpora.items() if train_tags.venue(k) != held_out}).models()
    source = meaning_source_of(related_by)
    mixing = similar.mixing_without(held_out, source.name if source is not None else None)
    papers, _ = derive(records, related_by=related_by, mixing=mixing, aboutness=fitted_aboutness_for(source, held_out), models=models)
    return records, papers


def drawn(corpus_dir: Path, name: str, seed: int, count: int, corpora: dict, related_by: str = "lexical") -> list[dict]:
    """The `count` papers random.Random(seed) draws from corpus `name`, derived as
    `derived_corpus` derives them: per paper its record number, real title, author keywords,
    abstract, tags, key phrases, the evidence of its vocabulary tags (Paper.tag_choice.scores), and
    each related paper's record number, real title, abstract, reasons, strength and whether it is strong."""
    records, papers = derived_corpus(corpus_dir, name, corpora, related_by)
    index = {paper.id: i for i, paper in reversed(list(enumerate(papers)))}
    out = []
    for i in drawn_records(len(records), seed, count):
        paper, record = papers[i], records[i]
        related = [
            {
                "record": index[r.id],
                "title": records[index[r.id]].title,
                "abstract": records[index[r.id]].abstract,
                "reasons": list(r.reasons),
                "strength": r.strength,
                "strong": r.strong,
            }
            for r in paper.related
        ]
        out.append(
            {
                "corpus": name,
                "record": i,
                "id": paper.id,
                "title": record.title,
                "keywords": list(record.keywords),
                "abstract": paper.text,
                "tags": list(paper.tags),
                "keyphrases": list(paper.keyphrases),
                "tag_scores": dict(paper.tag_choice.scores),
                "related": related,
            }
        )
    return out


def sample(corpus_dir: Path, name: str, seed: int, count: int, corpora: dict) -> list[str]:
    lines = []
    for paper in drawn(corpus_dir, name, seed, count, corpora):
        lines.append(f"== {name} #{paper['record']}: {paper['title']}")
        lines.append("   keywords: " + "; ".join(paper["keywords"]))
        lines.append(textwrap.fill(paper["abstract"], 160, initial_indent="   ", subsequent_indent="   "))
        lines.append("   TAGS: " + " | ".join(paper["tags"]))
        lines.append("   key phrases: " + " | ".join(paper["keyphrases"]))
        for related in paper["related"]:
            lines.append(f"   -> {related['title']}   [{', '.join(related['reasons'])}]")
    return lines


@click.command()
@click.argument("names", nargs=-1)
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.option("--seed", default=15, show_default=True, type=int)
@click.option("--count", default=10, show_default=True, type=click.IntRange(1), help="Papers per corpus.")
def main(names: tuple[str, ...], corpus_dir: Path, seed: int, count: int) -> None:
    corpora = train_tags.keyword_corpora(corpus_dir)
    for name in names or ("corl2022", "3dv2025", "iclr2017"):
        click.echo("\n".join(sample(corpus_dir, name, seed, count, corpora)))


if __name__ == "__main__":
    main()
