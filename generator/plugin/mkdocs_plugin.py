"""The MkDocs plugin `abstracts`: runs the generator before every build, watches the inputs
under `mkdocs serve`, adds the package's theme and assets to the site, and indexes the built
site for search (generator.plugin.searchindex). Under `serve` what no page waits for (the search
index, the topic map) is finished after the build, so the reload after an edit comes first.

Registered through the `mkdocs.plugins` entry point, so a site's mkdocs.yml needs only

    theme:
      name: material
    plugins:
      - abstracts:
          inputs: [seeds]

Kept thin: the work is in generator.pipeline; what the site gets is declared in generator.plugin.assets.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import threading
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from generator.errors import InputError
from generator.layout import MARKER, ROOT_FILES, SECTIONS
from generator.output.files import write_atomic
from generator.pipeline import Settings, Summary, generate
from generator.plugin import assets, paperlist
from generator.plugin.config import AbstractsConfig
from generator.plugin.pageconvert import Converter
from generator.plugin.pagetemplates import Templater
from generator.plugin.searchindex import Indexer, Seen, Stream
from generator.plugin.templatecache import MemoryBytecodeCache
from generator.render.bibtex import bibtex_entry
from generator.runtime.heap import Heap
from generator.runtime.parallel import Later
from generator.runtime.runcache import FOLDER as CACHE_FOLDER
from generator.runtime.session import Session

log = logging.getLogger("mkdocs.plugins.abstracts")
# Under serve: the file every page reads for input that cannot be read, and the theme's setting naming it.
NOTICE_FILE = "abstracts-notice.json"
NOTICE_SETTING = "abstracts_live_notice"
DIRTY_WARNING = "A 'dirty' build is being performed"
# MkDocs' watcher looks for changes less often: a saved edit waited for it before its rebuild
# began (decision 0002). The paths the plugin watches (the inputs, the hand-written docs: a few
# files) are looked at this often instead; mkdocs.yml keeps MkDocs' interval.
POLL_SECONDS = 0.1


def _site_title(config: MkDocsConfig) -> str:
    """The site name as text, for the generator (which escapes what it writes)."""
    name = config.site_name
    return name.unescape() if isinstance(name, Markup) else name


def _search_language(config: MkDocsConfig) -> str:
    """The language the search index stems and splits words for: the theme's."""
    return config.theme.get("language") or "en"


