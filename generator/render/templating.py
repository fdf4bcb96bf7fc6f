"""The Jinja2 environments the generated files are rendered with: Markdown pages (values
escaped for Markdown with the `md` filters) and HTML or XML (every value autoescaped)."""

from __future__ import annotations

from functools import cache, lru_cache

import jinja2

from generator.layout import MARKER
from generator.render.frontmatter_yaml import dump as front_matter
from generator.sources.markup import escape_block_start, escape_markdown


# The templates are the package's files: they change only with its code, which a running
# process does not load again either. Not asked for their modification time at each use
# (auto_reload): 10,000 stat calls at 4,242 papers.
@cache
def markdown_environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generator.render", "templates"),
        auto_reload=False,
        autoescape=False,  # Markdown output: values are escaped with the `md` filter instead
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = markdown_text
    env.filters["md_line"] = markdown_line
    return env


@lru_cache(maxsize=65_536, typed=True)
def markdown_text(value: object) -> str:
    """The `md` filter, remembered: a paper's title and summary are escaped on each of its
    ~7 listing pages (63,000 calls at 4,242 papers)."""
    return escape_markdown(str(value))


@lru_cache(maxsize=65_536, typed=True)
def markdown_line(value: object) -> str:
    """The `md` filter for a value that begins a line (a listing's summary, under its title):
    a summary given as '---' made a rule there, '- x' a nested list."""
    return escape_block_start(escape_markdown(str(value)), underline=True)


@cache
def escaping_environment() -> jinja2.Environment:
    """HTML and XML templates (chart, map, feeds): every value autoescaped, it comes from input."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("generator.render", "templates"),
        auto_reload=False,  # see markdown_environment
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def html_block(template: str, **context) -> str:
    """An autoescaped HTML template on one line (Markdown passes a raw HTML block through
    only while it has no blank lines)."""
    return " ".join(escaping_environment().get_template(template).render(**context).split())


def markdown_page(template: str, metadata: dict, **context) -> str:
    """A generated Markdown page: front matter (marked as generated), then the rendered template."""
    body = markdown_environment().get_template(template).render(**context)
    # As python-frontmatter's dumps writes a post, with the front matter as yaml.dump writes it.
    front = front_matter({**metadata, "generated_by": MARKER}).strip()
    return f"---\n{front}\n---\n\n{body.strip()}".strip() + "\n"
