"""Linguistic knowledge as data: the word lists the rules use, loaded once from
`generator/data/lexicon.yml` (hand-kept, each list commented there with its purpose)."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any, cast

import yaml

# libyaml's safe loader when PyYAML has it: the same data, parsed many times faster, and this
# process reads the data files before its enrich workers fork (decision 0007).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> object:
    """yaml.safe_load(text), by libyaml where there is one."""
    return yaml.load(text, Loader=_LOADER)


@cache
def _lists() -> dict[str, list[str]]:
    text = resources.files("generator").joinpath("data").joinpath("lexicon.yml").read_text(encoding="utf-8")
    return {key: [str(word) for word in words] for key, words in cast("dict[str, list[Any]]", load_yaml(text)).items()}


def words(name: str) -> frozenset[str]:
    """One list as a set: `words("generic_acronyms")`."""
    return frozenset(_lists()[name])


def alternation(name: str, inflected: bool = False) -> str:
    """One list as a regular-expression alternation, in the file's order; `inflected` also
    matches -s, -d and -ed forms of base verbs ('propose' -> proposes, proposed)."""
    pattern = "|".join(re.escape(word).replace("\\ ", " ") for word in _lists()[name])
    return f"(?:{pattern})(?:s|d|ed)?" if inflected else pattern


def word_list(text: str) -> frozenset[str]:
    """A data file of one word per line ('#' starts a comment line): stopwords.txt, verbs.txt."""
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def word_values(text: str) -> dict[str, float]:
    """A data file of 'word<TAB>value' lines ('#' starts a comment line): title_words.tsv."""
    table = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            word, value = line.split("\t")
            table[word] = float(value)
    return table
