"""Tags from a curated vocabulary, areas from a documented taxonomy, and candidate keyphrases.

The vocabulary (data/vocabulary.yml) maps many spellings to one tag ("LLMs",
"large language models" -> "large language models") and each tag to a parent
area (data/areas.yml). Matching is on normalised tokens, longest spelling first;
short all-caps spellings (CLIP, GP, SAE) match only in capitals.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import compress
from typing import Any, NamedTuple, cast

from generator.language.lexicon import load_yaml
from generator.language.textutil import STOP_WORDS, Computed, fold, is_mixed_case, normalise_term, sentences, singular
from generator.model import CandidatePhrases

# Acronyms also matched in lower case: none of them is an English word.
LOWERCASE_OK = frozenset(
    {
        "LLM",
        "LLMs",
        "VLM",
        "VLMs",
        "MLLM",
        "MLLMs",
        "LVLM",
        "LVLMs",
        "RLHF",
        "PEFT",
        "LoRA",
        "GNN",
        "GNNs",
        "CNN",
        "CNNs",
        "RNN",
        "RNNs",
        "LSTM",
        "VAE",
        "VAEs",
        "GAN",
        "GANs",
        "MARL",
        "SSL",
        "NeRF",
        "ViT",
        "MoE",
        "SAE",
        "SAEs",
        "OOD",
        "VQA",
        "NLP",
        "ICL",
        "CoT",
        "DPO",
        "MPC",
        "PINN",
        "VLA",
        "TTA",
    }
)
# Tags so common in abstracts that one passing mention says little: they need two.
BROAD_TAGS = frozenset(
    {
        "datasets",
        "benchmarks",
        "generalization",
        "optimization",
        "reasoning",
        "large language models",
        "fine-tuning",
        "pretraining",
        "transformers",
        "embeddings",
        "sampling",
        "exploration",
        "planning",
    }
)


@dataclass(frozen=True)
class Area:
    slug: str
    name: str
    cues: tuple[str, ...]  # folded, after a space: ' large language model'


@dataclass(frozen=True, eq=False)  # told apart by identity: the caches of `mentions` and others key on it
class Vocabulary:
    tag_area: dict[str, str]  # tag -> area slug
    folded: dict[tuple[str, ...], str]  # normalised token tuple -> tag, curated spellings only (names read them)
    matched: dict[tuple[str, ...], str]  # the same with the learned spellings: what tagging matches
    exact: dict[str, str]  # case-sensitive acronym spelling -> tag
    areas: tuple[Area, ...]
    starts: dict[str, tuple[int, ...]]  # first token of a spelling -> the lengths of its spellings, longest first
    cues: CueIndex  # the areas' cues, by the words that can hold them
    may_start: dict[str, bool]  # a raw token -> can a mention start there: it starts a spelling or is an acronym
    # (tag, spelling as TagMention.spelling) -> the cues one of which the abstract must say (data/spelling_contexts.yml)
    contexts: dict[tuple[str, str], tuple[str, ...]]


class CueIndex:
    """Which area cues a folded text holds, found from its words instead of searching it for
    each of the ~200 cues: a cue of one word is there where a word starts with it ('gan' in
    'gans'); a longer cue needs its first word whole, and only then is searched for. What
    each word can start is kept (a corpus repeats its words)."""

    def __init__(self, areas: tuple[Area, ...]):
        self._cues = [(index, cue) for index, area in enumerate(areas) for cue in area.cues]  # cue number -> (area, cue)
        self._one_word: dict[str, list[int]] = {}  # a one-word cue -> its numbers
        self._first_word: dict[str, list[int]] = {}  # the first word of a longer cue -> their numbers
        for number, (_, cue) in enumerate(self._cues):
            words = cue.split()
            (self._one_word if len(words) == 1 else self._first_word).setdefault(words[0], []).append(number)
        self._lengths = sorted({len(word) for word in self._one_word})
        self._by_word = Computed(self._of_word)  # word -> the cue numbers it may hold

    def _of_word(self, word: str) -> tuple[int, ...]:
        numbers = [n for length in self._lengths for n in self._one_word.get(word[:length], ())]
        return tuple(numbers + self._first_word.get(word, []))

    def areas(self, folded: str) -> list[int]:
        """The area (its index) of every cue in `folded` (text as `fold` makes it), in cue order."""
        numbers = set().union(*map(self._by_word.__getitem__, set(folded.split())))
        padded = f" {folded} "
        cues = self._cues
        return [cues[n][0] for n in sorted(numbers) if cues[n][1].count(" ") == 1 or cues[n][1] in padded]


def _data(name: str) -> Any:
    return load_yaml(resources.files("generator").joinpath("data").joinpath(name).read_text(encoding="utf-8"))


LEARNED = "vocabulary_learned.yml"  # tags learned from frequent author keywords (`make train`)
TOPICS = "vocabulary_topics.yml"  # curated tags beyond machine learning (classic AI), for tagging only
CONTEXTS = "spelling_contexts.yml"  # spellings that name their tag only with one of their cues


@cache
def vocabulary() -> Vocabulary:
    """The shipped vocabulary: curated, and the tags learned from author keywords (LEARNED)."""
    return vocabulary_with(_data(LEARNED))


def vocabulary_with(learned: Mapping[str, Mapping[str, Sequence[str]]]) -> Vocabulary:
    """The vocabulary with these learned tags ({area: {tag: [spellings]}}) in place of the
    shipped ones: what training matches with (lab/train_tags.py)."""
    # Cues are stored folded, with a leading space: matched at word starts in folded text.
    areas = tuple(Area(a["slug"], a["name"], tuple(f" {fold(c)}" for c in a["cues"])) for a in _data("areas.yml"))
    known_areas = {a.slug for a in areas}
    tag_area: dict[str, str] = {}
    folded: dict[tuple[str, ...], str] = {}
    exact: dict[str, str] = {}
    # The curated vocabulary first: a learned entry never takes a curated tag or spelling.
    sources = (("vocabulary.yml", _data("vocabulary.yml")), (TOPICS, _data(TOPICS)), (LEARNED, learned or {}))
    for name, groups in sources:
        for area, tags in groups.items():
            if area not in known_areas:
                raise ValueError(f"{name}: unknown area '{area}' (expected one of areas.yml)")
            for tag, spellings in tags.items():
                tag_area.setdefault(tag, area)
                for spelling in [tag, *spellings]:
                    spelling = str(spelling)
                    if " " not in spelling and len(spelling) <= 5 and sum(c.isupper() for c in spelling) >= 2:
                        exact.setdefault(spelling, tag)
                        if spelling.endswith("s"):
                            exact.setdefault(spelling[:-1], tag)
                        if spelling in LOWERCASE_OK:  # 'llms' in lower-case text and keywords
                            folded.setdefault(tuple(_tokens(spelling)), tag)
                    else:
                        folded.setdefault(tuple(_tokens(spelling)), tag)
        if name == "vocabulary.yml":
            # Titles judge names by these spellings only (`names._generic_expansion`): neither
            # the topics for other venues nor retrained tags may change a title.
            curated = dict(folded)
    lengths: dict[str, set[int]] = {}
    for key in folded:
        lengths.setdefault(key[0], set()).add(len(key))
    starts = {token: tuple(sorted(found, reverse=True)) for token, found in lengths.items()}
    may_start = Computed(lambda token: _TOKEN_KEYS[token] in starts or token in exact)
    contexts = {
        (str(tag), " ".join(_tokens(str(spelling)))): tuple(f" {' '.join(_tokens(str(cue).replace('-', ' ')))} " for cue in cues)
        for tag, spellings in (_data(CONTEXTS) or {}).items()
        for spelling, cues in spellings.items()
    }
    return Vocabulary(tag_area, curated, folded, exact, areas, starts, CueIndex(areas), may_start, contexts)


def in_context(found: list[TagMention], text: str, vocab: Vocabulary | None = None) -> list[TagMention]:
    """The mentions but those of a spelling that names its tag only in its field's context
    (Vocabulary.contexts: 'manipulation' for robotic manipulation) where the abstract `text`
    says none of its cues. Tokenised here, for the few abstracts that have such a mention."""
    contexts = (vocab or vocabulary()).contexts
    if not any((m.tag, m.spelling) in contexts for m in found):
        return found
    tokens = f" {' '.join(_token_keys(text))} "
    return [m for m in found if (m.tag, m.spelling) not in contexts or any(cue in tokens for cue in contexts[m.tag, m.spelling])]


def _tokens(text: str) -> list[str]:
    return [singular(t) for t in fold(text).split()]


_RAW_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+]*[A-Za-z0-9+]|[A-Za-z0-9]")
# A hyphenated name of parts with two or more capitals each ('ICL-NUIM', 'TTT-KD'): its parts
# are not acronyms on their own (ICL-NUIM is a data set, not in-context learning).
_NAME_COMPOUND = re.compile(
    r"(?<![\w-])(?:[A-Za-z0-9]*[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*-)+[A-Za-z0-9]*[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*(?![\w-])"
)


# What every name compound holds (its first part): found by a plain pattern, unlike one that opens with a lookbehind.
_CAPITALS_BEFORE_HYPHEN = re.compile(r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*-")


def _spaced(text: str) -> str:
    """Hyphens as spaces ('self-supervised' -> 'self supervised'), but a name compound made one token."""
    if "-" not in text or not _CAPITALS_BEFORE_HYPHEN.search(text):  # no compound can match: no slow search
        return text
    return _NAME_COMPOUND.sub(lambda m: m.group().replace("-", ""), text).replace("-", " ")


# Each token as vocabulary spellings are stored, computed once and looked up in C (a corpus
# repeats its words).
_TOKEN_KEYS = Computed(lambda token: singular(fold(token)))


def _token_keys(text: str) -> tuple[str, ...]:
    """The text's tokens as vocabulary spellings are stored (TagMention.spelling's words)."""
    return tuple(map(_TOKEN_KEYS.__getitem__, _RAW_TOKEN.findall(_spaced(text))))


class TagMention(NamedTuple):  # a tuple: abstracts have dozens, made on every enrich
    """One place a vocabulary spelling fires: which tag, as which spelling, in which sentence,
    and the words either side of it (folded; "" at a sentence's edge)."""

    tag: str
    spelling: str  # the spelling's folded tokens joined by spaces, or the acronym as written
    sentence: int
    before: str
    after: str


def _match(raw: list[str], tokens: list[str], vocab: Vocabulary):
    """(tag, spelling, start, end) at each match, longest spelling first at each position."""
    i, n = 0, len(tokens)
    while i < n:
        # Only tokens that start some spelling need the longer look-ups.
        for length in vocab.starts.get(tokens[i], ()):
            if length > n - i:
                continue
            key = tuple(tokens[i : i + length])
            tag = vocab.matched.get(key)
            if tag:
                yield tag, " ".join(key), i, i + length
                i += length
                break
        else:
            tag = vocab.exact.get(raw[i])
            if tag:
                yield tag, raw[i], i, i + 1
            i += 1


def vocabulary_hits(text: str, vocab: Vocabulary | None = None) -> Counter[str]:
    """How often each vocabulary tag is mentioned, longest spelling first at each position."""
    raw = _RAW_TOKEN.findall(_spaced(text))
    return Counter(tag for tag, _, _, _ in _match(raw, list(map(_TOKEN_KEYS.__getitem__, raw)), vocab or vocabulary()))


@lru_cache(maxsize=256)  # enrich asks for an abstract's mentions for its tags and its area
def mentions(text: str, vocab: Vocabulary | None = None) -> tuple[TagMention, ...]:
    """Every mention of a `vocab` tag (None: the shipped vocabulary), sentence by sentence (a
    spelling never spans two); the matching of `_match`, inlined: it runs on every abstract."""
    vocab = vocab or vocabulary()
    matched, exact, starts = vocab.matched, vocab.exact, vocab.starts
    may_start = vocab.may_start
    found = []
    for index, sentence in enumerate(sentences(text)):
        raw = _RAW_TOKEN.findall(_spaced(sentence))
        tokens = list(map(_TOKEN_KEYS.__getitem__, raw))
        n, end = len(tokens), 0
        # Only a token that starts a spelling or is an acronym can start a mention (a fifth of
        # them): the positions are picked in C (what each word can do is kept), the look-ups
        # run at those only.
        for i in compress(range(n), map(may_start.__getitem__, raw)):
            if i < end:
                continue  # inside the mention found before
            for length in starts.get(tokens[i], ()):  # only the lengths its spellings have
                if length > n - i:
                    continue
                key = tuple(tokens[i : i + length])
                tag = matched.get(key)
                if tag:
                    end = i + length
                    found.append(TagMention(tag, " ".join(key), index, tokens[i - 1] if i else "", tokens[end] if end < n else ""))
                    break
            else:
                tag = exact.get(raw[i])
                if tag:
                    found.append(TagMention(tag, raw[i], index, tokens[i - 1] if i else "", tokens[i + 1] if i + 1 < n else ""))
    return _short_forms(in_context(found, text, vocab))


def defined_otherwise(
    found: tuple[TagMention, ...], acronyms: Sequence[tuple[str, str]], vocab: Vocabulary | None = None
) -> tuple[TagMention, ...]:
    """The mentions but those of an acronym the abstract defines as words that name no tag at all:
    'GP' defined as 'General Purpose' is no mention of Gaussian processes. A definition naming some
    tag is kept whichever it names: 'GCN' defined as 'graph convolutional networks' reads as
    convolutional networks to the vocabulary, and is still graph neural networks. `acronyms`:
    (short, long) as the abstract defines them (issue 33)."""
    if not acronyms:
        return found
    means: dict[str, Counter[str]] = {}
    for short, long in acronyms:
        means[short] = means[short.lower()] = vocabulary_hits(long, vocab)
    kept = tuple(m for m in found if m.spelling not in means or means[m.spelling])
    return kept if len(kept) < len(found) else found


def _short_forms(found: list[TagMention]) -> tuple[TagMention, ...]:
    """A spelling of two or more words that ends a longer one of another tag in the same abstract
    is its short form: after 'neural network language models', 'the language model' is that
    model, not an LLM. (One word is too loose: 'robot' after 'legged robot' is not locomotion.)"""
    longer: dict[str, str] = {}
    for mention in found:
        if mention.spelling.count(" ") >= 2:
            words = mention.spelling.split(" ")
            for start in range(1, len(words) - 1):
                longer.setdefault(" ".join(words[start:]), mention.tag)
    if not longer:
        return tuple(found)
    return tuple(m._replace(tag=longer[m.spelling]) if longer.get(m.spelling, m.tag) != m.tag else m for m in found)


@lru_cache(maxsize=65536)  # authors repeat their keywords; each paper's are normalised twice
def normalise_keyword(keyword: str, vocab: Vocabulary | None = None) -> str:
    """An author keyword in the vocabulary's terms: 'LLMs' -> 'large language models'."""
    vocab = vocab or vocabulary()
    keyword = re.sub(r"\s*\([^()]*\)", "", keyword).strip() or keyword  # 'Large Language Models (LLM)'
    if keyword in vocab.exact:
        return vocab.exact[keyword]
    tag = vocab.matched.get(tuple(_tokens(keyword)))
    if tag:
        return tag
    keyword = keyword.split(": ")[-1].strip()  # 'Computer Vision: CV: Motion and tracking'
    return keyword if any(is_mixed_case(word) for word in keyword.split()) else keyword.lower()


def area_of(
    text: str, tags: tuple[str, ...], given_area: str | None, hits: Counter[str] | None = None, vocab: Vocabulary | None = None
) -> str:
    """The area name: the given one when it maps onto the taxonomy (or as given), else by votes."""
    vocab = vocab or vocabulary()
    if given_area:
        return _given_area(given_area, vocab)
    votes = cast("dict[str, float]", Counter())  # a Counter of float votes (typeshed's Counter counts ints)
    hits = vocabulary_hits(text, vocab) if hits is None else hits
    for tag in tags:
        area = vocab.tag_area.get(tag)
        if area:
            # Broad tags ('datasets', 'benchmarks') are in most abstracts: they vote softly.
            votes[area] += (0.3 if tag in BROAD_TAGS else 1.0) * (1.0 + hits.get(tag, 0))
    for index in vocab.cues.areas(fold(text)):  # one vote per cue, added one by one as ever (floats)
        votes[vocab.areas[index].slug] += 0.5
    if not votes:
        return vocab.areas[-1].name
    order = {area.slug: index for index, area in enumerate(vocab.areas)}
    best = min(votes, key=lambda slug: (-votes[slug], order[slug]))
    return next(area.name for area in vocab.areas if area.slug == best)


@lru_cache(maxsize=1024)  # a venue names a few areas, for hundreds of papers each
def _given_area(given_area: str, vocab: Vocabulary) -> str:
    """The taxonomy's name of an area the input gives, or the area as given."""
    wanted = fold(given_area)
    for area in vocab.areas:
        if wanted in (fold(area.name), area.slug.replace("-", " ")) or fold(area.name).startswith(wanted):
            return area.name
    return given_area


def area_names() -> list[str]:
    return [area.name for area in vocabulary().areas]


_PHRASE_SPLIT = re.compile(r"[^A-Za-z0-9\s\-]+|\s-\s")


class _RunWord(NamedTuple):
    """A word as a run of content words holds it, with its parts of a phrase's key (fold works
    word by word on ASCII: a phrase's key is made from its words', without folding it again)."""

    spelling: str  # names and acronyms keep their casing (CLIP, PatchSAE), other words are lower case
    whole: str  # folded whole, as a phrase's inner word; "" where it folds to nothing
    last: str  # folded, its last token singular, as a phrase's last word; "" where it folds to nothing


def candidate_phrases(text: str) -> CandidatePhrases:
    """Noun-phrase-like runs of 2-4 content words that do not cross stop words or punctuation,
    counted under their normalised key (key, first spelling, occurrences), in text order."""
    counts: dict[str, int] = {}
    spelling: dict[str, str] = {}  # filled along with counts: the same keys in the same order
    for run in _runs(text):
        count, spellings = len(run), [word.spelling for word in run]
        for start in range(count - 1):
            head = run[start].whole  # the phrase's words before its last one, joined
            for end in range(start + 2, min(start + 4, count) + 1):
                word = run[end - 1]
                if word.last:
                    key = f"{head} {word.last}" if head else word.last
                else:  # the last word folds to nothing (rare): the plain way
                    key = normalise_term(" ".join(spellings[start:end]))
                if key in counts:
                    counts[key] += 1
                else:
                    counts[key] = 1
                    spelling[key] = " ".join(spellings[start:end])
                if word.whole:
                    head = f"{head} {word.whole}" if head else word.whole
    return tuple(zip(spelling, spelling.values(), counts.values()))


def cut_phrases(
    phrases: CandidatePhrases, found: Sequence[TagMention], long_forms: Sequence[str] = (), vocab: Vocabulary | None = None
) -> frozenset[str]:
    """The keys of the candidate phrases (candidate_phrases) that stop inside a term the abstract
    names (its vocabulary mentions, `found`): 'deep reinforcement' of 'deep reinforcement
    learning', 'neural network language' of '... language model' ('model' ends a run), 'learning
    agents' of 'reinforcement learning agents'. A term's head, its last words, is a cut only
    when it is no term of its own: 'adversarial networks' of 'generative adversarial networks',
    not 'reinforcement learning' of 'deep reinforcement learning'. Issues 33 and 52.
    `long_forms`: what the abstract's acronyms stand for ('Evolving Graph Fourier Transform'): a
    part of two or more words from its middle that is no vocabulary term is a cut ('graph
    fourier'; not 'evolving graph' nor 'graph fourier transform')."""
    terms = (vocab or vocabulary()).matched
    # What a phrase may not be, end with, begin with (token runs).
    inside: set[tuple[str, ...]] = set()
    ends: set[tuple[str, ...]] = set()
    starts: set[tuple[str, ...]] = set()
    for mention in found:
        words = tuple(mention.spelling.split(" "))
        for k in range(1, len(words)):
            inside.update(words[i:k] for i in range(k))  # inside the term, short of its head
            if len(words) - k >= 2 and words[k:] not in terms:
                inside.add(words[k:])  # a head that names nothing alone
            if mention.before:
                ends.add((mention.before, *words[:k]))  # the phrase runs into the term
            if mention.after:
                starts.add((*words[k:], mention.after))  # the phrase runs out of the term
    for long in long_forms:
        words = _token_keys(long)
        # Its middle: a name's first words often name the problem it is for ('bin packing' of
        # 'Bin Packing Problem'), its last words a term ('graph fourier transform').
        inside.update(part for i in range(1, len(words)) for j in range(i + 2, len(words)) if (part := words[i:j]) not in terms)
    if not inside:
        return frozenset()
    cut = set()
    for key, spelling, _ in phrases:
        tokens = _token_keys(spelling)
        if tokens in inside or any(tokens[-j:] in ends or tokens[:j] in starts for j in range(2, len(tokens) + 1)):
            cut.add(key)
    return frozenset(cut)


def _runs(text: str) -> list[list[_RunWord]]:
    """Runs of content words (2+ of them) between stop words and punctuation."""
    runs: list[list[_RunWord]] = []
    run: list[_RunWord] = []
    for word in _run_words(text):
        if word:
            run.append(word)
            continue
        if len(run) > 1:
            runs.append(run)
        run = []
    if len(run) > 1:
        runs.append(run)
    return runs


def _run_words(text: str) -> Iterator[_RunWord | None]:
    """Each word of the text as a run holds it (None for a stop word...), and None for each
    stretch of punctuation (_PHRASE_SPLIT). ASCII text (3 abstracts in 4) is split as bytes,
    its punctuation made a word of its own by a table (bytes.translate): no regular expression
    tried at every position, no split per chunk between punctuation."""
    if text.isascii():
        return map(_RUN_WORDS_OF_BYTES.__getitem__, text.encode().translate(_PUNCTUATION_TO_NUL).replace(b"\0", b" \0 ").split())
    return map(_RUN_WORDS.__getitem__, _PHRASE_SPLIT.sub(" | ", text).split())


def _run_word(word: str) -> _RunWord | None:
    """The word as a run holds it, or None for what ends a run (a stop word, a number, one
    letter, letters beyond ASCII)."""
    lower = word.lower()
    if len(word) > 1 and lower not in STOP_WORDS and not lower.isdigit() and word.isascii():
        spelling = lower if word[1:] == lower[1:] else word
        tokens = fold(spelling).split()
        if not tokens:
            return _RunWord(spelling, "", "")
        prefix = " ".join(tokens[:-1]) + " " if len(tokens) > 1 else ""
        return _RunWord(spelling, prefix + tokens[-1], prefix + singular(tokens[-1]))
    return None


# Each word's run form, computed once and looked up in C (a corpus repeats its words: ~60,000
# distinct words in 4,242 abstracts). Unbounded, as the vocabulary of the inputs is.
_RUN_WORDS = Computed(_run_word)
_RUN_WORDS_OF_BYTES = Computed(lambda word: _run_word(word.decode()))  # the same for ASCII words as bytes (b"\0": None)


# ASCII punctuation (what _PHRASE_SPLIT splits at: neither letter, digit, white space nor '-')
# as NUL, white space as a space (bytes.split knows not all that str.split does: '\x1c'). ' - '
# (a hyphen between spaces) is a word of one character, and so ends a run, as it did.
def _byte_class(c: int) -> int:
    char = chr(c)
    if char.isspace():
        return ord(" ")
    return c if char.isalnum() or char == "-" or c >= 128 else 0


_PUNCTUATION_TO_NUL = bytes(map(_byte_class, range(256)))
