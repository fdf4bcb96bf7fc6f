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
from collections.abc import Callable
from typing import Any

import yaml

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when available
_OPTIONS: dict[str, Any] = dict(Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=1000)
_WIDTH = 1000
_MARGIN = 20  # columns kept free of the wrap width: lines that long go through PyYAML
_LONGEST = _WIDTH - _MARGIN - 2  # the longest key and value on one line (after the pad and ": " or "- ")
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
# The first characters of the words PyYAML reads as another type than a string (numbers,
# booleans, null, dates): text starting otherwise is a string without asking it.
_RESOLVED_BY_FIRST = frozenset(key for key in _RESOLVER.yaml_implicit_resolvers if key)
_ANY_FIRST = bool(_RESOLVER.yaml_implicit_resolvers.get(None))
# libyaml's indicators that forbid a plain scalar in block context (emitter.c, analyze_scalar).
_FIRST_INDICATORS = frozenset("#,[]{}&*!|>'\"%@`")
_INNER_INDICATOR = re.compile(r":(?: |$)| #")
_REMEMBERED_MAX = 200_000  # scalars asked of PyYAML and kept (titles with a colon, numbers)
_STRINGS_MAX = 65_536  # strings' texts kept (most are unique to a page: summaries, URLs)


class _Unusual(Exception):
    """A value this writer does not lay out itself: the document goes through PyYAML."""


def dump(metadata: dict) -> str:
    try:
        lines: list[str] = []
        _mapping(metadata, "", lines)
        return "\n".join(lines) + "\n"
    except _Unusual:
        return yaml.dump(metadata, **_OPTIONS)


# The text of each string, key and number seen: tags, reasons, titles, URLs and scores recur
# on many pages, and one look-up costs less than the function calls around the checks
# (decision 0010). None: not written on one line.
_strings: dict[str, str | None] = {}
_keys: dict[str, str] = {}
_numbers: dict[tuple[type, object] | None, str | None] = {}  # and of numbers, booleans and None
_NOT_SEEN: Any = object()


def _mapping(mapping: dict, pad: str, lines: list[str]) -> None:
    for key, value in mapping.items():
        key_text = _keys.get(key) if type(key) is str else None
        if key_text is None:
            key_text = _key(key)
        kind = type(value)
        if kind is str:
            text = _strings.get(value, _NOT_SEEN)
            if text is _NOT_SEEN:
                text = _string(value)
            if text is None or len(pad) + len(key_text) + len(text) > _LONGEST:
                raise _Unusual
            lines.append(f"{pad}{key_text}: {text}")
        elif kind is list and value:
            lines.append(f"{pad}{key_text}:")
            _sequence(value, pad, lines)  # libyaml does not indent a list under a key
        elif kind is dict and value:
            lines.append(f"{pad}{key_text}:")
            _mapping(value, pad + "  ", lines)
        else:
            lines.append(f"{pad}{key_text}: {_scalar(value, len(pad) + len(key_text) + 2)}")


def _sequence(items: list, pad: str, lines: list[str]) -> None:
    for item in items:
        kind = type(item)
        if kind is str:
            text = _strings.get(item, _NOT_SEEN)
            if text is _NOT_SEEN:
                text = _string(item)
            if text is None or len(pad) + len(text) > _LONGEST:
                raise _Unusual
            lines.append(f"{pad}- {text}")
        elif kind is dict and item:
            start = len(lines)
            _mapping(item, pad + "  ", lines)  # its first line starts after "- "
            lines[start] = f"{pad}- {lines[start][len(pad) + 2 :]}"
        elif kind is list and item:
            raise _Unusual
        else:
            lines.append(f"{pad}- {_scalar(item, len(pad) + 2)}")


def _key(key: object) -> str:
    text: str | None
    if type(key) is str and len(key.encode()) <= 128 and _plain(key):  # longer keys are written '? key'
        text = key
    else:
        text = _asked(("key", type(key), repr(key)), lambda: yaml.dump({key: 0}, **_OPTIONS), ": 0\n", False)
    if text is None:
        raise _Unusual
    if type(key) is str:
        if len(_keys) >= _REMEMBERED_MAX:
            _keys.clear()
        _keys[key] = text
    return text


def _string(value: str) -> str | None:
    """`value` as libyaml writes it on one line, remembered (None: it takes more lines)."""
    if len(_strings) >= _STRINGS_MAX:
        _strings.clear()
    text = _strings[value] = value if _plain(value) else _single_quoted(value)
    return text


def _single_quoted(value: str) -> str | None:
    """A string libyaml cannot write plain, as it quotes it: in single quotes (doubled inside)
    when every character is printable for it on one line, else asked of PyYAML: quoting here is
    faster, and every title with a colon is quoted (decision 0010)."""
    if value.isprintable() and (value.isascii() or max(value) < "\U00010000"):
        return "'" + value.replace("'", "''") + "'"
    return _asked(("value", str, value), lambda: yaml.dump({"k": value}, **_OPTIONS), "k: ", True)


def _scalar(value: object, column: int) -> str:
    """A value other than a string or a non-empty list or dict (the callers write those),
    written after `column` columns."""
    text: str | None
    if type(value) is dict or type(value) is list:  # empty here
        text = "{}" if type(value) is dict else "[]"
    elif type(value) is int:
        # PyYAML writes an int as str() does, plain (SafeRepresenter.represent_int). Asking it
        # each distinct one (record and line numbers: one per page) was slow (decision 0010).
        text = str(value)
    elif type(value) in (float, bool) or value is None:
        # By type and value (True == 1 == 1.0); not zeros, as -0.0 == 0.0.
        seen = (type(value), value) if value or type(value) is not float else None
        text = _numbers.get(seen, _NOT_SEEN)
        if text is _NOT_SEEN:
            text = _asked(("value", type(value), repr(value)), lambda: yaml.dump({"k": value}, **_OPTIONS), "k: ", True)
            if len(_numbers) >= _REMEMBERED_MAX:
                _numbers.clear()
            if seen is not None:
                _numbers[seen] = text
    else:
        text = None
    if text is None or column + len(text) > _WIDTH - _MARGIN:
        raise _Unusual
    return text


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
        and (text[0] not in _RESOLVED_BY_FIRST and not _ANY_FIRST or _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STR_TAG)
    )


_remembered: dict[tuple, str | None] = {}


def _asked(key: tuple, dumped: Callable[[], str], affix: str, prefix: bool) -> str | None:
    """A scalar as PyYAML writes it on one line (None when it takes more), remembered."""
    if key in _remembered:
        return _remembered[key]
    document = dumped()
    # One line by every break YAML knows (libyaml also breaks a quoted scalar after U+2028,
    # U+2029 and U+0085, indented as deep as the key: not reusable at another depth).
    one_line = len(document.splitlines()) == 1 and document.endswith("\n")
    if prefix:
        text = document[len(affix) : -1] if document.startswith(affix) and one_line else None
    else:
        text = document[: -len(affix)] if document.endswith(affix) and one_line else None
    if len(_remembered) >= _REMEMBERED_MAX:
        _remembered.clear()
    _remembered[key] = text
    return text
