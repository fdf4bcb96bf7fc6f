"""What the package adds to every MkDocs site it generates, all shipped inside the package:
the theme templates and static files (theme/), the scripts and styles pages load, the
Markdown extensions the generated pages are written for, and the default navigation.

theme/ is a Material theme directory: its templates (paper.html, main.html, partials/)
extend Material's, and its other files (assets/javascripts, assets/stylesheets, the
vendored KaTeX in assets/vendor/katex) are copied into the site as theme files are. A
file of the same path in the site's docs/ or custom_dir wins, so a site can override any of them.
"""

from __future__ import annotations

from pathlib import Path

THEME_DIR = Path(__file__).resolve().parent / "theme"

# KaTeX is vendored from its npm package: by `make setup` in a checkout, by setup.py into
# wheels and sdists (no CDN at view time, no npm when installing).
KATEX = "assets/vendor/katex"
JAVASCRIPT = (
    f"{KATEX}/katex.min.js",
    "assets/javascripts/math.js",
    "assets/javascripts/search.js",
    "assets/javascripts/lists.js",
    "assets/javascripts/reading-list.js",  # window.readingList, before the scripts that use it
    "assets/javascripts/data.js",  # before the two pages that use it
    "assets/javascripts/map.js",
    "assets/javascripts/browse.js",
    "assets/javascripts/authors.js",
    "assets/javascripts/live-notice.js",  # under `mkdocs serve` only: input that cannot be read
)
CSS = (f"{KATEX}/katex.min.css", "assets/stylesheets/site.css")

# Generated pages use abbreviations (the glossary of a paper's acronyms), attribute lists,
# tables, heading anchors and math; a site's own settings for these are kept.
MARKDOWN_EXTENSIONS = {
    "abbr": {},
    "attr_list": {},
    "tables": {},
    "toc": {"permalink": True},
    "pymdownx.arithmatex": {"generic": True},
}

# Paper pages are reached through these, never listed in the nav: listing thousands of them
# makes every page's HTML grow with the number of papers.
NAV = (
    {"Home": "index.md"},
    {"Areas": "areas/index.md"},
    {"Tags": "tags/index.md"},
    {"Collections": "collections/index.md"},
    {"Authors": "authors/index.md"},
    {"Map": "map.md"},
    {"Browse": "browse.md"},
    {"Reading list": "reading-list.md"},
    {"Glossary": "glossary.md"},
)

# Pages the navigation names only when the run made them: a collection whose records name no
# authors has no authors section.
OPTIONAL_PAGES = frozenset({"authors/index.md"})


def missing_files() -> list[str]:
    """Package files a site needs that are not there (KaTeX before `make setup`)."""
    return [name for name in (*JAVASCRIPT, *CSS) if not (THEME_DIR / name).is_file()]
