"""The learned models' parameters: linear models read from `generator/data/`.

Rules propose candidates (names, descriptive phrases, summary sentences); these small
models choose among them. They are trained by `make train` (`lab/train.py`) from
the real titles and TL;DRs of ../shared/corpus and stored as readable files:

- `data/choices.yml`: per choice, a bias, a weight per named feature and, for the name,
  the probabilities above which a title shows it and leads with it;
- `data/title_words.tsv`: how much likelier each word is in a real title than in an
  abstract (log ratio), the "titleness" the phrase and sentence features use;
- `data/verbs.txt`: words abstracts mostly use as verbs ('we navigate', 'to comprise'),
  with their third-person forms: where the subject of a sentence ends;
- `data/words.txt`: words that many abstracts write in lower case ('recipe'), so a
  capitalised 'REcipe' is a highlighted word and 'GNNCert' a coined name.

The tag evidence (`TagModel`, `data/tag_evidence.yml`, features in `enrich/tagevidence.py`) and
the key-phrase score (`PhraseModel`, `data/keyphrase_evidence.yml`, features in
`link/keyphrases.py`) are learned by `lab/train_tags.py` and live here too.

The package never needs the corpora at run time. Each model's `shipped()` is the one read from
`generator/data/`; the derivations take a model as an argument (`enrich.models.Models`: None
means the shipped one), so the lab passes the ones it trains.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from itertools import repeat
from operator import mul
from typing import Any, cast

from generator.language import lexicon
from generator.language.textutil import singular


@dataclass(frozen=True)
class Linear:
    """score = bias + sum(weight * feature); features absent from `weights` count 0."""

    bias: float = 0.0
    weights: Mapping[str, float] = field(default_factory=dict)

    def score(self, features: Mapping[str, float]) -> float:
        # sum(value * weight) in the features' order, looped in C (every candidate is scored).
        return self.bias + sum(map(mul, features.values(), map(self.weights.get, features, repeat(0.0))))

    def probability(self, features: Mapping[str, float]) -> float:
        return logistic(self.score(features))


def logistic(score: float) -> float:
    """A linear score as a probability (clipped: exp overflows beyond about 700)."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))


def _read_data(*names: str) -> list[str]:
    """The text of each of these files of generator/data."""
    data = resources.files("generator").joinpath("data")
    return [data.joinpath(name).read_text(encoding="utf-8") for name in names]


@dataclass(frozen=True)
class Choices:
    name: Linear = Linear()  # does the real title carry this name candidate?
    name_threshold: float = 0.5  # show the best name in the title only above this probability
    lead: Linear = Linear()  # does the real title lead with the abstract's name ('Name: ...')?
    lead_threshold: float = 0.5  # lead with it only above this probability
    phrase: Linear = Linear()  # how much of the real title a descriptive phrase recovers
    sentence: Linear = Linear()  # how well a sentence states what the paper does
    titleness: Mapping[str, float] = field(default_factory=dict)  # word -> log(P(title) / P(abstract))
    verbs: frozenset[str] = frozenset()  # lower-case words used mostly as verbs
    words: frozenset[str] = frozenset()  # words abstracts commonly write in lower case

    @staticmethod
    @cache
    def shipped() -> Choices:
        """The parameters in generator/data, read once."""
        return parse(*_read_data("choices.yml", "title_words.tsv", "verbs.txt", "words.txt"))


def _linear(data: Mapping[str, Any] | None) -> Linear:
    data = data or {}
    return Linear(float(data.get("bias", 0.0)), {str(k): float(v) for k, v in (data.get("weights") or {}).items()})


def parse(choices_yml: str, title_words_tsv: str, verbs_txt: str = "", words_txt: str = "") -> Choices:
    data = cast("dict[str, Any]", lexicon.load_yaml(choices_yml) or {})
    return Choices(
        name=_linear(data.get("name")),
        name_threshold=float((data.get("name") or {}).get("threshold", 0.5)),
        lead=_linear(data.get("lead")),
        lead_threshold=float((data.get("lead") or {}).get("threshold", 0.5)),
        phrase=_linear(data.get("phrase")),
        sentence=_linear(data.get("sentence")),
        titleness=lexicon.word_values(title_words_tsv),
        verbs=lexicon.word_list(verbs_txt),
        words=lexicon.word_list(words_txt),
    )


