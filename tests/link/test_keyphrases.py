"""Key phrases (generator.link.keyphrases, link.corpus.add_keyphrases): phrase shapes judged in bulk as one at a time, by the verb list given."""

from __future__ import annotations


def test_candidates_judged_together_are_judged_as_one_at_a_time():
    # link judges the shape of ~200,000 candidate phrases at once, each first and last word once.
    from generator.link.keyphrases import phrase_like, phrases_like

    phrases = [
        "instruction tuning",
        "enables agents",
        "Findings Suggest",
        "fully connected layers",
        "efficiently trained models",
        "model is robust",
        "Large Language Models",
        "reinforcement learning",
        "learning reinforcement",
        "robust",
        "novel framework",
    ]
    judged = phrases_like(phrases)
    assert judged == [phrase_like(p) for p in phrases]
    assert True in judged and False in judged


def test_key_phrases_follow_the_verb_list_given():
    """Training passes a verb list per held-out venue: whether 'findings suggest' is a phrase
    must follow the list given, not the one an earlier fold cached."""
    import dataclasses

    from generator.language.learned import Choices
    from generator.link.corpus import _phrase_like

    for verbs, expected in ((frozenset(), True), (frozenset({"suggest"}), False), (frozenset(), True)):
        assert _phrase_like("findings suggest", dataclasses.replace(Choices.shipped(), verbs=verbs)) is expected


import re  # noqa: E402

import pytest  # noqa: E402


@pytest.mark.parametrize(
    ("phrase", "is_phrase"),
    [
        ("9B parameters", False),  # a count of something
        ("197k questions", False),
        ("3D shape", True),  # '3D' is a modifier, not a count
        ("processing long", False),  # cut before its noun ('long sequences')
        ("learning robust", False),
        ("falling short", False),
        ("ambiguities arising", False),  # a subject and its verb
        ("factors causing", False),
        ("agents act", False),
        ("dynamics learning", True),  # a noun in -ing heads the phrase
        ("time-series forecasting", True),
        ("graph neural networks", True),
    ],
)
def test_clause_fragments_and_counts_are_not_key_phrases(phrase, is_phrase):
    from generator.link.keyphrases import phrase_like, phrases_like

    assert phrase_like(phrase) is is_phrase
    assert phrases_like([phrase]) == [is_phrase]


@pytest.mark.parametrize(
    ("text", "phrase", "verb"),
    [
        ("These hallucinations impede various applications in society.", "hallucinations impede", True),  # the seeds' SDLG paper
        ("Momentum plays a crucial role in training.", "momentum plays", True),  # a learned object verb
        ("The Graphical-GAN conjoins the power of both.", "Graphical-GAN conjoins", True),  # a word no corpus knows
        ("Here agents view the scene from above.", "agents view", True),  # a base form after a plural noun
        ("This makes sketch recognition a challenging problem.", "sketch recognition", False),  # a noun, an object complement
        ("It endows detection networks the ability to reason.", "detection networks", False),
        ("A mutant trait A invades the population.", "mutant trait", False),  # 'A' names the trait
        ("Momentum plays an important role.", "momentum", False),  # one word: a term, whatever follows
        ("Our analysis of momentum plays out differently.", "momentum plays", False),  # no object follows
        ("In the first stage, the agent traces the contour twice.", "agent traces", True),  # subject, verb, object
        ("We give detection networks the capability to abstain.", "detection networks", False),  # no subject before
    ],
)
def test_a_phrase_ending_on_a_verb_whose_object_follows_is_no_key_phrase(text, phrase, verb):
    from generator.language.learned import PhraseModel
    from generator.link.keyphrases import verb_phrases

    assert verb_phrases(text, [phrase, "unrelated words"], PhraseModel.shipped()) == ([0] if verb else [])


def _stopped(text: str, keywords=("markov decision process", "named entity recognition", "graph neural network"), terms=()):
    from generator.enrich.tagging import candidate_phrases
    from generator.language.learned import PhraseModel
    from generator.link.keyphrases import stopped_inside

    model = PhraseModel(keywords={keyword: 5 for keyword in keywords})
    return stopped_inside(candidate_phrases(text), model, {tuple(term.split()) for term in terms})


def test_a_phrase_that_stops_inside_a_longer_term_is_no_key_phrase():
    # Every time the abstract says 'markov decision', 'process' follows: a word author keywords
    # end on, where 'decision' ends none (issue 52).
    text = "We solve a partially observable Markov decision process. The Markov decision process has costs."
    assert {"markov decision", "observable markov", "observable markov decision"} <= _stopped(text)
    # Inside a term the authors know, wherever it is cut: 'entity recognition'.
    assert "entity recognition" in _stopped("Few-shot named entity recognition is hard for rare entity types.")
    # A phrase the abstract also says on its own, or a known term itself, stays.
    assert "markov decision" not in _stopped("A Markov decision process. Each Markov decision is cheap.")
    assert "graph neural" in _stopped("Graph neural networks pass messages.")
    assert "graph neural" not in _stopped("Graph neural networks pass messages.", terms=["graph neural"])
    assert "markov decision" not in _stopped("A Markov decision process.", keywords=("markov decision", "markov decision process"))
    # The word that follows heads no keyword: the phrase may be whole ('monocular camera' video).
    assert "monocular camera" not in _stopped("We track joints from a monocular camera video.", keywords=("visual odometry",))


