"""Derive a paper title and a one-sentence summary from its abstract: rules propose, data decides.

The patterns here propose candidates: descriptive phrases (a name's expansion and purpose,
an appositive, the noun phrase of what the abstract proposes or studies, "method for
topic", the abstract's own repeated noun phrases) and summary sentences. Small models
learned from real titles and TL;DRs (`generator.language.learned`, features in
`generator.enrich.features`) rank them and decide whether the introduced name leads
("PPA: Proactive Privacy Amnesia for Safeguarding PII in LLMs"); the sanity gate
(`generator.enrich.titlegate`) rejects any candidate a reader would call broken.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import cast

from generator.enrich.features import SentenceFeatures, name_features, phrase_features, word_counts
from generator.enrich.names import GENERIC_ACRONYMS, MENTIONED, IntroducedName, introduced
from generator.enrich.tagging import candidate_phrases
from generator.enrich.titlegate import FUNCTION_WORDS, is_adverb, is_verb, third_person, title_defects, verb_at
from generator.language import learned, lexicon
from generator.language.textutil import (
    STOP_WORDS,
    Caseless,
    gerund,
    is_mixed_case,
    is_whole_word,
    sentence_case,
    sentences,
    title_case,
    whole_word_positions,
)
from generator.model import CandidatePhrases
from generator.sources import markup

MAX_NAMES_DESCRIBED = 3  # the phrases of the first few name candidates are proposed
MIN_TOPIC_WORDS = 4  # a shorter opening subject is a field ('Large Language Models'), shown only joined to a method

MAX_TITLE_WORDS = 14
MAX_SUMMARY_CHARS = 250  # what OpenReview allows a TL;DR
MAX_SUMMARY_TRIED = 4  # the best-ranked sentences tried whole before one is cut with "…"

# Where a descriptive phrase stops: the start of a relative or adverbial clause.
_BOUNDARY = Caseless(
    re.compile(
        r"\s*(?:[,;:(]|\s[-–—]\s|—|\bvs\.|\.\s|\.$|\b(?:that|which|where|while|whereby|who|whose|designed|aimed|aiming|"
        r"allowing|enabling|achieving|leading|resulting|thereby|thus|in order|so that|capable|"
        r"consisting|specifically|such as|including|based on|built on|as well as|than|and then|"
        r"as long as|if|when|because|since|unless|even|without|despite|named|dubbed|called|termed|"
        r"by (?:\w+ly\s+)?\w+ing|to (?!the\b|a\b|an\b|this\b|these\b|their\b|its\b|our\b|new\b|unseen\b|downstream\b|\d))\b)",
        re.IGNORECASE,
    )
)
# Finite verbs end the subject of an opening sentence ("Recent work has shown ...").
_FINITE_VERB = Caseless(re.compile(rf"\s(?:{lexicon.alternation('subject_end_verbs')})\b", re.IGNORECASE))
_LEADING_FILLER = re.compile(
    r"^(?:(?:(?:novel|new|simple|general|unified|effective) and|a|an|the|this|our|new|novel|simple|first|two|three|several|some|various|numerous|most|many|all|both|each|every|particularly|highly|fully|"
    r"newly|carefully|simply|especially|very|existing|current|previous|prior|traditional|development of|use of|problem of|task of|challenge of)\s+)+",
    re.IGNORECASE,
)
_RESEARCH_VERBS = lexicon.alternation("research_verbs")
_PROPOSE_VERBS = lexicon.alternation("proposal_verbs", inflected=True)
_SUBJECT = (
    r"(?:we|this (?:paper|work|study|article|research)|our (?:work|paper|study|research)|here,? we|in this (?:paper|work),? we)"
    r"(?:\s+(?:aims?|seeks?|sets? out|attempts?|tries|try)\s+to)?"
)
_WEAK_RESEARCH = lexicon.words("weak_research_verbs")
_LIGHT_VERBS = lexicon.words("light_verbs")
_PROPOSAL = Caseless(re.compile(rf"\b{_SUBJECT}\s+(?:\w+ly\s+)?(?:{_PROPOSE_VERBS})\s+(.*)", re.IGNORECASE))
_RESEARCH = Caseless(re.compile(rf"\b{_SUBJECT}\s+(?:\w+ly\s+)?({_RESEARCH_VERBS})\s+(?:that\s+)?(.*)", re.IGNORECASE))


# Participles that need the phrase they govern ('tailored [for X]'): never a title's last word.
_DANGLING = lexicon.words("dangling_participles")
_LIST_CONTINUES = re.compile(r",\s*(?:[\w-]+\s+){0,2}[\w-]+,?\s+(?:and|or)\s+")


def clip_phrase(phrase: str, max_words: int = MAX_TITLE_WORDS) -> str:
    """The phrase up to its first clause boundary, at most max_words, not ending on a function word.
    A comma that opens a list ('utility, time, and space complexity') is not a boundary."""
    position = 0
    while True:
        match = _BOUNDARY.search(phrase, position)
        if not match:
            break
        listed = _LIST_CONTINUES.match(phrase, match.start()) if phrase[match.start() :].lstrip().startswith(",") else None
        if listed:
            position = listed.end()
            continue
        phrase = phrase[: match.start()]
        break
    words = phrase.split()
    if len(words) > max_words:
        # Cut before the last prepositional phrase that fits, not inside a noun phrase.
        words = words[:max_words]
        cut = max((i for i, w in enumerate(words) if w.lower() in FUNCTION_WORDS and i >= 4), default=None)
        if cut:
            words = words[:cut]
    while words and (words[-1].lower() in FUNCTION_WORDS or words[-1].lower() in _DANGLING or words[-1] in "-–—"):
        words.pop()
    return " ".join(words).strip(" ,;:.")


def _descriptor(phrase: str) -> str:
    """'a new family of multimodal LLMs (MLLMs) designed to ...' -> 'Family of Multimodal LLMs'."""
    phrase = re.sub(r"\s*\([^()]*\)", "", phrase)  # parenthetical acronyms and asides
    clipped = clip_phrase(phrase, 12)
    return _LEADING_FILLER.sub("", clipped)


# Words that follow "we" without being its verb ("we often care", "we also show").
_NOT_VERBS = lexicon.words("not_verbs_after_we")
# Verbs too vague to state a purpose ("a method that enables ...").
_WEAK_PURPOSE = lexicon.words("weak_purpose_verbs")


def _purpose(after: str, choices: learned.Choices, generic_head: bool = False) -> str | None:
    """', to safeguard PII in LLMs' -> 'for Safeguarding PII in LLMs'; ' for X' -> 'for X'."""
    match = re.match(
        r"^[\s,]*(?:(?:method|approach|framework|model|technique)\s*,?\s*)?"
        r"(?:designed\s+|aiming\s+|aimed\s+|(?:which|that)\s+(?:seeks|aims|tries|is designed|serves)\s+)?to\s+(?:\w+ly\s+)?(\w+)\s+(.*)",
        after,
    )
    # 'to structured prediction' is 'to' before a noun phrase, not a verb: no 'Structureding'.
    if match and match.group(1).lower() not in STOP_WORDS and not _participle(match.group(1), choices):
        rest = clip_phrase(match.group(2), 7)
        if rest:
            return f"for {gerund(match.group(1))} {rest}"
    # "an agent that designs new experiments" -> "for Designing New Experiments" (generic heads only)
    match = None if not generic_head else re.match(r"^\s*,?\s*(?:that|which)\s+(?:\w+ly\s+)?([a-z]{3,}s)\s+(.*)", after)
    if match and match.group(1) not in _WEAK_PURPOSE and not match.group(1).endswith("ss"):
        rest = clip_phrase(match.group(2), 7)
        if rest:
            return f"for {gerund(match.group(1))} {rest}"
    match = re.match(
        r"^[\s,]*(?:(?:method|approach|framework|model|technique)\s*,?\s*)?"
        r"(?:(?:a|an|the)\s+(?:(?!that\b|which\b|who\b|to\b)[\w-]+\s+){0,4}?)?"
        r"(?:(?:specifically\s+)?(?:designed|tailored|built|intended|developed)\s+)?for\s+(.*)",
        after,
    )
    if match:
        rest = clip_phrase(match.group(1), 7)
        if rest:
            return f"for {rest}"
    return None


def _participle(word: str, choices: learned.Choices) -> bool:
    """'structured', 'learned': a past form, not a verb to make a gerund of ('embed' is a verb)."""
    word = word.lower()
    return word.endswith("ed") and word not in choices.verbs


def _fix_highlight_caps(phrase: str, choices: learned.Choices, common_only: bool = False) -> str:
    """'REcipe MErging DYnamics', 'Temporal knowLEdge', 'Environmental feeDback' (letters of an
    acronym highlighted) -> 'Recipe Merging Dynamics', 'Temporal Knowledge', 'Environmental
    Feedback'. An expansion spells its acronym, so every such word is mended there; elsewhere
    (`common_only`) only a word abstracts write in lower case ('feedback', not 'iTransformer')."""
    common = choices.words

    def mend(match: re.Match[str]) -> str:
        word = match.group()
        if word in GENERIC_ACRONYMS:  # 'LLaMA', 'NeRF', 'GitHub' are spelled so
            return word
        spelled = not common_only and _SPELLED_LETTERS.fullmatch(word)
        return word.lower().capitalize() if spelled or word.lower() in common else word

    return _HIGHLIGHTED.sub(mend, phrase)


# A capital after a lower-case letter ('feeDback'), or capitals before lower-case ones ('NAVIgation').
_HIGHLIGHTED = re.compile(r"\b(?:[A-Za-z]*[a-z][A-Z][A-Za-z]*|[A-Z]{2,}[a-z]{2,})\b")
# Two or more capitals inside a word ('REcipe', 'knowLEdge'): letters an acronym picks out.
_SPELLED_LETTERS = re.compile(r"[A-Z]{2,}[a-z]{2,}|[a-z]+[A-Z]{2,}[a-z]+")


# Vowel letters sounded as a consonant ('a unified', 'a one-shot', 'a European'); not the
# prefix un- ('an unintended', 'an unlearning').
_CONSONANT_SOUND = re.compile(r"(?i)(?:uni[fqvtoc]|us[aeu]|uti|ubi|eu|one\b|once\b)")


def _article(phrase: str) -> str:
    """'A ' or 'An ' by sound: 'An LLM-Based System', 'A Benchmark', 'An Agent', 'A Unified'."""
    first = phrase.split()[0] if phrase.split() else ""
    spelled = first.split("-")[0]
    if spelled.isupper():  # read letter by letter: 'an LLM', 'a GPU'
        return "An " if spelled[:1] in "AEFHILMNORSX" else "A "
    vowel_sound = first[:1].lower() in "aeiou" and not _CONSONANT_SOUND.match(first)
    return "An " if vowel_sound else "A "


@dataclass(frozen=True)
class Phrase:
    """A descriptive phrase a title could show after its name, or alone."""

    text: str
    rule: str  # the pattern that proposed it (a feature of the learned choice)
    sentence: int  # index of the abstract sentence it comes from


def name_phrases(name: IntroducedName, all_sentences: Sequence[str], choices: learned.Choices | None = None) -> list[Phrase]:
    """What the abstract says the name is: its expansion and purpose, an appositive
    ('X, a fully functional Android environment'), the proposal it names, its purpose."""
    choices = choices or learned.Choices.shipped()
    sentence = name.sentence
    index = all_sentences.index(sentence) if sentence in all_sentences else 0
    position = sentence.find(name.name)
    after = sentence[position + len(name.name) :] if position >= 0 else ""
    after = re.sub(r"^\s*\)", "", after)
    found = []
    if name.expansion:
        expansion = title_case(_fix_highlight_caps(name.expansion, choices))
        purpose = _purpose(after, choices)
        if purpose:
            found.append(Phrase(f"{expansion} {title_case(purpose, first=False)}", "expansion-purpose", index))
        found.append(Phrase(expansion, "expansion", index))
    # "X, a fully functional Android environment that ..." / "X is a benchmark for ..."
    appositive = re.match(r"^\s*(?:,|:|is|—|–)\s*((?:a|an|the)\s+.*)", after)
    if appositive:
        descriptor = _extend(_descriptor(appositive.group(1)), appositive.group(1), sentence, choices)
        if len(descriptor.split()) >= 2:
            article = _article(descriptor) if re.match(r"(?i)an?\s", appositive.group(1)) else ""
            found.append(Phrase(f"{article}{title_case(descriptor)}", "appositive", index))
    # "a new Sparse Autoencoder (SAE) for the CLIP vision transformer, named PatchSAE"
    before = sentence[:position] if position > 0 else ""
    proposal = _PROPOSAL.search(before)
    if proposal:
        descriptor = _descriptor(proposal.group(1))
        if len(descriptor.split()) >= 2:
            found.append(Phrase(title_case(descriptor), "before-name", index))
    purpose = _purpose(after, choices, generic_head=True)
    if purpose:
        found.append(Phrase(title_case(sentence_case(purpose.removeprefix("for "))), "name-purpose", index))
    return found


def contribution_phrases(text: str, choices: learned.Choices | None = None) -> list[Phrase]:
    """Noun phrases of what the abstract contributes, from every sentence that states it:
    "we propose X" -> X; "we study X" -> "Studying X"; the subject of an opening sentence."""
    choices = choices or learned.Choices.shipped()
    all_sentences = sentences(text)
    found: list[Phrase] = []
    for index, sentence in enumerate(all_sentences):
        lowered = sentence.lower()
        if not _MAY_STATE.search(sentence, lowered=lowered):
            if index < 3:
                _add_subject(found, sentence, index, choices)
            continue
        # The patterns with a subject need 'we', 'this' or 'our' somewhere: a cheap test first.
        has_subject = "we" in lowered or "this" in lowered or "our" in lowered
        match = _PROPOSAL.search(sentence, lowered=lowered) if has_subject else None
        if match:
            descriptor = _descriptor(match.group(1))
            appositive = _APPOSITIVE.match(match.group(1))
            if len(descriptor.split()) < 2 and appositive:  # "we present Emu, a multimodal foundation model"
                descriptor = _descriptor(appositive.group(1))
            if len(descriptor.split()) >= 2:
                extended = _extend(descriptor, match.group(1), text, choices)
                found.append(Phrase(title_case(sentence_case(extended)), "proposal", index))
                if descriptor != extended:
                    found.append(Phrase(title_case(sentence_case(descriptor)), "proposal-bare", index))
        match = _RESEARCH.search(sentence, lowered=lowered) if has_subject else None
        if match and _is_object(match.group(2)):
            object_phrase = _descriptor(match.group(2))
            if len(object_phrase.split()) >= 2:
                verb = match.group(1).split()[-1]
                if verb.lower() not in _WEAK_RESEARCH:
                    found.append(Phrase(title_case(f"{gerund(verb).capitalize()} {object_phrase}"), "research-gerund", index))
                found.append(Phrase(title_case(sentence_case(object_phrase)), "research-object", index))
        # A contribution verb without "we" right before it ("..., and present X").
        match = _AND_PROPOSE.search(sentence, lowered=lowered)
        if match:
            descriptor = _descriptor(match.group(1))
            if len(descriptor.split()) >= 2:
                found.append(Phrase(title_case(sentence_case(descriptor)), "and-propose", index))
        # Any "we VERB X" ("we find a simple fix ...").
        match = _WE_VERB.search(sentence) if "we" in sentence else None
        # A past tense makes no gerund ('we proposed X' is no 'Proposeding X').
        if (
            match
            and _is_object(match.group(2))
            and match.group(1) not in FUNCTION_WORDS | _NOT_VERBS | _LIGHT_VERBS
            and not _participle(match.group(1), choices)
        ):
            object_phrase = _descriptor(match.group(2))
            if len(object_phrase.split()) >= 2:
                found.append(Phrase(title_case(f"{gerund(match.group(1)).capitalize()} {object_phrase}"), "we-verb", index))
        if index < 3:
            _add_subject(found, sentence, index, choices)
    return found


_AND_PROPOSE = Caseless(re.compile(rf"\b(?:and|,)\s+(?:{_PROPOSE_VERBS})\s+(.*)", re.IGNORECASE))
_WE_VERB = re.compile(r"\bwe\s+(?:\w+ly\s+)?([a-z]{3,})\s+(.*)")
_APPOSITIVE = re.compile(r"^[^,]{1,40},\s*((?:a|an|the)\s+.*)")
# Every pattern above needs one of these words: other sentences are skipped (most of an abstract).
_MAY_STATE = Caseless(re.compile(rf"(?i)\b(?:we|this|our|and)\b|,\s*{_PROPOSE_VERBS}\b"))


def _is_object(phrase: str) -> bool:
    """What follows the verb names its object: not a word that refers back ('we address these
    challenges') nor 'as' ('a scheme we formalize as myopic training': the object came before)."""
    return not _ANAPHORA.match(phrase) and not _AS_START.match(phrase)


_AS_START = re.compile(r"(?i)as\b")


def _add_subject(found: list[Phrase], sentence: str, index: int, choices: learned.Choices) -> None:
    """The subject of an opening sentence, up to its verb ("Long-Context Understanding"), when
    it is a phrase and not a pronoun ("We find", "There", "Recently")."""
    subject = _subject(sentence, choices)
    if len(subject.split()) >= 2:
        found.append(Phrase(title_case(sentence_case(subject)), "subject", index))


def descriptor_candidates(
    text: str, names: Sequence[IntroducedName], choices: learned.Choices | None = None, phrases: CandidatePhrases | None = None
) -> list[Phrase]:
    """Every descriptive phrase the rules propose, each text once (first proposal kept);
    `choices`: the verb and word lists they read (None: the shipped ones); `phrases`: the
    abstract's noun phrases (tagging.candidate_phrases) where the caller has them."""
    choices = choices or learned.Choices.shipped()
    phrases = candidate_phrases(text) if phrases is None else phrases
    all_sentences = sentences(text)
    described = [n for n in names if n.rule != MENTIONED][:MAX_NAMES_DESCRIBED]
    proposed = [p for name in described for p in name_phrases(name, all_sentences, choices)] + contribution_phrases(text, choices)
    # "Method for Topic", the commonest title shape: what is proposed, for the subject the
    # abstract opens with ('Sparse Autoencoder for Vision-Language Models').
    topic = next((p for p in proposed if p.rule == "subject"), None)
    if topic:
        proposed += [
            Phrase(f"{p.text} for {topic.text}", f"{p.rule}+topic", p.sentence)
            for p in proposed
            if p.rule in _METHOD_RULES and " for " not in f" {p.text.lower()} " and topic.text.lower() not in p.text.lower()
        ]
    proposed += _keyphrase_pair(text, choices, phrases)
    found: dict[str, Phrase] = {}  # by lower-case text: each phrase once, first proposal kept
    for phrase in proposed:
        if phrase.rule == "subject" and len(phrase.text.split()) < MIN_TOPIC_WORDS:
            continue  # 'Large Language Models' alone names a field, not a paper (it joins others above)
        tidy = _tidy(_fix_highlight_caps(phrase.text, choices, common_only=True))
        if tidy and tidy.lower() not in found:
            found[tidy.lower()] = Phrase(tidy, phrase.rule, phrase.sentence)
    return list(found.values())


def _keyphrase_pair(text: str, choices: learned.Choices, phrases: CandidatePhrases) -> list[Phrase]:
    """Titles from the abstract's own noun phrases, most repeated first: the two that share no
    word ('Reinforcement Learning and Linear Mixture MDPs') and the longest single ones. They
    serve abstracts whose sentences give no phrase that passes the gate."""
    # Runs of content words can hold a verb ('... and Learn Tree-Structured Networks'): not a term.
    lowered = text.lower()
    ranked = list(
        islice(
            (p for p in _by_frequency(phrases) if not any(is_verb(w, choices) for w in p[0].split()) and not _verb_ends(p[1], lowered)), 8
        )
    )
    # A run of words said twice is a term; said once it may be a clause ('Intelligent Agents Face').
    found = [
        Phrase(title_case(sentence_case(spelling)), "keyphrase", 0)
        for key, spelling, count in ranked
        if count >= 2 and len(key.split()) >= 3
    ][:2]
    # A run said once may be a clause: a plural noun, then its verb ('Humans Rank Content').
    terms = [p for p in ranked if p[2] >= 2 or not _plural_then_verb(p[1].split())]
    found += _joined_terms(text, lowered, terms)
    # Two topics the abstract returns to; a pair with a term said once (only mentioned) is the
    # last resort of all (`_pairs_last`).
    return found + _pair(terms)


def _pair(terms: list[tuple[str, str, int]]) -> list[Phrase]:
    """The first two terms that share no word, of the repeated ones (said twice or more) if any
    two are so, else of all."""
    repeated = [term for term in terms if term[2] >= 2]
    for candidates, rule in ((repeated, "keyphrases"), (terms, "keyphrases-mentioned")):
        for index, (key, first, _) in enumerate(candidates):
            for other_key, second, _ in candidates[index + 1 :]:
                if not set(key.split()) & set(other_key.split()):
                    return [Phrase(title_case(sentence_case(f"{first} and {second}")), rule, 0)]
    return []


_JOINING = re.compile(r"\s+(?:for|of|in|on|with|via|from|under|using|through|by|to|against|without)\s+(?:(?:the|a|an)\s+)?")
MAX_JOINED_TERMS = 8  # the most repeated terms looked for joined in the abstract


def _joined_terms(text: str, lowered: str, terms: list[tuple[str, str, int]]) -> list[Phrase]:
    """Two of the abstract's most repeated terms as the abstract itself joins them ('Stability
    Analysis of Zeroth-Order Optimization Algorithms'): what a pair of topics leaves unsaid."""
    top = [(set(key.split()), spelling.lower()) for key, spelling, _ in terms[:MAX_JOINED_TERMS]]
    found: list[Phrase] = []
    for words, first in top:
        for start in whole_word_positions(first, lowered):
            joiner = _JOINING.match(lowered, start + len(first))
            if joiner:
                after = joiner.end()
                second = next(
                    (s for w, s in top if not w & words and lowered.startswith(s, after) and is_whole_word(lowered, after, after + len(s))),
                    None,
                )
                if second:
                    found.append(Phrase(title_case(sentence_case(text[start : after + len(second)])), "keyphrases-joined", 0))
            if len(found) == 2:
                return found
    return found


def _plural_then_verb(words: list[str]) -> bool:
    """'Humans Rank', 'Transformers Prepare': a plural noun followed by a base form reads as
    subject and verb (noun compounds rarely have a plural first part)."""
    lowered = [w.lower() for w in words]
    return any(third_person(a) and not third_person(b) and b.isalpha() for a, b in zip(lowered, lowered[1:]))


_DETERMINERS = frozenset({"a", "an", "the", "this", "these", "those", "its", "their", "our"})


def _verb_ends(spelling: str, lowered_text: str) -> bool:
    """A run of words followed by a determiner ends on a verb ('user engagement behaviors
    mirror [this pattern]'): a noun phrase would not go straight on to another one."""
    phrase = spelling.lower() + " "
    start = lowered_text.find(phrase)
    while start >= 0:
        following = lowered_text[start + len(phrase) :].split(" ", 1)[0]
        if following in _DETERMINERS:
            return True
        start = lowered_text.find(phrase, start + 1)
    return False


def _by_frequency(phrases: CandidatePhrases) -> list[tuple[str, str, int]]:
    """The abstract's noun phrases (tagging.candidate_phrases), most repeated (then longest) first."""
    return sorted(phrases, key=lambda p: (-p[2], -p[0].count(" ")))  # keys are words joined by one space


_METHOD_RULES = frozenset({"proposal", "proposal-bare", "expansion", "appositive", "before-name"})


_NOT_A_SUBJECT = lexicon.words("not_a_subject")


def _subject(sentence: str, choices: learned.Choices) -> str:
    sentence = re.sub(r"^(?:(?:In|With|Despite|Although|While|As)\b[^,]{0,80}|\w+ly),\s*", "", sentence)
    sentence = re.sub(r"^(?i:we|this (?:paper|work)) \w+ that ", "", sentence)  # 'We find that X ...': X's subject
    if sentence.split(" ", 1)[0].lower() in _NOT_A_SUBJECT:  # 'This approach ...' refers back
        return ""
    verb = _FINITE_VERB.search(sentence)
    subject = _before_verb(sentence[: verb.start()] if verb else sentence, choices)
    phrase = _descriptor(subject)
    return "" if not phrase or phrase.split()[0].lower() in _NOT_A_SUBJECT else phrase


def _before_verb(text: str, choices: learned.Choices) -> str:
    """The words before the first one the corpora use mostly as a verb ('Large language models
    often fail to ...' -> 'Large language models'); adverbs end a subject too."""
    words = text.split()
    bare = [w.strip(",;:()") for w in words]
    for index in range(1, len(words)):
        if verb_at(bare, index, choices) or is_adverb(bare[index]):
            return " ".join(words[:index])
    return text


# "we address these challenges": the object refers back, it does not name the topic.
_ANAPHORA = re.compile(
    r"(?i)(?:this|these|those|such|that|it|its|their|them|our|the (?:above|aforementioned|problem|challenge|issue|limitation|gap)s?)\b(?! of\b)"
)
_GENERIC_HEADS = lexicon.words("generic_heads")


def _extend(descriptor: str, full: str, text: str, choices: learned.Choices) -> str:
    """Short, generic descriptors gain their purpose or topic:
    'Efficient Adaptation Framework' -> '... for Continual Panoptic Segmentation'."""
    words = descriptor.split()
    if not words or len(words) >= 5 or " for " in f" {descriptor} ":
        return descriptor
    last = words[-1]
    generic = len(words) <= 2 or last.lower() in _GENERIC_HEADS
    if generic:
        topic, short = _defined_topic(full, text)
        # 'LLMs Agent for Large Language Models' says the topic twice.
        if topic and short.rstrip("s") not in {w.rstrip("s") for w in words}:
            return f"{descriptor} for {topic}"
    purpose = _purpose(full[full.lower().find(last.lower()) + len(last) :], choices, generic_head=generic)
    return f"{descriptor} {purpose}" if purpose else descriptor


_ACRONYM_IN_PARENTHESES = re.compile(r"\s+\([A-Z][A-Za-z0-9-]{1,8}\)")
_TOPIC_WORD = re.compile(r"[A-Za-z][\w-]+")


def _defined_topic(full: str, text: str) -> tuple[str | None, str]:
    """The topic the abstract defined just before the contribution: the latest 'long form (ACRONYM)',
    and the acronym."""
    before = text[: text.find(full)] if full in text else text
    # The last '(ACRONYM)' with two to five words before it (found from the parenthesis: a
    # pattern of words first backtracks through the whole text).
    topic, acronym = None, ""
    for short in _ACRONYM_IN_PARENTHESES.finditer(before):
        preceding: list[str] = []
        for word in reversed(before[max(0, short.start() - 120) : short.start()].split()[-5:]):
            if not _TOPIC_WORD.fullmatch(word):
                break
            preceding.insert(0, word)
        if len(preceding) >= 2:
            topic, acronym = " ".join(preceding), short.group().strip(" ()")
    if not topic:
        return None, ""
    words = topic.split(" of ")[-1].split()
    while words and (
        words[0].lower() in FUNCTION_WORDS or _LEADING_FILLER.match(words[0] + " ") or words[0].endswith("ing") or is_adverb(words[0])
    ):
        words = words[1:]
    return (" ".join(words), acronym) if len(words) >= 2 else (None, "")


def choose_name(names: Sequence[IntroducedName], text: str, choices: learned.Choices | None = None) -> tuple[IntroducedName | None, bool]:
    """The name the title shows and whether it leads ('Name: phrase') or follows ('phrase
    (Name)'): the rules' most explicit candidate. It leads where the learned lead model finds
    the real title likely to lead with it (`lead_threshold`: the best F1 of leading at a
    precision of at least 0.75 on the training venues); else it follows the phrase when the
    name model finds it likely enough to be in the real title (`name_threshold`).
    (Letting the model pick any candidate measured no better and swapped coined names for
    concept acronyms: 'ZSAD: Zero-Shot Anomaly Detection' for AnomalyCLIP.)"""
    model = choices or learned.Choices.shipped()
    first = introduced(names, model)
    if first is None:
        return None, False
    features = name_features(first, 0, text, sentences(text), " ".join(markup.URL.findall(text)))
    if model.lead.probability(features) >= model.lead_threshold:
        return first, True
    return (first, False) if model.name.probability(features) >= model.name_threshold else (None, False)


def rank_phrases(phrases: Sequence[Phrase], text: str, choices: learned.Choices | None = None) -> list[Phrase]:
    """Phrases by how much of a real title they are expected to recover (learned), best first."""
    model = choices or learned.Choices.shipped()
    counts = word_counts(text)
    scores = [model.phrase.score(phrase_features(p.text, p.rule, p.sentence, counts, model.titleness)) for p in phrases]
    order = sorted(range(len(phrases)), key=lambda i: (-scores[i], i))
    return [phrases[i] for i in order]


def compose(name: IntroducedName | None, phrase: Phrase, lead: bool = True) -> str:
    if not name:
        return phrase.text
    return f"{name.name}: {phrase.text}" if lead else f"{phrase.text} ({name.name})"


def derive_title(
    text: str, names: Sequence[IntroducedName], choices: learned.Choices | None = None, candidates: CandidatePhrases | None = None
) -> tuple[IntroducedName | None, str]:
    """The chosen name (or None) and the title: the best-ranked phrase that passes the gate;
    `choices`: the learned models and word lists (None: the shipped ones); `candidates`: the
    abstract's noun phrases (tagging.candidate_phrases), which its tags and key phrases read
    too, where the caller has them."""
    choices = choices or learned.Choices.shipped()
    candidates = candidate_phrases(text) if candidates is None else candidates
    chosen, leads = choose_name(names, text, choices)
    phrases = _pairs_last(rank_phrases(descriptor_candidates(text, names, choices, candidates), text, choices))
    # When no phrase passes the gate without a name, the abstract's first name follows one (the
    # model's choice is never overruled into leading).
    first = introduced(names, choices)
    attempts = [(chosen, leads)] + ([(first, False)] if chosen is None and first else [])
    for name, lead in attempts:
        # Without a name, a phrase ending on a name reads as a name tacked on ('... Framework Dynamic-LLaVA').
        unled = {n.name for n in names} if not name else set()
        for phrase in phrases:
            if phrase.text.rsplit(" ", 1)[-1] in unled or (name and not lead and name.name in phrase.text):
                continue
            title = compose(name, phrase, lead)
            if not title_defects(title, name.name if name else None, choices):
                return name, title
    # Last resort: any noun phrase of the abstract that passes, most repeated first (with the
    # abstract's name after it); then the name alone; else the best phrase all the same
    # (`evaluate` counts the defects that remain).
    name = chosen or first
    for key, spelling, _ in _by_frequency(candidates):
        phrase = Phrase(_tidy(title_case(sentence_case(spelling))), "keyphrase", 0)
        if len(key.split()) < 3 or (name and name.name in phrase.text):
            continue
        title = compose(name, phrase, lead=False)
        if not title_defects(title, name.name if name else None, choices):
            return name, title
    if name and not title_defects(name.name, name.name, choices):
        return name, name.name
    return None, _tidy(phrases[0].text if phrases else title_case(" ".join(text.split()[:8])))


# Phrases that say what a paper does: a pair of topics gives way to the best of the rest when
# one of these rules proposed it (decision 0029).
_DISPLACE_PAIRS = _METHOD_RULES | {"keyphrases-joined"}


def _pairs_last(ranked: list[Phrase]) -> list[Phrase]:
    """A pair of topics ('Dynamical Systems and Latent States') says what a paper is near, not
    what it does: it gives way when the best of the other phrases states what the paper
    proposes ('Proactive Privacy Amnesia for Safeguarding PII') or joins two of its terms as
    the abstract does ('Stability Analysis of Zeroth-Order Optimization Algorithms'). Other
    phrases do not displace it: read blind, they were more often wrong than the pair was vague."""
    mentioned = [p for p in ranked if p.rule == "keyphrases-mentioned"]
    ranked = [p for p in ranked if p.rule != "keyphrases-mentioned"]
    others = [p for p in ranked if not topic_pair(p)]
    if not others or others[0].rule.split("+")[0] not in _DISPLACE_PAIRS:
        return ranked + mentioned
    return others + [p for p in ranked if topic_pair(p)] + mentioned


MAX_PAIR_WORDS = 9  # a shorter phrase joined by "and" is a pair of topics


def topic_pair(phrase: Phrase) -> bool:
    """'Dynamical Systems and Latent States': two topics joined, or any short phrase so joined."""
    return phrase.rule in ("keyphrases", "keyphrases-mentioned") or and_pair(phrase.text)


def and_pair(text: str) -> bool:
    """A short "X and Y" text (at most MAX_PAIR_WORDS words): the shape of a pair of topics,
    which says what a paper is near, not what it does."""
    return len(text.split()) <= MAX_PAIR_WORDS and " and " in f" {text.lower()} "


def _tidy(title: str) -> str:
    title = re.sub(r"\s+", " ", title).strip(" ,;:.")
    first = title.split(" ", 1)[0]
    return title if is_mixed_case(first) else title[:1].upper() + title[1:]  # 'iTransformer' stays


# --- Summary --------------------------------------------------------------------------

_LEAD_IN = re.compile(
    r"^(?:(?:in|to) (?:this|these|that) (?:paper|work|study|end|regard|challenges?|limitations?|issues?|gaps?|problems?)|"
    r"to (?:address|overcome|tackle|bridge|fill|solve|mitigate|remedy|resolve) (?:this|these|that|the)\b[^,]*|specifically|here|"
    r"in response|motivated by[^,]*|inspired by[^,]*|building on[^,]*|to this end|as a result|therefore|thus|hence|however|"
    r"in particular|concretely|accordingly|additionally|furthermore|moreover|finally)\s*,\s*",
    re.IGNORECASE,
)


def derive_summary(text: str, choices: learned.Choices | None = None) -> str:
    """One whole sentence of at most 200 characters that states what the paper does: the
    abstract's sentences ranked by a model learned from author TL;DRs (background and
    motivation lose), the best that fits with balanced brackets."""
    all_sentences = sentences(text)
    if not all_sentences:
        return text[:MAX_SUMMARY_CHARS]
    model = choices or learned.Choices.shipped()
    table = SentenceFeatures(all_sentences, model.titleness)
    # Sentences that say what the paper does ('we ...', a contribution, study or result) come
    # before background and motivation, whatever their score; the model orders each group.
    # Only the first MAX_SUMMARY_TRIED are tried: when that many say what the paper does, the
    # others are not scored.
    works = [_states_the_work(sentence, cues) for sentence, cues in zip(all_sentences, table.cues)]
    chosen = [i for i, work in enumerate(works) if work]
    if len(chosen) < MAX_SUMMARY_TRIED:
        chosen = list(range(len(all_sentences)))
    scores = {i: model.sentence.score(table.row(i)) for i in chosen}
    ranked = sorted(chosen, key=lambda i: (not works[i], -scores[i], i))
    # The best sentence that fits whole (or cut at a clause), before any cut with "…".
    candidates = [sentence_case(_LEAD_IN.sub("", _LEAD_IN.sub("", all_sentences[i]))) for i in ranked[:MAX_SUMMARY_TRIED]]
    for candidate in candidates:
        short = _shorten(candidate, allow_ellipsis=False)
        if short and _balanced(short):
            return short
    return cast(str, _shorten(candidates[0]))  # with an ellipsis: never None


_WE_EARLY = re.compile(r"^(?:\S+\s+){0,4}(?:we|our)\b", re.IGNORECASE)


def _states_the_work(sentence: str, features: dict[str, float]) -> bool:
    """The sentence says what the paper does: a contribution or study ('we propose', 'we
    show'), 'we'/'our' as its subject, or a result that is not background."""
    return bool(
        features["cue_contribution"]
        or features["cue_study"]
        or _WE_EARLY.match(_LEAD_IN.sub("", sentence))
        or (features["cue_result"] and not features["cue_background"])
    )


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")") and text.count("[") == text.count("]") and text.count('"') % 2 == 0


