"""The learned models a derivation reads, as one record: passed down from the entry points
(`enrich.paper.enrich_batch`, `link.corpus.link`), the shipped ones where none is given, and
the ones it trained where the lab gives them (`lab/train.py`, `lab/train_tags.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from generator.enrich.tagging import Vocabulary, vocabulary
from generator.language.learned import Choices, PhraseModel, TagModel


@dataclass(frozen=True, eq=False)  # told apart by identity: caches key on it (link.corpus)
class Models:
    choices: Choices  # titles, names, summaries; the verb and word lists
    tag_model: TagModel  # a vocabulary tag's evidence, its thresholds, the generic phrases
    vocabulary: Vocabulary  # the tags matched: curated, and learned from author keywords
    phrase_model: PhraseModel  # the key-phrase score

    @staticmethod
    @cache
    def shipped() -> Models:
        """The models in generator/data, read once."""
        return Models(Choices.shipped(), TagModel.shipped(), vocabulary(), PhraseModel.shipped())
