"""Which candidate phrases are an abstract's key phrases: a learned score.

`tagging.candidate_phrases` proposes every run of 2-4 content words; `link.add_keyphrases`
keeps the best few that recur across the collection (or, when the model is sure, that the
abstract uses once). The score is a logistic regression fitted by `make train`
(`lab/train_tags.py`) on the corpora's author keywords (label: the phrase is one of
the paper's keywords), with named features: how often the abstract uses it, how rare it
is in the collection, its length, where it first appears, whether it is written with
capitals, whether it is only a piece of a longer candidate, whether it ends in a generic
head ('framework', 'method'), how much likelier its words are in author keywords than
in abstracts (`data/keyword_words.tsv`), whether the abstract defines an acronym for it
('test-time training (TTT)'), and whether a paper of the training corpora gives it as an
author keyword (`data/keyword_phrases.tsv`). Parameters: `data/keyphrase_evidence.yml`, read as
`language.learned.PhraseModel`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Container, Sequence
from functools import lru_cache

import numpy as np

from generator.enrich.titlegate import third_person
from generator.language import lexicon
from generator.language.learned import Choices, PhraseModel, logistic
from generator.language.textutil import singular
from generator.model import CandidatePhrases

_GENERIC_HEADS = lexicon.words("generic_heads")

# First words that make a phrase a clause fragment, last words that leave it dangling.
_NOT_PHRASE_START = lexicon.words("not_phrase_start")
# The title gate's adjective endings (`titlegate.adjective_end`) and more: a key phrase also
# never ends on an adverb or participle ('-ly', '-ed') nor on '-less', '-ary' adjectives.
_ADJECTIVE_END = re.compile(r"(?:ly|ed|able|ible|ive|al|ous|ic|ful|less|ary)$")


def phrase_like(phrase: str, choices: Choices | None = None) -> bool:
    """A noun phrase, not a clause fragment: 'instruction tuning' yes, 'enables agents' no,
    nor one that starts or ends on a word abstracts use mostly as a verb ('findings suggest',
    'obtain human'; `choices.verbs`, None: the shipped choices)."""
    return _phrase_like_with(phrase, (choices or Choices.shipped()).verbs)


@lru_cache(maxsize=200_000)  # keyed by the verb list too: the lab passes the list it trains per held-out venue
def _phrase_like_with(phrase: str, verbs: frozenset[str]) -> bool:
    words = phrase.lower().split()
    return _can_start(words[0], verbs) and _can_end(words[-1], verbs) and _no_clause(words, verbs)


def _can_start(word: str, verbs: frozenset[str]) -> bool:
    # '9B parameters', '197k questions': a count of something, not a term ('3D shape' is one).
    return word not in _NOT_PHRASE_START and not word.endswith("ly") and word not in verbs and not _COUNT.match(word)


def _can_end(word: str, verbs: frozenset[str]) -> bool:
    return (not _ADJECTIVE_END.search(word) or word in _NOUNS_LIKE_ADJECTIVES) and word not in verbs and word not in _NOT_PHRASE_END


def _no_clause(words: list[str], verbs: frozenset[str]) -> bool:
    """Nothing inside the phrase makes it a clause: no auxiliary ('model is robust'), no
    subject and its verb (`_subject_and_verb`)."""
    return _AUXILIARIES.isdisjoint(words) and not _subject_and_verb(words, verbs)


def _subject_and_verb(words: list[str], verbs: frozenset[str]) -> bool:
    """A plural noun and then the verb it is the subject of: 'ambiguities arising', 'factors
    causing', 'agents act' ('dynamics learning' ends on a noun: `nominal_gerunds`)."""
    if len(words) < 2 or not third_person(words[-2]):
        return False
    last = words[-1]
    if last.endswith("ing") and len(last) > 5:
        return last not in _NOMINAL_GERUNDS
    return last in verbs


_AUXILIARIES = frozenset({"does", "do", "did", "is", "are", "can"})


def phrases_like(phrases: list[str], choices: Choices | None = None) -> list[bool]:
    """phrase_like of each phrase (link asks it of ~200,000 candidates, mostly distinct),
    each first and last word judged once."""
    verbs = (choices or Choices.shipped()).verbs
    starts: dict[str, bool] = {}
    ends: dict[str, bool] = {}
    result = []
    for phrase in phrases:
        words = phrase.lower().split()
        first, last = words[0], words[-1]
        can_start = starts.get(first)
        if can_start is None:
            can_start = starts[first] = _can_start(first, verbs)
        can_end = ends.get(last)
        if can_end is None:
            can_end = ends[last] = _can_end(last, verbs)
        result.append(can_start and can_end and _no_clause(words, verbs))
    return result


