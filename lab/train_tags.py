"""Learn when a vocabulary tag really applies, from the author keywords in ../shared/corpus.

    python -m lab.train_tags [--corpus DIR] [--report OUT.json] [--no-write]

Every spelling that fires in an abstract proposes its tag (`tagging.mentions`); each
candidate is described by `tagevidence.features` (which spelling, how often, where, the
words either side, whether the paper's other candidates share its area). Its label: the
tag matches one of the paper's author keywords the way `lab.evaluate` counts tag
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
the real pipeline (`lab.evaluate`) scores every corpus of the held-out venue
(and, for IJCAI, with the model fitted on every keyword venue). Those are the figures
to quote; the shipped parameters are then fitted on all keyword venues.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import click
import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from generator.enrich import (
    tagevidence,
    tagging,
)
from generator.enrich.models import Models
from generator.enrich.names import find_acronyms
from generator.enrich.tagging import candidate_phrases, mentions, normalise_keyword
from generator.enrich.tags import one_word
from generator.errors import Report
from generator.language.learned import PHRASE_FEATURES, Linear, PhraseModel, TagModel
from generator.language.textutil import fold, normalise_term, singular
from generator.link import keyphrases
from generator.link.corpus import _phrase_like
from generator.pipeline import fitted_aboutness_for
from generator.sources import markup
from generator.sources.readers import read_file
from lab import options
from lab.evaluate import contains, evaluate_records, keyword_kind, meaning_source_of, tag_matches_keywords, term_tokens
from lab.train import venue

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "generator" / "data"
OUT = DATA / "tag_evidence.yml"
LEARNED_OUT = DATA / tagging.LEARNED
# A frequent author keyword the vocabulary lacks becomes a learned tag when it is a phrase
# (one word is too ambiguous a spelling: 'learning', 'safety', 'vision'), given by this many
# papers of at least two corpora, and given by at least this share of the papers whose
# abstract contains it.
LEARNED_MIN_PAPERS = 3
LEARNED_MIN_CORPORA = 2
LEARNED_MIN_WORDS = 2
LEARNED_MIN_PRECISION = 0.15
# A key phrase at least this many training abstracts write, and fewer than this share of those
# papers give as an author keyword, is generic: never a tag of its own ('deep neural network';
# decision 0020).
GENERIC_MIN_ABSTRACTS = 10
GENERIC_MAX_RATE = 0.05
PHRASES_OUT = DATA / "keyphrase_evidence.yml"
WORDS_OUT = DATA / "keyword_words.tsv"
KEYWORD_PHRASES_OUT = DATA / "keyword_phrases.tsv"
KEYWORD_PHRASE_WORDS = (2, 4)  # the lengths of candidate phrases (`tagging.candidate_phrases`)
MIN_WORD_COUNT = 5  # words seen fewer times in all keywords and abstracts get no keywordness
MIN_FEATURE_ROWS = 3  # a feature seen on fewer candidates gets no weight (the file stays readable)
REGULARISATION = 1.0  # LogisticRegression's C
TAG_RECALL_KEPT = 0.97
CENTRAL_PRECISION = 0.5
# A phrase no other abstract uses, used once, becomes a key phrase when the model puts it where
# such phrases are keywords at least this share as often as recurring candidates are. At 1.0
# (the first choice) it kept out phrases as good as the key phrases kept: leave-one-venue-out,
# the key phrases' precision against author keywords is the same at 1.0, 0.5, 0.25 and 0, and
# lenient keyword recall is 3-5 points higher at 0.25 (colm2024 0.661 -> 0.702).
ONCE_RATE = 0.25


@dataclass
class Candidate:
    corpus: str
    paper: int  # index of the paper within the whole training set
    tag: str
    features: dict
    label: bool
    exact: bool = False  # the tag is one of the keywords itself ('evaluation', not 'LLM evaluation')


def labelled(tag: str, keywords: tuple[str, ...], by_vocabulary: frozenset[str]) -> bool:
    return tag in by_vocabulary or tag_matches_keywords(tag, keywords)


def keyword_corpora(corpus_dir: Path) -> dict[str, list]:
    found = {}
    for path in sorted(corpus_dir.glob("*.jsonl")):
        records = read_file(path, Report())
        if keyword_kind(records) == "author":
            found[path.stem] = records
    return found


def learn_vocabulary(corpora: dict[str, list]) -> dict[str, dict[str, list[str]]]:
    """{area: {tag: [spelling]}} for frequent author keywords the vocabulary does not know; a
    keyword that only inflects a curated spelling differently becomes one of its spellings.
    The area: the one the generator gives most of the papers giving the keyword."""
    vocab = tagging.vocabulary_with({})  # without learned tags
    given: dict[tuple[str, ...], dict[str, set[int]]] = {}
    forms: dict[tuple[str, ...], list[str]] = {}
    texts = []
    for corpus, records in corpora.items():
        for record in records:
            index = len(texts)
            texts.append(markup.to_plain(markup.segments(record.abstract)))
            for keyword in record.keywords:
                key = term_tokens(keyword)
                if len(key) < LEARNED_MIN_WORDS or normalise_keyword(keyword, vocab) in vocab.tag_area or key in vocab.folded:
                    continue
                given.setdefault(key, {}).setdefault(corpus, set()).add(index)
                forms.setdefault(key, []).append(normalise_keyword(keyword, vocab))
    frequent = {
        key: set().union(*by_corpus.values())
        for key, by_corpus in given.items()
        if len(by_corpus) >= LEARNED_MIN_CORPORA and sum(map(len, by_corpus.values())) >= LEARNED_MIN_PAPERS
    }
    tokens = [term_tokens(text) for text in texts]
    order = {area.slug: i for i, area in enumerate(vocab.areas)}
    learned: dict[str, dict[str, list[str]]] = {}
    for key in sorted(frequent):
        mentioning = [i for i, t in enumerate(tokens) if contains(t, key)]
        hits = [i for i in mentioning if i in frequent[key]]
        if not mentioning or len(hits) < LEARNED_MIN_PAPERS or len(hits) / len(mentioning) < LEARNED_MIN_PRECISION:
            continue
        variant = _variant_of(key, vocab)
        if variant:  # 'robot manipulation' is a spelling of robotic manipulation
            learned.setdefault(vocab.tag_area[variant], {}).setdefault(variant, []).append(" ".join(key))
            continue
        # The area the generator would give these papers (`tagging.area_of`), most often.
        votes = Counter()
        for i in frequent[key]:
            hits = Counter(m.tag for m in mentions(texts[i], vocab))
            votes[tagging.area_of(texts[i], tuple(hits), None, hits, vocab)] += 1
        area = next(a.slug for a in vocab.areas if a.name == min(votes, key=lambda a: (-votes[a], a)))
        name = min(Counter(forms[key]).items(), key=lambda item: (-item[1], item[0]))[0]
        learned.setdefault(area, {}).setdefault(name, []).append(" ".join(key))
    return {area: dict(sorted(tags.items())) for area, tags in sorted(learned.items(), key=lambda item: order[item[0]])}


def _variant_of(key: tuple[str, ...], vocab) -> str | None:
    """The curated tag this keyword only inflects differently (robot/robotic), if any."""
    for spelling, tag in vocab.folded.items():
        if len(spelling) == len(key) and spelling != key and all(a.startswith(b) or b.startswith(a) for a, b in zip(spelling, key)):
            if all(len(a) >= 4 and len(b) >= 4 or a == b for a, b in zip(spelling, key)):
                return tag
    return None


def extract(corpora: dict[str, list], models: Models | None = None) -> list[Candidate]:
    """Every candidate tag of every paper with author keywords, by the vocabulary of `models`
    (None: the shipped models)."""
    models = models or Models.shipped()
    vocab = models.vocabulary
    rows = []
    paper = 0
    for corpus, records in corpora.items():
        for record in records:
            if not record.keywords:
                continue
            text = markup.to_plain(markup.segments(record.abstract))
            by_vocabulary = frozenset(normalise_keyword(k, vocab) for k in record.keywords)
            keys = {term_tokens(k) for k in record.keywords}
            for tag, row in tagevidence.features(text, mentions(text, vocab), models).items():
                exact = tag in by_vocabulary or term_tokens(tag) in keys
                rows.append(Candidate(corpus, paper, tag, row, labelled(tag, record.keywords, by_vocabulary), exact))
            paper += 1
    return rows


def _pruned(rows: list[dict]) -> list[dict]:
    seen: dict[str, int] = {}
    for row in rows:
        for name in row:
            seen[name] = seen.get(name, 0) + 1
    return [{k: v for k, v in row.items() if seen[k] >= MIN_FEATURE_ROWS} for row in rows]


def fit(candidates: list[Candidate]) -> TagModel:
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
    threshold = _threshold(probabilities, candidates)
    derived = [c for p, c in zip(probabilities, candidates) if p >= threshold]
    return TagModel(linear, threshold, _central(probabilities, candidates), _kept_named_once(derived))


NAMED_ONCE = math.log1p(1)  # the log_count feature of a tag the abstract names once
ONCE_PRIOR_WEIGHT = 10  # candidates' worth of the pooled rate each tag's own rate is shrunk to


def _kept_named_once(derived: list[Candidate]) -> frozenset[str]:
    """The tags that, derived and named once, are one of the keywords themselves (an exact match:
    'LLM evaluation' is no vote for 'evaluation') about as often as derived tags of as many words
    (one, or more) named more than once are: the rest are named in passing (issue 33). Each
    tag's rate is shrunk towards the pooled rate of its class named once, so a tag seen a few
    times is not kept by chance."""
    kept: set[str] = set()
    for broad in (True, False):
        same = [c for c in derived if one_word(c.tag) == broad]
        once = [c for c in same if c.features["log_count"] <= NAMED_ONCE]
        more = [c for c in same if c.features["log_count"] > NAMED_ONCE]
        if not once or not more:
            continue
        pooled, wanted = sum(c.exact for c in once) / len(once), sum(c.exact for c in more) / len(more)
        seen, hits = Counter(c.tag for c in once), Counter(c.tag for c in once if c.exact)
        kept |= {tag for tag, n in seen.items() if (hits[tag] + ONCE_PRIOR_WEIGHT * pooled) / (n + ONCE_PRIOR_WEIGHT) >= wanted}
    return frozenset(kept)


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


def write(trained: Trained, corpora: list[str]) -> None:
    import yaml

    model, learned, phrases = trained.tags, trained.learned, trained.phrases

    header = (
        "# Learned by `make train` (lab/train_tags.py) from the author keywords of\n"
        f"# ../shared/corpus ({', '.join(corpora)}). Do not edit by hand: retrain.\n"
        "# Logistic regression: is a vocabulary tag that fired among the paper's author keywords?\n"
        "# Features (generator/enrich/tagevidence.py): tag=, spelling= (what fired), before=/after= (the words\n"
        "# either side), log_count, first_sentence, we_sentence, sentence_share, first_at, area_share,\n"
        "# rank=, log_candidates, modifier, subject. A derived tag needs probability >= threshold; a tag too common\n"
        "# in a collection stays where its probability is >= central. A tag the abstract names once is\n"
        "# shown as a tag only if in kept_named_once (authors give it as a keyword, named once, about as\n"
        "# often as tags of as many words named more often); else a one-word one, and a longer one\n"
        "# below the central probability that the title does not name, is shown as a key phrase\n"
        "# (enrich/tags.py in_passing, named_once). generic_phrases: key phrases at least\n"
        f"# {GENERIC_MIN_ABSTRACTS} abstracts write and fewer than {GENERIC_MAX_RATE:.0%} of those papers give as an author\n"
        "# keyword; never a tag of their own (enrich/tags.py grouping_tags).\n"
    )
    body = {
        "threshold": model.threshold,
        "central": model.central,
        "kept_named_once": sorted(model.kept_named_once),
        "generic_phrases": sorted(model.generic_phrases),
        "bias": model.linear.bias,
        "weights": dict(sorted(model.linear.weights.items())),
    }
    OUT.write_text(header + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
    header = (
        "# Tags learned by `make train` (lab/train_tags.py) from frequent author keywords the\n"
        "# curated vocabulary (vocabulary.yml) lacks: a phrase given by at least\n"
        f"# {LEARNED_MIN_PAPERS} papers of {LEARNED_MIN_CORPORA}+ corpora and by at least {LEARNED_MIN_PRECISION:.0%} of the papers whose\n"
        "# abstract contains it; area: the one the generator gives most of those papers (`tagging.area_of`).\n"
        "# Same format as vocabulary.yml (area: tag: [spellings]). Do not edit by hand: retrain.\n"
    )
    LEARNED_OUT.write_text(header + yaml.safe_dump(learned, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
    header = (
        "# Learned by `make train` (lab/train_tags.py) from the author keywords of\n"
        f"# ../shared/corpus ({', '.join(corpora)}). Do not edit by hand: retrain.\n"
        "# Logistic regression: is a candidate phrase (2-4 content words) one of the paper's author\n"
        "# keywords? Features: generator/link/keyphrases.py. A phrase no other abstract uses, used once,\n"
        "# becomes a key phrase only with probability >= once.\n"
    )
    body = {"once": phrases.once, "bias": phrases.bias, "weights": dict(zip(PHRASE_FEATURES, phrases.weights))}
    PHRASES_OUT.write_text(header + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
    lines = ["# word\tlog(rate in author keywords / rate in abstracts); learned by `make train` (lab/train_tags.py)"]
    lines += [f"{w}\t{v}" for w, v in phrases.words.items()]
    WORDS_OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = ["# phrase (2-4 words, the last singular)\tpapers giving it as an author keyword; learned by `make train` (lab/train_tags.py)"]
    lines += [f"{p}\t{c}" for p, c in phrases.keywords.items()]
    KEYWORD_PHRASES_OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


@click.command()
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.option("--report", type=click.Path(path_type=Path, dir_okay=False), help="Leave-one-venue-out figures, as JSON.")
@click.option("--write/--no-write", "write_files", default=True, help="Write the parameters fitted on all keyword venues.")
@options.related_by(
    "The report's sites: by words only, or with meaning from the built-in table or the sentence model "
    "(derived tags then checked by meaning, link.aboutness, with the floor fitted without the venue)."
)
def main(corpus_dir: Path, report: Path | None, write_files: bool, related_by: str) -> None:
    start = time.perf_counter()
    corpora = keyword_corpora(corpus_dir)
    click.echo(f"{sum(map(len, corpora.values()))} papers from {len(corpora)} keyword corpora read in {time.perf_counter() - start:.1f} s")
    if report:
        results = {}
        source = meaning_source_of(related_by)
        venues = sorted({venue(c) for c in corpora})
        for held_out in venues:
            training = {name: records for name, records in corpora.items() if venue(name) != held_out}
            models = train(training).models()
            aboutness = fitted_aboutness_for(source, held_out)
            for corpus in [c for c in corpora if venue(c) == held_out]:
                result = evaluate_records(corpus, corpora[corpus], related_by=related_by, aboutness=aboutness, models=models)
                results[corpus] = {"trained_on": f"keyword venues but {held_out}", **result.to_json()}
                click.echo(f"{corpus:10} (without {held_out}): {_line(results[corpus])}")
        models = train(corpora).models()
        for path in sorted(corpus_dir.glob("ijcai*.jsonl")):
            result = evaluate_records(
                path.stem, read_file(path, Report()), related_by=related_by, aboutness=fitted_aboutness_for(source, "ijcai"), models=models
            )
            results[path.stem] = {"trained_on": "every keyword venue (none is ijcai)", **result.to_json()}
            click.echo(f"{path.stem:10} (keyword venues): {_line(results[path.stem])}")
        report.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        click.echo(f"leave-one-venue-out report written to {report}")
    if write_files:
        write(train(corpora), sorted(corpora))
        click.echo(f"parameters written to {OUT}, {LEARNED_OUT}, {PHRASES_OUT}, {WORDS_OUT} and {KEYWORD_PHRASES_OUT}")
    click.echo(f"done in {time.perf_counter() - start:.1f} s")


@dataclass(frozen=True)
class Trained:
    learned: dict  # {area: {tag: [spellings]}}
    tags: TagModel
    phrases: PhraseModel

    def models(self) -> Models:
        """The shipped models with these in place of the tag vocabulary, evidence and key-phrase score."""
        return replace(Models.shipped(), tag_model=self.tags, vocabulary=tagging.vocabulary_with(self.learned), phrase_model=self.phrases)


def train(corpora: dict[str, list]) -> Trained:
    """The learned vocabulary, the tag evidence fitted on the candidates it proposes, the
    key-phrase score."""
    learned = learn_vocabulary(corpora)
    with_learned = replace(Models.shipped(), vocabulary=tagging.vocabulary_with(learned))
    tags = replace(fit(extract(corpora, with_learned)), generic_phrases=generic_phrases(corpora))
    return Trained(learned, tags, fit_phrases(corpora))


# --- Key phrases ------------------------------------------------------------------------


def generic_phrases(corpora: dict[str, list]) -> frozenset[str]:
    """Candidate phrases (`tagging.candidate_phrases` keys) that at least GENERIC_MIN_ABSTRACTS
    abstracts write and fewer than GENERIC_MAX_RATE of those papers give as an author keyword
    (the phrase itself, as `normalise_term` keys it): what authors write, not what they file
    papers under."""
    written: Counter[str] = Counter()
    given: Counter[str] = Counter()
    for records in corpora.values():
        for record in records:
            keys = {key for key, _, _ in candidate_phrases(markup.to_plain(markup.segments(record.abstract)))}
            written.update(keys)
            given.update(keys & {normalise_term(k) for k in record.keywords})
    return frozenset(key for key, n in written.items() if n >= GENERIC_MIN_ABSTRACTS and given[key] / n < GENERIC_MAX_RATE)


def _words(text: str) -> list[str]:
    return [singular(w) for w in fold(text).split() if w.isalpha()]


def keyword_words(corpora: dict[str, list]) -> dict[str, float]:
    """log(rate of a word in author keywords / its rate in abstracts), for words seen often."""
    in_keywords, in_abstracts = Counter(), Counter()
    for records in corpora.values():
        for record in records:
            if record.keywords:
                in_keywords.update(w for k in record.keywords for w in _words(k))
                in_abstracts.update(_words(markup.to_plain(markup.segments(record.abstract))))
    n_k, n_a = sum(in_keywords.values()), sum(in_abstracts.values())
    words = sorted(w for w in in_keywords.keys() | in_abstracts.keys() if in_keywords[w] + in_abstracts[w] >= MIN_WORD_COUNT)
    return {w: round(math.log((in_keywords[w] + 0.5) / n_k) - math.log((in_abstracts[w] + 0.5) / n_a), 3) for w in words}


def keyword_phrases(corpora: dict[str, list], without: str | None = None) -> dict[str, int]:
    """Papers giving each phrase of 2-4 words as an author keyword (under its `normalise_term`
    key, the form of candidate keys), over the corpora of every venue but `without`."""
    papers: Counter[str] = Counter()
    for name, records in corpora.items():
        if venue(name) == without:
            continue
        for record in records:
            keys = {normalise_term(k) for k in record.keywords}
            papers.update(k for k in keys if KEYWORD_PHRASE_WORDS[0] <= len(k.split()) <= KEYWORD_PHRASE_WORDS[1])
    return dict(sorted(papers.items()))


def phrase_rows(corpora: dict[str, list], words: dict[str, float]) -> tuple[list[tuple[float, ...]], list[bool], list[bool]]:
    """One row per candidate `link.add_keyphrases` would score (each corpus is a collection):
    features, label (the phrase is one of the paper's author keywords), used once by one paper.
    A phrase's known_keyword counts the papers of the other venues only: a paper's own keywords
    must not tell the model they are keywords."""
    rows, labels, once = [], [], []
    for name, records in corpora.items():
        model = PhraseModel(words=words, keywords=keyword_phrases(corpora, without=venue(name)))
        texts = [markup.to_plain(markup.segments(r.abstract)) for r in records]
        papers = [(candidate_phrases(text), r.keywords, text) for text, r in zip(texts, records)]
        n = len(papers)
        document_frequency = Counter(key for candidates, _, _ in papers for key, _, _ in candidates)
        max_df = max(3, int(0.05 * n))
        for candidates, keywords, text in papers:
            if not keywords:
                continue
            wanted = {term_tokens(k) for k in keywords}
            longer = keyphrases.fragments(candidates)
            defined = {normalise_term(a.long) for a in find_acronyms(text)}
            for position, (key, spelling, count) in enumerate(candidates):
                df = document_frequency[key]
                if df > max_df or not _phrase_like(spelling):
                    continue
                rows.append(
                    keyphrases.features(key, spelling, count, position / len(candidates), df, n, longer.get(key, 0), model, key in defined)
                )
                labels.append(term_tokens(key) in wanted)
                once.append(df < 2 and count < 2)
    return rows, labels, once


def fit_phrases(corpora: dict[str, list]) -> PhraseModel:
    """The key-phrase score, and the probability a once-used phrase needs: the lowest at which
    such phrases are keywords at least ONCE_RATE as often as the phrases that recur."""
    words = keyword_words(corpora)
    rows, labels, once = phrase_rows(corpora, words)
    model = LogisticRegression(C=REGULARISATION, max_iter=5000)
    model.fit(np.array(rows), np.array(labels, dtype=int))
    fitted = PhraseModel(round(float(model.intercept_[0]), 4), tuple(round(float(c), 4) for c in model.coef_[0]), 1.0, words)
    known = keyword_phrases(corpora)
    recurring = [label for label, single in zip(labels, once) if not single]
    base_rate = sum(recurring) / max(1, len(recurring))
    ranked = sorted(((fitted.probability(row), label) for row, label, single in zip(rows, labels, once) if single), reverse=True)
    threshold, hits = 1.0, 0
    for index, (probability, label) in enumerate(ranked, 1):
        hits += label
        if index >= 20 and hits / index >= ONCE_RATE * base_rate:
            threshold = probability
    return PhraseModel(fitted.bias, fitted.weights, round(threshold, 3), words, known)


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
