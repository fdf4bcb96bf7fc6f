"""The title sanity gate: what a derived title must never show.

`title_defects` names every defect of a title; the generator shows the best-ranked
candidate without any, and `lab.evaluate` counts them by kind. A defect is
something a reader would call broken, not a matter of taste.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import cast

from generator.language import learned, lexicon
from generator.language.textutil import SMALL_WORDS, whole_word_positions

MAX_TITLE_CHARS = 120

# Words a title must not end on: it would stop mid-phrase ('Learning for', 'Robust and').
FUNCTION_WORDS = lexicon.words("function_words") | SMALL_WORDS

_RAW_MARKUP = re.compile(r"[\\$<>{}*_`^~]|&[a-z]+;|&#")
_SPLIT_WORD = re.compile(r"\w- \w")  # 'Learn- ing': a line break kept inside a word
_SENTENCE_START = re.compile(
    r"^(?:we|our|us|i|my|it|its|this (?:paper|work|study)|in this|here|there (?:is|are)|these|those|they|recently|however)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|ours)\b", re.IGNORECASE)
# A finite verb makes a phrase a sentence ('Modern Paradigm ... Involves Pre-Training'); only
# verbs that are never title nouns ('Camera Pose', 'Shows' are not verbs here).
_FINITE_VERB = re.compile(rf"\s(?:{lexicon.alternation('title_finite_verbs')})\b", re.IGNORECASE)
_PAIRS = (("(", ")"), ("[", "]"))
# 'Between X' needs its 'and Y'.
_BETWEEN_ALONE = re.compile(r"\bbetween\b(?!.*\band\b)", re.IGNORECASE)
# A title does not start inside a phrase ('For Tabletop Object Manipulation Tasks').
_PHRASE_START = re.compile(r"^(?:for|of|and|or|by|with|from|than|via|into|either|neither|whether)\b", re.IGNORECASE)
# A list cut before its 'and' ('Learning Skill Initiation, Control').
_LIST_CUT = re.compile(r",\s+(?:(?!and\b|or\b)[\w-]+\s+)?(?!and\b|or\b)[\w-]+$", re.IGNORECASE)
# An adjective straight before a preposition lost its noun ('... Network as a New for Deformable ...').
_ADJECTIVE_THEN_PREPOSITION = re.compile(
    r"\b(?:new|novel|simple|general|unified|effective|efficient)\s+(?:for|of|in|on|with|to|by|from)\b", re.IGNORECASE
)
# A citation is not part of a title ('Ribeiro Et Al and Unit-Testing Datasets').
_CITATION = re.compile(r"\bet\.? al\b", re.IGNORECASE)
# 'After' or 'before' with a participle is a clause, here cut short ('Behavior of LMs After Fine-Tuned on Data').
_CLAUSE_AFTER_PREPOSITION = re.compile(r"\b(?:after|before|once|until)\s+[\w-]+ed\b", re.IGNORECASE)
# A title cannot point at something outside itself ('Decoupling These Stages').
_REFERS_BACK = re.compile(r"\b(?:these|those|such|them|their)\b", re.IGNORECASE)
# Two prepositions in a row ('Decay-To-Zero for Under an Optimal LR') or a second 'for'
# ('X for Y for Z'): pieces of two phrases joined.
_PREPOSITION_PAIR = re.compile(
    r"\b(?:for|of|in|on|to|with|via|from|by|under|over|into|than|and|or)\s+(?:for|of|in|on|to|with|via|from|by|under|over|into|than|and|or)\b",
    re.IGNORECASE,
)
# A quote that is no apostrophe ("Theory of Mind’"); "Models’" (plural possessive) is one.
_STRAY_QUOTE = re.compile(r"(?<![A-Za-z])[‘’']|(?<![sS])[’'](?![A-Za-z])")
# A lower-case aside ('Large Language Models (reasoning)') is a fragment of a sentence, not a title.
_ASIDE = re.compile(r"\([a-z]")
# Adverbs end a subject and never end a title ('... for Dense Retrieval Typically').
_ADVERBS = lexicon.words("adverbs")
_ADJECTIVE_END = re.compile(r"(?:al|ic|ive|ous|ful|able|ible)$")
_NOUNS_LIKE_ADJECTIVES = lexicon.words("nouns_like_adjectives")
_LY_NOUNS = lexicon.words("ly_nouns")
_DANGLING_NOUNS = lexicon.words("dangling_nouns")


def is_adverb(word: str) -> bool:
    word = word.lower()
    return word in _ADVERBS or (word.endswith("ly") and len(word) > 4 and word not in _LY_NOUNS)


def third_person(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


_NOT_A_SUBJECT_END = FUNCTION_WORDS | {"how", "why", "what", "when", "whether"}


def verb_at(words: list[str], index: int, choices: learned.Choices | None = None) -> bool:
    """Is words[index] a finite verb after a subject? A third-person verb the corpora use as
    one ('... Models Marks', 'Inference Comprises'), or a base verb after a plural noun
    ('Humans Communicate'). Never the first word, nor after 'to', 'of' or 'how'."""
    word = words[index].lower()
    if index == 0 or not is_verb(word, choices) or words[index - 1].lower() in _NOT_A_SUBJECT_END:
        return False
    return third_person(word) or third_person(words[index - 1].lower())


def is_verb(word: str, choices: learned.Choices | None = None) -> bool:
    """In the learned verb list (`choices.verbs`; None: the shipped choices), itself or as the
    third person of one ('suggests')."""
    return _is_verb(word, (choices or learned.Choices.shipped()).verbs)


@lru_cache(maxsize=65536)  # keyed by the list too: the lab passes the lists it trains
def _is_verb(word: str, verbs: frozenset[str]) -> bool:
    return word in verbs or (third_person(word) and (word[:-1] in verbs or (word.endswith("es") and word[:-2] in verbs)))


def has_verb(phrase: str, choices: learned.Choices | None = None) -> bool:
    """A finite verb after a subject, a verb joined by 'and' ('... Network and Train It'), or
    a base verb first ('Learn Generalizable ...': an instruction, not a title)."""
    words = re.findall(r"[A-Za-z]+", phrase)
    choices = choices or learned.Choices.shipped()
    if words and words[0].lower() in choices.verbs and not third_person(words[0].lower()) and words[1:2] != ["to"]:
        return True
    return any(
        verb_at(words, i, choices) or (words[i - 1].lower() == "and" and is_verb(words[i].lower(), choices)) for i in range(1, len(words))
    )


def adjective_end(word: str) -> bool:
    """'... Quantum Probabilistic Neural': the phrase stops before its noun."""
    word = word.lower()
    return bool(_ADJECTIVE_END.search(word)) and word not in _NOUNS_LIKE_ADJECTIVES


def _article_then_dangling_noun(phrase: str) -> bool:
    """'... Optimization with a Focus': the noun needs what follows it ('a focus on X')."""
    words = phrase.lower().split()
    return len(words) >= 2 and words[-2] in ("a", "an", "the") and words[-1] in _DANGLING_NOUNS


_PREPOSITION_THEN_WORD = re.compile(r"\b(?:for|of|with|by|from|on|in|via)\s+([A-Za-z]+)\b", re.IGNORECASE)


def _verb_after_preposition(phrase: str, verbs: frozenset[str]) -> bool:
    """'... Pipeline for Demonstrate That ...': a preposition takes a noun or a gerund, never a
    word the corpora use as a verb in its base form."""
    return any(w.lower() in verbs and not third_person(w.lower()) for w in _PREPOSITION_THEN_WORD.findall(phrase))


def _repeats_itself(phrase: str) -> bool:
    """'Submodular Maximization Problem for Monotone Submodular Maximization Problem': the
    purpose repeats what it is for (two or more words, two thirds of the method's words or more;
    'Fast Unpaired Multi-View Clustering for Fully Unpaired Multi-View Data' says more)."""
    method, _, purpose = phrase.lower().partition(" for ")
    method_words = {w for w in method.split() if w not in FUNCTION_WORDS}
    shared = method_words & set(purpose.split())
    return len(shared) >= 2 and 3 * len(shared) >= 2 * len(method_words)


def name_follows(title: str, name: str | None) -> bool:
    """The title shows its name after the phrase: 'phrase (Name)'."""
    return bool(name) and title.endswith(f" ({name})")


def phrase_part(title: str, name: str | None) -> str:
    """The title without the name it shows ('Name: phrase' or 'phrase (Name)')."""
    if name and title.startswith(f"{name}: "):
        return title[len(name) + 2 :]
    return title[: -len(cast(str, name)) - 3] if name_follows(title, name) else title


def title_defects(title: str, name: str | None = None, choices: learned.Choices | None = None) -> list[str]:
    """The kinds of defect in a title; an empty list means it may be shown.

    name: the introduced name the title shows ("Name: phrase" or "phrase (Name)"), if any;
    choices: whose verb list tells a verb (None: the shipped choices)."""
    choices = choices or learned.Choices.shipped()
    defects = []
    words = title.split()
    descriptive = phrase_part(title, name)
    if _RAW_MARKUP.search(title):
        defects.append("markup")
    if _SPLIT_WORD.search(title):
        defects.append("split word")
    last = descriptive.split()[-1].strip(".,;:!?\"'") if descriptive.split() else ""
    if (
        not words
        or last.lower() in FUNCTION_WORDS
        or is_adverb(last)
        or adjective_end(last)
        or title.rstrip().endswith(("-", "–", "—", ":", ","))
    ):
        defects.append("dangling end")
    if (
        _SENTENCE_START.match(descriptive)
        or _FIRST_PERSON.search(title)
        or _FINITE_VERB.search(descriptive)
        or has_verb(descriptive, choices)
    ):
        defects.append("sentence or first person")
    if (
        _PREPOSITION_PAIR.search(descriptive)
        or len(re.findall(r"\bfor\b", descriptive, re.IGNORECASE)) > 1
        or _BETWEEN_ALONE.search(descriptive)
        or _CITATION.search(descriptive)
        or _PHRASE_START.match(descriptive)
        or _LIST_CUT.search(descriptive)
        or _ADJECTIVE_THEN_PREPOSITION.search(descriptive)
        or _article_then_dangling_noun(descriptive)
        or _CLAUSE_AFTER_PREPOSITION.search(descriptive)
        or _verb_after_preposition(descriptive, choices.verbs)
    ):
        defects.append("broken phrase")
    if _repeats_itself(descriptive):
        defects.append("repeats itself")
    if _REFERS_BACK.search(descriptive):
        defects.append("refers back")
    if name and len(whole_word_positions(name, title)) > 1:
        defects.append("name repeated")
    if not name and len(words) < 3:
        defects.append("too short")
    if len(title) > MAX_TITLE_CHARS:
        defects.append("too long")
    if (
        any(title.count(a) != title.count(b) for a, b in _PAIRS)
        or title.count('"') % 2
        or title.count("“") != title.count("”")
        or _STRAY_QUOTE.search(title)
    ):
        defects.append("unbalanced")
    if _ASIDE.search(descriptive):  # a name after the phrase may start lower-case: "(multiPPI++)"
        defects.append("aside")
    return defects
