"""Derive a paper title and a one-sentence summary from its abstract.

Titles lead with the introduced name and its expansion or purpose
("PPA: Proactive Privacy Amnesia for Safeguarding PII in LLMs"); without a name
they are the noun phrase of the contribution ("Robust Noisy Gradient Descent for
Machine Unlearning") or its verb as a gerund ("Exploring LLMs for Music
Pre-Training"). Phrases end at clause boundaries, never mid-word.
"""

from __future__ import annotations

import re

from .names import IntroducedName
from .textutil import STOP_WORDS, gerund, is_mixed_case, sentence_case, sentences, title_case

MAX_TITLE_WORDS = 14

# Words a title phrase must not end on.
FUNCTION_WORDS = frozenset(
    "a an the and or nor but for of in on at to by with via from as into onto over per than up using based "
    "towards toward through across between among within without under our their its this that these those "
    "which who whose we it is are be been being was were has have had can could may might will would should "
    "such both each all any some more most less very also".split()
)
MAX_SUMMARY_CHARS = 200

# Where a descriptive phrase stops: the start of a relative or adverbial clause.
_BOUNDARY = re.compile(
    r"\s*(?:[,;:(]|\s[-–—]\s|\bvs\.|\.\s|\.$|\b(?:that|which|where|while|whereby|who|whose|designed|aimed|aiming|"
    r"allowing|enabling|achieving|leading|resulting|thereby|thus|in order|so that|capable|"
    r"consisting|specifically|such as|including|based on|built on|as well as|than|and then|"
    r"as long as|if|when|because|since|unless|even|without|despite|named|dubbed|called|termed|"
    r"by \w+ing|to (?!the\b|a\b|an\b|this\b|these\b|their\b|its\b|our\b|new\b|unseen\b|downstream\b|\d))\b)",
    re.IGNORECASE,
)
# Finite verbs end the subject of an opening sentence ("Recent work has shown ...").
_FINITE_VERB = re.compile(
    r"\s(?:is|are|was|were|has|have|had|can|could|may|might|will|would|should|must|remains?|requires?|"
    r"relies|rely|suffers?|struggles?|lacks?|faces?|poses?|becomes?|plays?|shows?|demonstrates?|enables?|"
    r"allows?|achieves?|provides?|offers?|uncovers?|reveals?|aims?|seeks?|tends?|continues?|emerged?)\b",
    re.IGNORECASE,
)
_LEADING_FILLER = re.compile(
    r"^(?:(?:(?:novel|new|simple|general|unified|effective) and|a|an|the|this|our|new|novel|simple|first|two|three|several|particularly|highly|fully|"
    r"newly|carefully|simply|especially|very|existing|current|previous|prior|traditional|development of|use of|problem of|task of|challenge of)\s+)+",
    re.IGNORECASE,
)
_RESEARCH_VERBS = (
    "study|studies|analyze|analyzes|analyse|analyses|investigate|investigates|explore|explores|examine|"
    "examines|revisit|revisits|characterize|characterizes|tackle|tackles|address|addresses|consider|considers|"
    "focus|focuses|evaluate|evaluates|benchmark|benchmarks|demonstrate|demonstrates|identify|identifies|"
    "theoretically analyze|provide|provides|show|shows|prove|proves|derive|derives|extend|extends|leverage|leverages|"
    "improve|improves|learn|learns|train|trains|quantify|quantifies|formalize|formalizes|uncover|uncovers|"
    "measure|measures|model|models|scale|scales|rethink|rethinks|unify|unifies|establish|establishes"
)
_PROPOSE_VERBS = (
    "propose|proposes|proposed|present|presents|presented|introduce|introduces|introduced|develop|develops|"
    "developed|design|designs|designed|build|builds|built|create|creates|created|release|releases|construct|"
    "constructs|constructed|curate|curates|curated|offer|offers|contribute|contributes|devise|devises|devised|"
    "put forward|describe|describes"
)
_SUBJECT = (
    r"(?:we|this (?:paper|work|study|article)|our (?:work|paper|study)|here,? we|in this (?:paper|work),? we)"
    r"(?:\s+(?:aim|seek|set out|attempt|try)\s+to)?"
)
_WEAK_RESEARCH = {"show", "shows", "demonstrate", "demonstrates", "prove", "proves", "provide", "provides"}
_PROPOSAL = re.compile(rf"\b{_SUBJECT}\s+(?:\w+ly\s+)?(?:{_PROPOSE_VERBS})\s+(.*)", re.IGNORECASE)
_RESEARCH = re.compile(rf"\b{_SUBJECT}\s+(?:\w+ly\s+)?({_RESEARCH_VERBS})\s+(?:that\s+)?(.*)", re.IGNORECASE)


