import re

from generator.language.textutil import Caseless


def test_caseless_search_finds_what_the_ignore_case_pattern_finds():
    pattern = re.compile(r"\b(?:we|this paper)\s+(?:\w+ly\s+)?(propose|present)s?\s+(.*)", re.IGNORECASE)
    fast = Caseless(pattern)
    texts = [
        "In This Paper, WE Newly PROPOSE a Model.",
        "Answer: we present X; then we propose Y",
        "Swept away, they present nothing.",  # 'we' inside a word: no \b
        "Answer: swe propose X; we propose Y",  # the first 'we propose' fails the \b, the second matches
        "Ünïcode text: We propose Ω-Net for ſets.",  # not ASCII: the pattern itself
        "nothing here",
    ]
    for text in texts:
        for pos in (0, 5, 20):
            expected, found = pattern.search(text, pos), fast.search(text, pos)
            assert (expected and (expected.span(), expected.groups())) == (found and (found.span(), found.groups()))
    assert fast.search(texts[0]).group(1) == "PROPOSE"  # groups read the original text, not the lowered one
