"""Key phrases (generator.link.keyphrases, link.corpus.add_keyphrases): phrase shapes judged in bulk as one at a time, the verb list in use."""

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


def test_key_phrases_follow_the_verb_list_in_use():
    """Training swaps the verb list per held-out venue: whether 'findings suggest' is a phrase
    must follow the list in use, not the one an earlier fold cached."""
    import dataclasses

    from generator.language import learned
    from generator.link.corpus import _phrase_like

    try:
        for verbs, expected in ((frozenset(), True), (frozenset({"suggest"}), False), (frozenset(), True)):
            learned.use(dataclasses.replace(learned.choices(), verbs=verbs))
            assert _phrase_like("findings suggest") is expected
    finally:
        learned.use(None)
