"""`abstracts-site new DIR`: a site folder the user owns, made from the files in scaffold/.

The theme stays in the package (the plugin adds it); `copy_theme` copies its templates into
the site's overrides/ for editing, where they win over the package's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2

from generator import __version__
from generator.errors import InputError
from generator.layout import ROOT_FILES, SECTIONS
from generator.plugin import assets
from generator.runtime.runcache import FOLDER as CACHE_FOLDER

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"
OVERRIDES = "overrides"

# Path in the new site -> file in scaffold/ (a .j2 file is a template).
FILES = {
    "mkdocs.yml": "mkdocs.yml.j2",
    "README.md": "README.md.j2",
    "requirements.txt": "requirements.txt.j2",
    ".gitignore": "gitignore.j2",
    ".github/workflows/pages.yml": "pages.yml",
    "docs/about.md": "about.md",
    "seeds/papers.txt": "papers.txt",
}


def _render(name: str, **values) -> str:
    if not name.endswith(".j2"):
        return (SCAFFOLD / name).read_text(encoding="utf-8")
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(SCAFFOLD), keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False
    )
    return environment.get_template(name).render(**values)


def site_config(title: str, inputs: list[str], custom_dir: str | None = None) -> str:
    """The text of a site's mkdocs.yml: the Material theme and the abstracts plugin on `inputs`."""
    return _render("mkdocs.yml.j2", title=title, inputs=inputs, custom_dir=custom_dir)


def about_page() -> str:
    return _render("about.md")


def create(folder: Path, title: str, *, copy_theme: bool = False) -> list[str]:
    """Write a new site into `folder` (absent or empty); return the paths written, relative to it."""
    if folder.exists() and not folder.is_dir():
        raise InputError(str(folder), "is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise InputError(str(folder), "folder exists and is not empty; name a new or empty folder")
    generated = [f"{section}/" for section in SECTIONS] + list(ROOT_FILES) + [f"{CACHE_FOLDER}/"]
    values = {
        "title": title,
        "inputs": ["seeds"],
        "custom_dir": OVERRIDES if copy_theme else None,
        "version": __version__,
        "generated": generated,
    }
    written = []
    try:
        for target, source in FILES.items():
            path = folder / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_render(source, **values), encoding="utf-8")
            written.append(target)
        if copy_theme:
            # Templates only: the scripts, styles and KaTeX keep coming from the package.
            for template in sorted(assets.THEME_DIR.rglob("*.html")):
                relative = template.relative_to(assets.THEME_DIR)
                (folder / OVERRIDES / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(template, folder / OVERRIDES / relative)
                written.append(f"{OVERRIDES}/{relative.as_posix()}")
    except OSError as error:
        raise InputError(str(folder), f"cannot write: {error.strerror}") from None
    return written