# Participles that need the phrase they govern ('tailored [for X]'): never a title's last word.
_DANGLING = frozenset("tailored designed built trained based used applied specialized dedicated optimized called named".split())
_LIST_CONTINUES = re.compile(r",\s*(?:[\w-]+\s+){0,2}[\w-]+,?\s+(?:and|or)\s+")


def clip_phrase(phrase: str, max_words: int = MAX_TITLE_WORDS) -> str:
    """The phrase up to its first clause boundary, at most max_words, not ending on a function word.
    A comma that opens a list ('utility, time, and space complexity') is not a boundary."""
    position = 0
    while True:
        match = _BOUNDARY.search(phrase, position)
        if not match:
            break
        listed = _LIST_CONTINUES.match(phrase, match.start()) if phrase[match.start():].lstrip().startswith(",") else None
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
_NOT_VERBS = frozenset("often also further then first still now thus here therefore additionally usually typically finally".split())
# Verbs too vague to state a purpose ("a method that enables ...").
_WEAK_PURPOSE = frozenset("is has was does enables allows achieves makes yields shows leverages uses provides offers outperforms".split())


def _purpose(after: str, generic_head: bool = False) -> str | None:
    """', to safeguard PII in LLMs' -> 'for Safeguarding PII in LLMs'; ' for X' -> 'for X'."""
    match = re.match(
        r"^[\s,]*(?:(?:method|approach|framework|model|technique)\s*,?\s*)?"
        r"(?:designed\s+|aiming\s+|aimed\s+|(?:which|that)\s+(?:seeks|aims|tries|is designed|serves)\s+)?to\s+(?:\w+ly\s+)?(\w+)\s+(.*)",
        after,
    )
    if match and match.group(1).lower() not in STOP_WORDS:
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


def _fix_highlight_caps(phrase: str) -> str:
    """'REcipe MErging DYnamics' (LaTeX letter highlights) -> 'Recipe Merging Dynamics'."""
    return re.sub(r"\b([A-Z]{2,})([a-z]{2,})\b", lambda m: m.group(1).capitalize() + m.group(2), phrase)


def _article(phrase: str) -> str:
    """'A ' or 'An ' by sound: 'An LLM-Based System', 'A Benchmark', 'An Agent'."""
    first = phrase.split()[0] if phrase.split() else ""
    spelled = first.split("-")[0]
    vowel_sound = first[:1].lower() in "aeiou" or (spelled.isupper() and spelled[:1] in "AEFHILMNORSX")
    return "An " if vowel_sound else "A "


def named_title(name: IntroducedName) -> str | None:
    sentence = name.sentence
    position = sentence.find(name.name)
    after = sentence[position + len(name.name) :] if position >= 0 else ""
    after = re.sub(r"^\s*\)", "", after)
    if name.expansion:
        expansion = title_case(_fix_highlight_caps(name.expansion))
        purpose = _purpose(after)
        return f"{name.name}: {expansion} {title_case(purpose, first=False)}" if purpose else f"{name.name}: {expansion}"
    # "X, a fully functional Android environment that ..." / "X is a benchmark for ..."
    appositive = re.match(r"^\s*(?:,|:|is|—|–)\s*((?:a|an|the)\s+.*)", after)
    if appositive:
        descriptor = _extend(_descriptor(appositive.group(1)), appositive.group(1), sentence)
        if len(descriptor.split()) >= 2:
            article = _article(descriptor) if re.match(r"(?i)an?\s", appositive.group(1)) else ""
            return f"{name.name}: {article}{title_case(descriptor)}"
    # "a new Sparse Autoencoder (SAE) for the CLIP vision transformer, named PatchSAE"
    before = sentence[:position] if position > 0 else ""
    proposal = _PROPOSAL.search(before)
    if proposal:
        descriptor = _descriptor(proposal.group(1))
        if len(descriptor.split()) >= 2:
            return f"{name.name}: {title_case(descriptor)}"
    purpose = _purpose(after, generic_head=True)
    if purpose:
        return f"{name.name}: {title_case(sentence_case(purpose.removeprefix('for ')))}"
    return None


