"""Find acronyms with their expansions and the name a paper introduces.

Acronyms use the Schwartz-Hearst rule (the short form's letters appear in order
in the words before it, the first at a word start). The introduced name is the
name-like token (PatchSAE, MM1.5, REMEDY, AndroidWorld) that the abstract
presents as its own contribution: "named X", "we propose X", "X, a ...", bold X,
or "Long Form (X)" in a contribution sentence. Generic field acronyms (LLM, RL,
GNN) are never names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import filterfalse

from generator.language import learned, lexicon
from generator.language.textutil import STOP_WORDS, Caseless, sentences, singular, whole_word_positions
from generator.model import Acronym

# Acronyms every ML reader knows: they name a field or a common tool, not a paper's contribution.
GENERIC_ACRONYMS = lexicon.words("generic_acronyms")

# Capitals for emphasis, not names ('WARNING: this paper contains ...').
_SHOUTED = lexicon.words("shouted_words")
_NAME_TOKEN = r"[A-Za-z0-9][A-Za-z0-9\-\.+]*[A-Za-z0-9+]|[A-Z]"
_NAME_TOKEN_RE = re.compile(_NAME_TOKEN)
# "our model, MM-Embed, achieves ...", "our method X outperforms ..."
_OUR_NOUN = re.compile(
    rf"\b[Oo]ur (?:\w+ )?(?:model|method|approach|framework|system|agent|benchmark|dataset|algorithm|pipeline|tool|library)s?,?\s+({_NAME_TOKEN})"
)
# "X is a benchmark ...", "X, a ...": a name-like subject at the start of a sentence.
_NAME_SUBJECT = re.compile(rf"({_NAME_TOKEN})(?:,| is| achieves| outperforms| consists| comprises| uses)")
_SHORT_FORM = re.compile(r"\(([A-Za-z][A-Za-z0-9\-\.+&]{1,15}?)s?\)")
_CONTRIBUTION = Caseless(
    re.compile(
        rf"\b(?:we|this (?:paper|work)|our (?:work|paper))\s+(?:\w+ly\s+)?{lexicon.alternation('proposal_verbs', inflected=True)}\b",
        re.IGNORECASE,
    )
)
# Patterns that open with \b or ignore case are tried at every position of a sentence; most
# sentences lack what they need, which a plain pattern or substring finds far faster.
_NAMING_WORDS = ("name", "dubbed", "termed", "called", "coined", "denoted", "we call")  # one is in every _NAMING match
_NAMING = re.compile(
    r"\b(?:named|dubbed|termed|called|coined|denoted(?: as)?|(?:which |that )?we call(?: it| this)?|we name it|namely)\s+[“\"']?"
    r"((?:[A-Z][\w\-\.]*\s+){0,2}[A-Za-z0-9][\w\-\.+]*[\w+])"
)


def looks_like_name(token: str, choices: learned.Choices | None = None) -> bool:
    """Name-like: internal capitals or digits with letters, or all caps (PatchSAE, MM1.5, PPA);
    no common word highlighted in capitals (`choices.words`; None: the shipped choices)."""
    return _looks_like_name(token, (choices or learned.Choices.shipped()).words)


@lru_cache(maxsize=65536)  # keyed by the word list too: the lab passes the lists it trains
def _looks_like_name(token: str, common_words: frozenset[str]) -> bool:
    token = token.strip(".-")
    if token.lower() == token or token in _SHOUTED:  # every rule below needs a capital letter; most words have none
        return False
    if len(token) < 2 or not token[0].isalnum() or token in GENERIC_ACRONYMS:
        return False
    if singular(token) in GENERIC_ACRONYMS or token.rstrip("s") in GENERIC_ACRONYMS:
        return False
    letters = [c for c in token if c.isalpha()]
    if not letters or (re.fullmatch(r"[A-Z]{2,}[a-z]{3,}", token) and token.lower() in common_words):
        # 'REcipe MErging': capitals that highlight an acronym's letters in a common word, not a
        # name; 'GNNCert', 'ODEFormer', 'NEFTune' are no words and stay names.
        return False
    if token[0].isdigit() and len(letters) < 3:  # '0.011B', '7B': sizes, not names
        return False
    parts = [p for p in token.split("-") if p]
    if len(parts) >= 3 and all(p[0].isupper() for p in parts):  # 'Watch-Less-Do-More'
        return True
    has_inner_capital = any(any(c.isupper() for c in part[1:]) for part in parts)
    has_digit = any(c.isdigit() for c in token)
    all_caps_part = any(sum(c.isupper() for c in part) >= 2 and part.upper() == part for part in parts)
    return has_inner_capital or (has_digit and token[0].isupper()) or all_caps_part


def find_acronyms(text: str, choices: learned.Choices | None = None) -> list[Acronym]:
    """'Proactive Privacy Amnesia (PPA)' -> Acronym('PPA', 'Proactive Privacy Amnesia')."""
    found: dict[str, Acronym] = {}
    for match in _SHORT_FORM.finditer(text):
        short = match.group(1).rstrip(".-")
        if sum(c.isupper() for c in short) < 2 and not looks_like_name(short, choices):
            continue
        long = _long_form(short, text[: match.start()])
        if long and short not in found:
            found[short] = Acronym(short, long)
    return list(found.values())


_SKIPPABLE = {"of", "for", "and", "the", "in", "on", "to", "with", "a", "an", "via", "by"}
_DIGIT_WORDS = {"2": "t", "4": "f"}  # 'decay-to-zero (D2Z)', 'learning for (L4)'


def _initials_form(letters: list[str], words: list[str]) -> str | None:
    """Each short-form letter starts a word or a hyphen part, walking backwards; small words may be skipped."""
    remaining = letters[:]
    used = 0
    for word in reversed(words):
        if not remaining:
            break
        initials = [part[:1].lower() for part in word.split("-") if part]
        matched_first = False
        matched = 0
        for index in range(len(initials) - 1, -1, -1):
            if remaining and initials[index] == remaining[-1]:
                remaining.pop()
                matched += 1
                matched_first = index == 0
        if matched and not matched_first:
            return None  # a word counts only from its own start
        if not matched and word.lower() not in _SKIPPABLE:
            return None
        used += 1
    if remaining:
        return None
    return " ".join(words[-used:])


def _long_form(short: str, before: str) -> str | None:
    """Initials first, then Schwartz-Hearst: walk the short form backwards through the preceding words."""
    letters = [_DIGIT_WORDS.get(c, c.lower()) for c in short if c.isalnum()]
    if short.endswith("s") and len(letters) > 2 and short[:-1].isupper():
        letters = letters[:-1]  # 'LLMs'
    strict = _initials_form(letters, before.split()[-(len(letters) + 3) :])
    if strict and strict[0].lower() == letters[0]:
        return strict.strip(" ,;:“\"'")
    words = before.split()[-(min(len(short) + 5, 2 * len(short))) :]
    candidate = " ".join(words)
    s, position = len(letters) - 1, len(candidate) - 1
    while s >= 0:
        c = letters[s]
        while position >= 0 and (candidate[position].lower() != c or (s == 0 and position > 0 and candidate[position - 1].isalnum())):
            position -= 1
        if position < 0:
            return None
        position -= 1
        s -= 1
    long = candidate[position + 1 :].strip(" ,;:“\"'")
    if long.split(" ", 1)[0].lower() in {"of", "for", "and", "the", "in", "on", "to", "with", "a", "an", "via", "by"}:
        return None  # 'of human Notions of Interestingness' is the tail of a longer form
    # The first word of the long form must start with the short form's first letter.
    if not long or long.lower().startswith(("the ", "a ", "an ")) or len(long) <= len(short):
        return None
    if len(long.split()) > len(letters) + 3 or any(ch in long for ch in "()[];"):
        return None
    return long


# Rules that find a name-shaped word the abstract defines or mentions, not one it introduces
# as its own: their phrases are candidates for the title, the name never leads it.
MENTIONED = "mentioned"
NOT_INTRODUCED = frozenset({"acronym", MENTIONED})


@dataclass(frozen=True)
class IntroducedName:
    name: str
    expansion: str | None  # the long form when the name is an acronym
    sentence: str  # the sentence that introduces it
    rule: str = "named"  # which pattern proposed it (a feature of the learned choice)


# A name right after these words is used, not introduced ("on WikiText-2", "than GPT-4").
_USED_BEFORE = re.compile(
    r"\b(?:on|with|using|from|than|like|such as|e\.g\.,?|i\.e\.,?|including|via|over|against|across|by|in|"
    r"into|of|versus|vs\.?|upon|beyond|outperforms?|surpass(?:es)?|extends?|improves? (?:on|upon)|"
    r"builds? (?:on|upon)|based on)\s+(?:the\s+|a\s+|an\s+)?$",
    re.IGNORECASE,
)
# Compound adjectives, not names: 'LLM-based', 'GPT-style', 'CLIP-guided'.
_ADJECTIVE_SUFFIX = re.compile(
    r"-(?:based|like|style|aware|free|driven|guided|specific|level|wise|scale|sized|only|centric|agnostic|"
    r"generated|augmented|tuned|trained|powered|conditioned|enhanced|assisted|inspired|native|friendly|"
    r"compatible|agnostic|dependent|independent|invariant|equivariant|type|like|style|sized|level)$",
    re.IGNORECASE,
)
# Expansions that name a common technique, so their acronym is no paper's own name.
GENERIC_EXPANSIONS = lexicon.words("generic_expansions")


# Well-known model families: 'Llama2-70B', 'GPT-4o-mini', 'Qwen2.5-7B' are used, not introduced.
# Only versions and sizes may follow the family: 'LLaMA-Adapter' is a new name built on one.
_MODEL_FAMILY = re.compile(
    r"(?i)^(?:gpt|llama|mistral|mixtral|qwen|gemma|gemini|claude|bert|roberta|t5|vit|resnet|clip|dino|sam|palm|opt|"
    r"bloom|falcon|phi|vicuna|alpaca|stable-?diffusion|sdxl|whisper|deepseek)(?=[-.\dv])"
    r"(?:[-.]?v?\d[\w.]*)?(?:-(?:\d+(?:\.\d+)?[bmk]|[bslhg]|x?l|xxl|large|base|small|tiny|mini|turbo|instruct|chat|hf|pro|flash|ultra|coder|vision|\d+[a-z]?))*$"
)


@lru_cache(maxsize=16384)
def _generic_expansion(long: str | None, short: str = "") -> bool:
    """The expansion names a known concept: a common technique, or a vocabulary term
    ('Membership Inference Attack'), or one qualified by a word ('Conditional Average
    Treatment Effect'), unless the short form is coined rather than the initials ('Brain
    Language Model (BrainLM)', 'Decomposed Prompt Tuning (DePT)')."""
    if not long:
        return False
    from generator.enrich.tagging import vocabulary  # late: tagging's data loads once, on first use

    folded = " ".join(singular(w) for w in re.sub(r"[-_/]", " ", long.lower()).split()).strip()
    if folded in GENERIC_EXPANSIONS:  # the lexicon keeps them folded: one space, singular
        return True
    words = tuple(folded.split())
    spellings = vocabulary().folded  # curated only, as in every vocabulary: learned tags never change a name
    lengths = (len(words),) if _coined(short) else (len(words), len(words) - 1)
    return len(words) >= 2 and any(words[i : i + n] in spellings for n in lengths if n >= 2 for i in range(len(words) - n + 1))


def _coined(short: str) -> bool:
    """A capitalised short form with lower-case letters besides a plural 's' ('BrainLM',
    'DePT'; not 'CATE' or 'LLMs'): a name made up for the paper. A lower-case first
    letter marks a variant of a concept instead ('cGAN', 'eNTK', 'meta-RL')."""
    return short[:1].isupper() and any(c.islower() for c in short.removesuffix("s"))


@lru_cache(maxsize=65536)  # keyed by the word list too: the lab passes the lists it trains
def _name_shaped(token: str, common_words: frozenset[str]) -> bool:
    """The token alone could be a paper's name: name-like, not a known model family, a
    compound of field acronyms or a compound adjective."""
    parts = [singular(p) for p in token.split("-") if p]
    return (
        _looks_like_name(token, common_words)
        and not _MODEL_FAMILY.match(token)
        and not (len(parts) > 1 and all(p in GENERIC_ACRONYMS or p.upper() in GENERIC_ACRONYMS for p in parts))  # 'MoE-LLMs'
        and not _ADJECTIVE_SUFFIX.search(token)
    )


def _candidate(token: str, expansions: dict[str, str], banned: frozenset[str], common_words: frozenset[str], strict: bool = False) -> bool:
    """A name-like token that could be this paper's name. `strict` (for guesses from mere
    repetition) also rejects two-letter acronyms ('UM', 'LE')."""
    token = token.rstrip(".-")
    return (
        _name_shaped(token, common_words)
        and not (strict and token.isupper() and len(token) < 3)
        and not _generic_expansion(expansions.get(token), token)
        and token not in banned
    )


# Capitalised words that are adjectives or participles, not names ('Bernstein-type', 'Certifiable').
_NOT_A_NOUN = re.compile(r"(?:ized|ised|able|ible|ive|ous|ical|ial|type|like|ing|ed|ly|wise|less|ful)$|-[a-z]")


def _hyphenated_name(word: str, banned: frozenset[str]) -> bool:
    """'Tree-Planner', 'Q-Bench', 'Skeleton-of-Thought': a compound of capitalised parts, not
    a compound adjective ('Self-Supervised', 'LLM-Based') or of field acronyms ('MoE-LLMs')."""
    parts = word.split("-")
    return (
        len(parts) >= 2
        and parts[-1][:1].isupper()
        and not _ADJECTIVE_SUFFIX.search(word)
        and not _NOT_A_NOUN.search(parts[-1])
        and not all(singular(p) in GENERIC_ACRONYMS or p.upper() in GENERIC_ACRONYMS for p in parts)
        and word not in banned
    )


def _capitalised_noun(word: str, banned: frozenset[str], min_length: int = 4) -> bool:
    """'Coconut', 'Magnushammer', 'Genie': a capitalised word used as a name."""
    return (
        len(word) >= min_length
        and word[0].isupper()
        and word[1:].islower()
        and word.lower() not in STOP_WORDS
        and not _NOT_A_NOUN.search(word)
        and word not in banned
    )


# Up to ten words without punctuation, then a parenthesised short form.
_SPELLED_OUT = re.compile(r"(?:[\w\-]+\s+){1,10}\(([^()\s,;]{2,24})\)")
# A capitalised word ('Coconut', 'Würstchen') or compound ('Tree-Planner', 'Q-Bench',
# 'Chain-of-Experts') right after the verb, then a comma, bracket or 'is/that/which'.
_CAPITALISED_NAME = re.compile(
    r"\s*[*“\"']?([A-Z][^\W\d_]{2,}\w*|[A-Z][^\W_]*(?:-(?:of|the|and|to|in|for|on|[A-Z0-9][^\W_]*))+)[*”\"']?"
    r"(?=\s*[,(:]|\s+(?:is|that|which)\b)"
)


def introduced(names: Sequence[IntroducedName], choices: learned.Choices | None = None) -> IntroducedName | None:
    """The first candidate a pattern says the abstract introduces as its own, or the family
    name it belongs to (`_family_name`)."""
    first = next((n for n in names if n.rule not in NOT_INTRODUCED), None)
    if first is None:
        return None
    common_words = (choices or learned.Choices.shipped()).words
    return next((n for n in names if _family_name(n, first, common_words)), first)


# Rules by which the abstract itself presents a name as its own ('named X', 'our model X',
# bold X, 'we propose X'): not mere repetition, a defined acronym or a repository name.
_STATED_RULES = ("naming", "our-noun", "bold", "contribution")
# What a variant or part adds to its family's name: '-Eval', 'QA', '-Net', '-MVR' (never a
# version or size: 'DNABERT-2', 'MetaMath-7B'; never one letter: 'SEE' in 'SEED').
_VARIANT_SUFFIX = re.compile(r"-?[A-Z][A-Za-z]+")


def _family_name(candidate: IntroducedName, first: IntroducedName, common_words: frozenset[str]) -> bool:
    """'SOTOPIA' for 'SOTOPIA-Eval', 'MetaMath' for 'MetaMathQA', 'STanHop' for 'STanHop-Net':
    an abstract that introduces a family and a variant or part named after it is titled by
    the family name. On all shared corpora this applies to 7 papers: the real title carries
    the family name alone in 4 (SOTOPIA, MetaMath, FedDA, STanHop), the longer name alone in
    none, neither in 3."""
    return (
        candidate.name != first.name
        and candidate.rule.startswith(_STATED_RULES)
        and not candidate.expansion
        and len(candidate.name) >= 3
        and first.name.startswith(candidate.name)
        and bool(_VARIANT_SUFFIX.fullmatch(first.name[len(candidate.name) :]))
        and _looks_like_name(candidate.name, common_words)
    )


def name_candidates(
    text: str,
    bold: list[str],
    acronyms: list[Acronym],
    banned: frozenset[str] = frozenset(),
    limit: int | None = None,
    urls: Sequence[str] = (),
    choices: learned.Choices | None = None,
) -> list[IntroducedName]:
    """Every name this abstract may introduce as its contribution, most explicit pattern first,
    each name once (the first `limit` only: the title needs no more, training wants all).
    `text` holds no URLs (their tokens are no names); `urls` are the abstract's links, whose
    code repository may carry the name. `banned` names are known (from the corpus) to be
    shared by many papers. Name-like is judged by `choices.words` (None: the shipped choices)."""
    found: dict[str, IntroducedName] = {}
    common_words = (choices or learned.Choices.shipped()).words
    for candidate in _proposed_names(text, bold, acronyms, banned, urls, common_words):
        if limit is not None and (len(found) >= limit or candidate.rule == MENTIONED):
            break  # mentioned names come last and never lead or describe a title
        found.setdefault(candidate.name, candidate)
    return list(found.values())


def _proposed_names(
    text: str, bold: list[str], acronyms: list[Acronym], banned: frozenset[str], urls: Sequence[str], common_words: frozenset[str]
):
    expansions = {a.short: a.long for a in acronyms}
    all_sentences = sentences(text)

    def result(name: str, sentence: str, rule: str) -> IntroducedName:
        name = name.rstrip(".-")
        return IntroducedName(name, expansions.get(name), sentence, rule)

    match: re.Match[str] | None  # each loop below binds these anew
    capitalised: re.Match[str] | str | None
    naming = any(word in text for word in _NAMING_WORDS)  # most abstracts name nothing: no search per sentence
    for sentence in all_sentences if naming else ():
        for match in _NAMING.finditer(sentence):
            candidate = match.group(1)
            words = candidate.split()
            # "named Physics guided Neural Network for Air Quality Prediction (AirPhyNet)": the short form.
            spelled = _SPELLED_OUT.match(sentence, match.start(1))
            if spelled:
                short = spelled.group(1)
                # Named explicitly: even a compound of field acronyms ('DNA-GPT') is the name here.
                if _looks_like_name(short, common_words) and short not in banned and not _MODEL_FAMILY.match(short):
                    yield result(short, sentence, "naming-spelled")
                continue
            if candidate in banned:
                continue
            if (
                len(words) > 1
                and all(w[0].isupper() for w in words)
                and any(_looks_like_name(w, common_words) or w in GENERIC_ACRONYMS for w in words)
            ):
                yield result(candidate, sentence, "naming-multiword")  # 'Sparse RAG', 'Llama Guard 3'
                continue  # its first word alone ('Sparse') is no name
            first = words[0]
            if _candidate(first, expansions, banned, common_words) or _capitalised_noun(first, banned):
                yield result(first, sentence, "naming")  # 'PatchSAE', 'Magnushammer'
    for sentence in all_sentences:
        # "our model, MM-Embed, achieves ...", "our method X outperforms ..."
        match = _OUR_NOUN.search(sentence) if "ur " in sentence else None  # '[Oo]ur '
        # A plain capitalised word needs a comma or bracket after it ('Our model, Coeditor, is').
        if match and (
            _candidate(match.group(1), expansions, banned, common_words)
            or (_capitalised_noun(match.group(1), banned) and sentence[match.end() : match.end() + 1] in (",", "("))
        ):
            yield result(match.group(1), sentence, "our-noun")
    for name in bold:
        words = name.split()
        if 0 < len(words) <= 3 and _candidate(words[0], expansions, banned, common_words):
            sentence = next((s for s in all_sentences if name in s), "")
            yield result(name, sentence, "bold")
    for sentence in all_sentences:
        contribution = _CONTRIBUTION.search(sentence)
        if not contribution:
            continue
        after = sentence[contribution.end() :]
        # "we propose NOise Robust Temporal Optimal traNsport (Norton)": the short form is the name,
        # unless the long form is one name itself ("we introduce Real2Render2Real (R2R2R)").
        spelled = _SPELLED_OUT.match(after.lstrip(" ,:").removeprefix("a ").removeprefix("an ").removeprefix("the "))
        if spelled:
            long = spelled.group(0).rsplit("(", 1)[0].split()
            if len(long) == 1 and _candidate(long[0], expansions, banned, common_words):
                yield result(long[0], sentence, "contribution-long")
            if _candidate(spelled.group(1), expansions, banned, common_words) or _capitalised_noun(spelled.group(1), banned):
                yield result(spelled.group(1), sentence, "contribution-spelled")
        # "we introduce Coconut (Chain of Continuous Thought)": a capitalised word right after the verb.
        capitalised = _CAPITALISED_NAME.match(after)
        # Right after the verb, before a comma, bracket or 'is', even a short word is a name ('we present Emu, a ...').
        if capitalised and (_capitalised_noun(capitalised.group(1), banned, 3) or _hyphenated_name(capitalised.group(1), banned)):
            yield result(capitalised.group(1), sentence, "contribution-capitalised")
        # "we propose PPA", "we introduce a novel benchmark, BEARCUBS," "... (REMEDY) method"
        for token_match in _NAME_TOKEN_RE.finditer(after):
            token = token_match.group(0)
            if (
                token.lower() != token  # a name has a capital (`looks_like_name`): most words are skipped at once
                and _candidate(token, expansions, banned, common_words)
                and not _inside_plain_parenthesis(after, token_match.start(), expansions)
                and not _USED_BEFORE.search(after[: token_match.start()])
            ):
                yield result(token, sentence, "contribution-token")
            if token_match.start() > 160:
                break
    # "X is a benchmark ...", "X, a ...": a name-like subject at the start of a sentence.
    for sentence in all_sentences:
        match = _NAME_SUBJECT.match(sentence)
        if (
            match
            and _candidate(match.group(1), expansions, banned, common_words, strict=True)
            and match.group(1) not in expansions.values()
        ):
            if text.count(match.group(1)) >= 2:
                yield result(match.group(1), sentence, "subject")
    # Last: a name the abstract keeps using (twice or more, and in its second half too),
    # as the subject of what the paper does ("AffineQuant achieves ...").
    counts: dict[str, int] = {}
    # Tokens never span white space: only the words with a capital are searched for them.
    capitalised = " ".join(filterfalse(str.islower, text.split()))  # (and words without letters)
    # Each distinct token is judged once ('We', 'The' and a name recur), with how often it occurs.
    for token, occurrences in Counter(filterfalse(str.islower, _NAME_TOKEN_RE.findall(capitalised))).items():
        # Most words have no capital, and every name has one: skip them before the checks.
        if token.lower() == token:
            continue
        token = token.rstrip(".-")
        if _candidate(token, expansions, banned, common_words, strict=True) and not token[0].isdigit():
            counts[token] = counts.get(token, 0) + occurrences
    repeated = [t for t, c in counts.items() if c >= 2 and t in text[len(text) // 2 :] and not _used_only(t, text)]
    for token in sorted(repeated, key=lambda t: (-counts[t], text.index(t))):
        yield result(token, next((s for s in all_sentences if token in s), ""), "repeated")
    # Weaker evidence, for the learned choice to weigh: the code repository's name (a paper's
    # repository, 'github.com/YingqingHe/ScaleCrafter', is mostly named after it), any defined
    # acronym that names no known concept, then any name-shaped token.
    for url in urls:
        repository = _repository_name(url)
        if repository and repository not in banned and (_name_shaped(repository, common_words) or _capitalised_noun(repository, banned)):
            yield result(repository, next((s for s in all_sentences if repository in s), ""), "url-repository")
    for acronym in acronyms:
        if _candidate(acronym.short, expansions, banned, common_words):
            yield result(acronym.short, next((s for s in all_sentences if acronym.short in s), ""), "acronym")
    for token in counts:
        yield result(token, next((s for s in all_sentences if token in s), ""), MENTIONED)


# A code host's repository ('github.com/owner/REPO/tree/main'), or a project page's last folder
# ('owner.github.io/Projects/REPO/').
_REPOSITORY = re.compile(
    r"^https?://(?:www\.)?(?:(?:github|gitlab)\.com/[^/\s]+|anonymous\.4open\.science/r|huggingface\.co/(?:spaces/|datasets/)?[^/\s]+)"
    r"/([^/?#\s]+)|^https?://[\w-]+\.github\.io(?:/[^/?#\s]+)*?/([^/?#\s]+)/?(?:[?#]|$)"
)


def _repository_name(url: str) -> str | None:
    """'https://github.com/Karami-m/HiGen_main' -> 'HiGen': the repository (or project page)
    a code link points to, without a '-main'/'_code' suffix."""
    match = _REPOSITORY.match(url)
    if not match:
        return None
    name = re.sub(
        r"(?i)(?:\.git|[-_](?:main|code|official|release|public|pytorch|repo|(?=[0-9a-f]*\d)[0-9a-f]{4}))+$",
        "",
        match.group(1) or match.group(2),
    )
    return name if re.fullmatch(_NAME_TOKEN, name) else None


def _used_only(token: str, text: str) -> bool:
    """Every mention follows 'on', 'with', 'than'...: a dataset or baseline, not the contribution."""
    positions = whole_word_positions(token, text)
    return bool(positions) and all(_USED_BEFORE.search(text[max(0, p - 40) : p]) for p in positions)


def _inside_plain_parenthesis(after: str, start: int, expansions: dict[str, str]) -> bool:
    """A parenthesised acronym of a generic term ('(LLMs)') is not the introduced name."""
    return after[max(0, start - 1) : start] == "(" and after[start:].split(")")[0] not in expansions
