"""Which links from the input the site follows: absolute http(s) URLs, nothing else.

Input records are third-party data (scraped conference listings). A `url` such as
`javascript:alert(document.domain)` or `data:text/html,...`, put in an href, runs code when
a reader clicks it. So every place that turns input into a link target (the readers for the
`url` field, the abstract's URLs in markup) asks `web_url`, and what it refuses is shown as
text or dropped, and reported.

The check reads a URL the way a browser does before it decides (WHATWG URL parsing):
browsers strip leading and trailing spaces and control characters (`\\x01javascript:`),
remove tabs and newlines anywhere (`java\\tscript:`) and ignore the scheme's case
(`JaVaScRiPt:`). An entity (`&#106;avascript:`) is not decoded: the value is escaped
wherever it is written, so the browser sees the `&` too, and `&#106;avascript` is no scheme
at all: refused. Site-relative paths are refused as well; the generator makes its own links.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

SCHEMES = ("http", "https")
# What browsers strip from the ends of a URL (C0 controls and space) and drop from inside it.
_ENDS = "".join(map(chr, range(0x21)))
_DROPPED_INSIDE = re.compile(r"[\t\n\r]")
# Characters a link target must not hold literally: they end an attribute or an autolink, or
# Markdown and its extensions read them inside one ('[a](javascript:..)' as a link, '$x$'
# as math, '`x`' as code). Percent-encoded, the URL still leads to the same place (an IPv6
# literal host, 'http://[::1]/', is the one casualty: not worth a special case here).
_ENCODED = re.compile(r"[\s\"<>\\^`{|}\[\]$]")


def web_url(value: str) -> str | None:
    """The link target for `value` when it is an absolute http(s) URL with a host, else None."""
    url = _DROPPED_INSIDE.sub("", value).strip(_ENDS)
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:  # e.g. an unclosed IPv6 bracket: 'http://[x'
        return None
    if parts.scheme.lower() not in SCHEMES or not host:
        return None
    return _ENCODED.sub(lambda match: quote(match.group(), safe=""), url)
