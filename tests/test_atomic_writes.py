"""A run killed mid-write leaves every generated file either old or new, never half written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from conftest import ROOT
from generator.write import write_site

FILES = 120
SIZE = 400_000

CHILD = """
import sys
from pathlib import Path
from generator.write import write_site
files = {f"papers/p{i:03d}.md": "generated_by: abstracts-site\\n" + "N" * %d for i in range(%d)}
print("ready", flush=True)
write_site(Path(sys.argv[1]), files)
""" % (SIZE, FILES)


def test_killed_run_leaves_old_or_new_files(tmp_path):
    docs = tmp_path / "docs"
    old = {f"papers/p{i:03d}.md": "generated_by: abstracts-site\n" + "O" * SIZE for i in range(FILES)}
    write_site(docs, old)
    new_text = "generated_by: abstracts-site\n" + "N" * SIZE
    outcomes = set()
    for delay in (0.05, 0.15, 0.3):
        write_site(docs, old)
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(docs)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "ready"
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for name, text in old.items():
            content = (docs / name).read_text()
            assert content in (text, new_text), f"{name} is half written ({len(content)} bytes)"
            outcomes.add("new" if content == new_text else "old")
    # A later run completes and clears temporary files the killed one left behind.
    write_site(docs, {name: new_text for name in old})
    assert not [p for p in (docs / "papers").iterdir() if p.name.endswith(".tmp")]
    assert all((docs / name).read_text() == new_text for name in old)
    # With these sizes a kill lands mid-run: some files were already new, others still old.
    assert outcomes == {"old", "new"}, outcomes
