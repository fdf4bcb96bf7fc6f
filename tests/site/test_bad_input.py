"""The bad-input matrix: every case either builds a correct set of pages and reports what it
handled, or stops with a clear message naming the file (and line). Nothing is lost."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import bibtexparser
import frontmatter
import pytest
from bibtexparser.middlewares import SeparateCoAuthors
from pylatexenc.latex2text import LatexNodes2Text
from test_scale import PAGE_BUDGET

from generator.errors import InputError
from generator.pipeline import generate
from generator.runtime.session import Session
from generator.sources.readers import read_file
from generator.sources.urlpolicy import web_url
from helpers import HOSTILE_URLS, Dom, run_cli

A = "We propose AlphaNet, a network for graph classification. It works well on molecules."
B = "We study the convergence of stochastic gradient descent in deep linear networks."
C = "This paper introduces BetaBench, a benchmark of 500 tasks for evaluating code agents."

# case id -> (files, expected papers, a fragment every report must contain or None)
HANDLED = {
    "crlf": ({"x.txt": f"Heading\r\n\r\n{A}\r\n\r\n{B}\r\n"}, 2, None),
    "cr-only": ({"x.txt": f"Heading\r\r{A}\r\r{B}\r"}, 2, None),
    "utf8-bom": ({"x.txt": f"\ufeffHeading\n\n{A}\n"}, 1, None),
    "utf16-bom": ({"x.txt": f"Heading\n\n{A}\n\n{B}\n".encode("utf-16")}, 2, None),
    "no-heading": ({"x.txt": f"{A} {B} {C}\n\n{B}\n"}, 2, "no heading line"),
    "giant-paragraph": ({"x.txt": "Heading\n\n" + ("word " * 25000) + A + "\n"}, 1, None),
    "tabs-and-nbsp-separators": ({"x.txt": f"Heading\n\t\n{A}\n\u00a0 \n{B}\n"}, 2, None),
    "same-abstract-twice": ({"x.txt": f"Heading\n\n{A}\n\n{B}\n\n{A}\n"}, 2, "x.txt:7 repeats"),
    "same-abstract-across-files": ({"x.txt": f"H\n\n{A}\n", "y.txt": f"H\n\n{A}\n\n{B}\n"}, 2, "y.txt:3 repeats"),
    "near-duplicates": ({"x.txt": f"H\n\n{A}\n\n{A.upper()}\n\n{A.replace(' ', '   ')}\n"}, 1, "repeats"),
    "binary-file-in-folder": ({"x.txt": f"H\n\n{A}\n", "figure.png": b"\x89PNG\r\n\x1a\n\x00"}, 1, "figure.png: skipped"),
    "readme-in-folder": ({"x.txt": f"H\n\n{A}\n", "README.md": "# About these files\n\nThey hold abstracts.\n"}, 1, "README.md: skipped"),
    "jsonl-extra-fields": ({"x.jsonl": json.dumps({"abstract": A, "colour": "red"}) + "\n"}, 1, "ignored unknown field(s): colour"),
    "jsonl-duplicate-ids": (
        {"x.jsonl": json.dumps({"abstract": A, "id": "7"}) + "\n" + json.dumps({"abstract": B, "id": "7"}) + "\n"},
        2,
        "id '7' repeats",
    ),
    "csv-quoted-newlines-bom": ({"x.csv": f'\ufeffabstract,title\n"{A}\nsecond line",T\n"{B}",U\n'}, 2, None),
    "rtl-emoji-cjk": ({"x.txt": "H\n\nنقترح طريقة جديدة 🚀 我们提出一种新方法 for graphs.\n\n" + A + "\n"}, 2, None),
    "very-long-word-and-url": ({"x.txt": "H\n\n" + "x" * 3000 + " https://example.org/" + "a" * 2000 + ". " + A + "\n"}, 1, None),
}

ERRORS = {
    "empty-file": ({"x.txt": ""}, "x.txt: no abstracts found"),
    "heading-only": ({"x.txt": "Just A Heading\n"}, "x.txt:1: only a heading line"),
    "latin1": ({"x.txt": "Heading\n\ncaf\xe9\n".encode("latin-1")}, "x.txt:3: invalid UTF-8 byte 0xe9"),
    "cp1252-quotes": ({"x.txt": "Heading\n\nso \x93quoted\x94 text\n".encode("latin-1")}, "x.txt:3: invalid UTF-8 byte 0x93"),
    "invalid-utf8": ({"x.txt": b"Heading\n\nok\n\nbad \xff\xfe byte\n"}, "x.txt:5: invalid UTF-8 byte 0xff"),
    "nul-bytes": ({"x.txt": b"Heading\n\nab\x00c\n"}, "x.txt: not a text file"),
    "png-named-txt": ({"x.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00"}, "x.txt: not a text file"),
    "jsonl-bad-line": ({"x.jsonl": json.dumps({"abstract": A}) + "\n{oops\n"}, "x.jsonl:2: invalid JSON"),
    "jsonl-missing-abstract": ({"x.jsonl": '{"title": "T"}\n'}, "x.jsonl:1: record has no 'abstract'"),
    "jsonl-wrong-types": ({"x.jsonl": '{"abstract": ["a", "b"]}\n'}, "x.jsonl:1: 'abstract' must be text, got list"),
    "json-not-a-list": ({"x.json": '"just a string"'}, "x.json: expected a list of records"),
    "json-half-typed": ({"x.json": '[{"abstract": "An abstract being typed'}, "x.json:1: invalid JSON"),
    "csv-without-abstract-column": ({"x.csv": "title\nT\n"}, "x.csv:1: no 'abstract' column"),
    "csv-quote-never-closed": ({"x.csv": f'abstract,title\n"{A}",T\n"{B},U\n'}, "x.csv:3: invalid CSV"),
    "jsonl-half-typed": (
        {"x.jsonl": json.dumps({"abstract": A}) + '\n{"id": "x1", "abstract": "An abstract being typed'},
        "x.jsonl:2: invalid JSON",
    ),
    "unknown-extension": ({"x.docx": "whatever"}, "x.docx: unknown input format"),
    "folder-without-inputs": ({"notes/readme.rst": "hi"}, "notes: folder holds no input files"),
}


def make(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    folder = tmp_path / "in"
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return folder


@pytest.mark.parametrize("case", sorted(HANDLED))
def test_handled_cases_build_every_abstract_and_report(tmp_path, case):
    files, expected_papers, reported = HANDLED[case]
    folder = make(tmp_path, files)
    summary = generate([folder], tmp_path / "docs")
    assert summary.papers == expected_papers
    pages = sorted((tmp_path / "docs" / "papers").glob("*.md"))
    assert len(pages) == expected_papers
    if reported:
        assert any(reported in line for line in summary.lines()), summary.lines()
    for page in pages:
        post = frontmatter.load(page)
        # Tags or key phrases: a derived tag needs a second paper to group (issue 33).
        assert post["title"] and post["summary"] and (post["tags"] or post["keyphrases"])
        assert "<script" not in post.content


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_error_cases_name_the_file_and_line(tmp_path, case):
    files, message = ERRORS[case]
    folder = make(tmp_path, files)
    # A folder skips files of other formats; named directly, they are an error.
    target = {"folder-without-inputs": folder / "notes", "unknown-extension": folder / "x.docx"}.get(case, folder)
    with pytest.raises(InputError) as error:
        generate([target], tmp_path / "docs")
    assert message in str(error.value).replace(str(folder) + "/", "")
    assert not (tmp_path / "docs" / "papers").exists()  # nothing half-written


SERVE_CASES = sorted(set(ERRORS) - {"folder-without-inputs", "unknown-extension"})  # a file's content, not the inputs' shape


@pytest.mark.parametrize("case", SERVE_CASES)
def test_under_serve_a_file_that_cannot_be_read_keeps_its_last_readable_abstracts_and_says_why(tmp_path, case):
    """Under `mkdocs serve` the same saves neither stop the run nor lose an abstract: the file's
    last readable records stay (an emptied file's pages go), the error is in the report, and the
    next good save clears it (issue 56)."""
    files, message = ERRORS[case]
    (name,) = files
    folder = make(tmp_path, {name: good_version(name), "other.txt": f"H\n\n{B}\n"})
    session = Session()
    assert generate([folder], tmp_path / "docs", session=session).papers == 2
    (folder / name).write_bytes(files[name] if isinstance(files[name], bytes) else files[name].encode("utf-8"))
    summary = generate([folder], tmp_path / "docs", session=session)
    if case == "empty-file":
        assert summary.papers == 1 and summary.report.unreadable == []
    else:
        assert summary.papers == 2
        (said,) = summary.report.unreadable
        assert message in said.replace(str(folder) + "/", "") and said.endswith("the site shows this file as it was last readable")
    (folder / name).write_text(good_version(name), encoding="utf-8")
    mended = generate([folder], tmp_path / "docs", session=session)
    assert mended.papers == 2 and mended.report.unreadable == []


def good_version(name: str) -> str:
    """A readable file of `name`'s format holding abstract A."""
    return {".txt": f"H\n\n{A}\n", ".jsonl": json.dumps({"abstract": A}) + "\n", ".json": json.dumps([{"abstract": A}])}.get(
        Path(name).suffix, f'abstract\n"{A}"\n'
    )


def test_under_serve_a_file_never_readable_is_left_out_with_the_reason(tmp_path):
    folder = make(tmp_path, {"other.txt": f"H\n\n{B}\n", "typing.jsonl": '{"id": "x1", "abstract": "An abstract being typed'})
    summary = generate([folder], tmp_path / "docs", session=Session())
    assert summary.papers == 1
    (said,) = summary.report.unreadable
    assert "typing.jsonl:1: invalid JSON" in said and said.endswith("its abstracts are left out until it can be read")


def test_under_serve_an_input_file_replaced_by_a_folder_is_said_and_its_pages_go(tmp_path):
    folder = make(tmp_path, {"other.txt": f"H\n\n{B}\n", "x.txt": f"H\n\n{A}\n"})
    session = Session()
    assert generate([folder], tmp_path / "docs", session=session).papers == 2
    (folder / "x.txt").unlink()
    (folder / "x.txt").mkdir()
    summary = generate([folder], tmp_path / "docs", session=session)
    assert summary.papers == 1 and len(list((tmp_path / "docs" / "papers").glob("*.md"))) == 1
    assert summary.report.unreadable == [f"{folder / 'x.txt'}: a folder, not a file; its abstracts are left out"]


def test_errors_reach_the_user_without_a_traceback(tmp_path):
    folder = make(tmp_path, {"x.jsonl": json.dumps({"abstract": A}) + "\n{oops\n"})
    result = run_cli("generate", str(folder), "--out", str(tmp_path / "docs"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {folder}/x.jsonl:2: invalid JSON: Expecting property name enclosed in double quotes (column 2)"


@pytest.mark.parametrize("case", ["csv-quote-never-closed", "jsonl-half-typed", "invalid-utf8"])
def test_a_half_saved_file_fails_a_build_with_status_2_and_its_line(tmp_path, case):
    """What `mkdocs serve` now rides over still stops a build (CI must fail on bad input)."""
    files, message = ERRORS[case]
    folder = make(tmp_path, files)
    result = run_cli("build", str(folder), "--site", str(tmp_path / "site"), "--docs", str(tmp_path / "docs"))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_missing_path_unreadable_file_and_output_that_is_a_file(tmp_path, monkeypatch):
    with pytest.raises(InputError, match="no such file or folder"):
        generate([tmp_path / "nope.txt"], tmp_path / "docs")
    folder = make(tmp_path, {"x.txt": f"H\n\n{A}\n"})
    (tmp_path / "out").write_text("a file")
    with pytest.raises(InputError, match="output folder is a file"):
        generate([folder], tmp_path / "out")

    def deny(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", deny)
    with pytest.raises(InputError, match=r"x.txt: cannot read: Permission denied"):
        read_file(folder / "x.txt", __import__("generator.errors").errors.Report())


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<iframe src=javascript:alert(1)></iframe>",
    "[x](javascript:alert(1))",
    "<!-- hidden comment -->",
    "{{ config }} and {% include 'secret' %}",
    "<!-- material/tags -->",
    "&lt;b&gt; and &amp; entities",
    "unbalanced $ dollar and \\( paren",
    "| a | b |",
]


def hostile_file(tmp_path: Path) -> Path:
    lines = [f"We propose Method{i}, which handles {h} in abstracts about graphs." for i, h in enumerate(HOSTILE)]
    lines += ["# A leading hash abstract about graph learning methods.", "---", "A line of dashes preceded this abstract on graphs."]
    return make(tmp_path, {"hostile.txt": "Hostile Inputs\n\n" + "\n\n".join(lines) + "\n"})


def test_hostile_abstracts_become_text_in_the_built_site(tmp_path):
    folder = hostile_file(tmp_path)
    site = tmp_path / "site"
    result = run_cli("build", str(folder), "--site", str(site))
    assert result.returncode == 0, result.stderr[-2000:]
    pages = sorted((site / "papers").glob("*/index.html"))
    assert len(pages) == len(HOSTILE) + 3
    for page in pages:
        html = page.read_text(encoding="utf-8")
        dom = Dom(html[html.index('<article class="paper"') : html.index("</article>")])
        assert not {"script", "img", "iframe", "object", "embed", "style"} & {tag for tag, _ in dom.elements}, page
        for tag, attributes in dom.elements:
            for name, value in attributes.items():
                assert not name.startswith("on"), (page, tag, name)
                assert not (value or "").strip().lower().startswith("javascript:"), (page, tag, value)
        assert not dom.comments, page


# Given fields (conftest.hostile_records: every field of each record holds one hostile value).

LINK_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "srcset"}


def shown(value: str) -> str:
    """A given value as the site shows it: whitespace collapsed, otherwise exactly as given."""
    return " ".join(value.split())


def typeset(latex: str) -> str:
    """The text LaTeX typesets from a BibTeX field, as pylatexenc reads it ('^' is a modifier letter there)."""
    return LatexNodes2Text().latex_to_text(latex).replace("\u02c6", "^")


def first(pattern: str, page: str) -> str:
    """The text of the first match of an element in our templates' output, entities decoded."""
    match = re.search(pattern, page, re.S)
    assert match, pattern
    return html.unescape(match.group(1)).strip()


def assert_no_markup_from_input(site: Path) -> None:
    """No page of the site holds an element, attribute, comment or link target from the input."""
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert "<x-injected" not in text, page  # not even in a script or a JSON blob
        dom = Dom(text)
        for tag, attributes in dom.elements:
            for name, value in attributes.items():
                assert name != "data-injected" and not name.startswith("on"), (page, tag, name)
                if name in LINK_ATTRIBUTES and value:
                    assert urlsplit(value.strip()).scheme in ("", "http", "https"), (page, tag, name, value)
        assert not [c for c in dom.comments if "injected" in c or "material/tags" in c], page


def test_hostile_given_fields_become_no_element_attribute_or_link_anywhere(hostile_site):
    site, records, _ = hostile_site
    assert len(list(site.rglob("*.html"))) > 3 * len(records)  # papers, tags, areas, collections, map, home, ...
    assert_no_markup_from_input(site)


def test_a_site_named_after_a_hostile_collection_shows_its_name_as_text(tmp_path):
    # One collection: the command line names the site after it, and the theme prints the name.
    name = '<x-injected data-injected>"quoted" & <img src=x onerror=alert(1)>'
    folder = make(tmp_path, {"x.jsonl": "".join(json.dumps({"abstract": a, "collection": name}) + "\n" for a in (A, B))})
    result = run_cli("build", str(folder / "x.jsonl"), "--site", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert_no_markup_from_input(tmp_path / "site")
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert first(r"<title>(.*?)</title>", home) == name
    assert first(r'<h1 id="[^"]*">(.*?)<a class="headerlink"', home) == name  # the generator's heading: escaped once
    assert first(r'class="md-header__button md-logo" aria-label="(.*?)"', home) == name


def test_hostile_given_fields_are_shown_as_given_on_their_pages(hostile_site):
    site, records, _ = hostile_site
    papers = {p["source"]["id"]: p for p in json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]}
    for record in records:
        paper = papers[shown(record["id"])]
        assert (paper["title"], paper["summary"], paper["collection"]) == (
            shown(record["title"]),
            shown(record["tldr"]),
            shown(record["collection"]),
        )
        assert paper["authors"] == [shown(a) for a in record["authors"]]
        page = (site / paper["url"] / "index.html").read_text(encoding="utf-8")
        title = shown(record["title"])
        assert first(r"<title>(.*?)</title>", page) == f"{title} - Paper abstracts"
        assert first(r'<meta property="og:title" content="(.*?)">', page) == title
        assert first(r'<meta name="description" content="(.*?)">', page) == shown(record["tldr"])
        assert first(r"<h1 data-pagefind-meta=\"title\"[^>]*>(.*?)</h1>", page) == title
        assert first(r'data-md-component="header-topic">\s*<span class="md-ellipsis">(.*?)</span>', page) == title
        # Each name as text, linking to its author page by the name as given (issue 35).
        names = re.findall(r'<a href="([^"]*)">(.*?)</a>', first(r'<p class="paper-authors"[^>]*>(.*?)</p>', page))
        assert [text for _, text in names] == [shown(a) for a in record["authors"]]
        assert [parse_qs(urlsplit(html.unescape(href)).query)["name"] for href, _ in names] == [[shown(a)] for a in record["authors"]]
        # The BibTeX entry (issue 35) parses, and LaTeX would typeset the title and names as given.
        entry = bibtexparser.parse_string(
            first(r'<pre class="paper-bibtex"[^>]*><code>(.*?)</code></pre>', page), append_middleware=[SeparateCoAuthors()]
        )
        assert not entry.failed_blocks and len(entry.entries) == 1
        fields = entry.entries[0].fields_dict
        assert typeset(fields["title"].value) == title.replace('"', "''")  # LaTeX's quotes for '"'
        assert [typeset(a) for a in fields["author"].value] == [shown(a).replace('"', "''") for a in record["authors"]]
        # The only links from input: its http(s) url, and a browser reads them as written.
        for link in paper["links"]:
            assert link["url"].startswith(("http://", "https://")) and web_url(link["url"]) == link["url"], link


def test_hostile_urls_are_reported_with_their_record_and_never_linked(hostile_site):
    site, records, log = hostile_site
    refused = [u for u in HOSTILE_URLS if web_url(u) is None]
    assert len(refused) == len(HOSTILE_URLS) - 1
    for line, record in enumerate(records, start=1):
        if web_url(record["url"]) is None:
            url = shown(record["url"].replace("\x01", "").replace("\x02", ""))
            assert f"hostile.jsonl:{line}: url '{url}' is not http(s); not linked" in log
            assert re.search(rf"hostile.jsonl:{line}: url '[^']+' in the abstract is not http\(s\); shown as text", log)
    links = [l["url"] for p in json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"] for l in p["links"]]  # noqa: E741
    # The one http(s) url is linked, its markup percent-encoded (also from the abstract's \\url{}).
    assert "https://example.org/%22%3E%3Cx-injected%20data-injected%3E" in links
    assert all(web_url(link) == link for link in links)


def test_hostile_given_fields_keep_feeds_and_sitemap_well_formed(hostile_site):
    site, records, _ = hostile_site
    atom = "{http://www.w3.org/2005/Atom}"
    titles = []
    for feed in sorted((site / "feeds").glob("*.xml")):
        root = ET.parse(feed).getroot()
        assert {element.tag for element in root.iter()} <= {
            f"{atom}{t}"
            for t in ("feed", "title", "subtitle", "id", "link", "updated", "generator", "entry", "summary", "category", "author", "name")
        }
        titles += [entry.findtext(f"{atom}title") for entry in root.iter(f"{atom}entry")]
    assert sorted(titles) == sorted(shown(r["title"]) for r in records)
    assert ET.parse(site / "sitemap.xml").getroot() is not None


def test_groups_whose_names_make_the_same_slug_keep_a_page_each(tmp_path):
    records = [
        {"abstract": A, "primary_area": "Robot Arms", "collection": "C++"},
        {"abstract": B, "primary_area": "robot arms!", "collection": "C#"},
    ]
    folder = make(tmp_path, {"x.jsonl": "".join(json.dumps(r) + "\n" for r in records)})
    generate([folder], tmp_path / "docs")
    docs = tmp_path / "docs"
    assert [frontmatter.load(docs / f"areas/{s}.md")["title"] for s in ("robot-arms", "robot-arms-2")] == ["Robot Arms", "robot arms!"]
    assert [frontmatter.load(docs / f"collections/{s}.md")["title"] for s in ("c", "c-2")] == ["C#", "C++"]
    assert sorted(p.name for p in (docs / "feeds").iterdir()) == ["c-2.xml", "c.xml"]
    papers = {p["collection"]: p for p in json.loads((docs / "papers.json").read_text())["papers"]}
    assert (papers["C#"]["collection_url"], papers["C++"]["collection_url"]) == ("collections/c/", "collections/c-2/")


def test_very_long_given_values_are_shortened_and_the_page_stays_within_budget(tmp_path):
    words = "word " * 1000  # 5,000 characters
    huge = {
        "abstract": A,
        "title": words,
        "tldr": words,
        "collection": words,
        "primary_area": words,
        "id": words,
        "keywords": [f"keyword {i}" for i in range(100_000)],  # over 1 MB of JSON
        "authors": [f"Author {i}" for i in range(20_000)],
        "url": "https://x.org/" + "a" * 100_000,
    }
    folder = make(tmp_path, {"x.jsonl": json.dumps({"abstract": B}) + "\n" + json.dumps(huge) + "\n"})
    assert (folder / "x.jsonl").stat().st_size > 1_000_000
    result = run_cli("build", str(folder / "x.jsonl"), "--site", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr[-2000:]
    for message in (
        "title is 4,999 characters; shortened to 300",
        "tldr is 4,999 characters; shortened to 600",
        "collection is 4,999 characters; shortened to 200",
        "primary_area is 4,999 characters; shortened to 200",
        "id is 4,999 characters; shortened to 200",
        "100,000 keywords; kept the first 50",
        "20,000 authors; kept the first 200",
        "url is 100,014 characters (more than 2,000); not linked",
    ):
        assert f"x.jsonl:2: {message}" in result.stderr, message
    page = next(p for p in (tmp_path / "site" / "papers").glob("word-*/index.html"))
    assert page.stat().st_size <= PAGE_BUDGET
    assert first(r"<h1 data-pagefind-meta=\"title\"[^>]*>(.*?)</h1>", page.read_text(encoding="utf-8")).endswith(" word…")
