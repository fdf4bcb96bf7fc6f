"""`python -m generator`: the command line in a process of its own, which ends as soon as the
command has: the interpreter would otherwise free the run's objects one by one before exiting,
where the system frees the whole process at once (decision 0003). Output is flushed first;
every file is closed by then."""

import os
import sys

from generator.cli import main


def _exit_status(code: object) -> int:
    """What `sys.exit(code)` would make of it: None is 0, an int itself, a message 1 (printed)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


try:
    main(prog_name="python -m generator")
except SystemExit as done:
    status = _exit_status(done.code)
else:
    status = 0
for stream in (sys.stdout, sys.stderr):
    try:
        stream.flush()
    except OSError:  # a closed pipe ('| head'): nothing more to show
        pass
os._exit(status)
