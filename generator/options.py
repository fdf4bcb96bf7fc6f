"""The options a user sets, each declared once: its name, default, bounds or choices and help.
The plugin's config class (generator.plugin.config), the command line (generator.cli) and the
pipeline's Settings read them from here, so that a default or a bound cannot differ between the
three (issue 54: `related` was declared three times)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Count:
    """A whole number from `low` to `high`."""

    name: str
    default: int
    low: int
    high: int
    help: str


@dataclass(frozen=True)
class Choice:
    """One of `choices`."""

    name: str
    default: str
    choices: tuple[str, ...]
    help: str


RELATED = Count("related", 5, 0, 50, "Related papers per paper.")
RELATED_BY = Choice(
    "related_by",
    "auto",
    ("auto", "lexical", "table", "semantic"),
    "Related papers by words and meaning: from the sentence model where `abstracts-site model install` "
    "installed it, else from the built-in table (auto); from the table (table); from the model, an error "
    "without it (semantic); or by words only (lexical).",
)
