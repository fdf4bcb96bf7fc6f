"""The package as a user installs it: the wheel, built as a release would be, works in a
fresh virtual environment outside this checkout; every library the package imports is declared.

The fresh environment gets the wheel (`pip install --no-index`, so nothing is downloaded) and
sees its dependencies through a .pth file naming this project's .venv site-packages: the
dependencies are the ones the project was set up with, without a second download or a
wheel cache. A .pth line only adds a folder to sys.path (the .pth files inside it are not
run), so the editable install of this checkout is not importable there: the test checks that
`generator` comes from the wheel.
"""

from __future__ import annotations

import ast
import os
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
import zipfile
from importlib.metadata import packages_distributions, requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from helpers import ROOT

PACKAGE = ROOT / "generator"
# Modules whose libraries come with an extra, not with the package: the sentence model itself
# ([semantic]; imported only when the model is installed and used; the built-in table learned
# from it needs only the package's own dependencies).
WITH_EXTRA = {
    "language/meaning/encoder.py": "semantic",
    "language/meaning/graph.py": "semantic",
    "language/meaning/install.py": "semantic",
}


def run(command: list, cwd: Path, env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(map(str, command))}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


def clean_env(venv: Path) -> dict:
    """A user's shell with the new environment first on PATH: no PYTHONPATH, no project venv."""
    keep = {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "LC_ALL", "TMPDIR")}
    return {**keep, "PATH": f"{venv / 'bin'}:/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.read().decode("utf-8")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


@pytest.mark.slow
def test_the_wheel_installed_elsewhere_makes_builds_and_serves_a_site(tmp_path):
    # sdist, then the wheel from the unpacked sdist (as `python -m build` does): the sdist is complete.
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ROOT], ROOT, {**os.environ})
    wheel = next(dist.glob("abstracts_site-*.whl"))
    # Every file of the package, whatever its suffix (stopwords.txt once was left out).
    with zipfile.ZipFile(wheel) as archive:
        packed = set(archive.namelist())
    files = {p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert files - packed == set()
    # The product only: the lab's packages (lab/, bench/) stay in the repository (issue 54).
    assert {name.split("/")[0] for name in packed if ".dist-info/" not in name} == {"generator"}

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, {**os.environ})
    site_packages = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    (site_packages / "dependencies-from-project-venv.pth").write_text(sysconfig.get_path("purelib") + "\n")
    # A new user's cache: no sentence model installed, whatever this machine has.
    env = {**clean_env(venv), "ABSTRACTS_SITE_CACHE": str(tmp_path / "user-cache")}
    python = venv / "bin" / "python"
    # pip (from the project venv) installs into the environment of the python that runs it.
    run([python, "-m", "pip", "install", "--no-index", "--no-deps", "--ignore-installed", "--quiet", wheel], tmp_path, env)
    where = run([python, "-c", "import generator; print(generator.__file__)"], tmp_path, env).stdout.strip()
    assert Path(where).is_relative_to(venv), where

    work = tmp_path / "elsewhere"
    work.mkdir()
    run(["abstracts-site", "new", "my-site"], work, env)
    site = work / "my-site"
    built = run([python, "-m", "mkdocs", "build", "--strict"], site, env)
    # Related papers by meaning with no step beyond the install: the table ships in the wheel.
    assert "related papers by meaning from abstracts-site-meaning-table: 5 of 5" in built.stderr, built.stderr
    page = next((site / "site" / "papers").glob("patchsae*/index.html")).read_text(encoding="utf-8")
    assert "PatchSAE" in page and "assets/vendor/katex/katex.min.js" in page
    assert (site / "site" / "assets" / "vendor" / "katex" / "katex.min.js").is_file()
    assert (site / "site" / "pagefind" / "pagefind.js").is_file()

    # The command from the issue: a whole site from a file, in a folder of its own.
    run(["abstracts-site", "build", site / "seeds" / "papers.txt", "--site", work / "out"], work, env)
    assert len(list((work / "out" / "papers").glob("*/index.html"))) == 5

    port = free_port()
    server = subprocess.Popen(
        ["abstracts-site", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=site,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        slug = next((site / "site" / "papers").glob("patchsae*")).name
        assert "PatchSAE" in get(f"http://127.0.0.1:{port}/papers/{slug}/")
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=20)


def imported_libraries(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"generator", "__future__"}


def test_every_library_the_package_imports_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = set()
    for line in project["dependencies"]:
        requirement = Requirement(line)
        declared.add(canonicalize_name(requirement.name))
        # A declared extra brings its own distributions: pagefind[bin] -> pagefind-bin.
        for extra in requirement.extras:
            for needed in map(Requirement, requires(requirement.name) or []):
                if needed.marker and needed.marker.evaluate({"extra": extra}):
                    declared.add(canonicalize_name(needed.name))
    distributions = packages_distributions()
    undeclared = {}
    for module in sorted(PACKAGE.rglob("*.py")):
        if module.relative_to(PACKAGE).as_posix() in WITH_EXTRA:
            continue
        for library in imported_libraries(module):
            names = {canonicalize_name(d) for d in distributions.get(library, [library])}
            if not names & declared:
                undeclared.setdefault(library, []).append(module.relative_to(PACKAGE).as_posix())
    assert not undeclared, f"imported but not in [project].dependencies: {undeclared}"
    for module, extra in WITH_EXTRA.items():
        with_extra = {canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"][extra]}
        for library in imported_libraries(PACKAGE / module):
            assert {canonicalize_name(d) for d in distributions.get(library, [library])} & (declared | with_extra), (module, library)
