"""The front matter writer gives PyYAML's bytes for every value, and pages read back as written."""

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.render.frontmatter_yaml import dump

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

# Text that exercises libyaml's quoting rules: indicators, colons, hashes, spaces at the ends,
# words YAML reads as other types, characters beyond the BMP, line breaks, tabs.
TRICKY = [
    "",
    " ",
    "-",
    "- a",
    "-based",
    "?",
    "? x",
    ":",
    "a: b",
    "a:b",
    "a:",
    "#x",
    "a #b",
    "a#b",
    "'q'",
    '"q"',
    "&a",
    "*a",
    "!x",
    "|",
    ">",
    "%x",
    "@x",
    "`x",
    "[x]",
    "{x}",
    "x, y",
    "---",
    "...x",
    "null",
    "Null",
    "~",
    "yes",
    "No",
    "on",
    "true",
    "1",
    "1.5",
    "-2",
    "0x1F",
    "1e3",
    ".inf",
    "2024-01-02",
    "<<",
    "=",
    "\U0001f3f9 CUPID",
    "naïve Bayes",
    "a\nb",
    "a\tb",
    "tail ",
    " head",
    "x\u2028y",
    "\ufeffx",
    "ü" * 3,
    "x" * 990,
    "word " * 250,
]
text = st.one_of(st.sampled_from(TRICKY), st.text(max_size=40), st.text(alphabet="ab :#-'\"\n", max_size=12))
scalar = st.one_of(text, st.integers(), st.floats(allow_nan=False), st.booleans(), st.none())
values = st.recursive(scalar, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3), max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(text, values, min_size=1, max_size=5))
@example({"a": "x\u2028y", "0": {"b": "x\u2028y"}})  # libyaml breaks after U+2028 and indents by depth
@example({"a": 0.0, "b": -0.0, "c": 1, "d": True, "e": 1.0})  # equal as keys of the writer's memo, not as text
def test_front_matter_is_what_pyyaml_writes(metadata):
    assert dump(metadata) == yaml.dump(metadata, Dumper=DUMPER, sort_keys=False, allow_unicode=True, width=1000)


def test_a_paper_record_reads_back_as_written():
    record = {
        "title": "$100K or 100 Days: Trade-offs when Pre-Training",
        "name": None,
        "tags": ["pretraining", "GPUs"],
        "related": [{"id": "6d56", "score": 0.199, "reasons": ["pretraining", "a: b"]}],
        "acronyms": [],
        "source": {"file": "../corpus/colm.jsonl", "record": 92},
        "tag_urls": {"yes": "tags/yes/", "C#": "tags/c/"},
    }
    text = dump(record)
    assert yaml.safe_load(text) == record
    assert "\n  reasons:\n  - pretraining\n" in text  # a list under a key is not indented, as PyYAML writes it
