"""Packaging step pyproject.toml cannot declare: KaTeX is copied from its npm package into the
theme (generator/theme/assets/vendor/katex/) when an sdist or wheel is built, so that
installing either needs no npm and the site loads nothing from a CDN. `make setup` does the
same for a checkout; a tree that already holds the copy (an unpacked sdist) is left as it is.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
KATEX_NPM = ROOT / "node_modules" / "katex" / "dist"
KATEX_VENDORED = ROOT / "generator" / "theme" / "assets" / "vendor" / "katex"
KATEX_FILES = ("katex.min.js", "katex.min.css", "fonts")


def vendor_katex() -> None:
    if all((KATEX_VENDORED / name).exists() for name in KATEX_FILES):
        return
    if not KATEX_NPM.is_dir():
        raise SystemExit(f"KaTeX not found in {KATEX_NPM}: run `npm ci` (or `make setup`) before packaging")
    shutil.rmtree(KATEX_VENDORED, ignore_errors=True)
    KATEX_VENDORED.mkdir(parents=True)
    for name in KATEX_FILES:
        source = KATEX_NPM / name
        if source.is_dir():
            shutil.copytree(source, KATEX_VENDORED / name)
        else:
            shutil.copy2(source, KATEX_VENDORED / name)


# In finalize_options, not run: the list of package data is made (and kept) as soon as
# another command (egg_info's manifest) asks for it, which can be before either runs.
class BuildWithKatex(build_py):
    def finalize_options(self):
        vendor_katex()
        super().finalize_options()


class SdistWithKatex(sdist):
    def finalize_options(self):
        vendor_katex()
        super().finalize_options()


setup(cmdclass={"build_py": BuildWithKatex, "sdist": SdistWithKatex})