# Where a long sentence may end early and stay a sentence: 'We propose X[, which ...]',
# 'We propose X[ by leveraging Y]', 'We study X[ and show that ...]'.
_CLAUSE_CUT = re.compile(r",\s|;\s|\s(?:which|that|where|while|whereas|thereby|by|using|via|through|and|as|to)\s")


def _shorten(sentence: str, allow_ellipsis: bool = True) -> str | None:
    sentence = sentence.rstrip()
    if len(sentence) <= MAX_SUMMARY_CHARS:
        return sentence if sentence.endswith((".", "!", "?")) else sentence + "."
    sentence = re.sub(r"\s*\([^()]{0,80}\)", "", sentence)  # asides first
    if len(sentence) <= MAX_SUMMARY_CHARS:
        return sentence if sentence.endswith((".", "!", "?")) else sentence + "."
    # Cut at the last clause boundary that fits, never inside a word.
    cut_points = [m.start() for m in _CLAUSE_CUT.finditer(sentence)]
    fitting = [p for p in cut_points if 60 <= p <= MAX_SUMMARY_CHARS - 1]
    if fitting:
        return sentence[: fitting[-1]].rstrip(" ,;") + "."
    if not allow_ellipsis:
        return None
    words = sentence[: MAX_SUMMARY_CHARS - 1].rsplit(" ", 1)[0]
    return words.rstrip(" ,;") + "…"