class AbstractsPlugin(BasePlugin[AbstractsConfig]):
    def __init__(self) -> None:
        # Replaced in on_startup; a build started without it (generator.cli) indexes at once.
        self.indexer = Indexer()
        self.streaming = True  # one-off builds index pages as MkDocs renders them (searchindex.Stream)
        self.stream: Stream | None = None
        self.seen: Seen | None = None  # under serve: the pages as last indexed
        self.converter: Converter | None = None  # one-off builds: Markdown converted on both cores
        self.templater: Templater | None = None  # ... and pages put into their templates on both cores
        self.navigation: Navigation | None = None  # this build's, as MkDocs made it
        self.dirty = False
        self.session: Session | None = None
        self.templates: MemoryBytecodeCache | None = None
        self.heap: Heap | None = None
        # Under serve: the end of the last generator run (the topic map), and the thread doing it.
        self.finish: Callable[[], list[str]] | None = None
        self.finishing: threading.Thread | None = None
        self.nav: list | None = None  # the navigation the plugin made (mkdocs.yml has none)
        # Under serve: input files the last run could not read (shown on every page, said once per change).
        self.unreadable: list[str] = []
        self.removed: list[str] = []  # under serve: generated files the last run removed from docs/

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Defining on_startup also makes MkDocs keep this instance across the rebuilds of `serve`.
        serving = command == "serve"
        self.dirty = dirty  # only changed pages are converted: no worker for the others
        # Under `mkdocs serve` the search index is built in the background: reloads don't wait ...
        self.indexer = Indexer(background=serving)
        self.seen = Seen() if serving else None  # ... and a rebuild that changed no page is not indexed again
        self.streaming = not serving  # under serve --dirty few pages are rendered: the folder is indexed
        # ... and what each run derived is remembered, so an edit recomputes only what it changes.
        self.session = Session(tell=lambda line: log.info(f"abstracts: {line}")) if serving else None
        # ... and so are the theme's compiled templates (MkDocs makes a new environment per build).
        self.templates = MemoryBytecodeCache() if serving else None
        self.heap = Heap() if serving else None
        if dirty:
            # Expected under `make serve`; as a warning it would fail every rebuild in strict mode.
            logging.getLogger("mkdocs.commands.build").addFilter(lambda record: DIRTY_WARNING not in record.getMessage())

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # The site name can come from input (`python -m generator build` names a one-collection site
        # after its collection), and Material prints it as HTML (the logo's aria-label, the drawer).
        # As escaped Markup it shows as text both where a template escapes it and where it does not.
        config.site_name = escape(config.site_name)
        if not self.config.inputs:
            raise PluginError("abstracts: no inputs: name files or folders of abstracts in `inputs`")
        if config.theme.name != "material":
            raise PluginError(f"abstracts: the theme must be 'material' (Material for MkDocs), not {config.theme.name!r}")
        missing = assets.missing_files()
        if missing:
            raise PluginError(f"abstracts: files missing from the package ({', '.join(missing)}): run `make setup` in a checkout")
        # After the site's own custom_dir (its overrides win), before Material's templates.
        if str(assets.THEME_DIR) not in config.theme.dirs:
            config.theme.dirs.insert(1 if config.theme.custom_dir else 0, str(assets.THEME_DIR))
        config.extra_javascript.extend(p for p in assets.JAVASCRIPT if p not in map(str, config.extra_javascript))
        config.extra_css.extend(p for p in assets.CSS if p not in config.extra_css)
        for name, options in assets.MARKDOWN_EXTENSIONS.items():
            if name not in config.markdown_extensions:
                config.markdown_extensions.append(name)
            config.mdx_configs.setdefault(name, dict(options))
        if paperlist.NAME not in config.markdown_extensions:
            # Listing pages' items converted once each, with the site's other extensions as they
            # are when the first page is converted (after every plugin's on_config).
            config.markdown_extensions.append(paperlist.NAME)
        config.mdx_configs[paperlist.NAME] = {paperlist.SITE_EXTENSIONS: lambda: _other_extensions(config)}
        if config.nav is None:
            self.nav = [*assets.NAV, *_hand_written_pages(Path(config.docs_dir))]
            config.nav = self.nav
        if self.session is not None:
            config.extra[NOTICE_SETTING] = NOTICE_FILE  # every page gets the notice of input that cannot be read
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        def run() -> Summary:
            return generate(
                [Path(path) for path in self.config.inputs],
                Path(config.docs_dir),
                Settings(
                    related=self.config.related,
                    site_title=_site_title(config),
                    progress=self.config.progress,
                    source_root=Path(self.config.source_root or Path(config.config_file_path).parent),
                    site_url=config.site_url or None,
                    related_by=self.config.related_by,
                ),
                self.session,
                later=self.session is not None,
            )

        self._finish_last_run()  # its topic map, before this run writes into the same folder
        if self.heap is not None:
            self.heap.before_run()
        try:
            # A one-off build derives the site in a forked process: its memory is returned before
            # MkDocs holds every page in this one (decision 0007). `serve` keeps its session here,
            # in the process that runs again after each edit.
            summary = run() if self.session is not None else Later(run).result()
        except InputError as error:
            raise Abort(f"abstracts: {error}") from None
        self.finish = summary.finish
        self.removed = summary.write.removed
        unreadable, said = summary.report.unreadable, self.unreadable
        self.unreadable = unreadable
        for line in summary.lines():
            if line.startswith("cannot read ") and unreadable == said:
                continue  # said when it began; every page shows it meanwhile
            # Info, not warning: handled input problems are reported, and must not fail `--strict`.
            log.info(f"abstracts: {line}")

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        # Generated pages are reached through the nav's sections, never listed in it: without
        # this MkDocs would name every paper page as "not included in the nav".
        pages = files.documentation_pages()
        for file in pages:
            if file.src_uri.split("/", 1)[0] in SECTIONS:
                file.inclusion = InclusionLevel.NOT_IN_NAV
        if self.nav is not None:  # a section this run made no page for (no author named) is left out
            config.nav = [entry for entry in self.nav if _made(_nav_page(entry), files)]
        return files

    @event_priority(-100)  # after other plugins': the last hook before MkDocs converts the pages
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        self._stop_converting()
        self.navigation = nav
        if self.session is None and not self.dirty:
            self.converter = Converter.start(config, files)
        if self.seen is not None:
            self.seen.build_starts(file.dest_uri for file in files.documentation_pages())
        if self.streaming:
            # After the converter's fork, so that its worker holds no pipe to Pagefind. Here,
            # where the number of pages is known: it decides how many parts the index has.
            self._close_stream()
            pages = len(files.documentation_pages())
            self.stream = Stream(language=_search_language(config), pages=pages, part_pages=self.config.search_part_pages)
        return nav

    @event_priority(-100)  # after other plugins': they may give MkDocs another page object
    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        if self.converter is not None:
            self.converter.prepare(page)
        return page

    def on_serve(self, server: LiveReloadServer, *, config: MkDocsConfig, builder) -> LiveReloadServer:
        # Editing an abstract rebuilds the site; the generator rewrites only the pages that changed.
        _poll_often(server)
        if self.session is not None:
            # Vectors embedded aside (pipeline.serving_meanings) are linked by a build of their own.
            self.session.rebuild = partial(_build_again, server)
            aside = self.session.embedding
            if aside is not None and aside.succeeded():  # ready before the server was
                _build_again(server)
        for path in self.config.inputs:
            server.watch(path)
        # The generator writes into docs/ during each build: watching all of docs/ made every edit
        # build twice (and reload the browser twice). Only the hand-written parts are watched.
        docs_dir = Path(config.docs_dir)
        generated = {*SECTIONS, *ROOT_FILES, CACHE_FOLDER}
        try:
            server.unwatch(str(docs_dir))
        except KeyError:  # not watched by this MkDocs: nothing to narrow
            return server
        for entry in sorted(docs_dir.iterdir()):
            # Dot files are no pages (MkDocs skips them) and include the temporary files of
            # atomic writes: the last build's topic map may be written while this runs, and
            # watching its temporary file, gone a moment later, stopped `serve` at start.
            if entry.name not in generated and not entry.name.startswith("."):
                try:
                    server.watch(str(entry))
                except FileNotFoundError:  # removed since it was listed
                    pass
        return server

    @event_priority(-100)  # after other plugins': they may give MkDocs another environment
    def on_env(self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        self._stop_converting()  # every page is converted
        if self.templates is not None:
            env.bytecode_cache = self.templates
        if self.session is None and not self.dirty:
            self.templater = Templater.start(config, files, self.navigation, env)
        return env

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        # Material prints page titles as HTML (navigation, search index and results), and the
        # titles of generated pages come from input text: it gets them escaped. Our templates
        # print the plain `title_text` and escape it themselves.
        if page.meta.get("generated_by") == MARKER and "title" in page.meta:
            text = str(page.meta["title"])
            page.meta["title_text"] = text
            page.meta["title"] = html.escape(text, quote=False)
            if page.title == text:  # not a title given in mkdocs.yml's nav ("Home", "Tags")
                page.title = page.meta["title"]
            if "collection" in page.meta and "url" in page.meta:  # a paper page: theme/paper.html shows its BibTeX
                page.meta["bibtex"] = _bibtex(page.meta, page.canonical_url or str(page.meta["url"]))
        return markdown

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if self.stream is not None:
            self.stream.add(page.file.dest_uri, output)
        if self.seen is not None:
            self.seen.rendered(page.file.dest_uri, output)
        return output

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        # Every page is rendered; the worker ends before the search index is finished (it holds
        # the pipes to Pagefind it was forked with).
        self._stop_templating()
        if self.session is not None:
            # A --dirty build leaves the site's copies of pages whose Markdown the run removed
            # (an input file deleted or renamed): served, they would outlive their paper.
            _remove_built(self.removed, config)
            # Read by every served page (live-notice.js) after the reload this build causes.
            notice = json.dumps({"problems": self.unreadable}, ensure_ascii=False).encode("utf-8")
            write_atomic(Path(config.site_dir) / NOTICE_FILE, notice)
        if self.finish is not None:
            # Under serve the reload does not wait for the topic map: only map.json needs it, and
            # it is made on the other core (decision 0002). It is written to docs/ and the site after.
            finish, self.finish = self.finish, None
            docs_dir, site_dir = Path(config.docs_dir), Path(config.site_dir)
            self.finishing = threading.Thread(target=_finish, args=(finish, docs_dir, site_dir), name="topic-map", daemon=True)
            self.finishing.start()
        if self.stream is not None:
            stream, self.stream = self.stream, None
            stream.finish(Path(config.site_dir))
            return
        if self.seen is not None:
            if not self.seen.changed():
                log.info("abstracts: no page changed; search index kept")
                return
            self.seen.indexing()
        self.indexer.index(Path(config.site_dir), language=_search_language(config), part_pages=self.config.search_part_pages)

    def on_build_error(self, *, error: Exception) -> None:
        self._stop_converting()
        self._stop_templating()
        self._close_stream()

    def on_shutdown(self) -> None:
        self._finish_last_run()

    def _finish_last_run(self) -> None:
        """The last run's files written (by its thread, or here when its build stopped early)."""
        if self.finishing is not None:
            self.finishing.join()
            self.finishing = None
        if self.finish is not None:
            finish, self.finish = self.finish, None
            finish()

    def _stop_converting(self) -> None:
        if self.converter is not None:
            converter, self.converter = self.converter, None
            converter.close()

    def _stop_templating(self) -> None:
        self.navigation = None
        if self.templater is not None:
            templater, self.templater = self.templater, None
            templater.close()

    def _close_stream(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            stream.close()


def _finish(finish: Callable[[], list[str]], docs_dir: Path, site_dir: Path) -> None:
    """Complete a generator run (its files into docs/) and copy them into the served site."""
    try:
        for relative in finish():
            write_atomic(site_dir / relative, (docs_dir / relative).read_bytes())
    except Exception as error:  # a thread's exception would only be printed; the next build runs anew
        log.error(f"abstracts: the topic map was not made: {error}")


def _other_extensions(config: MkDocsConfig) -> tuple[list, dict]:
    return [e for e in config.markdown_extensions if e != paperlist.NAME], config.mdx_configs


def _remove_built(removed: list[str], config: MkDocsConfig) -> None:
    """The built files (and folders left empty) of docs/ files the generator removed."""
    site_dir = Path(config.site_dir)
    for relative in removed:
        built = Path(File(relative, config.docs_dir, config.site_dir, config.use_directory_urls).abs_dest_path)
        if built.is_file() and built.is_relative_to(site_dir):
            built.unlink()
            with contextlib.suppress(OSError):  # not empty: other pages live there
                built.parent.rmdir()


def _build_again(server: LiveReloadServer) -> None:
    """Ask the server for a build, as a change to a watched file does: MkDocs 1.6 has no public
    call for it, so this is its own file watcher's callback."""
    condition = getattr(server, "_rebuild_cond", None)
    if condition is None:  # another MkDocs: the next edit builds
        log.info("abstracts: save any input file to see the related papers by the sentence model")
        return
    with condition:
        server._want_rebuild = True
        condition.notify_all()


def _poll_often(server: LiveReloadServer) -> None:
    """Paths watched from now on are polled every POLL_SECONDS. MkDocs' server offers no
    setting for it; its watchdog observer hands its `timeout` to each path scheduled after."""
    observer = server.observer
    if isinstance(getattr(observer, "_timeout", None), (int, float)):  # watchdog's BaseObserver; else MkDocs' interval stays
        observer._timeout = min(observer._timeout, POLL_SECONDS)


def _hand_written_pages(docs_dir: Path) -> list[str]:
    """The site's own pages at the top of docs/ (about.md), after the generated sections."""
    if not docs_dir.is_dir():
        return []
    return sorted(p.name for p in docs_dir.glob("*.md") if p.name not in ROOT_FILES)


def _bibtex(meta: Mapping[str, Any], url: str) -> str:
    """A paper page's BibTeX entry (theme/paper.html), from its front matter."""
    return bibtex_entry(
        str(meta.get("title_text") or meta["title"]), tuple(str(a) for a in meta.get("authors") or ()), str(meta["collection"]), url
    )


def _made(page: str | None, files: Files) -> bool:
    """Whether the navigation may name `page`: this run made it, or it is no optional page."""
    return page not in assets.OPTIONAL_PAGES or (page is not None and files.get_file_from_path(page) is not None)


def _nav_page(entry: object) -> str | None:
    """The page a navigation entry such as {"Authors": "authors/index.md"} names, if one."""
    page = next(iter(entry.values())) if isinstance(entry, dict) and len(entry) == 1 else entry
    return page if isinstance(page, str) else None
