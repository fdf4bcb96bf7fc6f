"""Reading inputs: every format, the tolerated quirks, and errors that name file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.errors import InputError, Report
from generator.sources.readers import read_file, read_inputs
from helpers import CORPUS, SEEDS, corpus_file

ABSTRACT_A = "We propose Alpha, a method for testing readers. It works."
ABSTRACT_B = "We study beta decay in neural networks. Results follow."


def read(write_files, name: str, content: str | bytes):
    folder = write_files({name: content})
    report = Report()
    return read_file(folder / name, report), report


@pytest.mark.parametrize(
    "content",
    [
        f"My Papers\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n",
        f"My Papers\r\n\r\n{ABSTRACT_A}\r\n\r\n{ABSTRACT_B}\r\n",  # CRLF
        f"My Papers\r\r{ABSTRACT_A}\r\r{ABSTRACT_B}",  # CR only, no final newline
        f"\ufeffMy Papers\n\n{ABSTRACT_A}   \n\n{ABSTRACT_B}",  # BOM, trailing spaces
        f"\n\n  My Papers  \n \t \n{ABSTRACT_A}\n\u00a0\n{ABSTRACT_B}\n\n\n",  # blank-ish separators
        f"# My Papers\n\n{ABSTRACT_A[:30]}\n{ABSTRACT_A[30:]}\n\n{ABSTRACT_B}\n",  # wrapped paragraph
    ],
    ids=["lf", "crlf", "cr-only", "bom-trailing-spaces", "whitespace-separators", "wrapped-lines"],
)
def test_text_format_quirks_give_the_same_records(write_files, content):
    records, report = read(write_files, "papers.txt", content)
    assert [r.collection for r in records] == ["My Papers", "My Papers"]
    assert [" ".join(r.abstract.split()) for r in records] == [ABSTRACT_A, ABSTRACT_B]
    assert report.warnings == []


def test_text_records_know_their_line(write_files):
    records, _ = read(write_files, "p.txt", f"Heading\n\n{ABSTRACT_A}\n\n\n{ABSTRACT_B}\n")
    assert [(r.origin.record, r.origin.line) for r in records] == [(1, 3), (2, 6)]


def test_utf16_with_bom_is_read(write_files):
    records, _ = read(write_files, "p.txt", f"Heading\n\n{ABSTRACT_A}\n".encode("utf-16"))
    assert records[0].abstract == ABSTRACT_A


def test_text_without_heading_is_named_after_the_file_and_reported(write_files):
    long_first = ABSTRACT_A * 5
    records, report = read(write_files, "neurips2023.txt", f"{long_first}\n\n{ABSTRACT_B}\n")
    assert records[0].collection == "NEURIPS 2023"
    assert len(records) == 2
    assert "no heading line" in report.warnings[0]


def test_records_formats(write_files):
    jsonl = (
        '{"abstract": "' + ABSTRACT_A + '", "title": "Alpha", "keywords": ["a", "b"], "id": 7}\n'
        "\n"
        '{"abstract": "' + ABSTRACT_B + '", "decision": "Accept", "authors": "Ann; Bob"}\n'
    )
    records, report = read(write_files, "conf2024.jsonl", jsonl)
    assert records[0].title == "Alpha" and records[0].keywords == ("a", "b")
    assert records[0].origin.record_id == "7" and records[0].collection == "CONF 2024"
    assert records[1].authors == ("Ann", "Bob") and records[1].origin.line == 3
    assert report.warnings == []

    json_text = '{"collection": "Named", "papers": [\n  {"abstract": "' + ABSTRACT_A + '"}\n]}'
    records, _ = read(write_files, "x.json", json_text)
    assert records[0].collection == "Named"

    csv_text = '\ufeffAbstract,Title,Keywords\n"' + ABSTRACT_A + '\nsecond line",T1,"x; y"\n' + ABSTRACT_B + ",T2,\n"
    records, _ = read(write_files, "x.csv", csv_text)
    assert records[0].abstract.endswith("It works. second line")
    assert records[0].keywords == ("x", "y")
    assert (records[1].title, records[1].origin.line) == ("T2", 4)


def test_unknown_fields_are_reported_not_fatal(write_files):
    records, report = read(write_files, "x.jsonl", '{"abstract": "' + ABSTRACT_A + '", "colour": "red"}\n')
    assert len(records) == 1
    assert report.warnings == ["%s:1: ignored unknown field(s): colour" % (Path(records[0].origin.file))]  # noqa: UP031


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.txt", "", "empty.txt: no abstracts found"),
        ("heading.txt", "Only A Heading\n", "heading.txt:1: only a heading line"),
        ("bad.jsonl", '{"abstract": "ok"}\n{"abstract": \n', "bad.jsonl:2: invalid JSON"),
        ("missing.jsonl", '{"title": "no abstract"}\n', "missing.jsonl:1: record has no 'abstract'"),
        ("types.jsonl", '{"abstract": 42}\n', "types.jsonl:1: 'abstract' must be text, got int"),
        ("kw.jsonl", '{"abstract": "x y", "keywords": {"a": 1}}\n', "kw.jsonl:1: 'keywords' must be a list of text"),
        ("blank.jsonl", '{"abstract": "   "}\n', "blank.jsonl:1: 'abstract' is empty"),
        ("list.json", '{"abstract": "x"}', "list.json: expected a list of records"),
        ("nocol.csv", "title,body\nT,B\n", "nocol.csv:1: no 'abstract' column"),
        ("latin1.txt", "Heading\n\ncaf\xe9 au lait\n".encode("latin-1"), "latin1.txt:3: invalid UTF-8 byte 0xe9 at column 4"),
        ("nul.txt", b"Heading\n\nabc\x00def\n", "nul.txt: not a text file"),
        ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "image.txt: not a text file"),
        ("paper.pdf", "whatever", "paper.pdf: unknown input format '.pdf'"),
    ],
)
def test_bad_input_fails_with_file_and_line(write_files, name, content, message):
    folder = write_files({name: content})
    with pytest.raises(InputError) as error:
        read_file(folder / name, Report())
    assert str(error.value).startswith(str(folder / message.split(":")[0]))
    assert message.split(":", 1)[1].strip() in str(error.value)
    assert message in str(error.value).replace(str(folder) + "/", "")


def test_missing_input_path(tmp_path):
    with pytest.raises(InputError, match="no such file or folder"):
        read_inputs([tmp_path / "nope.txt"], Report())


def test_input_order_does_not_matter(write_files):
    folder = write_files({"a.txt": f"A\n\n{ABSTRACT_A}\n", "b.txt": f"B\n\n{ABSTRACT_B}\n"})
    forward = read_inputs([folder / "a.txt", folder / "b.txt"], Report())
    backward = read_inputs([folder / "b.txt", folder / "a.txt"], Report())
    assert forward == backward


def test_the_seeds_hold_38_abstracts_in_one_collection():
    records = read_inputs([SEEDS], Report())
    assert len(records) == 38
    assert {r.collection for r in records} == {"ICLR 2025 Papers"}


@pytest.mark.parametrize("name", ["colm2025.jsonl", "corl2025.jsonl", "iclr2018.jsonl", "iclr2024.jsonl", "ijcai2024.jsonl"])
def test_every_corpus_file_loads_as_it_is(name):
    report = Report()
    records = read_file(corpus_file(name), report)
    expected = sum(1 for line in (CORPUS / name).open(encoding="utf-8") if line.strip())
    assert len(records) == expected
    assert report.warnings == []
    assert all(r.abstract for r in records)


# A record's url as given -> the warning (the link is dropped; nothing else about the record is).
REFUSED_URLS = {
    "javascript": ("javascript:alert(document.domain)", "url 'javascript:alert(document.domain)' is not http(s); not linked"),
    "mixed-case": ("JaVaScRiPt:alert(1)", "url 'JaVaScRiPt:alert(1)' is not http(s); not linked"),
    "leading-spaces": ("   javascript:alert(1)", "url 'javascript:alert(1)' is not http(s); not linked"),
    "control-characters": ("\u0001java\u0002script:alert(1)", "url 'javascript:alert(1)' is not http(s); not linked"),
    "entity": ("&#106;avascript:alert(1)", "url '&#106;avascript:alert(1)' is not http(s); not linked"),
    "data": ("data:text/html,<script>alert(1)</script>", "url 'data:text/html,<script>alert(1)</script>' is not http(s); not linked"),
    "vbscript": ("vbscript:msgbox(1)", "url 'vbscript:msgbox(1)' is not http(s); not linked"),
    "file": ("file:///etc/passwd", "url 'file:///etc/passwd' is not http(s); not linked"),
    "site-relative": ("/papers/other/", "url '/papers/other/' is not http(s); not linked"),
    "too-long": ("https://x.org/" + "a" * 2000, "url is 2,014 characters (more than 2,000); not linked"),
}


@pytest.mark.parametrize("url, message", REFUSED_URLS.values(), ids=REFUSED_URLS.keys())
def test_a_url_that_is_not_http_is_dropped_and_reported_with_its_line(write_files, url, message):
    content = json.dumps({"abstract": ABSTRACT_B}) + "\n" + json.dumps({"abstract": ABSTRACT_A, "url": url, "title": "T"}) + "\n"
    records, report = read(write_files, "x.jsonl", content)
    assert records[1].url is None and records[1].title == "T"
    assert [w.split("x.jsonl", 1)[1] for w in report.warnings] == [f":2: {message}"]


def test_an_http_url_is_kept_as_a_browser_reads_it(write_files):
    records, report = read(write_files, "x.jsonl", json.dumps({"abstract": ABSTRACT_A, "url": "  https://x.org/a b "}) + "\n")
    assert records[0].url == "https://x.org/a%20b"
    assert report.warnings == []


def test_a_url_in_the_abstract_that_is_not_http_is_reported(write_files):
    abstract = f"{ABSTRACT_A} Code: \\url{{javascript:alert(1)}}, data: \\url{{github.com/a/b}}."
    records, report = read(write_files, "x.jsonl", json.dumps({"abstract": abstract}) + "\n")
    assert len(records) == 1
    assert [w.split("x.jsonl", 1)[1] for w in report.warnings] == [
        ":1: url 'javascript:alert(1)' in the abstract is not http(s); shown as text"
    ]


# A given field far longer than any real one -> what is kept, and the warning naming the record.
WORDS = "word " * 1000  # 5,000 characters
LONG_VALUES = {
    "title": ("title", WORDS, 300, "title is 4,999 characters; shortened to 300"),
    "tldr": ("tldr", WORDS, 600, "tldr is 4,999 characters; shortened to 600"),
    "collection": ("collection", WORDS, 200, "collection is 4,999 characters; shortened to 200"),
    "primary_area": ("primary_area", WORDS, 200, "primary_area is 4,999 characters; shortened to 200"),
    "megabyte-keyword-list": ("keywords", [f"keyword {i}" for i in range(100_000)], 50, "100,000 keywords; kept the first 50"),
    "megabyte-keyword-string": ("keywords", ";".join(f"k{i}" for i in range(200_000)), 50, "200,000 keywords; kept the first 50"),
    "megabyte-keyword": ("keywords", ["k" * 1_000_000], 1, "1 of the keywords longer than 200 characters; shortened"),
    "many-authors": ("authors", [f"Author {i}" for i in range(5000)], 200, "5,000 authors; kept the first 200"),
}


@pytest.mark.parametrize("field, value, kept, message", LONG_VALUES.values(), ids=LONG_VALUES.keys())
def test_very_long_given_values_are_shortened_and_reported(write_files, field, value, kept, message):
    records, report = read(write_files, "x.jsonl", json.dumps({"abstract": ABSTRACT_A, field: value}) + "\n")
    shown = getattr(records[0], field)
    if isinstance(shown, str):
        assert kept - len("word ") <= len(shown) <= kept
        assert shown.endswith(" word…")  # cut at a word boundary, marked
    else:
        assert len(shown) == kept
    assert [w.split("x.jsonl", 1)[1] for w in report.warnings] == [f":1: {message}"]


def test_control_characters_are_removed_from_given_fields(write_files):
    record = {"abstract": ABSTRACT_A, "title": "A\u0007 title\u0000", "authors": ["Ann\u001b[31m Lee"], "id": "\u0008x1"}
    records, report = read(write_files, "x.jsonl", json.dumps(record) + "\n")
    assert (records[0].title, records[0].authors, records[0].origin.record_id) == ("A title", ("Ann[31m Lee",), "x1")
