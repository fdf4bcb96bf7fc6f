"""When a vocabulary tag really applies: features of its mentions and a learned model.

A spelling firing is a candidate, not a tag: "attention" fires *transformers* in an
abstract about attention in a CNN, "manipulation" fires *robotic manipulation* in one about
editing images (spellings that mostly mean another thing are not in the vocabulary at all:
decision 0019). The model says how likely a candidate is to be
among the paper's author keywords, from what a reader would look at: which spelling
fired and how often, where (first sentence, a sentence saying what "we" do), the words
either side of it (the phrase it sits in; a verb after it: what a sentence reports on), and whether the paper's other candidates
share its area. It is a logistic regression with named features whose parameters live
in `data/tag_evidence.yml`, fitted by `make train` (`lab/train_tags.py`) on the
corpora's author keywords; the package never reads the corpora.

One owner for both sides: the training script fits weights on `features()` and the
generator scores candidates with the same function, so a feature means the same in both.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import attrgetter
from typing import Any, cast

from generator.enrich.tagging import TagMention, mentions, vocabulary
from generator.language.learned import Linear, choices
from generator.language.lexicon import load_yaml
from generator.language.textutil import STOP_WORDS, Caseless, sentences


@dataclass(frozen=True)
class TagModel:
    """P(the tag is among the author keywords | its mentions); kept at or above `threshold`.
    A tag too common in a collection stays on the papers that score at least `central`. A
    tag named once is shown as a tag only if it is in `kept_named_once`, or is of more words and
    its evidence reaches `central` or the title names it (enrich.tags.in_passing, named_once).
    A key phrase in `generic_phrases` (normalised: 'deep neural network') is one that many
    abstracts write and almost no author gives as a keyword: it is never a tag of its own
    (enrich.tags.grouping_tags; decision 0020)."""

    linear: Linear = Linear()
    threshold: float = 0.0
    central: float = 1.0
    kept_named_once: frozenset[str] = frozenset()
    generic_phrases: frozenset[str] = frozenset()


_WE = Caseless(re.compile(r"\b(?:we|our|this paper|this work)\b", re.IGNORECASE))


def _we_sentences(text: str) -> frozenset[int]:
    """The sentences that say what the authors do ('we', 'our', 'this paper', 'this work')."""
    return frozenset(index for index, sentence in enumerate(sentences(text)) if _WE.search(sentence))


_SENTENCE = attrgetter("sentence")


def features(text: str, found: Sequence[TagMention] | None = None) -> dict[str, dict[str, float]]:
    """Per candidate tag, its named features (stable strings, as in data/tag_evidence.yml)."""
    found = mentions(text) if found is None else found
    if not found:
        return {}
    vocab = vocabulary()
    verbs = choices().verbs
    n_sentences = max(1, len(sentences(text)))
    we = _we_sentences(text)
    by_tag: dict[str, list[TagMention]] = defaultdict(list)
    for mention in found:
        by_tag[mention.tag].append(mention)
    area_mentions = Counter(vocab.tag_area.get(m.tag) for m in found)
    at = {tag: list(map(_SENTENCE, own)) for tag, own in by_tag.items()}  # the sentence of each mention
    order = sorted(by_tag, key=lambda t: (-len(by_tag[t]), min(at[t]), t))
    result = {}
    for rank, tag in enumerate(order):
        own, sentence_of = by_tag[tag], at[tag]
        count = len(own)
        others = len(found) - count
        same_area = area_mentions[vocab.tag_area.get(tag)] - count
        row: dict[str, float] = {
            f"tag={tag}": 1.0,
            "log_count": math.log1p(count),
            "first_sentence": float(0 in sentence_of),
            "we_sentence": float(not we.isdisjoint(sentence_of)),
            "sentence_share": len(set(sentence_of)) / n_sentences,
            "first_at": min(sentence_of) / n_sentences,
            "area_share": same_area / others if others else 1.0,
            f"rank={min(rank, 4)}": 1.0,
            "log_candidates": math.log(len(by_tag)),
            # A spelling followed by a content word modifies it ('video demonstrations').
            "modifier": sum(1 for m in own if m.after and m.after.isalpha() and m.after not in STOP_WORDS) / count,
            # A spelling followed by a verb is what a sentence reports on ('our evaluations show').
            "subject": sum(1 for m in own if m.after in verbs) / count,
        }
        share = 1.0 / count
        for m in own:
            row["spelling=" + m.spelling] = 1.0
            if m.before:
                name = "before=" + m.before
                row[name] = row.get(name, 0.0) + share
            if m.after:
                name = "after=" + m.after
                row[name] = row.get(name, 0.0) + share
        result[tag] = row
    return result


def probabilities(text: str, found: Sequence[TagMention] | None = None, model: TagModel | None = None) -> dict[str, float]:
    """Each candidate tag's probability of being an author keyword of this abstract."""
    model = model or tag_model()
    return {tag: model.linear.probability(row) for tag, row in features(text, found).items()}


def parse(text: str) -> TagModel:
    data = cast("dict[str, Any]", load_yaml(text) or {})
    weights = {str(k): float(v) for k, v in (data.get("weights") or {}).items()}
    return TagModel(
        Linear(float(data.get("bias", 0.0)), weights),
        float(data.get("threshold", 0.0)),
        float(data.get("central", 1.0)),
        frozenset(str(tag) for tag in data.get("kept_named_once") or ()),
        frozenset(str(phrase) for phrase in data.get("generic_phrases") or ()),
    )


_override: TagModel | None = None


@cache
def _shipped() -> TagModel:
    return parse(resources.files("generator").joinpath("data").joinpath("tag_evidence.yml").read_text(encoding="utf-8"))


def tag_model() -> TagModel:
    return _override if _override is not None else _shipped()


def use(model: TagModel | None) -> None:
    """Score with this model from now on (None: the shipped one again); for training."""
    global _override
    _override = model
