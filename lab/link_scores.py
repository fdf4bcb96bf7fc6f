"""Which score tells a judged related link right from wrong, and what a floor on it buys (issue 52).

    python -m lab.link_scores                      # issue 52's two judged draws, related by the sentence model
    python -m lab.link_scores --related-by table

The links of docs/dev/judgements/links-52 (issue 15's draw, seed 15: corl2022, 3dv2025,
iclr2017; the fresh draw, seed 52: rss2024, uai2023, alt2025, aaai2022 of the unlabelled
abstracts) are derived again with this checkout as `lab.judging capture` derives them (every
paper of the venue, titles and keywords hidden), and each judged link (the judges' majority)
gets scores any list could be ordered or cut by:
- strength: what the list is ordered by and the floor cuts (`similar.ranked`, decision 0030);
- word cosine: the TF-IDF cosine of the two documents (`Related.score`);
- local scaling: 2 x strength minus the mean strength of each paper's own list (CSLS, the usual
  fix for hubs: a paper near everything, or in a crowded region, loses);
- the strength less the target's list mean; reciprocal (each is in the other's list);
  list position; how many lists the target is in.
Printed per draw and pooled: each score's AUC (right vs wrong), then for floors on the strength
the links kept, the share of them judged wrong, and how many of the ceiling judges' sure links
(`ceiling.tsv`, `ceiling-fresh.tsv`) they hold. Nothing is written.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from collections import Counter
from pathlib import Path

import click
import numpy as np

from lab import judging, options, sample_check, train_tags

ROOT = Path(__file__).resolve().parent.parent
JUDGED = ROOT / "docs" / "dev" / "judgements"
DRAWS = (("issue 15's draw", 15, ("corl2022", "3dv2025", "iclr2017")), ("fresh", 52, ("rss2024", "uai2023", "alt2025", "aaai2022")))
DRAWN = 10  # papers per venue


def majority_verdicts() -> dict[str, str]:
    """Each judged link's verdict: this round's three judges' majority, else issue 34's majority."""
    judges = [judging.read_verdicts(JUDGED / "links-52" / f"verdicts-judge{k}.tsv") for k in (1, 2, 3)]
    verdicts = {item: verdict for item, (verdict, _, _) in judging.majority_of(judges).items()}
    for line in (JUDGED / "links-52" / "majority-issue-34.tsv").read_text(encoding="utf-8").splitlines():
        item, verdict, *_ = line.split("\t")
        verdicts.setdefault(item, verdict)
    return verdicts


def sure_links() -> dict[str, set[int]]:
    ceilings = {
        **judging.read_ceiling(JUDGED / "issue-34" / "ceiling.tsv"),
        **judging.read_ceiling(JUDGED / "links-52" / "ceiling-fresh.tsv"),
    }
    return {key: sure for key, (sure, _) in ceilings.items()}


def venue_files(corpus_dir: Path, folder: Path) -> Path:
    """A folder with the labelled corpora and the fresh draw's venues as corpus files (as links-52's README makes them)."""
    for path in corpus_dir.glob("*.jsonl"):
        (folder / path.name).symlink_to(path.resolve())
    wanted = set(DRAWS[1][2])
    files = {venue: (folder / f"{venue}.jsonl").open("w", encoding="utf-8") for venue in wanted}
    seen: Counter[str] = Counter()
    with gzip.open(corpus_dir / "unlabelled" / "abstracts.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["venue"] in wanted:
                files[record["venue"]].write(
                    json.dumps({"id": f"{record['venue']}-{seen[record['venue']]}", "abstract": record["abstract"]}) + "\n"
                )
                seen[record["venue"]] += 1
    for file in files.values():
        file.close()
    return folder


def judged_links(corpus_dir: Path, related_by: str) -> list[dict]:
    """One row per link of the drawn papers' lists: the draw, its scores, the verdict (None: not judged), sure or not."""
    verdicts, sure = majority_verdicts(), sure_links()
    corpora = train_tags.keyword_corpora(corpus_dir)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        venues = venue_files(corpus_dir, Path(folder))
        for draw, seed, names in DRAWS:
            for name in names:
                records, papers = sample_check.derived_corpus(venues, name, corpora, related_by)
                index = {paper.id: i for i, paper in reversed(list(enumerate(papers)))}
                lists = [[(index[r.id], r.strength, r.score) for r in paper.related] for paper in papers]
                mean = [float(np.mean([s for _, s, _ in links])) if links else 0.0 for links in lists]
                lists_in = Counter(j for links in lists for j, _, _ in links)
                for i in sample_check.drawn_records(len(records), seed, DRAWN):
                    key = f"{name}#{i}"
                    for position, (j, strength, score) in enumerate(lists[i]):
                        rows.append(
                            {
                                "draw": draw,
                                "verdict": verdicts.get(judging.item_id(key, "link", str(j))),
                                "sure": j in sure.get(key, set()),
                                "strength": strength,
                                "word cosine": score,
                                "local scaling": 2 * strength - mean[i] - mean[j],
                                "strength less the target's mean": strength - mean[j],
                                "reciprocal": float(any(k == i for k, _, _ in lists[j])),
                                "first in the list": -float(position),
                                "in fewer lists": -float(lists_in[j]),
                            }
                        )
    return rows


SCORES = (
    "strength",
    "word cosine",
    "local scaling",
    "strength less the target's mean",
    "reciprocal",
    "first in the list",
    "in fewer lists",
)


@click.command()
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@options.related_by("Related papers by words, or by words and meaning from the built-in table or the sentence model.", default="semantic")
def main(corpus_dir: Path, related_by: str) -> None:
    rows = judged_links(corpus_dir, related_by)
    judged = [row for row in rows if row["verdict"]]
    click.echo(f"{len(rows)} links, {len(judged)} judged ({related_by})")
    groups = [(draw, [row for row in judged if row["draw"] == draw]) for draw, _, _ in DRAWS] + [("pooled", judged)]
    click.echo("AUC, right vs wrong:   " + "".join(f"{name:>16}" for name, _ in groups))
    for score in SCORES:
        values = [judging.auc(np.array([r[score] for r in g]), np.array([r["verdict"] == "ok" for r in g])) for _, g in groups]
        click.echo(f"  {score:32}" + "".join(f"{v:16.3f}" for v in values))
    sure_total = sum(len(s) for key, s in sure_links().items() if key.split("#")[0] in {n for _, _, names in DRAWS for n in names})
    click.echo(f"\nfloors on the strength (sure links: {sure_total}, {sum(r['sure'] for r in rows)} of them among the lists):")
    for floor in np.arange(0.50, 0.851, 0.02):
        kept = [r for r in judged if r["strength"] >= floor]
        wrong = sum(r["verdict"] == "wrong" for r in kept)
        sure = sum(r["sure"] for r in rows if r["strength"] >= floor)
        share = f"{wrong / len(kept):.0%}" if kept else "-"
        click.echo(f"  {floor:.2f}: {len(kept):4d} kept, {share:>4} judged wrong, {sure} sure links ({sure / max(sure_total, 1):.0%})")


if __name__ == "__main__":
    main()
