"""A one-off build converts its pages' Markdown (generator.plugin.pageconvert) and puts them into
their templates (generator.plugin.pagetemplates) on both cores: the site is the same byte for
byte as on one core, and what MkDocs and other plugins do for each page (warnings, --strict,
Markdown changed by a hook) comes out as on one core.

The builds run in this process, so that the test can count the pages MkDocs converted and
rendered here: the rest were done by the forked workers. The site is the seeds' (100 pages) plus three
hand-written pages at the end of the list, where the worker starts; a hook holds MkDocs at its
first page for a moment, so that the worker has taken the last pages by then."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import jinja2
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.structure.pages import Page

from generator.plugin import bothends, pageconvert, pagetemplates
from helpers import ROOT, SEEDS

BROKEN = "zz/broken.md"
HOOKED = "zz/hooked.md"
ANCHOR = "zz/zanchor.md"  # the last page: the worker's first
HOOKS = """
import time

def on_pre_page(page, config, files):
    if page.file.src_uri == "index.md":  # MkDocs' first page: the worker takes the last ones meanwhile
        time.sleep(0.5)
    return page

def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri == "zz/hooked.md":
        return markdown + "\\n\\nAdded by a hook.\\n"
    return markdown
"""


def site_folder(folder: Path, *, strict: bool = False, broken: bool = False) -> Path:
    (folder / "docs" / "zz").mkdir(parents=True)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
    config = config.replace("strict: true", f"strict: {str(strict).lower()}").replace("inputs: [seeds]", f"inputs: [{SEEDS}]")
    (folder / "mkdocs.yml").write_text(config + "hooks:\n  - hooks.py\n", encoding="utf-8")
    (folder / "hooks.py").write_text(HOOKS, encoding="utf-8")
    (folder / "docs" / "about.md").write_text("# About\n\nThe seeds.\n", encoding="utf-8")
    link = "[a missing page](missing.md)" if broken else "[the about page](../about.md)"
    (folder / "docs" / BROKEN).write_text(f"# Links\n\nSee {link}.\n", encoding="utf-8")
    # Anchors are checked after the pages are built, from what render found (links_to_anchors).
    anchor = "[nowhere](../about.md#nowhere)" if broken else "[the about page](../about.md#about)"
    (folder / "docs" / ANCHOR).write_text(f"# Anchor\n\nSee {anchor}.\n", encoding="utf-8")
    (folder / "docs" / HOOKED).write_text("# Hooked\n\nWritten by hand.\n", encoding="utf-8")
    return folder


class Built:
    """One build: the pages MkDocs converted in this process, and what it logged."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch, *, serial: bool):
        self.site = folder / "site"
        self.rendered_here: list[str] = []  # converted from Markdown
        self.templated_here: list[str] = []  # put into their templates
        self.records: list[logging.LogRecord] = []
        render, render_template = Page.render, jinja2.Template.render

        def counted(page: Page, config, files) -> None:
            self.rendered_here.append(page.file.src_uri)
            render(page, config, files)

        def counted_template(template: jinja2.Template, *args, **kwargs) -> str:
            page = args[0].get("page") if args and isinstance(args[0], dict) else None
            if page is not None:
                self.templated_here.append(page.file.src_uri)
            return render_template(template, *args, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(Page, "render", counted)
            patch.setattr(jinja2.Template, "render", counted_template)
            patch.setenv("SOURCE_DATE_EPOCH", "1700000000")
            if serial:
                patch.setenv("ABSTRACTS_WORKERS", "1")  # one core: no worker
            handler = logging.Handler(logging.INFO)
            handler.emit = self.records.append
            logger = logging.getLogger("mkdocs")
            logger.addHandler(handler)
            try:
                config = load_config(str(folder / "mkdocs.yml"))
                config.plugins.on_startup(command="build", dirty=False)  # as `mkdocs build` starts
                build(config)
            finally:
                logger.removeHandler(handler)

    def messages(self, text: str) -> list[str]:
        return [record.getMessage() for record in self.records if text in record.getMessage()]


# Pagefind names its word index and metadata by a hash of their bytes, and those bytes may
# differ between two runs on the same pages (Pagefind#638: only the page fragments are stable),
# most often on a loaded machine. The fragments (one per page) are compared byte for byte.
UNSTABLE_SEARCH_FILES = ("pagefind/index/", "pagefind/pagefind-entry.json", "pagefind/pagefind.")


def site_files(site: Path) -> dict[str, bytes]:
    files = (path for path in sorted(site.rglob("*")) if path.is_file())
    return {name: path.read_bytes() for path in files if not (name := str(path.relative_to(site))).startswith(UNSTABLE_SEARCH_FILES)}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Built, Built]:
    """The same site built on one core, then on two."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        serial = Built(site_folder(tmp_path_factory.mktemp("serial")), monkeypatch, serial=True)
        parallel = Built(site_folder(tmp_path_factory.mktemp("parallel")), monkeypatch, serial=False)
    return serial, parallel


def test_the_site_is_the_same_byte_for_byte_when_half_the_pages_are_converted_by_a_worker(builds):
    serial, parallel = builds
    pages = len(serial.rendered_here)
    assert pages > bothends.MIN_PAGES and HOOKED in serial.rendered_here
    # The worker converted pages (those MkDocs did not convert here), the last ones first.
    assert len(parallel.rendered_here) < pages * 0.8
    assert BROKEN not in parallel.rendered_here and ANCHOR not in parallel.rendered_here
    assert site_files(parallel.site) == site_files(serial.site)


def test_the_site_is_the_same_byte_for_byte_when_half_the_pages_are_put_into_templates_by_a_worker(builds):
    serial, parallel = builds
    pages = len(serial.templated_here)
    assert pages == len(serial.rendered_here) and HOOKED in serial.templated_here
    assert len(parallel.templated_here) < pages * 0.8
    assert ANCHOR not in parallel.templated_here  # the last page: the worker's first
    assert sorted(set(parallel.templated_here)) == sorted(parallel.templated_here)  # none rendered twice here
    assert site_files(parallel.site) == site_files(serial.site)


def test_markdown_changed_by_a_hook_is_converted_with_the_change(builds):
    """The worker converts the page as read; the hook's change makes MkDocs convert it here."""
    serial, parallel = builds
    assert HOOKED in parallel.rendered_here
    page = (parallel.site / "zz" / "hooked" / "index.html").read_text(encoding="utf-8")
    assert "Written by hand." in page and "Added by a hook." in page


