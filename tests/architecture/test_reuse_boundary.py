"""Reuse is applied at the pass boundary (decision 0035): a stage takes no run context, names no
parameter after the serve machinery (`kept`, `memo`, `context`) and never opens a context itself:
the runtime opens one per run (pipeline.py:_Run.passes), so a stage has one code path."""

from __future__ import annotations

import ast

from helpers import ROOT

STAGES = ("sources", "enrich", "link", "explore", "render")
SERVE_NAMES = {"kept", "memo", "context"}


def _stage_modules():
    for stage in STAGES:
        for path in sorted((ROOT / "generator" / stage).rglob("*.py")):
            yield path.relative_to(ROOT), ast.parse(path.read_text(encoding="utf-8"))


def test_no_stage_function_takes_a_parameter_named_after_the_serve_machinery():
    named = []
    for path, tree in _stage_modules():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                named += [f"{path}:{node.lineno} {a.arg}" for a in arguments if a.arg in SERVE_NAMES]
    assert named == []


def test_no_stage_opens_a_run_context():
    opened = []
    for path, tree in _stage_modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "generator.context":
                opened += [f"{path}:{node.lineno}" for alias in node.names if alias.name in ("running", "RunContext", "INLINE")]
    assert opened == []