def contribution_title(text: str) -> str:
    """A concise noun phrase of the contribution, for abstracts that name nothing."""
    all_sentences = sentences(text)
    # Pass 1, in reading order: "we propose X" -> X; "we study X" -> "Studying X".
    for index, sentence in enumerate(all_sentences):
        match = _PROPOSAL.search(sentence)
        if match:
            descriptor = _descriptor(match.group(1))
            appositive = re.match(r"^[^,]{1,40},\s*((?:a|an|the)\s+.*)", match.group(1))
            if len(descriptor.split()) < 2 and appositive:  # "we present Emu, a multimodal foundation model"
                descriptor = _descriptor(appositive.group(1))
            if len(descriptor.split()) >= 2:
                return title_case(sentence_case(_extend(descriptor, match.group(1), text)))
        match = _RESEARCH.search(sentence)
        if match and match.group(1).split()[-1].lower() not in _WEAK_RESEARCH and not _ANAPHORA.match(match.group(2)):
            object_phrase = _descriptor(match.group(2))
            if len(object_phrase.split()) >= 2:
                return title_case(f"{gerund(match.group(1).split()[-1]).capitalize()} {object_phrase}")
    # Pass 2: what the abstract shows or provides.
    for sentence in all_sentences:
        match = _RESEARCH.search(sentence)
        if match and not _ANAPHORA.match(match.group(2)):
            object_phrase = _descriptor(match.group(2))
            if len(object_phrase.split()) >= 2:
                return title_case(sentence_case(object_phrase))
    # Pass 3: a contribution verb without "we" right before it ("..., and present X").
    for sentence in all_sentences:
        match = re.search(rf"\b(?:and|,)\s+(?:{_PROPOSE_VERBS})\s+(.*)", sentence, re.IGNORECASE)
        if match:
            descriptor = _descriptor(match.group(1))
            if len(descriptor.split()) >= 2:
                return title_case(sentence_case(descriptor))
    # Pass 4: any "we VERB X" ("we find a simple fix ...").
    for sentence in all_sentences:
        match = re.search(r"\bwe\s+(?:\w+ly\s+)?([a-z]{3,})\s+(.*)", sentence)
        if match and not _ANAPHORA.match(match.group(2)) and match.group(1) not in FUNCTION_WORDS | _NOT_VERBS:
            object_phrase = _descriptor(match.group(2))
            if len(object_phrase.split()) >= 2:
                return title_case(f"{gerund(match.group(1)).capitalize()} {object_phrase}")
    # Last: the subject of an opening sentence, up to its verb ("Long-Context Understanding"),
    # when it is a phrase and not a pronoun ("We find", "There", "Recently").
    subjects = [_subject(s) for s in all_sentences[:3]]
    phrase = next((s for s in subjects if len(s.split()) >= 2), None) or next((s for s in subjects if s), None)
    return title_case(sentence_case(phrase or " ".join(text.split()[:6])))


_NOT_A_SUBJECT = frozenset("we i you it there this these they here however recently our".split())


def _subject(sentence: str) -> str:
    sentence = re.sub(r"^(?:(?:In|With|Despite|Although|While|As)\b[^,]{0,80}|\w+ly),\s*", "", sentence)
    sentence = re.sub(r"^(?i:we|this (?:paper|work)) \w+ that ", "", sentence)  # 'We find that X ...': X's subject
    if sentence.split(" ", 1)[0].lower() in _NOT_A_SUBJECT:  # 'This approach ...' refers back
        return ""
    verb = _FINITE_VERB.search(sentence)
    phrase = _descriptor(sentence[: verb.start()] if verb else sentence)
    return "" if not phrase or phrase.split()[0].lower() in _NOT_A_SUBJECT else phrase


