"""A one-off build's pages put into the theme's templates on both cores.

After converting every page, MkDocs puts each one into its template in turn (commands/build.py,
`_build_page`: the template context, the plugins' on_page_context, `template.render`, on_post_page,
the file written), on one core while the other is nearly idle (issue 55's time line, decision
0032). `Templater`, made in the plugin's on_env, forks one
worker when MkDocs renders its first page (every on_env hook has run, the theme's own templates
are written) that renders pages from the end of the list MkDocs walks, as `_build_page` renders
them, while MkDocs walks it from the start (the two ends: plugin/bothends.py). For a page the worker rendered, the template's `render` in MkDocs' process
returns the worker's HTML; everything else `_build_page` does (the hooks, writing the file) is
done by MkDocs as always.

Only where a page's context is the same in both processes: no plugin changes it
(on_page_context), and the templates are those loaded before the fork. A page whose rendering
logged, warned, printed or failed in the worker is rendered by MkDocs, whose messages count. The
site is the same byte for byte as a build on one core.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import cast

import jinja2
from mkdocs.commands.build import get_context
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from generator.plugin.bothends import FromBothEnds, Pages, Quiet

DEFAULT_TEMPLATE = "main.html"  # as build.py names a page's template when its meta names none


class Templater:
    """Pages rendered into their templates by a forked worker while MkDocs renders the others."""

    @classmethod
    def start(cls, config: MkDocsConfig, files: Files, nav: Navigation | None, env: jinja2.Environment) -> Templater | None:
        """A templater for a one-off build's pages; None where it does not pay or is not safe."""
        pages = Pages.worth_sharing(files)
        if nav is None or pages is None:
            return None
        if config.plugins.events["page_context"]:  # a plugin may make each context from what came before
            return None
        names = {_template_name(file.page) for file in pages.files if file.page is not None}
        try:
            templates = {name: env.get_template(name) for name in names}
        except jinja2.TemplateError:  # MkDocs says so, for the page that names it
            return None
        return cls(pages, config, nav, templates)

    def __init__(self, pages: Pages, config: MkDocsConfig, nav: Navigation, templates: dict[str, jinja2.Template]):
        self._pages: Pages | None = pages  # None once closed: MkDocs renders every page itself
        self._config = config
        renders = {name: template.render for name, template in templates.items()}
        self._work = lambda number, quiet: _render(pages.files[number], config, pages.files, nav, renders, quiet)
        self._ends: FromBothEnds[bytes] | None = None  # the worker, forked at the first page
        for template in templates.values():
            # An attribute of this instance: Jinja's own inheritance and includes never call render.
            template.render = self._taken_or(template.render)  # type: ignore[method-assign]

    def close(self) -> None:
        """End the worker (done, or no longer wanted) and forget what it sent; no worker from now on."""
        self._pages = None
        if self._ends is not None:
            self._ends.close()

    def _taken_or(self, render: Callable[..., str]) -> Callable[..., str]:
        def render_page(*args, **kwargs) -> str:
            page = args[0].get("page") if len(args) == 1 and not kwargs and isinstance(args[0], dict) else None
            number = self._pages.number(page.file) if isinstance(page, Page) and self._pages is not None else None
            if number is None:
                return render(*args, **kwargs)
            ends = self._ends or self._fork_before(cast(Page, page))
            if ends.claim(number):
                return render(*args, **kwargs)
            sent = ends.result(number)
            return zlib.decompress(sent).decode("utf-8") if sent is not None else render(*args, **kwargs)

        return render_page

    def _fork_before(self, page: Page) -> FromBothEnds[bytes]:
        """The worker forked as things were before MkDocs began `page`: MkDocs has made it the
        current page, active in the navigation, which every page the worker renders would show."""
        page.active, self._config._current_page = False, None
        try:
            self._ends = FromBothEnds(len(cast(Pages, self._pages)), self._work)
        finally:
            page.active, self._config._current_page = True, page
        return self._ends


def _template_name(page: Page | None) -> str:
    return page.meta.get("template", DEFAULT_TEMPLATE) if page is not None else DEFAULT_TEMPLATE


def _render(file: File, config: MkDocsConfig, pages: Sequence[File], nav: Navigation, renders: dict, quiet: Quiet) -> bytes | None:
    """In the worker: the page rendered as `_build_page` renders it, compressed for the pipe
    (HTML shrinks about tenfold at the lowest level, which costs little); None where MkDocs must
    render it itself (it said something or failed)."""
    page = file.page
    if page is None or file.inclusion.is_excluded():
        return None
    quiet.said = False
    config._current_page = page  # as build.py sets them
    page.active = True
    try:
        output = renders[_template_name(page)](get_context(nav, pages, config, page))
        page.content = None  # rendered: its memory is not needed here
        return None if quiet.said else zlib.compress(output.encode("utf-8"), 1)
    except Exception:
        return None
    finally:
        page.active = False
        config._current_page = None
