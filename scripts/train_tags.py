"""Learn when a vocabulary tag really applies, from the author keywords in ../shared/corpus.

    python scripts/train_tags.py [--corpus DIR] [--report OUT.json] [--no-write]

Every spelling that fires in an abstract proposes its tag (`tagging.mentions`); each
candidate is described by `tagevidence.features` (which spelling, how often, where, the
words either side, whether the paper's other candidates share its area). Its label: the
tag matches one of the paper's author keywords the way `generator.evaluate` counts tag
precision (term tokens equal or one containing the other), or the keyword's vocabulary
tag is this tag ('LLMs' -> large language models). A logistic regression on those rows
is written to `generator/data/tag_evidence.yml` (deterministic: same corpora, same bytes),
with two cut-offs chosen on the training papers:

- threshold: the lowest probability a derived tag may have; chosen so that the tags kept
  keep TAG_RECALL_KEPT of the keyword matches that keeping every candidate would get
  (the least likely candidates go; most matches stay);
- central: above it a paper is taken to be about a tag that is too common in its
  collection (`link.drop_dominant_tags`); the probability at which, on the training
  papers, half of the candidates match an author keyword.

Only corpora with author keywords train (`evaluate.keyword_kind`): colm, corl, iclr
(2017, 2018) and 3dv; IJCAI's keywords are area labels. With --report it validates
leave-one-venue-out: for each venue the model is fitted on the other venues only and
the real pipeline (`generator.evaluate`) scores every corpus of the held-out venue
(and, for IJCAI, with the model fitted on every keyword venue). Those are the figures
to quote; the shipped parameters are then fitted on all keyword venues.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator import markup, tagevidence  # noqa: E402
from generator.errors import Report  # noqa: E402
from generator.evaluate import evaluate_records, keyword_kind, tag_matches_keywords  # noqa: E402
from generator.learned import Linear  # noqa: E402
from generator.sources import read_file  # noqa: E402
from generator.tagging import mentions, normalise_keyword  # noqa: E402

DATA = ROOT / "generator" / "data"
OUT = DATA / "tag_evidence.yml"
MIN_FEATURE_ROWS = 3  # a feature seen on fewer candidates gets no weight (the file stays readable)
REGULARISATION = 1.0  # LogisticRegression's C
TAG_RECALL_KEPT = 0.97
CENTRAL_PRECISION = 0.5


def venue(corpus: str) -> str:
    return corpus.rstrip("0123456789")


@dataclass
class Candidate:
    corpus: str
    paper: int  # index of the paper within the whole training set
    tag: str
    features: dict
    label: bool


def labelled(tag: str, keywords: tuple[str, ...], by_vocabulary: frozenset[str]) -> bool:
    return tag in by_vocabulary or tag_matches_keywords(tag, keywords)


def keyword_corpora(corpus_dir: Path) -> dict[str, list]:
    found = {}
    for path in sorted(corpus_dir.glob("*.jsonl")):
        records = read_file(path, Report())
        if keyword_kind(records) == "author":
            found[path.stem] = records
    return found


def extract(corpora: dict[str, list]) -> list[Candidate]:
    rows = []
    paper = 0
    for corpus, records in corpora.items():
        for record in records:
            if not record.keywords:
                continue
            text = markup.to_plain(markup.segments(record.abstract))
            by_vocabulary = frozenset(normalise_keyword(k) for k in record.keywords)
            for tag, row in tagevidence.features(text, mentions(text)).items():
                rows.append(Candidate(corpus, paper, tag, row, labelled(tag, record.keywords, by_vocabulary)))
            paper += 1
    return rows


def _pruned(rows: list[dict]) -> list[dict]:
    seen: dict[str, int] = {}
    for row in rows:
        for name in row:
            seen[name] = seen.get(name, 0) + 1
    return [{k: v for k, v in row.items() if seen[k] >= MIN_FEATURE_ROWS} for row in rows]


def fit(candidates: list[Candidate]) -> tagevidence.TagModel:
    rows = _pruned([c.features for c in candidates])
    labels = np.array([int(c.label) for c in candidates])
    vectorizer = DictVectorizer(sort=True)
    matrix = vectorizer.fit_transform(rows)
    model = LogisticRegression(C=REGULARISATION, max_iter=5000)
    model.fit(matrix, labels)
    names = vectorizer.get_feature_names_out()
    weights = {str(n): round(float(c), 4) for n, c in zip(names, model.coef_[0]) if abs(c) >= 1e-3}
    linear = Linear(round(float(model.intercept_[0]), 4), weights)
    probabilities = [linear.probability(c.features) for c in candidates]
    return tagevidence.TagModel(linear, _threshold(probabilities, candidates), _central(probabilities, candidates))


def _threshold(probabilities: list[float], candidates: list[Candidate]) -> float:
    """The highest cut that keeps TAG_RECALL_KEPT of the candidates that match a keyword."""
    matched = sorted(p for p, c in zip(probabilities, candidates) if c.label)
    return round(matched[int((1 - TAG_RECALL_KEPT) * len(matched))], 3) if matched else 0.0


def _central(probabilities: list[float], candidates: list[Candidate]) -> float:
    """The lowest probability above which at least CENTRAL_PRECISION of candidates match."""
    ranked = sorted(zip(probabilities, (c.label for c in candidates)), reverse=True)
    hits = 0
    best = 1.0
    for index, (probability, label) in enumerate(ranked, 1):
        hits += label
        if index >= 20 and hits / index >= CENTRAL_PRECISION:
            best = probability
    return round(best, 3)


def write(model: tagevidence.TagModel, corpora: list[str], candidates: int) -> None:
    import yaml

    header = (
        "# Learned by `make train` (scripts/train_tags.py) from the author keywords of\n"
        f"# ../shared/corpus ({', '.join(corpora)}; {candidates} candidate tags). Do not edit by hand: retrain.\n"
        "# Logistic regression: is a vocabulary tag that fired among the paper's author keywords?\n"
        "# Features (generator/tagevidence.py): tag=, spelling= (what fired), before=/after= (the words\n"
        "# either side), log_count, first_sentence, we_sentence, sentence_share, first_at, area_share,\n"
        "# rank=, log_candidates, modifier. A derived tag needs probability >= threshold; a tag too common\n"
        "# in a collection stays where its probability is >= central.\n"
    )
    body = {
        "threshold": model.threshold,
        "central": model.central,
        "bias": model.linear.bias,
        "weights": dict(sorted(model.linear.weights.items())),
    }
    OUT.write_text(header + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")


@click.command()
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.option("--report", type=click.Path(path_type=Path, dir_okay=False), help="Leave-one-venue-out figures, as JSON.")
@click.option("--write/--no-write", "write_files", default=True, help="Write the parameters fitted on all keyword venues.")
def main(corpus_dir: Path, report: Path | None, write_files: bool) -> None:
    start = time.perf_counter()
    corpora = keyword_corpora(corpus_dir)
    candidates = extract(corpora)
    click.echo(f"{len(candidates)} candidate tags from {len(corpora)} keyword corpora in {time.perf_counter() - start:.1f} s")
    if report:
        results = {}
        venues = sorted({venue(c) for c in corpora})
        for held_out in venues:
            tagevidence.use(fit([c for c in candidates if venue(c.corpus) != held_out]))
            for corpus in [c for c in corpora if venue(c) == held_out]:
                results[corpus] = {"trained_on": f"keyword venues but {held_out}", **evaluate_records(corpus, corpora[corpus]).to_json()}
                click.echo(f"{corpus:10} (without {held_out}): {_line(results[corpus])}")
        tagevidence.use(fit(candidates))
        for path in sorted(corpus_dir.glob("ijcai*.jsonl")):
            result = evaluate_records(path.stem, read_file(path, Report()))
            results[path.stem] = {"trained_on": "every keyword venue (none is ijcai)", **result.to_json()}
            click.echo(f"{path.stem:10} (keyword venues): {_line(results[path.stem])}")
        tagevidence.use(None)
        report.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        click.echo(f"leave-one-venue-out report written to {report}")
    if write_files:
        write(fit(candidates), sorted(corpora), len(candidates))
        click.echo(f"parameters written to {OUT}")
    click.echo(f"done in {time.perf_counter() - start:.1f} s")


def _line(result: dict) -> str:
    keywords, tags, related = result.get("keywords", {}), result["tags"], result["related"]
    parts = [
        ("exact", keywords.get("recall_exact")),
        ("lenient", keywords.get("recall_lenient")),
        ("precision", keywords.get("tag_precision_lenient")),
        ("top tag", tags.get("largest_tag_share")),
        ("lift", related.get("keyword_lift")),
        ("area@5", related.get("area_agreement")),
        ("reasons", related.get("reason_quality")),
    ]
    return ", ".join(f"{name} {value:.3f}" for name, value in parts if isinstance(value, float))


if __name__ == "__main__":
    main()
