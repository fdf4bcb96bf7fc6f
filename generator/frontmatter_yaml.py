"""Pages' YAML front matter, written as PyYAML (libyaml) writes it, without its representer.

`dump(metadata)` returns exactly `yaml.dump(metadata, Dumper=CSafeDumper, sort_keys=False,
allow_unicode=True, width=1000)` (block style, lists under a key not indented): PyYAML's
Python representer walked every value of every page (9% of a cold run at 4,200 papers).
Here the block structure is written directly and each scalar is looked up: a string that
libyaml writes plain is recognised by its rules (`_plain`), any other scalar (quoted
titles, numbers) is asked of PyYAML once and remembered. Values of other shapes (a list
in a list, a line that could wrap, a key libyaml writes as `? key`) make the whole
document go through PyYAML, so the bytes never differ.
"""

from __future__ import annotations

import re
from functools import lru_cache

import yaml

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when available
_OPTIONS = dict(Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=1000)
_WIDTH = 1000
_MARGIN = 20  # columns kept free of the wrap width: lines that long go through PyYAML
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
# libyaml's indicators that forbid a plain scalar in block context (emitter.c, analyze_scalar).
_FIRST_INDICATORS = frozenset("#,[]{}&*!|>'\"%@`")
_INNER_INDICATOR = re.compile(r":(?: |$)| #")
_REMEMBERED_MAX = 200_000  # scalars asked of PyYAML and kept (titles with a colon, numbers)


class _Unusual(Exception):
    """A value this writer does not lay out itself: the document goes through PyYAML."""


def dump(metadata: dict) -> str:
    try:
        lines: list[str] = []
        _mapping(metadata, 0, lines)
        return "\n".join(lines) + "\n"
    except _Unusual:
        return yaml.dump(metadata, **_OPTIONS)


def _mapping(mapping: dict, indent: int, lines: list[str]) -> None:
    pad = " " * indent
    for key, value in mapping.items():
        key_text = _key(key)
        column = indent + len(key_text) + 2
        if type(value) is dict and value:
            lines.append(f"{pad}{key_text}:")
            _mapping(value, indent + 2, lines)
        elif type(value) is list and value:
            lines.append(f"{pad}{key_text}:")
            _sequence(value, indent, lines)  # libyaml does not indent a list under a key
        else:
            lines.append(f"{pad}{key_text}: {_scalar(value, column)}")


def _sequence(items: list, indent: int, lines: list[str]) -> None:
    pad = " " * indent
    for item in items:
        if type(item) is dict and item:
            start = len(lines)
            _mapping(item, indent + 2, lines)  # its first line starts after "- "
            lines[start] = f"{pad}- {lines[start][indent + 2:]}"
        elif type(item) is list and item:
            raise _Unusual
        else:
            lines.append(f"{pad}- {_scalar(item, indent + 2)}")


def _key(key: object) -> str:
    if type(key) is str and len(key.encode()) <= 128 and _plain(key):  # longer keys are written '? key'
        return key
    text = _asked(("key", type(key), repr(key)), lambda: yaml.dump({key: 0}, **_OPTIONS), ": 0\n", False)
    if text is None:
        raise _Unusual
    return text


def _scalar(value: object, column: int) -> str:
    if type(value) is str and value and _plain(value):
        text = value
    elif type(value) is dict or type(value) is list:  # empty here
        text = "{}" if type(value) is dict else "[]"
    elif type(value) in (str, int, float, bool) or value is None:
        text = _asked(("value", type(value), value if type(value) is str else repr(value)), lambda: yaml.dump({"k": value}, **_OPTIONS), "k: ", True)
    else:
        text = None
    if text is None or column + len(text) > _WIDTH - _MARGIN:
        raise _Unusual
    return text


@lru_cache(maxsize=65_536)  # tags, reasons and names recur on many pages
def _plain(text: str) -> bool:
    """libyaml writes `text` plain (unquoted) in block context: printable on one line, no
    space at either end, no indicator where it would be one, and read back as a string."""
    return (
        text != ""
        and text.isprintable()
        and (text.isascii() or max(text) < "\U00010000")  # libyaml escapes characters beyond the BMP
        and text[0] != " "
        and text[-1] != " "
        and text[0] not in _FIRST_INDICATORS
        and not (text[0] in "-?:" and (len(text) == 1 or text[1] == " "))
        and not text.startswith(("---", "..."))
        and _INNER_INDICATOR.search(text) is None
        and _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STR_TAG
    )


_remembered: dict[tuple, str | None] = {}


def _asked(key: tuple, dumped, affix: str, prefix: bool) -> str | None:
    """A scalar as PyYAML writes it on one line (None when it takes more), remembered."""
    if key in _remembered:
        return _remembered[key]
    document = dumped()
    # One line by every break YAML knows (libyaml also breaks a quoted scalar after U+2028,
    # U+2029 and U+0085, indented as deep as the key: not reusable at another depth).
    one_line = len(document.splitlines()) == 1 and document.endswith("\n")
    if prefix:
        text = document[len(affix):-1] if document.startswith(affix) and one_line else None
    else:
        text = document[: -len(affix)] if document.endswith(affix) and one_line else None
    if len(_remembered) >= _REMEMBERED_MAX:
        _remembered.clear()
    _remembered[key] = text
    return text
