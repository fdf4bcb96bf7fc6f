"""Read input files into Records: one reader per format, picked by file extension.

Plain text (.txt, .md): the first non-empty line names the collection, then one
abstract per blank-line-separated paragraph. Records (.jsonl, .json, .csv):
`abstract` is required; the optional fields are listed in FIELDS.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from generator.errors import InputError, Report
from generator.language.textutil import collapse_space
from generator.model import Origin, Record
from generator.sources.markup import refused_urls
from generator.sources.urlpolicy import web_url

# Fields a record may carry, and the ones we accept but do not use.
FIELDS = {"abstract", "title", "keywords", "authors", "url", "id", "primary_area", "tldr", "collection"}
IGNORED_FIELDS = {"decision", "source", "venue", "year", "track", "status", "pdf", "bibtex"}

# Files in an input folder that describe the folder, not papers ('README.md'): skipped, reported.
PROJECT_FILES = {"README", "CHANGELOG", "CHANGES", "LICENSE", "LICENCE", "CONTRIBUTING", "NOTES", "INDEX"}
# A heading is one short line; anything longer is taken as the first abstract.
MAX_HEADING_CHARS = 200
_BLANK = re.compile(r"^[\s\u00a0\u200b\ufeff]*$")
_BINARY_MAGIC = (b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"%PDF", b"PK\x03\x04", b"\x7fELF")
# Control characters are not text (and no XML, so no feed, may hold them): removed from every
# value. Tabs and line ends stay; they are whitespace, collapsed where a value is read.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")

# The longest given values kept: far above any real record (the corpora in ../shared/corpus
# have titles of up to 168 characters, tl;drs of 281, 16 keywords of up to 149, 54 authors),
# low enough that a paper page stays within its size budget (tests/site/test_scale.py) and a
# megabyte-long field cannot stall a build. Longer values are shortened and reported.
MAX_CHARS = {"title": 300, "tldr": 600, "collection": 200, "primary_area": 200, "id": 200}
MAX_ITEMS = {"keywords": 50, "authors": 200}
MAX_ITEM_CHARS = 200
MAX_URL_CHARS = 2000  # a URL cannot be shortened: a longer one is not linked


def decode(path: Path, data: bytes) -> str:
    """Bytes to text with LF newlines. UTF-8 (with or without BOM) and UTF-16 with a BOM."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(str(path), f"invalid UTF-16 text ({exc.reason})") from None
    else:
        if data.startswith(_BINARY_MAGIC) or b"\x00" in data[:8192]:
            raise InputError(str(path), "not a text file (binary content); expected UTF-8 text")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise InputError(
                f"{path}:{line}",
                f"invalid UTF-8 byte 0x{data[exc.start]:02x} at column {column}; save the file as UTF-8",
            ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(f"{path}:{line}", "NUL character in text")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def collection_from_stem(stem: str) -> str:
    """'iclr2024' -> 'ICLR 2024'; 'my_papers' -> 'My Papers'."""
    match = re.fullmatch(r"([A-Za-z]+)[-_ ]?(\d{4})", stem)
    if match:
        return f"{match.group(1).upper()} {match.group(2)}"
    return re.sub(r"[-_]+", " ", stem).strip().title() or "Papers"


def read_text(path: Path, text: str, report: Report) -> Iterator[Record]:
    paragraphs = list(_paragraphs(text))
    if not paragraphs:
        raise InputError(str(path), "no abstracts found (the file is empty)")
    first_line, first = paragraphs[0]
    if "\n" not in first and len(first) <= MAX_HEADING_CHARS:
        collection = first.lstrip("#").strip() or collection_from_stem(path.stem)
        paragraphs = paragraphs[1:]
    else:
        collection = collection_from_stem(path.stem)
        report.warn(f"{path}:{first_line}", f"no heading line; collection named '{collection}' after the file")
    if not paragraphs:
        raise InputError(f"{path}:{first_line}", "only a heading line, no abstracts after it")
    for number, (line, paragraph) in enumerate(paragraphs, start=1):
        abstract = " ".join(part.strip() for part in paragraph.split("\n"))
        yield Record(abstract=abstract, origin=Origin(str(path), number, line), collection=collection)


def _paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, paragraph text) for each run of non-blank lines."""
    lines: list[str]
    start, lines = 0, []
    for number, line in enumerate(_CONTROL.sub("", text).split("\n"), start=1):
        if _BLANK.match(line):
            if lines:
                yield start, "\n".join(lines)
                lines = []
        else:
            if not lines:
                start = number
            lines.append(line.replace("\u00a0", " ").strip())
    if lines:
        yield start, "\n".join(lines)


def read_jsonl(path: Path, text: str, report: Report) -> Iterator[Record]:
    default = collection_from_stem(path.stem)
    number = 0
    for line_number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        number += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{line_number}", f"invalid JSON: {exc.msg} (column {exc.colno})") from None
        yield _record(obj, Origin(str(path), number, line_number), default, report)
    if number == 0:
        raise InputError(str(path), "no records found (the file is empty)")


def read_json(path: Path, text: str, report: Report) -> Iterator[Record]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}", f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    default = collection_from_stem(path.stem)
    if isinstance(data, dict):
        # {"collection": "...", "papers": [...]} names the collection once for all records.
        default = _optional_str(data.get("collection"), "collection", str(path), report) or default
        data = data.get("papers", data.get("records"))
    if not isinstance(data, list):
        raise InputError(str(path), 'expected a list of records or {"papers": [...]}')
    if not data:
        raise InputError(str(path), "no records found (the list is empty)")
    lines = _json_object_lines(text, len(data))
    for number, obj in enumerate(data, start=1):
        yield _record(obj, Origin(str(path), number, lines[number - 1]), default, report)


def _json_object_lines(text: str, count: int) -> list[int]:
    """Best-effort start line of each top-level object, for messages; 0 when unknown."""
    starts = [m.start() for m in re.finditer(r"(?m)^\s{0,8}\{", text)]
    if len(starts) != count:
        return [0] * count
    return [text.count("\n", 0, s) + 1 for s in starts]


def read_csv(path: Path, text: str, report: Report) -> Iterator[Record]:
    # strict: a quote never closed is an error at the line its record begins on; read leniently,
    # it swallowed every record after it into one cell.
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    line = 1  # where the row being read begins
    try:
        if not reader.fieldnames:
            raise InputError(str(path), "no header row (the file is empty)")
        reader.fieldnames = [name.strip().lower() for name in reader.fieldnames]
        if "abstract" not in reader.fieldnames:
            raise InputError(f"{path}:1", f"no 'abstract' column (columns: {', '.join(reader.fieldnames)})")
        default = collection_from_stem(path.stem)
        number = 0
        line = reader.line_num + 1
        for row in reader:
            number += 1
            if None in row:
                raise InputError(f"{path}:{line}", "more cells than header columns")
            obj = {key: value for key, value in row.items() if value not in (None, "")}
            yield _record(obj, Origin(str(path), number, line), default, report)
            line = reader.line_num + 1
    except csv.Error as error:
        raise InputError(f"{path}:{line}", f"invalid CSV: {error} (a quoted cell not closed?)") from None
    if number == 0:
        raise InputError(str(path), "no records found (only a header row)")


Reader = Callable[[Path, str, Report], Iterator[Record]]
READERS: dict[str, Reader] = {
    ".txt": read_text,
    ".md": read_text,
    ".jsonl": read_jsonl,
    ".ndjson": read_jsonl,
    ".json": read_json,
    ".csv": read_csv,
}


def _record(obj: object, origin: Origin, default_collection: str, report: Report) -> Record:
    where = origin.where()
    if not isinstance(obj, dict):
        raise InputError(where, f"expected an object with an 'abstract', got {type(obj).__name__}")
    unknown = sorted(set(obj) - FIELDS - IGNORED_FIELDS)
    if unknown:
        report.warn(where, f"ignored unknown field(s): {', '.join(map(str, unknown))}")
    abstract = obj.get("abstract")
    if not isinstance(abstract, str):
        if abstract is None:
            raise InputError(where, "record has no 'abstract'")
        raise InputError(where, f"'abstract' must be text, got {type(abstract).__name__}")
    abstract = _text(abstract)
    if not abstract:
        raise InputError(where, "'abstract' is empty")
    record_id = obj.get("id")
    if isinstance(record_id, (int, float)) and not isinstance(record_id, bool):
        record_id = str(record_id)
    return Record(
        abstract=abstract,
        origin=Origin(origin.file, origin.record, origin.line, _optional_str(record_id, "id", where, report)),
        collection=_optional_str(obj.get("collection"), "collection", where, report) or default_collection,
        title=_optional_str(obj.get("title"), "title", where, report),
        keywords=_str_list(obj.get("keywords"), "keywords", where, report),
        authors=_str_list(obj.get("authors"), "authors", where, report),
        url=_link(obj.get("url"), where, report),
        primary_area=_optional_str(obj.get("primary_area"), "primary_area", where, report),
        tldr=_optional_str(obj.get("tldr"), "tldr", where, report),
    )


def _text(value: str) -> str:
    """One line of text: control characters removed, whitespace collapsed."""
    if value.isprintable():  # no control character (nor tab or line end): most values
        return collapse_space(value)
    return " ".join(_CONTROL.sub("", value).split())


def _shortened(text: str, max_chars: int) -> str:
    """At most max_chars characters, cut at a word boundary when one is near, ending in '…'."""
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    space = cut.rfind(" ", max_chars // 2)
    return (cut[:space] if space > 0 else cut).rstrip() + "…"


def _optional_str(value: object, name: str, where: str, report: Report) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(where, f"'{name}' must be text, got {type(value).__name__}")
    value = _text(value)
    limit = MAX_CHARS.get(name)
    if limit and len(value) > limit:
        report.warn(where, f"{name} is {len(value):,} characters; shortened to {limit}")
        value = _shortened(value, limit)
    return value or None


def _link(value: object, where: str, report: Report) -> str | None:
    """The record's own url when the site may link to it (generator.sources.urlpolicy), else None."""
    url = _optional_str(value, "url", where, report)
    if url is None:
        return None
    if len(url) > MAX_URL_CHARS:
        report.warn(where, f"url is {len(url):,} characters (more than {MAX_URL_CHARS:,}); not linked")
        return None
    link = web_url(url)
    if link is None:
        report.warn(where, f"url '{_shortened(url, 80)}' is not http(s); not linked")
    return link


