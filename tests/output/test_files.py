"""A run killed mid-write leaves every generated file either old or new, never half written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from generator.output.files import write_site
from helpers import ROOT

FILES = 120
SIZE = 200_000

# The child writes the new generation slowly (a pause before each rename), so the
# test can kill it reliably while some files are new and others still old.
CHILD = """
import sys, time
from pathlib import Path
from generator.output import files as write
real_replace = write.os.replace
def slow_replace(source, target):
    time.sleep(0.01)
    real_replace(source, target)
write.os.replace = slow_replace
files = {f"papers/p{i:03d}.md": "generated_by: abstracts-site\\n" + "N" * %d for i in range(%d)}
print("ready", flush=True)
write.write_site(Path(sys.argv[1]), files)
""" % (SIZE, FILES)  # noqa: UP031


def test_killed_run_leaves_old_or_new_files(tmp_path):
    docs = tmp_path / "docs"
    old = {f"papers/p{i:03d}.md": "generated_by: abstracts-site\n" + "O" * SIZE for i in range(FILES)}
    new_text = "generated_by: abstracts-site\n" + "N" * SIZE
    write_site(docs, old)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(docs)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (docs / "papers/p010.md").read_text()[29] != "N":
        time.sleep(0.005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    states = []
    for name, text in old.items():
        content = (docs / name).read_text()
        assert content in (text, new_text), f"{name} is half written ({len(content)} bytes)"
        states.append("new" if content == new_text else "old")
    assert "new" in states and "old" in states, states  # the kill landed mid-run
    # A later run completes and clears the temporary file the killed one left behind.
    write_site(docs, {name: new_text for name in old})
    assert not [p for p in (docs / "papers").iterdir() if p.name.endswith(".tmp")]
    assert all((docs / name).read_text() == new_text for name in old)
