"""Small text helpers shared by the per-paper derivations: sentences, words, casing."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

from generator.language import lexicon

ENGLISH_STOP_WORDS = lexicon.word_list(resources.files("generator").joinpath("data").joinpath("stopwords.txt").read_text(encoding="utf-8"))
STOP_WORDS = ENGLISH_STOP_WORDS | lexicon.words("stop_words_extra")

# Words that stay lower case inside a title (unless first).
SMALL_WORDS = lexicon.words("small_words")

# The white space after a sentence's end: searched from the stop (a pattern that opens with a
# lookbehind is tried at every position: twice as slow).
_SENTENCE_END = re.compile(r"[.!?](\s+)(?=[A-Z0-9“\"(\[])")
_ABBREVIATIONS = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|cf|Fig|Eq|resp|approx|w\.r\.t)\.$", re.IGNORECASE)
_LONGEST_ABBREVIATION = len("approx.")


@lru_cache(maxsize=1024)
def sentences(text: str) -> tuple[str, ...]:
    """Split prose into sentences, keeping 'e.g.' and 'et al.' inside theirs (cached: names,
    titles and summaries all read the same abstract's sentences)."""
    parts, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        parts.append(text[start : end.start(1)])
        start = end.end(1)
    parts.append(text[start:])
    merged: list[str] = []
    for part in parts:
        if merged:
            last = merged[-1]
            # An abbreviation ends the part: searched for in its last characters only (a search
            # from the start tried every position; `\b` still sees the character before them).
            if _ABBREVIATIONS.search(last, len(last) - _LONGEST_ABBREVIATION) or last.count("(") > last.count(")"):
                merged[-1] = f"{last} {part}"
                continue
        merged.append(part)
    return tuple(s.strip() for s in merged if s.strip())


def collapse_space(text: str) -> str:
    """The text with each run of white space as one space and none at the ends (what
    `" ".join(text.split())` makes). Most text is so already, which two C scans tell (every
    white space but ' ' is unprintable) for a fifth of what splitting and joining cost."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-\.]*[A-Za-z0-9]|[A-Za-z0-9]")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


# ASCII punctuation except '.' and '+' becomes a space, as fold's expressions below do: a table
# of bytes (str.translate looks each character up in a dict: twice as slow on words).
_ASCII_FOLD = bytes(ord(" ") if not (chr(c).isalnum() or chr(c).isspace() or chr(c) in ".+") else c for c in range(256))


def fold(text: str) -> str:
    """Lower case, accents removed, hyphens/underscores as spaces: for comparing terms."""
    if text.isascii():  # the common case, without regular expressions
        return " ".join(text.lower().encode().translate(_ASCII_FOLD).decode().split())
    text = unicodedata.normalize("NFKD", text)
    # The combining marks are looked for among the text's distinct characters, and removed (when
    # there are any) in one C pass, which is faster (decision 0006).
    marks = [ord(c) for c in set(text) if unicodedata.combining(c)]
    if marks:
        text = text.translate(dict.fromkeys(marks))
    text = re.sub(r"[-_/‐‑–]+", " ", text.lower())
    return " ".join(re.sub(r"[^\w\s.+]", " ", text).split())


def singular(word: str) -> str:
    """A cautious English singular for matching terms (models -> model, LLMs -> LLM)."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is", "ics", "as")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return word[:-1]


@lru_cache(maxsize=500_000)
def normalise_term(term: str) -> str:
    """The key under which spellings of one term meet: 'Large-Language Models' -> 'large language model'."""
    parts = fold(term).split()
    if parts:
        parts[-1] = singular(parts[-1])
    return " ".join(parts)