def _str_list(value: object, name: str, where: str, report: Report) -> tuple[str, ...]:
    """A list of strings, or one string separated by ';' (or ',' when there is no ';')."""
    if value is None:
        return ()
    if isinstance(value, str):
        separator = ";" if ";" in value else ","
        items: Iterable[object] = value.split(separator)
    elif isinstance(value, list):
        items = value
    else:
        raise InputError(where, f"'{name}' must be a list of text, got {type(value).__name__}")
    result: dict[str, None] = {}  # in order, without repeats
    long_items = 0
    for item in items:
        if not isinstance(item, str):
            raise InputError(where, f"'{name}' must be a list of text, found {type(item).__name__}")
        item = _text(item)
        if name == "authors":  # one name, one spelling: the same letters composed or not are one author
            item = unicodedata.normalize("NFC", item)
        if len(item) > MAX_ITEM_CHARS:
            item, long_items = _shortened(item, MAX_ITEM_CHARS), long_items + 1
        if item:
            result[item] = None
    if long_items:
        report.warn(where, f"{long_items:,} of the {name} longer than {MAX_ITEM_CHARS} characters; shortened")
    limit = MAX_ITEMS[name]
    if len(result) > limit:
        report.warn(where, f"{len(result):,} {name}; kept the first {limit}")
    return tuple(result)[:limit]


