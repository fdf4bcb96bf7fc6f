"""Learn the title and summary choices from the real papers in ../shared/corpus.

    python -m lab.train [--corpus DIR] [--report OUT.json] [--no-write]

Rules propose candidates (`names.name_candidates`, `titles.descriptor_candidates`,
abstract sentences); this script fits the small linear models that choose among them
and writes their parameters to `generator/data/choices.yml` and
`generator/data/title_words.tsv` (deterministic: same corpora, same bytes).

- name: logistic regression, one row per name candidate; label: `evaluate.name_hit`
  (the real title carries the name, or spells it out and has no colon name of its own). The threshold for showing the best
  candidate is the highest that keeps 97% of the colon names that always showing it
  would get: the model drops the names least likely to be in the title; a shown name follows
  the phrase ('phrase (Name)').
- lead: logistic regression, one row per paper with an introduced name (its first); label:
  the real title leads with it ('PatchSAE: ...'). Above its threshold the name leads: the best
  F1 of leading on the training venues among thresholds with precision >= LEAD_PRECISION.
- phrase: ridge regression, one row per descriptive phrase; target: ROUGE-1 F1 of the
  phrase against the real title without its leading "Name:".
- sentence: ridge regression, one row per abstract sentence of a paper with an author
  TL;DR; target: ROUGE-1 F1 of the sentence against the TL;DR.
- titleness: log ratio of a word's rate in real titles to its rate in abstracts.
- words: lower-case words written in lower case in COMMON_WORD_DOCS abstracts or more
  ('recipe': so 'REcipe' is a highlighted common word, while 'GNNCert' is a coined name).
- verbs: words that abstracts use after "we", "to", a modal, "it", "which" or an adverb
  at least VERB_SHARE of the time (third-person forms: VERB_SHARE_THIRD_PERSON), seen
  VERB_MIN_COUNT times or more.

With --report it also validates leave-one-venue-out: for each venue (iclr, colm, corl,
ijcai, 3dv) the models are trained on the other venues only and the real pipeline
(`lab.evaluate`) scores every corpus of the held-out venue. Those are the figures
to quote; the shipped parameters are then trained on all venues.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import click
import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression, Ridge

from generator.enrich.features import content_words, name_features, phrase_features, sentence_features, word_counts
from generator.enrich.models import Models
from generator.enrich.names import NOT_INTRODUCED, find_acronyms, name_candidates
from generator.enrich.paper import _bold_words
from generator.enrich.titlegate import third_person
from generator.enrich.titles import descriptor_candidates
from generator.errors import Report
from generator.language import learned
from generator.language.textutil import sentences
from generator.sources import markup
from generator.sources.readers import read_file
from lab.evaluate import evaluate_records, f1, name_hit, real_title_leads_with, real_title_name, rouge1_f1, title_lead

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "generator" / "data"
MIN_WORD_COUNT = 5  # words seen fewer times in all titles and abstracts get no titleness
VERB_SHARE = 0.4
VERB_SHARE_THIRD_PERSON = 0.15
VERB_SHARE_AFTER_SUBJECT = 0.15
VERB_MIN_COUNT = 10
_VERB_OBJECTS = frozenset("that the a an to in on across with such their its our this these from by into".split())
_NOT_SUBJECTS = frozenset("its this is was has as us thus".split())
_VERB_CUES = frozenset(
    "we to can cannot may might will would should must not they it which that also often generally typically "
    "consistently significantly still further then".split()
)
RECALL_KEPT = 0.97
# A title leads with its name at the best F1 where at least 3 in 4 such leads are right (on the
# training papers): a wrong 'Name:' misleads more than a name after the phrase (decision 0029).
LEAD_PRECISION = 0.75
COMMON_WORD_DOCS = 5


def venue(corpus: str) -> str:
    """'iclr2024' -> 'iclr', '3dv2025' -> '3dv': the venue, the unit left out in validation."""
    return corpus.rstrip("0123456789")


@dataclass
class Example:
    corpus: str
    title: str
    tldr: str | None
    text: str
    proposal: tuple  # what the name rules read: (text without URLs, bold words, acronyms, URLs)
    names: list  # IntroducedName candidates, in the rules' order
    phrases: list  # (features-inputs, target)
    sentences: list[str]


def real_descriptive_part(title: str) -> str:
    name = real_title_name(title)
    return title.split(":", 1)[1] if name and name.colon else title


def name_label(candidate, title: str) -> bool:
    return name_hit(candidate.name, candidate.expansion, title)


def extract(corpus_dir: Path) -> list[Example]:
    examples = []
    for path in sorted(corpus_dir.glob("*.jsonl")):
        for record in read_file(path, Report()):
            if not record.title:
                continue
            parts = markup.segments(record.abstract)
            text = markup.to_plain(parts)
            proposal = (markup.URL.sub("", text), _bold_words(parts), find_acronyms(text), markup.urls(parts))
            examples.append(Example(path.stem, record.title, record.tldr, text, proposal, [], [], list(sentences(text))))
    return examples


def titleness(examples: list[Example]) -> dict[str, float]:
    in_titles, in_abstracts = Counter(), Counter()
    for example in examples:
        in_titles.update(content_words(example.title))
        in_abstracts.update(content_words(example.text))
    n_title, n_abstract = sum(in_titles.values()), sum(in_abstracts.values())
    vocabulary = sorted(w for w in set(in_titles) | set(in_abstracts) if in_titles[w] + in_abstracts[w] >= MIN_WORD_COUNT)
    return {w: round(math.log((in_titles[w] + 0.5) / n_title) - math.log((in_abstracts[w] + 0.5) / n_abstract), 3) for w in vocabulary}


def common_words(examples: list[Example]) -> frozenset[str]:
    documents = Counter()
    for example in examples:
        documents.update(set(re.findall(r"\b[a-z]{3,}\b", example.text)))
    return frozenset(w for w, n in documents.items() if n >= COMMON_WORD_DOCS)


def verbs(examples: list[Example]) -> frozenset[str]:
    """Words the abstracts mostly use as verbs. Two kinds of evidence: the word follows "we",
    "to", a modal, "it", "which" or an adverb (a third-person form such as 'exhibits' needs
    a lower share than a base form, which is a noun more often: 'design', 'study' stay out);
    or it sits between a plural noun and a determiner or preposition ('models excel across',
    'algorithms ignore such')."""
    after_cue, after_subject, total = Counter(), Counter(), Counter()
    for example in examples:
        tokens = re.findall(r"[a-z]+", example.text.lower())
        total.update(tokens)
        after_cue.update(b for a, b in zip(tokens, tokens[1:]) if a in _VERB_CUES)
        after_subject.update(
            b for a, b, c in zip(tokens, tokens[1:], tokens[2:]) if third_person(a) and a not in _NOT_SUBJECTS and c in _VERB_OBJECTS
        )
    return frozenset(
        word
        for word, count in total.items()
        if count >= VERB_MIN_COUNT
        and not word.endswith("ing")
        and (
            after_cue[word] >= (VERB_SHARE_THIRD_PERSON if third_person(word) else VERB_SHARE) * count
            or after_subject[word] >= VERB_SHARE_AFTER_SUBJECT * count
        )
    )


def _fit_linear(rows: list[dict], targets: list[float], weights: list[float] | None, classify: bool) -> learned.Linear:
    vectorizer = DictVectorizer(sort=True)
    matrix = vectorizer.fit_transform(rows)
    if classify:
        model = LogisticRegression(C=1.0, max_iter=2000)
        model.fit(matrix, np.array(targets, dtype=int), sample_weight=weights)
        coefficients, bias = model.coef_[0], float(model.intercept_[0])
    else:
        model = Ridge(alpha=1.0)
        model.fit(matrix, np.array(targets), sample_weight=weights)
        coefficients, bias = model.coef_, float(model.intercept_)
    names = vectorizer.get_feature_names_out()
    return learned.Linear(round(bias, 4), {str(n): round(float(c), 4) for n, c in zip(names, coefficients) if abs(c) >= 1e-4})


def name_rows(example: Example) -> list[tuple[dict, bool]]:
    url_text = " ".join(markup.URL.findall(example.text))
    return [
        (name_features(n, rank, example.text, example.sentences, url_text), name_label(n, example.title))
        for rank, n in enumerate(example.names)
    ]


def first_name_odds(model: learned.Linear, examples: list[Example]) -> list[tuple[float, bool, bool]]:
    """Per paper with an introduced name: the model's probability for the first one (the only
    name a title shows, `titles.choose_name`), whether the real title carries it, and whether
    the real title leads with it as a colon name."""
    papers = []
    for example in examples:
        real = real_title_name(example.title)
        colon = bool(real and real.colon)
        first = next((row for row, name in zip(name_rows(example), example.names) if name.rule not in NOT_INTRODUCED), None)
        if first:
            features, hit = first
            papers.append((model.probability(features), hit, hit and colon))
    return papers


def choose_threshold(papers: list[tuple[float, bool, bool]]) -> float:
    """The highest probability for showing the best name that keeps colon-name recall within
    RECALL_KEPT of always showing it: precision rises, names stay."""

    def recall(threshold: float) -> int:
        return sum(1 for probability, _, colon_hit in papers if colon_hit and probability >= threshold)

    always = recall(0.0)
    return max(t / 100 for t in range(0, 100) if recall(t / 100) >= RECALL_KEPT * always)


def lead_rows(examples: list[Example]) -> list[tuple[dict, bool]]:
    """Per paper with an introduced name: the features of the first one (the only name a title
    shows, `titles.choose_name`) and whether the real title leads with it ('PatchSAE: ...')."""
    rows = []
    for example in examples:
        url_text = " ".join(markup.URL.findall(example.text))
        first = next((name for name in example.names if name.rule not in NOT_INTRODUCED), None)
        if first:
            features = name_features(first, 0, example.text, example.sentences, url_text)
            rows.append((features, real_title_leads_with(first.name, example.title)))
    return rows


def choose_lead_threshold(model: learned.Linear, rows: list[tuple[dict, bool]], real_leads: int) -> float:
    """The probability above which a title leads with its name: the best F1 of "leads with its
    own name" on the training papers (recall over every real title that leads, named or not)
    among thresholds whose precision is at least LEAD_PRECISION: a wrong 'Name:' misleads more
    than a name after the phrase."""
    scored = [(model.probability(features), right) for features, right in rows]
    best, chosen = -1.0, 1.0
    for t in range(1, 100):
        led = [right for probability, right in scored if probability >= t / 100]
        if not led or sum(led) < LEAD_PRECISION * len(led):
            continue
        score = f1(sum(led) / len(led), sum(led) / max(1, real_leads)) or 0.0
        if score > best:
            best, chosen = score, t / 100
    return chosen


def propose(example: Example, lists: learned.Choices) -> Example:
    """The rules' name and phrase candidates, by the word lists of `lists`."""
    text, bold, acronyms, urls = example.proposal
    names = name_candidates(text, bold, acronyms, frozenset(), urls=urls, choices=lists)
    return replace(example, names=names, phrases=descriptor_candidates(example.text, names, lists))


