"""`mkdocs serve` of a copy of the project, as `make serve` runs it, for the browser tests
that edit inputs while a page is open (test_serve.py, test_serve_broken_input.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from generator.cli import stage_docs
from helpers import MKDOCS, ROOT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def copy_project(target: Path) -> Path:
    """The project's site sources in `target`; returns the copied mkdocs.yml."""
    shutil.copytree(ROOT / "seeds", target / "seeds")
    shutil.copytree(ROOT / "overrides", target / "overrides")
    (target / "docs").mkdir()
    stage_docs(ROOT / "docs", target / "docs")  # hand-written pages only
    return Path(shutil.copy2(ROOT / "mkdocs.yml", target / "mkdocs.yml"))


def wait_until_up(url: str, server: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"mkdocs serve exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"mkdocs serve did not answer within {timeout} s:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def mkdocs_serve(config: Path, log: Path):
    """`mkdocs serve` of `config` as `make serve` runs it (live reload on, only changed pages
    rebuilt): its base URL once it answers."""
    port = free_port()
    with log.open("wb") as output:
        server = subprocess.Popen(
            [str(MKDOCS), "serve", "--livereload", "--dirty", "--dev-addr", f"127.0.0.1:{port}", "-f", str(config)],
            cwd=config.parent,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", server, log)
        yield f"http://127.0.0.1:{port}/"
    finally:
        # The whole process group: mkdocs and anything it started.
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def wait_for_text(url: str, text: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if text in fetch(url):
                return
        except OSError:
            pass
        time.sleep(0.2)
    pytest.fail(f"{url} never showed {text!r}")