class Caseless:
    """An ignore-case pattern searched faster. On ASCII text a lower-case twin (the same pattern
    without IGNORECASE, which must hold no capital letter, and without a leading \\b: a pattern
    that opens with \\b or ignores case is tried at every position) finds in the lowered text
    where a match may start, much faster (decision 0005), and the pattern itself matches there. ASCII lowering
    keeps every position, and the twin accepts at each position at least what the pattern
    accepts, so the first position where the pattern matches gives the match that
    pattern.search(text, pos) gives."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        body = pattern.pattern.removeprefix("(?i)")
        self.twin = re.compile(body.removeprefix("\\b"), pattern.flags & ~re.IGNORECASE)

    def search(self, text: str, pos: int = 0, lowered: str | None = None) -> re.Match[str] | None:
        if not text.isascii():
            return self.pattern.search(text, pos)
        lowered = text.lower() if lowered is None else lowered
        while (found := self.twin.search(lowered, pos)) is not None:
            match = self.pattern.match(text, found.start())
            if match:
                return match
            pos = found.start() + 1  # the \b failed there ('we' in 'swept')
        return None


def whole_word_positions(word: str, text: str) -> list[int]:
    """Where `word` occurs in `text` not inside a longer word or hyphenated compound: the
    regular expression (?<![\\w-])word(?![\\w-]) without compiling one per word (names vary)."""
    positions, start = [], text.find(word)
    while start >= 0 and word:
        if is_whole_word(text, start, start + len(word)):
            positions.append(start)
        start = text.find(word, start + 1)
    return positions


def is_whole_word(text: str, start: int, end: int) -> bool:
    """text[start:end] is not part of a longer word or hyphenated compound."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-")


def is_mixed_case(word: str) -> bool:
    """True for words whose casing must be kept: LLMs, CLIP, MM1.5, PatchSAE, iPhone."""
    rest = word[1:]
    return rest != rest.lower() or any(map(str.isdigit, word))  # str methods: on every title word


class Computed(dict):
    """A dict that computes a missing value on first look-up (and keeps it): looked up in C."""

    def __init__(self, compute: Callable):
        super().__init__()
        self._compute = compute

    def __missing__(self, key):
        value = self[key] = self._compute(key)
        return value


def title_case(phrase: str, first: bool = True) -> str:
    """Title case the ML way: small words lower, acronyms and names untouched, hyphen parts
    capitalised. first=False for a phrase that continues a title ('for Safeguarding PII')."""
    words = phrase.split()
    if not words:
        return ""
    # Each word's two forms are kept: the candidate titles of an abstract repeat their words
    # (decision 0005).
    out = list(map(_INNER_TITLE_WORD.__getitem__, words))
    if first:
        out[0] = _TITLE_WORD[words[0]]
    return " ".join(out)


def _title_word(word: str) -> str:
    """A title's word, hyphen parts capitalised unless their casing must be kept."""
    return "-".join(p if is_mixed_case(p) or not p else p[0].upper() + p[1:] for p in word.split("-"))


_TITLE_WORD = Computed(_title_word)
# A word inside a title: small words are lower case.
_INNER_TITLE_WORD = Computed(lambda word: word.lower() if word.lower() in SMALL_WORDS else _TITLE_WORD[word])


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


_VOWELS = "aeiou"
# Verbs that double their last consonant before -ing beyond the short ones the rule below finds
# (stress on the last syllable: embed -> embedding, control -> controlling).
_DOUBLE_FINAL = {
    "plan",
    "map",
    "run",
    "set",
    "get",
    "stop",
    "scan",
    "drop",
    "embed",
    "admit",
    "submit",
    "commit",
    "permit",
    "transmit",
    "control",
    "patrol",
    "refer",
    "prefer",
    "transfer",
    "occur",
    "omit",
    "begin",
    "forget",
    "equip",
}


def gerund(verb: str) -> str:
    """investigates -> investigating, study -> studying, analyze -> analyzing."""
    verb = verb.lower()
    if verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith(("ches", "shes", "sses", "xes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith(("ss", "us", "is")):  # focus -> focusing
        verb = verb[:-1]
    vowels = [c for c in verb if c in _VOWELS]
    if verb in _DOUBLE_FINAL or (len(verb) <= 4 and len(vowels) == 1 and re.fullmatch(r".*[^aeiou][aeiou][^aeiouwxy]", verb)):
        return verb + verb[-1] + "ing"  # cut -> cutting, plan -> planning
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    return verb + "ing"