def train(examples: list[Example]) -> learned.Choices:
    words, verb_list, common = titleness(examples), verbs(examples), common_words(examples)
    # Candidates depend on the word lists (a subject ends at its verb; 'REcipe' is a common
    # word): propose them with these.
    lists = learned.Choices(titleness=words, verbs=verb_list, words=common)
    examples = [propose(e, lists) for e in examples]
    rows, labels = [], []
    for example in examples:
        for features, label in name_rows(example):
            rows.append(features)
            labels.append(label)
    name_model = _fit_linear(rows, labels, None, classify=True)

    rows, targets = [], []
    for example in examples:
        counts = word_counts(example.text)
        reference = real_descriptive_part(example.title)
        for phrase in example.phrases:
            rows.append(phrase_features(phrase.text, phrase.rule, phrase.sentence, counts, words))
            targets.append(rouge1_f1(phrase.text, reference))
    phrase_model = _fit_linear(rows, targets, None, classify=False)

    rows, targets = [], []
    for example in examples:
        if example.tldr:
            for sentence, row in zip(example.sentences, sentence_features(example.sentences, words)):
                rows.append(row)
                targets.append(rouge1_f1(sentence, example.tldr))
    sentence_model = _fit_linear(rows, targets, None, classify=False)
    odds = first_name_odds(name_model, examples)
    leads = lead_rows(examples)
    lead_model = _fit_linear([row for row, _ in leads], [right for _, right in leads], None, classify=True)
    real_leads = sum(1 for example in examples if title_lead(example.title))
    return learned.Choices(
        name=name_model,
        name_threshold=choose_threshold(odds),
        lead=lead_model,
        lead_threshold=choose_lead_threshold(lead_model, leads, real_leads),
        phrase=phrase_model,
        sentence=sentence_model,
        titleness=words,
        verbs=verb_list,
        words=common,
    )