def verb_phrases(text: str, spellings: Sequence[str], model: PhraseModel, choices: Choices | None = None) -> list[int]:
    """Which of an abstract's candidate phrases (indexes into `spellings`, as `text` writes them)
    end on a verb whose object follows: 'hallucinations impede' (various applications),
    'evaluation plays' (a role). Such a phrase has two words or more, the abstract puts an
    object's first word (lexicon `object_starts`) right after it, and its last word is one
    abstracts put before an object (`PhraseModel.object_verbs`, learned), one the training
    corpora hardly use and no author keyword ends on ('conjoins'), or a base form after a
    plural noun ('agents view'); or it ends on a third-person form after a singular noun and
    the abstract says it between a determiner and an object ('the agent traces the contour').
    `choices`: whose `words` the corpora use often (None: the shipped choices). Issue 52,
    decisions 0034 and 0037."""
    before = _words_before_objects(text)
    if not before:
        return []
    known = (choices or Choices.shipped()).words
    lower = ""
    found = []
    for index, spelling in enumerate(spellings):
        space = spelling.rfind(" ")
        if space < 0 or (last := spelling[space + 1 :].lower()) not in before:
            continue
        words = spelling.lower().split()
        lower = lower or text.lower()
        if _verb_like(last, model, known) or (third_person(words[-2]) and not third_person(last)):
            if _followed_by_object(lower, " ".join(words)):
                found.append(index)
        elif third_person(last) and not third_person(words[-2]) and _followed_by_object(lower, " ".join(words), after_determiner=True):
            found.append(index)  # 'the agent traces the contour': a subject, its verb, its object
    return found


_OBJECT_STARTS = lexicon.words("object_starts")
_OBJECT_START = re.compile(" (?:" + "|".join(sorted(_OBJECT_STARTS, key=len, reverse=True)) + ") ")


def _words_before_objects(text: str) -> set[str]:
    """The words (lower case) the text puts right before an object's first word."""
    words = set()
    for match in _OBJECT_START.finditer(text):
        end = match.start()
        words.add(text[text.rfind(" ", 0, end) + 1 : end].lower())
    return words


def _verb_like(word: str, model: PhraseModel, known: frozenset[str]) -> bool:
    if word in model.object_verbs:
        return True
    base = _singular(word) if word.endswith("s") else word
    return base not in model.words and word not in known and base not in model.keyword_heads


def _followed_by_object(lower: str, phrase: str, after_determiner: bool = False) -> bool:
    """Does the (lower-case) text say the phrase, as whole words, right before an object's first
    word (and, `after_determiner`, right after one: 'the agent traces the contour')?"""
    at = lower.find(phrase)
    while at >= 0:
        end = at + len(phrase)
        if (at == 0 or not (lower[at - 1].isalnum() or lower[at - 1] == "-")) and lower.startswith(" ", end):
            stop = lower.find(" ", end + 1)
            if lower[end + 1 : stop if stop >= 0 else len(lower)] in _OBJECT_STARTS and (
                not after_determiner or (at > 1 and lower[lower.rfind(" ", 0, at - 1) + 1 : at - 1] in _OBJECT_STARTS)
            ):
                return True
        at = lower.find(phrase, at + 1)
    return False


_NOUNS_LIKE_ADJECTIVES = lexicon.words("nouns_like_adjectives")
_NOT_PHRASE_END = lexicon.words("not_phrase_end")
_NOMINAL_GERUNDS = lexicon.words("nominal_gerunds")
_COUNT = re.compile(r"\d+(?:[.,]\d+)*(?:[kmbt]|x|%)?$")  # '9b', '197k', '13', '2.5x' (lower case)


def stopped_inside(candidates: CandidatePhrases, model: PhraseModel, terms: Container[tuple[str, ...]]) -> set[str]:
    """The keys of an abstract's candidate phrases (tagging.candidate_phrases) that stop inside
    a longer term: every time the abstract says the phrase, the same word follows it, a word
    author keywords end on (`PhraseModel.keyword_heads`), while the phrase's own last word ends
    none: 'markov decision' [process], 'discrete cosine' [transform], 'cable-driven parallel'
    [robots], and a phrase that stops inside one of those ('observable markov' [decision
    process]); and a phrase the abstract says only inside a longer one that authors give as a
    keyword or the vocabulary names ('entity recognition' of 'named entity recognition'). A
    phrase authors give as a keyword, or a vocabulary term (`terms`: token tuples,
    tagging.Vocabulary.matched), stays. Issue 52."""
    heads = model.keyword_heads
    counts = {key: count for key, _, count in candidates}
    found: set[str] = set()
    # Longest first: 'observable markov' stops inside 'observable markov decision', which
    # stops inside 'observable markov decision process'.
    for key, count in sorted(counts.items(), key=lambda item: -item[0].count(" ")):
        last = key.rpartition(" ")[2]
        if key.count(" ") < 2 or (last not in heads and key not in found):
            continue
        part = _head_part(key)
        if count >= counts.get(part, count + 1) and part.rpartition(" ")[2] not in heads and not _known(part, model, terms):
            found.add(part)
    # Inside a term authors or the vocabulary know: 'entity recognition' of 'named entity recognition'.
    for key, count in counts.items():
        words = key.split()
        if len(words) > 2 and _known(key, model, terms):
            for start, stop in ((i, j) for i in range(len(words)) for j in range(i + 2, len(words) + 1) if j - i < len(words)):
                part = " ".join(words[start : stop - 1] + [words[stop - 1] if stop == len(words) else _singular(words[stop - 1])])
                if count >= counts.get(part, count + 1) and not _known(part, model, terms):
                    found.add(part)
    return found


