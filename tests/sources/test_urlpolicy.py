"""The one URL policy: input becomes a link target only as an absolute http(s) URL, read the
way a browser reads it; every other scheme, however it is dressed up, is refused."""

from __future__ import annotations

import pytest

from generator.sources.urlpolicy import web_url

REFUSED = {
    "javascript": "javascript:alert(document.domain)",
    "mixed-case": "JaVaScRiPt:alert(1)",
    "leading-spaces": "   javascript:alert(1)",
    "leading-control-characters": "\x01\x1fjavascript:alert(1)",
    "tab-inside-scheme": "java\tscript:alert(1)",
    "newline-inside-scheme": "java\nscript:alert(1)",
    "numeric-entity": "&#106;avascript:alert(1)",
    "hex-entity-colon": "javascript&#x3a;alert(1)",
    "data": "data:text/html,<script>alert(1)</script>",
    "data-base64": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript": "vbscript:msgbox(1)",
    "file": "file:///etc/passwd",
    "mailto": "mailto:someone@example.org",
    "ftp": "ftp://example.org/paper.pdf",
    "protocol-relative": "//evil.example/x",
    "site-relative": "/papers/other/",
    "relative": "papers/other/",
    "scheme-without-host": "https:evil.example",
    "empty-host": "http://",
    "unclosed-ipv6-host": "http://[::1/",
    "empty": "",
}

ACCEPTED = {
    "https": ("https://openreview.net/forum?id=abc", "https://openreview.net/forum?id=abc"),
    "http-upper-case": ("HTTP://Example.org/A", "HTTP://Example.org/A"),
    "spaces-and-controls-around": ("  \x01https://example.org/p\x02 ", "https://example.org/p"),
    "tab-inside": ("https://exa\tmple.org/p", "https://example.org/p"),
    # Characters that would end an attribute or an autolink, or that Markdown reads inside one.
    "markup-characters-encoded": (
        'https://x.org/"><b>[a](javascript:x)`c`$d$',
        "https://x.org/%22%3E%3Cb%3E%5Ba%5D(javascript:x)%60c%60%24d%24",
    ),
    "spaces-encoded": ("https://x.org/a b\u00a0c", "https://x.org/a%20b%C2%A0c"),
    "entities-kept-as-written": ("https://x.org/?a=1&copy=2", "https://x.org/?a=1&copy=2"),
}


@pytest.mark.parametrize("value", REFUSED.values(), ids=REFUSED.keys())
def test_anything_but_an_absolute_http_url_is_refused(value):
    assert web_url(value) is None


@pytest.mark.parametrize("value, link", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_http_urls_become_links_a_browser_reads_as_written(value, link):
    assert web_url(value) == link
    assert web_url(link) == link  # asking again changes nothing
