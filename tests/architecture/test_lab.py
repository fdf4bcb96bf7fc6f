"""The lab stays outside the product (issue 54): lab/ and bench/ import the product, never the
reverse, and the lab does not import bench; only their own tests (tests/lab, tests/bench) use
them; importing the product loads none of their modules; and no file puts a folder on the
module search path to reach code."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

LAB_PACKAGES = ("lab", "bench")
LAB_TESTS = tuple(ROOT / "tests" / package for package in LAB_PACKAGES)
LAB_MODULES = {
    ".".join(p.relative_to(ROOT).with_suffix("").parts[:-1] if p.name == "__init__.py" else p.relative_to(ROOT).with_suffix("").parts)
    for package in LAB_PACKAGES
    for p in (ROOT / package).rglob("*.py")
}
# Code that changes the module search path: insert, append, extend, or assigning to it.
SEARCH_PATH_CHANGED = re.compile(r"sys\.path\.(?:insert|append|extend)\(|sys\.path(?:\[[^\]]*\])?\s*\+?=[^=]")


def lab_uses(text: str) -> list[str]:
    """The lab's modules that the Python `text` imports (anywhere in it) or names whole in a
    string, as importlib.import_module("lab.evaluate") or a command `-m bench.bench` would."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value and node.value in LAB_MODULES:
            found.append(node.value)
    return [name for name in found if name.split(".")[0] in LAB_PACKAGES]


def uses_in(paths: list[Path]) -> list[str]:
    return [f"{path.relative_to(ROOT)}: {name}" for path in paths for name in lab_uses(path.read_text(encoding="utf-8"))]


def test_the_check_sees_an_import_and_a_command_not_a_mention():
    planted = 'def f():\n    from lab.evaluate import derive\n\n\nCOMMAND = ["-m", "bench.bench"]\nTEXT = "lab.evaluate counts them"\nWORD = "bench"\n'
    assert lab_uses(planted) == ["lab.evaluate", "bench.bench"]
    assert {"lab.evaluate", "lab.train", "bench.bench"} <= LAB_MODULES


def test_no_module_of_the_product_imports_the_lab():
    assert uses_in(sorted((ROOT / "generator").rglob("*.py"))) == []


def test_only_the_labs_own_tests_use_it():
    tests = sorted((ROOT / "tests").rglob("*.py"))
    product_tests = [p for p in tests if not any(p.is_relative_to(folder) for folder in LAB_TESTS) and p != Path(__file__).resolve()]
    assert len(tests) > len(product_tests) > 50
    assert uses_in(product_tests) == []


def test_the_lab_does_not_import_the_benchmarks():
    """bench/ may use the lab's evaluation (region_quality does); the lab needs no browser or build."""
    assert [use for use in uses_in(sorted((ROOT / "lab").rglob("*.py"))) if use.split(": ")[1].startswith("bench")] == []


def test_importing_the_product_loads_no_lab_module():
    # From the repository root, where the lab is importable: nothing the product runs may load it.
    code = (
        "import generator; import generator.cli; import generator.plugin.mkdocs_plugin; import sys; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {LAB_PACKAGES!r}))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == "[]"


def test_no_file_changes_the_module_search_path():
    """Code reaches the product and the lab by package name (`python -m lab.train` from the
    root); a tool that runs another checkout gives it a process of its own (PYTHONPATH) or loads
    its package from its folder (bench/region_quality.py)."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    found = []
    for name in filter(None, listed):
        path = ROOT / name
        if path.is_file() and not path.is_symlink():
            text = path.read_bytes().decode("utf-8", errors="replace")
            found += [f"{name}: {m.group(0)}" for m in SEARCH_PATH_CHANGED.finditer(text)]
    assert found == []
    search_path = "sys" + ".path"  # spelt apart: this file names the calls without making them
    examples = f"{search_path}.insert(0, str(ROOT)); {search_path}[:0] = [x]; {search_path} += [y]; {search_path} == z"
    assert SEARCH_PATH_CHANGED.findall(examples) == [f"{search_path}.insert(", f"{search_path}[:0] = ", f"{search_path} += "]
