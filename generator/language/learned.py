"""The learned choices' parameters: linear models read from `generator/data/`.

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

The package never needs the corpora at run time. `use()` swaps the parameters in, for
training and leave-one-corpus-out evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import repeat
from operator import mul
from typing import Any, cast

from generator.language import lexicon


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


_override: Choices | None = None


@cache
def _shipped() -> Choices:
    data = resources.files("generator").joinpath("data")
    return parse(
        data.joinpath("choices.yml").read_text(encoding="utf-8"),
        data.joinpath("title_words.tsv").read_text(encoding="utf-8"),
        data.joinpath("verbs.txt").read_text(encoding="utf-8"),
        data.joinpath("words.txt").read_text(encoding="utf-8"),
    )


def choices() -> Choices:
    return _override if _override is not None else _shipped()


def use(parameters: Choices | None) -> None:
    """Derive with these parameters from now on (None: the shipped ones again)."""
    global _override
    _override = parameters