def _known(key: str, model: PhraseModel, terms: Container[tuple[str, ...]]) -> bool:
    """A phrase (candidate key) some author gives as a keyword, or a vocabulary term."""
    return key in model.keywords or tuple(key.split()) in terms


def fragments(candidates: CandidatePhrases) -> dict[str, int]:
    """For each key, the most occurrences of a candidate one word longer that contains it:
    'connected layers' is only a piece of 'fully connected layers' when both occur alike."""
    longer: dict[str, int] = {}
    for key, _, count in candidates:
        if key.count(" ") > 1:  # three words or more
            for part in (key.partition(" ")[2], _head_part(key)):
                if longer.get(part, 0) < count:
                    longer[part] = count
    return longer


def _head_part(key: str) -> str:
    """The key of a candidate (three words or more) without its last word. Keys are folded
    already: normalising the shorter phrase only singularises its new end."""
    head, _, end = key.rpartition(" ")[0].rpartition(" ")
    return f"{head} {_singular(end)}"


@lru_cache(maxsize=100_000)
def _singular(word: str) -> str:
    return singular(word)


def features(
    key: str, spelling: str, count: int, position: float, df: int, n: int, longer: int, model: PhraseModel, defined: bool = False
) -> tuple[float, ...]:
    """The named features of one candidate (learned.PHRASE_FEATURES order); `position` in [0, 1); `defined`:
    the abstract defines an acronym for the phrase."""
    words = key.split()
    return (
        math.log(count),
        math.log(1 + n / max(1, df)),
        float(df <= 1),
        float(count == 1),
        float(len(words) == 3),
        float(len(words) >= 4),
        position,
        float(spelling != spelling.lower()),
        float(longer >= count),
        float(words[-1] in _GENERIC_HEADS),
        model.keywordness(words),
        float(defined),
        model.known_keyword(key),
    )


def probability(
    key: str, spelling: str, count: int, position: float, df: int, n: int, longer: int, model: PhraseModel, defined: bool = False
) -> float:
    """model.probability(features(...)) of one candidate (see `probabilities`)."""
    one = np.array
    return probabilities(
        [key], [spelling], one([count]), one([position], dtype=np.float64), one([df]), n, one([longer]), one([defined]), model
    )[0]


def probabilities(
    keys: Sequence[str],
    spellings: Sequence[str],
    counts: np.ndarray,
    positions: np.ndarray,
    dfs: np.ndarray,
    n: int,
    longer: np.ndarray,
    defined: np.ndarray,
    model: PhraseModel,
) -> list[float]:
    """model.probability(features(...)) of many candidates at once, without building the
    features (link scores ~150,000 at 4,200 papers). `positions` in [0, 1); `defined`: the
    abstract defines an acronym for the phrase. The terms are added in PHRASE_FEATURES order,
    element by element, each logarithm and the logistic by `math`: the very floats a
    candidate scored alone gets, whatever the batch."""
    w = model.weights
    words = [key.split() for key in keys]
    sizes = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    score = model.bias + w[0] * _logs(counts, math.log)
    score += w[1] * _logs(dfs, lambda df: math.log(1 + n / max(1, df)))
    score += np.where(dfs <= 1, w[2], 0.0)
    score += np.where(counts == 1, w[3], 0.0)
    score += np.where(sizes == 3, w[4], np.where(sizes >= 4, w[5], 0.0))
    score += w[6] * positions
    score += np.where(np.fromiter((s != s.lower() for s in spellings), dtype=bool, count=len(keys)), w[7], 0.0)
    score += np.where(longer >= counts, w[8], 0.0)
    score += np.where(np.fromiter((ws[-1] in _GENERIC_HEADS for ws in words), dtype=bool, count=len(keys)), w[9], 0.0)
    score += w[10] * _keywordness(model, words, sizes)
    score += np.where(defined, w[11], 0.0)
    score += w[12] * np.fromiter((key in model.keywords for key in keys), dtype=np.float64, count=len(keys))
    # learned.logistic, element by element (numpy's exp may differ from math's in the last bit).
    return list(map(logistic, score.tolist()))


def _logs(values: np.ndarray, log) -> np.ndarray:
    """log(value) per element, by `math` once per distinct value."""
    distinct, inverse = np.unique(values, return_inverse=True)
    return np.array([log(int(v)) for v in distinct], dtype=np.float64)[inverse]


def _keywordness(model: PhraseModel, words: list[list[str]], sizes: np.ndarray) -> np.ndarray:
    """model.keywordness of each phrase's words: the words' values summed in order, then divided."""
    flat = [word for phrase in words for word in phrase]
    for word in set(flat):
        model.keywordness((word,))  # remembers the word's value
    values = np.array(list(map(model._word_values.__getitem__, flat)), dtype=np.float64)
    starts = np.cumsum(sizes) - sizes
    total = np.zeros(len(words))
    for slot in range(int(sizes.max(initial=0))):
        having = np.flatnonzero(sizes > slot)
        total[having] += values[starts[having] + slot]
    return total / sizes
