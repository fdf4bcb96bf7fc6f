"""Features of the candidates the rules propose, for the learned choices (`generator.language.learned`).

One owner for both sides: `lab/train.py` fits weights on these very dictionaries and
the generator scores candidates with them, so a feature means the same in both. Each
function returns {feature name: value}; names are stable strings that appear in
`data/choices.yml`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import chain, filterfalse, repeat
from typing import cast

from generator.enrich.names import GENERIC_ACRONYMS, IntroducedName
from generator.language.textutil import ENGLISH_STOP_WORDS, Caseless, sentences, whole_word_positions

_TOKEN = re.compile(r"[^\W_]+(?:[-'.][^\W_]+)*")
_ASCII_TOKEN = re.compile(r"[a-z0-9]+(?:[-'.][a-z0-9]+)*")  # _TOKEN in lower-case ASCII: no Unicode look-ups, 25% faster


def content_words(text: str) -> list[str]:
    """Lower-case words without stop words: what titleness and overlap are measured on."""
    return [w for w in _TOKEN.findall(text.lower()) if w not in ENGLISH_STOP_WORDS and not w.isdigit()]


def word_counts(text: str) -> Counter[str]:
    """content_words(text), counted: from its sentences' tokens, which the summary reads too
    (tokens never span the white space between sentences)."""
    tokens = chain.from_iterable(sentence_tokens(sentences(text)))
    return Counter(filterfalse(str.isdigit, filterfalse(ENGLISH_STOP_WORDS.__contains__, tokens)))


@lru_cache(maxsize=256)  # an untitled abstract's title (its word counts) and its summary read them
def sentence_tokens(all_sentences: tuple[str, ...]) -> tuple[list[str], ...]:
    """Each sentence's words, lower case (_TOKEN): read, never changed."""
    return tuple((_ASCII_TOKEN if sentence.isascii() else _TOKEN).findall(sentence.lower()) for sentence in all_sentences)


def _bucket(prefix: str, value: int, top: int) -> str:
    return f"{prefix}={min(value, top)}"


# --- Names ------------------------------------------------------------------------------

_USE_CUE = re.compile(
    r"\b(?:on|with|using|from|than|like|such as|including|over|against|across|versus|vs\.?|outperforms?|surpass(?:es)?|"
    r"builds? (?:on|upon)|based on|extends?)\s+(?:the\s+|a\s+)?$",
    re.IGNORECASE,
)


# 'X, a benchmark for ...', 'X (Long Form), which ...': the abstract says what X is.
_APPOSITIVE = re.compile(r"\s*(?:\([^()]*\)\s*)?(?:,\s+(?:a|an|the first|which|that)\b|\s+is\s+(?:a|an|the first)\b)")


def _expansion_words(expansion: str) -> list[str]:
    return [w for w in re.split(r"[\s-]+", expansion) if w and w.lower() not in ENGLISH_STOP_WORDS]


def name_features(candidate: IntroducedName, rank: int, text: str, sentences: Sequence[str], url_text: str) -> dict[str, float]:
    """Is this the name the real title leads with? Pattern, place, use and shape of the name."""
    name = candidate.name
    positions = whole_word_positions(name, text)
    count = len(positions)
    first = positions[0] / max(1, len(text)) if positions else 1.0
    index = next((i for i, s in enumerate(sentences) if name in s), len(sentences))
    used = sum(1 for p in positions if _USE_CUE.search(text[max(0, p - 40) : p]))
    letters = [c for c in name if c.isalpha()]
    features = {
        f"rule={candidate.rule}": 1.0,
        _bucket("rank", rank, 3): 1.0,
        "log_count": math.log1p(count),
        "first_position": first,
        _bucket("sentence", index, 4): 1.0,
        "in_last_sentence": float(bool(sentences) and name in sentences[-1]),
        "used_share": used / count if count else 0.0,
        "has_expansion": float(candidate.expansion is not None),
        # 'Proactive Privacy Amnesia (PPA)' coins a name; 'zero-shot anomaly detection (ZSAD)' abbreviates a concept.
        "expansion_capitalised": float(
            bool(candidate.expansion) and all(w[:1].isupper() for w in _expansion_words(cast(str, candidate.expansion)))
        ),
        "all_caps": float(bool(letters) and all(c.isupper() for c in letters)),
        "inner_capital": float(any(c.isupper() for c in name[1:]) and not all(c.isupper() for c in letters)),
        "has_digit": float(any(c.isdigit() for c in name)),
        "has_hyphen": float("-" in name),
        "multiword": float(" " in name),
        "capitalised_word": float(name[:1].isupper() and name[1:].islower()),
        "length": min(len(name), 20) / 20,
        "generic_part": float(any(p in GENERIC_ACRONYMS for p in re.split(r"[-\s]", name))),
        "in_url": float(bool(url_text) and name.lower() in url_text.lower()),
        "in_first_sentence": float(bool(sentences) and name in sentences[0]),
        "appositive": float(any(_APPOSITIVE.match(text, p + len(name)) for p in positions)),
        # The paper's own name is what its sentences are about ('GNNCert provably predicts ...').
        "sentence_subject": float(sum(1 for s in sentences[1:] if s.startswith(name + " "))),
        **_contribution_features(candidate, sentences),
    }
    return features


