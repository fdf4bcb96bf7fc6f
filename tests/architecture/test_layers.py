"""The package's imports flow one way: a module imports only from its own layer or the ones
below it (the pipeline's stages in their order, serve-time machinery above them, the MkDocs
plugin and the CLI on top), and no two packages import each other."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from helpers import ROOT

PACKAGE = ROOT / "generator"

# Lowest first. A module belongs to the longest prefix that names it.
LAYERS = [
    ("generator", "generator.model", "generator.errors", "generator.layout", "generator.context", "generator.options"),
    ("generator.language",),
    ("generator.sources",),
    ("generator.enrich",),
    ("generator.link",),
    ("generator.explore",),
    ("generator.render",),
    ("generator.output",),
    ("generator.runtime",),
    ("generator.pipeline",),
    ("generator.plugin", "generator.cli", "generator.__main__"),
]

# Upward imports the layout still has, each a debt to remove; a new one fails this test, and a
# removed one fails it too until it is struck from this set.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(path: Path) -> set[str]:
    """The package's modules `path` imports anywhere (at the top or inside a function)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}: relative import; the package imports by absolute name")
    return found & MODULES.keys()


def layer_of(module: str) -> tuple[int, str]:
    matches = [
        (len(unit), index, unit) for index, units in enumerate(LAYERS) for unit in units if module == unit or module.startswith(unit + ".")
    ]
    _, index, unit = max(matches)
    return index, unit


def package_of(module: str) -> str:
    """generator.link.related.similar -> generator.link: the stage a module belongs to."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (PACKAGE / parts[-1]).is_dir() else module


EDGES = {(module, target) for module, path in MODULES.items() for target in imported_modules(path) if target != module}


def test_every_module_has_a_layer():
    assert all(layer_of(module) for module in MODULES)


def test_imports_go_down_the_layers_or_are_known_debts():
    upward = {(a, b) for a, b in EDGES if layer_of(b)[0] > layer_of(a)[0]}
    assert upward - KNOWN_UPWARD == set(), "imports up the layers (see LAYERS)"
    assert KNOWN_UPWARD - upward == set(), "no longer imported: strike them from KNOWN_UPWARD"


def test_no_two_packages_import_each_other():
    """(The known upward imports aside: each of them closes a cycle through the runtime.)"""
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in EDGES - KNOWN_UPWARD:
        if package_of(a) != package_of(b):
            graph[package_of(a)].add(package_of(b))
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in path:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif len(path) < len(graph) + 1:
                visit(nxt, path + [nxt])

    for start in sorted(graph):
        visit(start, [start])
    assert not cycles, f"packages importing each other: {sorted({' -> '.join(c) for c in cycles})}"


def test_the_top_level_stays_small():
    top = [p for p in PACKAGE.glob("*.py")]
    assert len(top) <= 10, sorted(p.name for p in top)