def test_no_page_of_the_shared_corpora_shows_a_fragment_as_a_key_phrase():
    """Every shown key phrase of every shared corpus (titles hidden, related papers by words, as
    the lab's evaluation derives them), judged by the kinds issue 52 named: a count ('9B
    parameters'), a dangling adjective or preposition ('processing long', 'factuality
    according'), a plural noun and its verb ('ambiguities arising'), a term's last words cut
    from it ('adversarial networks')."""
    from generator.context import running
    from generator.enrich.paper import enrich
    from generator.enrich.tagging import vocabulary
    from generator.enrich.titlegate import third_person
    from generator.errors import Report
    from generator.language import lexicon
    from generator.language.learned import Choices, PhraseModel
    from generator.link.corpus import link
    from generator.pipeline import merge_duplicates
    from generator.runtime.parallel import Forking
    from generator.sources.readers import read_file
    from helpers import CORPUS, hidden

    corpora = sorted(CORPUS.glob("*.jsonl"))
    if not corpora:
        pytest.skip(f"no corpus in {CORPUS}")
    object_starts = lexicon.words("object_starts")
    count = re.compile(r"\d+(?:[.,]\d+)*(?:[kmbt]|x|%)?$")
    dangling = lexicon.words("not_phrase_end")
    nominal = lexicon.words("nominal_gerunds")
    verbs = Choices.shipped().verbs
    terms = vocabulary().matched
    keywords = PhraseModel.shipped().keywords
    found = []
    for path in corpora:
        records = [record for record, _ in merge_duplicates(read_file(path, Report()), Report())]
        with running(Forking()):  # as a one-off run forks
            papers = link([enrich(hidden(record)) for record in records], 5)
        verbs_here = _words_before_objects_in([paper.text for paper in papers], object_starts)
        for paper in papers:
            for phrase in paper.keyphrases:
                words = phrase.lower().split()
                clause = (
                    len(words) > 1
                    and third_person(words[-2])
                    and (words[-1] in verbs or (words[-1].endswith("ing") and len(words[-1]) > 5 and words[-1] not in nominal))
                )
                before_object = len(words) > 1 and words[-1] in verbs_here and _said_before_an_object(phrase, paper.text, object_starts)
                cut = _cut_from_a_term(phrase, paper.text, terms) or _said_only_inside_a_known_term(phrase, paper.text, keywords, terms)
                if count.match(words[0]) or words[-1] in dangling or clause or before_object or cut:
                    found.append((path.stem, phrase))
    assert found == []


def _words_before_objects_in(texts: list[str], object_starts) -> set[str]:
    """The words (lower case) a collection puts right before an object's first word ('the',
    'a', 'various' ...; lower case in the text: 'trait A' names a trait) in 30%+ of their 3+
    uses: counted in the collection itself, not taken from the learned list the rule reads."""
    from collections import Counter

    uses: Counter[str] = Counter()
    before: Counter[str] = Counter()
    for text in texts:
        tokens = re.findall(r"[A-Za-z][\w-]*|[^\w\s]", text)
        uses.update(token.lower() for token in tokens)
        before.update(a.lower() for a, b in zip(tokens, tokens[1:]) if b in object_starts)
    return {word for word, n in uses.items() if n >= 3 and before[word] >= 0.3 * n}


def _said_before_an_object(phrase: str, text: str, object_starts) -> bool:
    followers = re.findall(rf"(?<![\w-]){re.escape(phrase)}\s+([A-Za-z]+)", text, re.IGNORECASE)
    return any(word in object_starts for word in followers)


def _said_only_inside_a_known_term(phrase: str, text: str, keywords, terms) -> bool:
    """`phrase` (no term itself) is said, every time, inside a longer run of content words that
    authors give as a keyword or the vocabulary names ('entity recognition' of 'named entity
    recognition'): counted on the abstract's words as written, not on the candidates the rule
    reads. A term across a stop word ('simultaneous localization and mapping') is not looked for."""
    from generator.language.textutil import STOP_WORDS, normalise_term

    def known(words: list[str]) -> bool:
        key = normalise_term(" ".join(words))
        return key in keywords or tuple(key.split()) in terms

    words = phrase.lower().split()
    if known(words):
        return False
    tokens = re.findall(r"[\w-]+|[^\w\s]", text.lower())
    stops = {i for i, token in enumerate(tokens) if token in STOP_WORDS or not token[0].isalnum()}  # a run of content words ends
    n = len(words)
    key = normalise_term(phrase)  # 'object poses' is said too, where 'object pose' is asked
    places = [i for i in range(len(tokens) - n + 1) if tokens[i][:3] == words[0][:3] and normalise_term(" ".join(tokens[i : i + n])) == key]
    if not places:
        return False
    longer = range(n + 1, 6)  # known terms of up to five words around it
    return all(
        any(
            known(tokens[i - before : i + n + after])
            for size in longer
            for before in range(size - n + 1)
            if i - before >= 0
            and (after := size - n - before) >= 0
            and i + n + after <= len(tokens)
            and not stops.intersection(range(i - before, i + n + after))
        )
        for i in places
    )


def _cut_from_a_term(phrase: str, text: str, terms) -> bool:
    """`phrase` (no vocabulary term itself) is the last words of a vocabulary term the abstract
    names, and every time the abstract says it, it says the longer term ('adversarial networks'
    of 'generative adversarial networks')."""
    from generator.enrich.tagging import _token_keys, mentions

    tokens = _token_keys(phrase)
    if len(tokens) < 2 or tokens in terms:
        return False
    for mention in mentions(text):
        words = tuple(mention.spelling.split(" "))
        if len(words) > len(tokens) and words[-len(tokens) :] == tokens:
            alone = re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", re.IGNORECASE)
            inside = re.compile(rf"(?<![\w-])[\w-]+[ -]{re.escape(phrase)}(?![\w-])", re.IGNORECASE)
            if len(alone.findall(text)) == len(inside.findall(text)):
                return True
    return False