# 'we propose [a new ...] X', 'this paper introduces X': the name is the contribution.
_PROPOSED = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:work|paper))\s+(?:\w+ly\s+)?"
    r"(?:propose|present|introduce|develop|design|build|create|release|construct|curate|offer|devise)[sd]?\b",
    re.IGNORECASE,
)
_NAMED_RIGHT_BEFORE = re.compile(
    r"(?:propose|present|introduce|call|dub|name|term)(?:s|d|ed)?\s+(?:(?:a|an|the)\s+)?(?:[\w-]+\s+)?$", re.IGNORECASE
)
# The name as the subject of a claim: 'X achieves ...', 'we show that X outperforms ...'.
_BEFORE_CLAIM = re.compile(r"^\s*(?:(?:\S+\s){0,4}that\s+)?(?:our\s+|the\s+)?$", re.IGNORECASE)
_CLAIM_VERB = re.compile(
    r"\s*(?:\([^()]*\)\s*)?(?:\w+ly\s+)?(?:achieves|outperforms|improves|is|can|enables|reduces|provides|shows|"
    r"demonstrates|yields|also|not only|delivers|surpasses|attains|sets|matches|consistently|significantly)\b",
    re.IGNORECASE,
)


def _contribution_features(candidate: IntroducedName, sentences: Sequence[str]) -> dict[str, float]:
    """Whether the abstract presents the name as its contribution and makes claims about it:
    the evidence that the real title leads with it ('PatchSAE: ...')."""
    name = candidate.name
    defining = candidate.sentence or ""
    before = defining[: max(0, defining.find(name))]
    claims = 0
    with_name = 0
    for sentence in sentences:
        position = sentence.find(name)
        if position < 0:
            continue
        with_name += 1
        if _BEFORE_CLAIM.match(sentence[:position]) and _CLAIM_VERB.match(sentence, position + len(name)):
            claims += 1
    return {
        "proposed_in_sentence": float(_PROPOSED.search(before) is not None),
        "proposed_right_before": float(_NAMED_RIGHT_BEFORE.search(before) is not None),
        "claim_subject": min(claims, 3) / 3,
        "sentence_share": with_name / max(1, len(sentences)),
    }


# --- Descriptive phrases ---------------------------------------------------------------------


def titleness_stats(words: Sequence[str], titleness: Mapping[str, float]) -> tuple[float, float]:
    """Mean and minimum titleness of the words (an unknown word counts as a rare, neutral one)."""
    if not words:
        return 0.0, 0.0
    values = [titleness.get(w, 0.0) for w in words]
    return sum(values) / len(values), min(values)