# "we address these challenges": the object refers back, it does not name the topic.
_ANAPHORA = re.compile(r"(?i)(?:this|these|those|such|that|it|its|their|them|our|the (?:above|aforementioned|problem|challenge|issue|limitation|gap)s?)\b(?! of\b)")
_GENERIC_HEADS = {"framework", "method", "approach", "model", "technique", "algorithm", "pipeline", "system", "paradigm", "strategy"}


def _extend(descriptor: str, full: str, text: str) -> str:
    """Short, generic descriptors gain their purpose or topic:
    'Efficient Adaptation Framework' -> '... for Continual Panoptic Segmentation'."""
    words = descriptor.split()
    if not words or len(words) >= 5 or " for " in f" {descriptor} ":
        return descriptor
    last = words[-1]
    generic = len(words) <= 2 or last.lower() in _GENERIC_HEADS
    if generic:
        topic = _defined_topic(full, text)
        if topic:
            return f"{descriptor} for {topic}"
    purpose = _purpose(full[full.lower().find(last.lower()) + len(last) :], generic_head=generic)
    return f"{descriptor} {purpose}" if purpose else descriptor


def _defined_topic(full: str, text: str) -> str | None:
    """The topic the abstract defined just before the contribution: the latest 'long form (ACRONYM)'."""
    before = text[: text.find(full)] if full in text else text
    topics = re.findall(r"((?:[A-Za-z][\w-]+\s+){1,4}[A-Za-z][\w-]+)\s+\([A-Z][A-Za-z0-9-]{1,8}\)", before)
    if not topics:
        return None
    words = topics[-1].split(" of ")[-1].split()
    while words and (words[0].lower() in FUNCTION_WORDS or _LEADING_FILLER.match(words[0] + " ") or words[0].endswith("ing")):
        words = words[1:]
    return " ".join(words) if len(words) >= 2 else None


def derive_title(text: str, name: IntroducedName | None) -> str:
    title = named_title(name) if name else None
    if not title and name:
        topic = contribution_title(text)
        title = f"{name.name}: {topic}" if len(topic.split()) >= 3 else name.name
    return _tidy(title or contribution_title(text))


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


def derive_summary(text: str) -> str:
    """One sentence of at most 200 characters that names the contribution."""
    all_sentences = sentences(text)
    if not all_sentences:
        return text[:MAX_SUMMARY_CHARS]
    ranked = sorted(
        range(len(all_sentences)),
        key=lambda i: (
            0 if _PROPOSAL.search(all_sentences[i]) else 1 if _RESEARCH.search(all_sentences[i]) else 2,
            "$" in all_sentences[i],
            i,
        ),
    )
    candidates = [sentence_case(_LEAD_IN.sub("", _LEAD_IN.sub("", all_sentences[i]))) for i in ranked]
    # The best sentence that fits whole (or cut at a clause), before any cut with "…".
    for candidate in candidates[:4]:
        short = _shorten(candidate, allow_ellipsis=False)
        if short:
            return short
    return _shorten(candidates[0])


def _shorten(sentence: str, allow_ellipsis: bool = True) -> str | None:
    sentence = sentence.rstrip()
    if len(sentence) <= MAX_SUMMARY_CHARS:
        return sentence if sentence.endswith((".", "!", "?")) else sentence + "."
    sentence = re.sub(r"\s*\([^()]{0,80}\)", "", sentence)  # asides first
    if len(sentence) <= MAX_SUMMARY_CHARS:
        return sentence if sentence.endswith((".", "!", "?")) else sentence + "."
    # Cut at the last clause boundary that fits, never inside a word.
    cut_points = [m.start() for m in re.finditer(r",\s|;\s|\s(?:which|that|where|while|whereas|thereby)\s", sentence)]
    fitting = [p for p in cut_points if 60 <= p <= MAX_SUMMARY_CHARS - 1]
    if fitting:
        return sentence[: fitting[-1]].rstrip(" ,;") + "."
    if not allow_ellipsis:
        return None
    words = sentence[: MAX_SUMMARY_CHARS - 1].rsplit(" ", 1)[0]
    return words.rstrip(" ,;") + "…"