def _linear_yaml(model: learned.Linear, extra: dict | None = None) -> dict:
    return {**(extra or {}), "bias": model.bias, "weights": dict(sorted(model.weights.items()))}


def write(choices: learned.Choices, corpora: list[str]) -> None:
    import yaml

    header = (
        "# Learned by `make train` (lab/train.py) from the real titles and TL;DRs of\n"
        f"# ../shared/corpus ({', '.join(corpora)}). Do not edit by hand: retrain.\n"
        "# name: logistic regression (does the real title carry this name?): shown after the phrase\n"
        "#   ('phrase (Name)') above `threshold`.\n"
        "# lead: logistic regression (does the real title lead with this name?): leads ('Name: phrase')\n"
        "#   above `threshold`.\n"
        "# phrase, sentence: ridge regression of ROUGE-1 F1 against the real title / TL;DR.\n"
    )
    body = {
        "name": _linear_yaml(choices.name, {"threshold": choices.name_threshold}),
        "lead": _linear_yaml(choices.lead, {"threshold": choices.lead_threshold}),
        "phrase": _linear_yaml(choices.phrase),
        "sentence": _linear_yaml(choices.sentence),
    }
    (DATA / "choices.yml").write_text(header + yaml.safe_dump(body, sort_keys=False, allow_unicode=True), encoding="utf-8")
    lines = ["# word\tlog(rate in real titles / rate in abstracts); learned by `make train` (lab/train.py)"]
    lines += [f"{w}\t{v}" for w, v in choices.titleness.items()]
    (DATA / "title_words.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    header = "# words abstracts use mostly as verbs; learned by `make train` (lab/train.py)"
    (DATA / "verbs.txt").write_text("\n".join([header, *sorted(choices.verbs)]) + "\n", encoding="utf-8")
    header = f"# words written in lower case in {COMMON_WORD_DOCS}+ abstracts; learned by `make train` (lab/train.py)"
    (DATA / "words.txt").write_text("\n".join([header, *sorted(choices.words)]) + "\n", encoding="utf-8")


def _records(corpus_dir: Path, corpus: str):
    return read_file(corpus_dir / f"{corpus}.jsonl", Report())


@click.command()
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.option("--report", type=click.Path(path_type=Path, dir_okay=False), help="Leave-one-venue-out figures, as JSON.")
@click.option("--write/--no-write", "write_files", default=True, help="Write the parameters trained on all venues.")
def main(corpus_dir: Path, report: Path | None, write_files: bool) -> None:
    start = time.perf_counter()
    examples = extract(corpus_dir)
    corpora = sorted({e.corpus for e in examples})
    click.echo(f"{len(examples)} papers from {len(corpora)} corpora read in {time.perf_counter() - start:.1f} s")
    if report:
        results = {}
        for held_out in sorted({venue(c) for c in corpora}):
            models = replace(Models.shipped(), choices=train([e for e in examples if venue(e.corpus) != held_out]))
            for corpus in [c for c in corpora if venue(c) == held_out]:
                result = evaluate_records(corpus, _records(corpus_dir, corpus), models=models)
                results[corpus] = {"trained_on": f"all venues but {held_out}", **result.to_json()}
                titles = result.to_json()["titles"]
                click.echo(
                    f"{corpus:10} (without {held_out}): " + ", ".join(f"{k} {v:.3f}" for k, v in titles.items() if isinstance(v, float))
                )
        report.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        click.echo(f"leave-one-venue-out report written to {report}")
    if write_files:
        write(train(examples), corpora)
        click.echo(f"parameters written to {DATA / 'choices.yml'} and {DATA / 'title_words.tsv'}")
    click.echo(f"done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
