"""Figures about the package's code (issue 32): modules at generator/'s top, sub-packages,
docstrings over 40 lines, and docstring or comment lines that carry a measurement (a time, a
size, a share, a speed-up), which belong in docs/decisions/ instead.

    .venv/bin/python -m lab.code_figures [-v]        # -v lists the measurement lines
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
LONGEST_DOCSTRING = 40
MEASUREMENT = re.compile(
    r"\d[\d,.]*\s*(?:-\s*[\d.,]+\s*)?(?:ms|us|µs|s|MB|GB|KB|MiB|GiB|KiB|%|x)\b"  # 0.35 s, 14.6 MB, 13%, 2x
    r"|\d\s*->\s*\d"  # before -> after
    r"|\d+(?:\.\d+)?x (?:faster|slower|less|more)"
)


def docstrings(tree: ast.Module) -> list[tuple[str, str]]:
    """(owner, docstring) of the module, its classes and functions."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append((getattr(node, "name", "<module>"), text))
    return found


def comments(source: str) -> list[str]:
    return [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline) if token.type == tokenize.COMMENT]


def main() -> int:
    long_docstrings, measured = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(PACKAGE.parent).as_posix()
        for owner, text in docstrings(ast.parse(source)):
            lines = text.splitlines()
            if len(lines) > LONGEST_DOCSTRING:
                long_docstrings.append(f"{where}:{owner} ({len(lines)} lines)")
            measured += [(where, line.strip()) for line in lines if MEASUREMENT.search(line)]
        measured += [(where, comment) for comment in comments(source) if MEASUREMENT.search(comment)]
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    print(f"modules at the top: {len(top)} ({', '.join(top)})")
    print(f"sub-packages: {len(packages)} ({', '.join(packages)})")
    print(f"docstrings over {LONGEST_DOCSTRING} lines: {len(long_docstrings)} {long_docstrings}")
    print(f"docstring or comment lines carrying a measurement: {len(measured)}")
    if "-v" in sys.argv:
        for where, line in measured:
            print(f"  {where}: {line[:130]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