def test_broken_links_on_pages_the_worker_took_warn_once_and_fail_a_strict_build(tmp_path, monkeypatch):
    broken = Built(site_folder(tmp_path / "warn", broken=True), monkeypatch, serial=False)
    assert broken.messages("contains a link 'missing.md'") == [
        "Doc file 'zz/broken.md' contains a link 'missing.md', but the target 'zz/missing.md' is not found among documentation files."
    ]
    assert BROKEN in broken.rendered_here  # converted again here, where the warning is logged
    # A link to a missing anchor, on a page the worker converted: found when MkDocs checks anchors.
    assert ANCHOR not in broken.rendered_here
    assert broken.messages("#nowhere") == [
        "Doc file 'zz/zanchor.md' contains a link '../about.md#nowhere', but the doc 'about.md' does not contain an anchor '#nowhere'."
    ]
    with pytest.raises(Abort, match="Aborted with 2 warnings in strict mode!"):
        Built(site_folder(tmp_path / "strict", strict=True, broken=True), monkeypatch, serial=False)


def test_a_plugin_that_changes_page_contexts_has_every_page_rendered_by_mkdocs(builds, tmp_path, monkeypatch):
    """A context may be made from what MkDocs did for earlier pages: only MkDocs' process knows."""
    serial, _ = builds
    folder = site_folder(tmp_path)
    hooks = folder / "hooks.py"
    hooks.write_text(hooks.read_text(encoding="utf-8") + "\ndef on_page_context(context, page, config, nav):\n    return context\n")
    built = Built(folder, monkeypatch, serial=False)
    assert sorted(built.templated_here) == sorted(serial.templated_here)
    assert site_files(built.site) == site_files(serial.site)


@pytest.mark.parametrize(
    ("module", "work", "done_here"), [(pageconvert, "_convert", "rendered_here"), (pagetemplates, "_render", "templated_here")]
)
def test_a_worker_that_dies_leaves_its_pages_to_mkdocs(builds, tmp_path, monkeypatch, module, work, done_here):
    serial, _ = builds
    monkeypatch.setattr(module, work, lambda *args: os._exit(1))  # in the worker only: it forks first
    orphaned = Built(site_folder(tmp_path), monkeypatch, serial=False)
    assert sorted(getattr(orphaned, done_here)) == sorted(getattr(serial, done_here))
    assert site_files(orphaned.site) == site_files(serial.site)
