"""MkDocs hooks: run the generator before every build and watch the inputs under `mkdocs serve`;
index the built site for search after every build (generator.searchindex).

Declared in mkdocs.yml (`hooks: [generator/hook.py]`); settings come from
`extra.abstracts` there (inputs, related). Kept thin: the work is in generator.pipeline.
"""

from __future__ import annotations

import html
import logging
from pathlib import Path

from markupsafe import Markup, escape

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.pages import Page

from generator import render, searchindex
from generator.cache import FOLDER as CACHE_FOLDER
from generator.errors import InputError
from generator.pipeline import Settings, generate
from generator.render import MARKER, ROOT_FILES, SECTIONS

log = logging.getLogger("mkdocs.hooks.abstracts")
VENDORED = ("assets/vendor/katex/katex.min.js", "assets/vendor/katex/katex.min.css")
DIRTY_WARNING = "A 'dirty' build is being performed"


def on_startup(*, command: str, dirty: bool) -> None:
    # Under `mkdocs serve` the search index is built in the background: reloads don't wait.
    searchindex.background = command == "serve"
    # ... and the generator keeps rendered pages in memory, so an edit renders only what changed.
    render.remember_pages = command == "serve"
    if dirty:
        # Expected under `make serve`; as a warning it would fail every rebuild in strict mode.
        logging.getLogger("mkdocs.commands.build").addFilter(lambda record: DIRTY_WARNING not in record.getMessage())


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # The site name can come from input (`python -m generator build` names a one-collection site
    # after its collection), and Material prints it as HTML (the logo's aria-label, the drawer).
    # As escaped Markup it shows as text both where a template escapes it and where it does not.
    config.site_name = escape(config.site_name)
    return config


def _site_title(config: MkDocsConfig) -> str:
    """The site name as text, for the generator (which escapes what it writes)."""
    name = config.site_name
    return name.unescape() if isinstance(name, Markup) else name


def _inputs(config: MkDocsConfig) -> list[Path]:
    base = Path(config.config_file_path).parent
    settings = config.extra.get("abstracts", {})
    return [(base / path).resolve() for path in settings.get("inputs", ["seeds"])]


def on_pre_build(*, config: MkDocsConfig) -> None:
    docs_dir = Path(config.docs_dir)
    missing = [path for path in VENDORED if not (docs_dir / path).is_file()]
    if missing:
        raise PluginError(f"vendored assets missing ({', '.join(missing)}): run `make setup` first")
    settings = config.extra.get("abstracts", {})
    try:
        summary = generate(
            _inputs(config),
            docs_dir,
            Settings(
                related=int(settings.get("related", 5)),
                site_title=_site_title(config),
                progress=bool(settings.get("progress", False)),
                source_root=Path(settings.get("source_root") or Path(config.config_file_path).parent),
                site_url=config.site_url or None,
            ),
        )
    except InputError as error:
        raise Abort(f"abstracts: {error}") from None
    for line in summary.lines():
        # Info, not warning: handled input problems are reported, and must not fail `--strict`.
        log.info(f"abstracts: {line}")


def on_serve(server: LiveReloadServer, *, config: MkDocsConfig, builder) -> LiveReloadServer:
    # Editing an abstract rebuilds the site; the generator rewrites only the pages that changed.
    for path in _inputs(config):
        server.watch(str(path))
    # The generator writes into docs/ during each build: watching all of docs/ made every edit
    # build twice (and reload the browser twice). Only the hand-written parts are watched.
    docs_dir = Path(config.docs_dir)
    generated = {*SECTIONS, *ROOT_FILES, CACHE_FOLDER}
    try:
        server.unwatch(str(docs_dir))
    except KeyError:  # not watched by this MkDocs: nothing to narrow
        return server
    for entry in sorted(docs_dir.iterdir()):
        if entry.name not in generated:
            server.watch(str(entry))
    return server


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files) -> str:
    # Material prints page titles as HTML (navigation, search index and results), and the
    # titles of generated pages come from input text: it gets them escaped. Our templates
    # print the plain `title_text` and escape it themselves.
    if page.meta.get("generated_by") == MARKER and "title" in page.meta:
        text = str(page.meta["title"])
        page.meta["title_text"] = text
        page.meta["title"] = html.escape(text, quote=False)
        if page.title == text:  # not a title given in mkdocs.yml's nav ("Home", "Tags")
            page.title = page.meta["title"]
    return markdown



def on_post_build(*, config: MkDocsConfig) -> None:
    searchindex.index(Path(config.site_dir), language=config.theme.get("language") or "en")