def phrase_features(
    phrase: str, rule: str, sentence_index: int, abstract_counts: Counter[str], titleness: Mapping[str, float]
) -> dict[str, float]:
    """How much of the real title a descriptive phrase is likely to recover."""
    words = phrase.split()
    content = content_words(phrase)
    mean_title, min_title = titleness_stats(content, titleness)
    repeated = [w for w in content if abstract_counts.get(w, 0) >= 2]
    n = len(words)
    return {
        f"rule={rule}": 1.0,
        _bucket("sentence", max(sentence_index, 0), 4): 1.0,
        "words": min(n, 16) / 16,
        "words_sq": (min(n, 16) / 16) ** 2,
        "content_words": min(len(content), 12) / 12,
        "titleness_mean": mean_title,
        "titleness_min": min_title,
        "repeated_share": len(repeated) / len(content) if content else 0.0,
        "abstract_weight": sum(math.log1p(abstract_counts.get(w, 0)) for w in content) / 10,
        "gerund_start": float(bool(words) and words[0].lower().endswith("ing")),
        "has_for": float(" for " in f" {phrase.lower()} "),
        "has_mixed_case": float(_has_inner_capital(phrase, words)),
        "has_digit": float(_has_digit(phrase)),
    }


_INNER_CAPITAL = re.compile(r"\S[A-Z]")
_DIGIT = re.compile(r"[0-9]")


def _has_inner_capital(phrase: str, words: list[str]) -> bool:
    """A capital after a word's first letter ('PatchSAE'); a regex for ASCII phrases (most)."""
    if phrase.isascii():
        return _INNER_CAPITAL.search(phrase) is not None
    return any(any(c.isupper() for c in w[1:]) for w in words)


def _has_digit(phrase: str) -> bool:
    return _DIGIT.search(phrase) is not None if phrase.isascii() else any(c.isdigit() for c in phrase)


# --- Summary sentences -----------------------------------------------------------------------

# Cue words of a sentence's role. Contribution and study need "we" and a verb in order (a
# pattern); the others are words or word beginnings, checked on the sentence's words at once.
_CONTRIBUTION = Caseless(
    re.compile(
        r"\b(?:we|this (?:paper|work)|our (?:work|paper))\s+(?:\w+ly\s+)?(?:propose|present|introduce|develop|design|build|create|release|construct|curate|offer|devise)",
        re.I,
    )
)
_STUDY = Caseless(
    re.compile(
        r"\b(?:we|this (?:paper|work))\s+(?:\w+ly\s+)?(?:study|analy[sz]e|investigate|explore|examine|show|demonstrate|prove|find|identify|establish)",
        re.I,
    )
)
_WE_WORDS = frozenset({"we", "our"})
_BACKGROUND_WORDS = frozenset(
    {
        "recent",
        "recently",
        "however",
        "remain",
        "remains",
        "challenging",
        "existing",
        "traditional",
        "typically",
        "widely",
        "often",
        "despite",
        "while",
    }
)
_BACKGROUND_PHRASES = re.compile("has been|have been|have shown")  # one search from each 'h': a third of three substring scans
_CODE_WORDS = frozenset({"code", "available", "github", "http", "https"})
# A word that starts 'experiment...', 'improv...': found by one search for such a word start,
# that is after no letter or digit, nor after one joined by - ' or . (as _TOKEN joins them).
_RESULT_PREFIXES = ("experiment", "outperform", "state-of-the-art", "results", "achiev", "improv", "benchmark", "empirical", "surpass")
_RESULT_START = re.compile(rf"(?<![^\W_])(?<![^\W_][-'.])(?:{'|'.join(map(re.escape, _RESULT_PREFIXES))})")
_PROBLEM_START = re.compile(
    r"^(?:a|an|the)?\s*(?:key|major|fundamental|central|main)?\s*(?:challenge|problem|limitation|question|issue)\b", re.I
)


def _cues(sentence: str, lowered: str, tokens: list[str]) -> dict[str, float]:
    words = set(tokens)
    # Both patterns start with 'we', 'this' or 'our': most sentences need no search.
    may_state = "we" in words or "this" in words or "our" in words
    return {
        "cue_contribution": float(may_state and _CONTRIBUTION.search(sentence, lowered=lowered) is not None),
        "cue_study": float(may_state and _STUDY.search(sentence, lowered=lowered) is not None),
        "cue_we": float(not words.isdisjoint(_WE_WORDS)),
        "cue_background": float(not words.isdisjoint(_BACKGROUND_WORDS) or _BACKGROUND_PHRASES.search(lowered) is not None),
        "cue_code": float(not words.isdisjoint(_CODE_WORDS)),
        # The prefixes as substrings first: the pattern with lookbehinds is tried at every position.
        "cue_result": float(any(prefix in lowered for prefix in _RESULT_PREFIXES) and _RESULT_START.search(lowered) is not None),
        "cue_problem": float(_PROBLEM_START.search(sentence) is not None),
    }


