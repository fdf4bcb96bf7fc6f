"""Packaging step pyproject.toml cannot declare: KaTeX is copied from its npm package into the
theme (generator/plugin/theme/assets/vendor/katex/), so that wheels and sdists carry it: installing
either needs no npm and the site loads nothing from a CDN. `make setup` makes the same copy
in a checkout; a tree that already holds it (an unpacked sdist) is left as it is. An editable
install reads the checkout's copy and does not need it at install time.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
KATEX_NPM = ROOT / "node_modules" / "katex" / "dist"
KATEX_VENDORED = ROOT / "generator" / "plugin" / "theme" / "assets" / "vendor" / "katex"
KATEX_FILES = ("katex.min.js", "katex.min.css", "fonts")


def vendored() -> bool:
    return all((KATEX_VENDORED / name).exists() for name in KATEX_FILES)


def vendor_katex() -> None:
    """Copy KaTeX from node_modules when it is there and the copy is not."""
    if vendored() or not KATEX_NPM.is_dir():
        return
    shutil.rmtree(KATEX_VENDORED, ignore_errors=True)
    KATEX_VENDORED.mkdir(parents=True)
    for name in KATEX_FILES:
        source = KATEX_NPM / name
        if source.is_dir():
            shutil.copytree(source, KATEX_VENDORED / name)
        else:
            shutil.copy2(source, KATEX_VENDORED / name)


def require_katex() -> None:
    if not vendored():
        raise SystemExit(f"KaTeX is not in {KATEX_VENDORED} nor in {KATEX_NPM}: run `npm ci` (or `make setup`) before packaging")


# The copy is made in finalize_options, not run: the list of package data is made (and kept)
# as soon as another command (egg_info's manifest) asks for it, which can be before either runs.
class BuildPy(build_py):
    def finalize_options(self):
        vendor_katex()
        super().finalize_options()


class Sdist(sdist):
    def finalize_options(self):
        vendor_katex()
        super().finalize_options()

    def run(self):
        require_katex()
        super().run()


class BdistWheel(bdist_wheel):
    def run(self):
        require_katex()
        super().run()


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist, "bdist_wheel": BdistWheel})
