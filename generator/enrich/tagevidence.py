"""When a vocabulary tag really applies: features of its mentions and a learned model.

A spelling firing is a candidate, not a tag: "attention" fires *transformers* in an
abstract about attention in a CNN, "manipulation" fires *robotic manipulation* in one about
editing images (spellings that mostly mean another thing are not in the vocabulary at all:
decision 0019). The model says how likely a candidate is to be
among the paper's author keywords, from what a reader would look at: which spelling
fired and how often, where (first sentence, a sentence saying what "we" do), the words
either side of it (the phrase it sits in; a verb after it: what a sentence reports on), and whether the paper's other candidates
share its area. It is a logistic regression with named features (`language.learned.TagModel`)
whose parameters live in `data/tag_evidence.yml`, fitted by `make train` (`lab/train_tags.py`) on the
corpora's author keywords; the package never reads the corpora.

One owner for both sides: the training script fits weights on `features()` and the
generator scores candidates with the same function, so a feature means the same in both.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from operator import attrgetter

from generator.enrich.models import Models
from generator.enrich.tagging import TagMention, mentions
from generator.language.textutil import STOP_WORDS, Caseless, sentences

_WE = Caseless(re.compile(r"\b(?:we|our|this paper|this work)\b", re.IGNORECASE))


def _we_sentences(text: str) -> frozenset[int]:
    """The sentences that say what the authors do ('we', 'our', 'this paper', 'this work')."""
    return frozenset(index for index, sentence in enumerate(sentences(text)) if _WE.search(sentence))


_SENTENCE = attrgetter("sentence")


def features(text: str, found: Sequence[TagMention] | None = None, models: Models | None = None) -> dict[str, dict[str, float]]:
    """Per candidate tag, its named features (stable strings, as in data/tag_evidence.yml);
    `found`: the abstract's mentions of `models.vocabulary` tags, when worked out already."""
    models = models or Models.shipped()
    vocab = models.vocabulary
    found = mentions(text, vocab) if found is None else found
    if not found:
        return {}
    verbs = models.choices.verbs
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


def probabilities(text: str, found: Sequence[TagMention] | None = None, models: Models | None = None) -> dict[str, float]:
    """Each candidate tag's probability of being an author keyword of this abstract."""
    models = models or Models.shipped()
    linear = models.tag_model.linear
    return {tag: linear.probability(row) for tag, row in features(text, found, models).items()}