@dataclass(frozen=True)
class TagModel:
    """P(the tag is among the author keywords | its mentions); kept at or above `threshold`.
    A tag too common in a collection stays on the papers that score at least `central`. A
    tag named once is shown as a tag only if it is in `kept_named_once`, or is of more words and
    its evidence reaches `central` or the title names it (enrich.tags.in_passing, named_once).
    A key phrase in `generic_phrases` (normalised: 'deep neural network') is one that many
    abstracts write and almost no author gives as a keyword: it is never a tag of its own
    (enrich.tags.grouping_tags; decision 0020). Features: enrich.tagevidence."""

    linear: Linear = Linear()
    threshold: float = 0.0
    central: float = 1.0
    kept_named_once: frozenset[str] = frozenset()
    generic_phrases: frozenset[str] = frozenset()

    @staticmethod
    @cache
    def shipped() -> TagModel:
        """The model in generator/data/tag_evidence.yml, read once."""
        return parse_tag_model(*_read_data("tag_evidence.yml"))


def parse_tag_model(text: str) -> TagModel:
    data = cast("dict[str, Any]", lexicon.load_yaml(text) or {})
    weights = {str(k): float(v) for k, v in (data.get("weights") or {}).items()}
    return TagModel(
        Linear(float(data.get("bias", 0.0)), weights),
        float(data.get("threshold", 0.0)),
        float(data.get("central", 1.0)),
        frozenset(str(tag) for tag in data.get("kept_named_once") or ()),
        frozenset(str(phrase) for phrase in data.get("generic_phrases") or ()),
    )


# The key-phrase score's features, in the order of PhraseModel.weights (link.keyphrases.features).
PHRASE_FEATURES = (
    "log_tf",
    "idf",
    "df_once",
    "tf_once",
    "words3",
    "words4",
    "first_at",
    "cased",
    "fragment",
    "generic_head",
    "keywordness",
    "defined",
    "known_keyword",
)


@dataclass(frozen=True)
class PhraseModel:
    """Is a candidate phrase one of the paper's author keywords (link.keyphrases)?"""

    bias: float = 0.0
    weights: tuple[float, ...] = (0.0,) * len(PHRASE_FEATURES)  # in PHRASE_FEATURES order
    once: float = 1.0  # a phrase no other abstract uses, used once, needs this probability
    words: Mapping[str, float] = field(default_factory=dict)  # word -> log(rate in keywords / rate in abstracts)
    keywords: Mapping[str, int] = field(default_factory=dict)  # phrase (`normalise_term`) -> papers giving it as a keyword
    object_verbs: frozenset[str] = frozenset()  # words abstracts put before an object ('plays' a role; `keyphrases.verb_phrases`)
    _word_values: dict = field(default_factory=dict, compare=False, repr=False)  # a phrase word -> its value, as looked up

    @staticmethod
    @cache
    def shipped() -> PhraseModel:
        """The model in generator/data (keyphrase_evidence.yml, keyword_words.tsv, keyword_phrases.tsv,
        object_verbs.txt), read once."""
        return parse_phrase_model(*_read_data("keyphrase_evidence.yml", "keyword_words.tsv", "keyword_phrases.tsv", "object_verbs.txt"))

    def keywordness(self, words: Sequence[str]) -> float:
        """The mean value of the words (a plural as its singular; unknown words 0)."""
        values = self._word_values
        total = 0.0
        for word in words:
            value = values.get(word)
            if value is None:
                value = values[word] = self.words.get(singular(word) if word.endswith("s") else word, 0.0)
            total += value
        return total / len(words)

    @cached_property
    def keyword_heads(self) -> frozenset[str]:
        """The last words of the phrases authors gave as keywords (singular: `normalise_term`)."""
        return frozenset(phrase.rsplit(" ", 1)[-1] for phrase in self.keywords)

    def known_keyword(self, key: str) -> float:
        """1.0 when some paper of the training corpora gives the phrase (a candidate key, in
        `normalise_term` form) as an author keyword."""
        return 1.0 if key in self.keywords else 0.0

    def probability(self, features: Sequence[float]) -> float:
        score = self.bias + sum(map(mul, self.weights, features))
        return logistic(score)


def parse_phrase_model(evidence_yml: str, words_tsv: str, keywords_tsv: str = "", object_verbs_txt: str = "") -> PhraseModel:
    data = cast("dict[str, Any]", lexicon.load_yaml(evidence_yml) or {})
    weights = data.get("weights") or {}
    unknown = set(weights) - set(PHRASE_FEATURES)
    if unknown:
        raise ValueError(f"keyphrase_evidence.yml: unknown features {sorted(unknown)} (expected {PHRASE_FEATURES})")
    return PhraseModel(
        float(data.get("bias", 0.0)),
        tuple(float(weights.get(name, 0.0)) for name in PHRASE_FEATURES),
        float(data.get("once", 1.0)),
        lexicon.word_values(words_tsv),
        {phrase: int(count) for phrase, count in lexicon.word_values(keywords_tsv).items()},
        lexicon.word_list(object_verbs_txt),
    )
