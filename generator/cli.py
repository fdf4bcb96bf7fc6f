"""Command line: `python -m generator generate|build ...` on any inputs and any output folder."""

from __future__ import annotations

import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

import click

from .errors import InputError
from .pipeline import Settings, generate
from .render import ROOT_FILES, SECTIONS
from .write import is_generated

PROJECT_CONFIG = Path(__file__).resolve().parent.parent / "mkdocs.yml"


class Failure(click.ClickException):
    """A clean one-line error and exit status 2, never a traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.message}", err=True)


def _inputs_option(function):
    return click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="abstracts-site")
def main() -> None:
    """Turn files of research-paper abstracts into a searchable MkDocs Material site.

    INPUTS are files or folders: plain text (.txt: a heading line naming the
    collection, then one abstract per paragraph), JSON Lines (.jsonl), JSON (.json)
    or CSV (.csv) records with an `abstract` field.
    """


@main.command("generate")
@_inputs_option
@click.option("-o", "--out", "out", required=True, type=click.Path(path_type=Path), help="Docs folder to write the pages into.")
@click.option("--related", default=5, show_default=True, type=click.IntRange(0, 50), help="Related papers per paper.")
@click.option("--title", default=None, help="Site title (default: the collection's name).")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only.")
def generate_command(inputs: tuple[Path, ...], out: Path, related: int, title: str | None, quiet: bool) -> None:
    """Generate the Markdown pages and papers.json for INPUTS into a docs folder."""
    try:
        settings = Settings(related=related, site_title=title, progress=not quiet, source_root=Path.cwd())
        summary = generate(list(inputs), out, settings)
    except InputError as error:
        raise Failure(str(error)) from None
    if not quiet:
        for line in summary.lines():
            click.echo(line)
        click.echo(f"pages written to {out}/")


def stage_docs(source: Path, stage: Path) -> None:
    """Copy the project's hand-written docs (about page, styles, vendored assets), not generated ones."""
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
@click.option("-s", "--site", "site", required=True, type=click.Path(path_type=Path), help="Folder for the built HTML site.")
@click.option("--related", default=5, show_default=True, type=click.IntRange(0, 50), help="Related papers per paper.")
@click.option("--title", default=None, help="Site title (default: the collection's name).")
@click.option("--docs", "docs", default=None, type=click.Path(path_type=Path), help="Keep the generated Markdown here (default: a temporary folder).")
@click.option("--config", "config_file", default=PROJECT_CONFIG, show_default=True, type=click.Path(path_type=Path, exists=True, dir_okay=False), help="MkDocs config to build with.")
def build_command(inputs: tuple[Path, ...], site: Path, related: int, title: str | None, docs: Path | None, config_file: Path) -> None:
    """Build a complete site for INPUTS into a site folder, without touching the repository."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    start = time.perf_counter()
    for path in inputs:
        if not path.exists():
            raise Failure(f"{path}: no such file or folder")
    if site.exists() and not site.is_dir():
        raise Failure(f"{site}: site folder is a file")
    with tempfile.TemporaryDirectory(prefix="abstracts-docs-") as temporary:
        stage = docs or Path(temporary)
        stage.mkdir(parents=True, exist_ok=True)
        project_docs = config_file.parent / "docs"
        if project_docs.is_dir():
            stage_docs(project_docs, stage)
        logging.basicConfig(format="%(levelname)-7s -  %(message)s", level=logging.INFO, stream=sys.stderr)
        try:
            config = load_config(
                config_file=str(config_file),
                docs_dir=str(stage.resolve()),
                site_dir=str(site.resolve()),
                site_name=title or _site_name(inputs),
            )
            config.extra["abstracts"] = {
                "inputs": [str(p.resolve()) for p in inputs],
                "related": related,
                "progress": True,
                "source_root": str(Path.cwd()),
            }
            build(config)
        except MkDocsException as error:
            raise Failure(str(error).removeprefix("abstracts: ")) from None
    click.echo(f"site built in {site}/ in {time.perf_counter() - start:.1f} s")


def _site_name(inputs: tuple[Path, ...]) -> str:
    """The collection's name when there is one collection; read quickly from the inputs."""
    from .errors import Report
    from .sources import read_inputs

    try:
        collections = sorted({r.collection for r in read_inputs(list(inputs), Report())})
    except InputError as error:
        raise Failure(str(error)) from None
    return collections[0] if len(collections) == 1 else "Paper abstracts"
