"""Per-paper derivations on the real seed abstracts: titles, summaries, tags, areas, links, acronyms."""

from __future__ import annotations

import re
from functools import cache

import pytest

from generator.enrich.paper import classify_link, enrich, paper_id, slugify
from generator.enrich.tagging import area_names, normalise_keyword
from generator.enrich.titlegate import title_defects
from generator.enrich.titles import MAX_SUMMARY_CHARS
from generator.errors import Report
from generator.language.textutil import gerund, sentences, title_case
from generator.model import Origin, Record
from generator.sources.readers import read_inputs
from helpers import SEEDS


@cache
def seed_papers():
    return [enrich(r) for r in read_inputs([SEEDS], Report())]


def seed(name_fragment: str):
    return next(p for p in seed_papers() if name_fragment in p.text)


@pytest.mark.parametrize(
    "fragment, name",
    [
        ("Proactive Privacy Amnesia", "PPA"),
        ("named PatchSAE", "PatchSAE"),
        ("We present AndroidWorld", "AndroidWorld"),
        ("We present MM1.5", "MM1.5"),
        ("REcipe MErging DYnamics", "REMEDY"),
        ("energy-weighted flow matching (EFM)", "EFM"),
        ("framework Dynamic-LLaVA", "Dynamic-LLaVA"),
        ("our model, MM-Embed", "MM-Embed"),
        ("paradigm named Sparse RAG", "Sparse RAG"),
    ],
)
def test_seed_titles_show_the_introduced_name(fragment, name):
    # The whole titles are golden cases (tests/enrich/golden/titles.yml); here: the name leads the
    # title ('Name: phrase') or, where the model is less sure of it, follows ('phrase (Name)').
    paper = seed(fragment)
    assert paper.name == name and (paper.title.startswith(f"{name}: ") or paper.title.endswith(f" ({name})")), paper.title


def test_every_seed_title_is_a_title_not_the_opening_words():
    titles = [p.title for p in seed_papers()]
    assert len(set(titles)) == len(titles)
    for paper in seed_papers():
        words = paper.title.split()
        assert 2 <= len(words) <= 20, paper.title
        opening = " ".join(paper.text.split()[: len(words)])
        assert paper.title.casefold() != opening.casefold()
        # Never cut mid-word: each title word (bar case) is a word of the abstract or a name.
        text_words = {w.casefold().strip(".,;:()") for w in re.split(r"[\s/]+", paper.text)}
        for word in re.split(r"[\s:]+", paper.title):
            parts = [p for p in re.split(r"-", word.strip(",()")) if p]
            for part in parts:
                # Gerunds are derived from the abstract's verb: 'Safeguarding' <- 'safeguard'.
                stem = part.casefold()[:-3][:3] if part.endswith("ing") else part.casefold()
                assert any(stem in t for t in text_words), (word, paper.title)


def test_seed_summaries_are_one_sentence_of_at_most_250_characters():
    for paper in seed_papers():
        assert len(paper.summary) <= MAX_SUMMARY_CHARS, paper.summary
        assert len(sentences(paper.summary)) == 1, paper.summary
        assert paper.summary[0].isupper() and paper.summary.endswith((".", "…"))


def test_seed_tags_and_areas():
    areas = set(area_names())
    for paper in seed_papers():
        assert 1 <= len(paper.tags) <= 8, paper.tags
        assert len({t.casefold() for t in paper.tags}) == len(paper.tags)
        assert paper.area in areas
    assert "privacy" in seed("Proactive Privacy Amnesia").tags
    assert {"sparse autoencoders", "CLIP"} <= set(seed("named PatchSAE").tags)
    assert seed("energy-weighted flow matching (EFM)").area == "Generative models"
    assert seed("Proactive Privacy Amnesia").area.startswith("Alignment, fairness, safety, privacy")


def test_seed_links_are_classified_without_trailing_punctuation():
    links = {l.url: l for p in seed_papers() for l in p.links}  # noqa: E741
    assert "https://github.com/google-research/android_world" in links
    assert "https://huggingface.co/nvidia/MM-Embed" in links
    assert all(not url.endswith((".", ",", ")")) for url in links)
    assert links["https://huggingface.co/nvidia/MM-Embed"].kind == "model"
    assert links["https://github.com/Ze-Yang/ADAPT"].label == "Code · Ze-Yang/ADAPT"


def test_seed_acronyms_have_expansions():
    acronyms = {a.short: a.long for a in seed("Proactive Privacy Amnesia").acronyms}
    assert acronyms["PPA"] == "Proactive Privacy Amnesia"
    assert acronyms["PII"] == "personally identifiable information"


def test_given_fields_win_over_derived_ones():
    record = Record(
        abstract="We propose FooNet, a network for bar. It is good.",
        origin=Origin("x.jsonl", 1, 1, "abc"),
        collection="C",
        title="The Real Title",
        keywords=("LLMs", "My Keyword"),
        primary_area="Reinforcement learning",
        tldr="A given summary.",
        url="https://openreview.net/forum?id=abc",
    )
    paper = enrich(record)
    assert paper.title == "The Real Title" and paper.summary == "A given summary."
    assert paper.tags[:2] == ("large language models", "my keyword")
    assert paper.area == "Reinforcement learning"
    assert paper.links[0].url == "https://openreview.net/forum?id=abc"


def test_ids_and_slugs_are_stable_and_safe():
    assert paper_id("A  b\nC") == paper_id("a b c")
    assert slugify("PPA: Proactive Privacy Amnesia!") == "ppa-proactive-privacy-amnesia"
    assert slugify("../../etc/passwd") == "etc-passwd"
    assert slugify("日本語") == "paper"
    assert len(slugify("word " * 50)) <= 60 and not slugify("word " * 50).endswith("-")


def test_text_helpers():
    assert normalise_keyword("LLMs") == "large language models"
    assert normalise_keyword("Diffusion Models") == "diffusion models"
    assert [gerund(v) for v in ("investigates", "study", "analyze", "cut", "edit", "plan")] == [
        "investigating",
        "studying",
        "analyzing",
        "cutting",
        "editing",
        "planning",
    ]
    assert title_case("a study of pre-training for LLMs in 3D") == "A Study of Pre-Training for LLMs in 3D"
    assert classify_link("https://huggingface.co/datasets/org/set").kind == "dataset"


@pytest.mark.parametrize(
    "abstract, title",
    [
        # Real openings (iclr2024) that gave "We Find", "Recently" and "Focuing ..." as titles.
        (
            "We find that large language models (LLMs) are more likely to modify human-written text than AI-generated text "
            "when tasked with rewriting. This tendency arises because LLMs often perceive AI-generated text as high-quality, "
            "leading to fewer modifications. We introduce a method to detect AI-generated content by prompting LLMs to rewrite text.",
            None,
        ),
        (
            "Recently, a series of papers proposed deep learning-based approaches to sample from target distributions. "
            "Building on previous work, we improve them.",
            None,
        ),
        ("We focus on deep linear network models trained with gradient descent. Critical periods emerge in them.", None),
        (
            "We introduce a novel and efficient approach for text-based video-to-video editing that needs no finetuning.",
            "Efficient Approach for Text-Based Video-To-Video Editing",
        ),
    ],
)
def test_titles_without_a_name_are_phrases_not_opening_words(abstract, title):
    derived = enrich(Record(abstract=abstract, origin=Origin("t.txt", 1, 1), collection="C")).title
    assert derived.split()[0] not in {"We", "Recently", "There", "And", "It"}, derived
    assert len(derived.split()) >= 2, derived
    assert "Focuing" not in derived and title_defects(derived) == [], derived
    if title:
        assert derived == title