def read_file(path: Path, report: Report, shown_as: str | None = None) -> list[Record]:
    """Records of one file; `shown_as` is the path named in messages and pages (default: as given)."""
    return list(file_records(path, report, shown_as))


def file_records(path: Path, report: Report, shown_as: str | None = None) -> Iterator[Record]:
    """`read_file`, each record as soon as it is read."""
    if shown_as is None:
        yield from _read_file(path, report)
    else:
        for r in _read_file(path, report):
            yield replace(r, origin=replace(r.origin, file=shown_as))


def _read_file(path: Path, report: Report) -> Iterator[Record]:
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        known = ", ".join(sorted(READERS))
        raise InputError(str(path), f"unknown input format '{path.suffix}' (expected one of: {known})")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(str(path), "no such file") from None
    except IsADirectoryError:
        raise InputError(str(path), "is a directory") from None
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror}") from None
    refused = Report()  # said after the reader's own warnings of the file, as ever
    for record in reader(path, decode(path, data), report):
        for url in refused_urls(record.abstract):
            refused.warn(record.origin.where(), f"url '{_shortened(url, 80)}' in the abstract is not http(s); shown as text")
        yield record
    report.warnings.extend(refused.warnings)


def expand_inputs(paths: Iterable[Path], report: Report) -> list[Path]:
    """Files as given, plus the input files inside given folders (others are reported), in a stable order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            try:
                entries = sorted(p for p in path.iterdir() if not p.name.startswith("."))
            except OSError as exc:
                raise InputError(str(path), f"cannot read folder: {exc.strerror}") from None
            found = [p for p in entries if p.is_file() and p.suffix.lower() in READERS and p.stem.upper() not in PROJECT_FILES]
            for skipped in entries:
                if skipped in found:
                    continue
                if skipped.is_dir() and skipped.suffix.lower() in READERS:  # an input file replaced by a folder
                    report.unreadable.append(f"{skipped}: a folder, not a file; its abstracts are left out")
                else:
                    report.warn(str(skipped), "skipped: not an input file (.txt, .md, .jsonl, .json, .csv)")
            if not found:
                raise InputError(str(path), "folder holds no input files (.txt, .md, .jsonl, .json, .csv)")
            files.extend(found)
        elif not path.exists():
            raise InputError(str(path), "no such file or folder")
        else:
            files.append(path)
    return files


def shown_path(path: Path, root: Path | None) -> str:
    """A path as pages show it: relative to root (the project, or where the command ran),
    so a site built on another machine does not reveal where it was built."""
    if root is None:
        return str(path)
    return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()


def input_files(paths: Iterable[Path], report: Report) -> list[Path]:
    """The files to read, sorted, so the output does not depend on the order inputs were listed in."""
    return sorted(set(expand_inputs(paths, report)), key=lambda p: str(p))


def read_files(files: list[Path], report: Report, root: Path | None = None) -> list[Record]:
    """Every record of `files`, in order (see records_as_read)."""
    return list(records_as_read(files, report, root))


def records_as_read(
    files: list[Path], report: Report, root: Path | None = None, read: Callable[[Path, Report, str | None], Iterable[Record]] = file_records
) -> Iterator[Record]:
    """`read_files`, each record as soon as it is read: the enrich workers start on the first
    ones while the rest are read. Repeated ids are reported once all are read. `read(path,
    report, shown)`: one file's records (file_records; under `mkdocs serve` the session's,
    which reuses a file whose bytes did not change and stands in for one that cannot be read)."""
    records: list[Record] = []
    for path in files:
        for record in read(path, report, shown_path(path, root) if root else None):
            records.append(record)
            yield record
    _report_repeated_ids(records, report)


def last_readable(
    path: str,
    shown: str | None,
    data: bytes | None,
    error: InputError,
    readable: dict[str, tuple[list[Record], list[str]]],
    report: Report,
) -> tuple[list[Record], list[str]]:
    """What a file that cannot be read now stands for under serve (`readable`: each file's last
    readable records and warnings, by path): nothing where it was emptied (its pages go), else
    its last readable records (none where it never was), the error (the file named as pages
    name it) said in `report.unreadable`."""
    if data is not None and not data.strip():
        readable[path] = ([], [])
        return [], []
    where = f"{shown}{error.where.removeprefix(path)}" if shown and error.where.startswith(path) else error.where
    if path in readable:
        report.unreadable.append(f"{where}: {error.message}; the site shows this file as it was last readable")
        return readable[path]
    report.unreadable.append(f"{where}: {error.message}; its abstracts are left out until it can be read")
    return [], []


def read_file_alone(path: Path, shown_as: str | None) -> tuple[list[Record], list[str]]:
    """One file's records and the warnings reading it gave."""
    report = Report()
    return read_file(path, report, shown_as), report.warnings


def read_inputs(paths: Iterable[Path], report: Report, root: Path | None = None) -> list[Record]:
    """Every record of every input (files and folders)."""
    return read_files(input_files(paths, report), report, root)


def _report_repeated_ids(records: list[Record], report: Report) -> None:
    """Two different records sharing an id are both kept (ids are the input's, not ours), and reported."""
    first: dict[tuple[str, str], Record] = {}
    for record in records:
        if record.origin.record_id is None:
            continue
        key = (record.origin.file, record.origin.record_id)
        if key in first and first[key].abstract != record.abstract:
            report.warn(
                record.origin.where(),
                f"id '{record.origin.record_id}' repeats {first[key].origin.where()} with another abstract; both kept",
            )
        first.setdefault(key, record)
