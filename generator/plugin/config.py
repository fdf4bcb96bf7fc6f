"""The plugin's options (`plugins: - abstracts: ...` in mkdocs.yml), typed and validated as
MkDocs validates its own (Material keeps its plugins' options in a config.py of their own the same
way). Options the command line and the pipeline share are declared in generator.options."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c

from generator import options
from generator.plugin.searchindex import PART_PAGES


class Count(c.Type[int]):
    """A whole number within bounds."""

    def __init__(self, low: int, high: int, default: int):
        super().__init__(int, default=default)
        self.low, self.high = low, high

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise c.ValidationError(f"Expected a whole number from {self.low} to {self.high}, got {value!r}.")
        return value


def _count(option: options.Count) -> Count:
    return Count(option.low, option.high, default=option.default)


class AbstractsConfig(base.Config):
    inputs = c.ListOfPaths(default=["seeds"])  # files or folders, relative to mkdocs.yml
    related = _count(options.RELATED)  # related papers per paper
    progress = c.Type(bool, default=False)  # a progress bar on long runs
    # Related papers by words and meaning: "auto" from the sentence model where it is installed
    # (`abstracts-site model install`), else from the built-in table; "table"; "semantic" (the
    # model, an error without it); or by words only, "lexical" (generator.pipeline.meaning_source).
    related_by = c.Choice(options.RELATED_BY.choices, default=options.RELATED_BY.default)
    source_root = c.Optional(c.Dir(exists=True))  # pages name input files relative to this (default: mkdocs.yml's folder)
    # Pages per part of the search index: Pagefind's memory while it writes a part grows with its
    # pages (generator.plugin.searchindex, decision 0004); larger sites are indexed in parts,
    # merged when searching.
    search_part_pages = Count(1, 10_000_000, default=PART_PAGES)