def _split_joined(tokens: list[str]) -> list[str]:
    """The runs of letters and digits of the text the _TOKEN tokens came from, without searching
    it again: each token is such runs joined by single - ' or . characters."""
    return " ".join(tokens).replace("-", " ").replace("'", " ").replace(".", " ").split()


def sentence_features(sentences: Sequence[str], titleness: Mapping[str, float]) -> list[dict[str, float]]:
    """For each abstract sentence, how well it states what the paper does (against author
    TL;DRs). The rules' own order (sentences that propose, then that study something, then
    the rest, in reading order) is a feature too: the model learns how far to trust it."""
    table = SentenceFeatures(sentences, titleness)
    return [table.row(index) for index in range(len(sentences))]


class SentenceFeatures:
    """`sentence_features`, each sentence's row made when asked for: what the rows share (the
    cues of every sentence, the rules' order, the abstract's word counts) is made at once."""

    def __init__(self, sentences: Sequence[str], titleness: Mapping[str, float]):
        count = len(sentences)
        lowered = [s.lower() for s in sentences]
        tokens = sentence_tokens(tuple(sentences))
        cues = [_cues(s, low, t) for s, low, t in zip(sentences, lowered, tokens)]
        rules_order = sorted(range(count), key=lambda i: (-cues[i]["cue_contribution"], -cues[i]["cue_study"], "$" in sentences[i], i))
        # Words as ROUGE splits them ('dense-sparse-dense' is three), numbers included: the tokens'
        # runs of letters and digits, from the tokens.
        words = [list(filterfalse(ENGLISH_STOP_WORDS.__contains__, _split_joined(t))) for t in tokens]
        self.sentences, self.titleness, self.cues = sentences, titleness, cues
        self._tokens = tokens
        self._rules_rank = {index: rank for rank, index in enumerate(rules_order)}
        self._counts = [Counter(sentence_words) for sentence_words in words]
        self._whole = Counter(chain.from_iterable(words))
        self._whole_square = sum(n * n for n in self._whole.values())

    def row(self, index: int) -> dict[str, float]:
        sentence, count, whole = self.sentences[index], len(self.sentences), self._whole
        content = list(filterfalse(str.isdigit, filterfalse(ENGLISH_STOP_WORDS.__contains__, self._tokens[index])))  # filtered in C
        values = list(map(self.titleness.get, content, repeat(0.0)))  # the mean of titleness_stats, without its minimum
        mean_title = sum(values) / len(values) if values else 0.0
        # Central sentences share their words with the rest of the abstract (the classic
        # centroid summariser): what the paper does is what the abstract keeps returning to.
        # In one pass over the sentence's words, in integers: the rest's counts dotted with
        # the sentence's, how many words the rest shares, and |rest|^2 (= |whole|^2 with the
        # sentence's own words' counts lowered).
        own = self._counts[index]
        dot = shared = lowered_square = own_square = 0
        for w, n in own.items():
            total = whole[w]
            rest = total - n
            dot += n * rest
            shared += rest != 0
            lowered_square += total * total - rest * rest
            own_square += n * n
        rest_square = self._whole_square - lowered_square
        rest_norm = math.sqrt(rest_square) if rest_square > 0 else 1.0
        own_norm = math.sqrt(own_square) or 1.0
        return {
            _bucket("position", index, 5): 1.0,
            _bucket("rules_rank", self._rules_rank[index], 3): 1.0,
            "relative_position": index / max(1, count - 1),
            "is_last": float(index == count - 1 and count > 1),
            "chars": min(len(sentence), 400) / 400,
            "short": float(len(sentence) < 60),
            "long": float(len(sentence) > 200),
            "has_math": float("$" in sentence),
            "has_parenthesis": float("(" in sentence),
            "titleness_mean": mean_title,
            "centroid": dot / own_norm / rest_norm,
            "shared_share": shared / len(own) if own else 0.0,
            **self.cues[index],
        }
