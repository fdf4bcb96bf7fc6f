"""MkDocs hooks: run the generator before every build and watch the inputs under `mkdocs serve`.

Declared in mkdocs.yml (`hooks: [generator/hook.py]`); settings come from
`extra.abstracts` there (inputs, related). Kept thin: the work is in generator.pipeline.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.livereload import LiveReloadServer

from generator.errors import InputError
from generator.pipeline import Settings, generate

log = logging.getLogger("mkdocs.hooks.abstracts")
VENDORED = ("assets/vendor/katex/katex.min.js", "assets/vendor/katex/katex.min.css")


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
                site_title=config.site_name,
                progress=bool(settings.get("progress", False)),
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
    return server
