"""Under `mkdocs serve` the process keeps what each run derived (generator.runtime.session): many
objects that Python's cycle collector walked one to three times per edit (decision 0003).
They are moved out of its way (gc.freeze): before each run the garbage of the build before is
collected and what is left frozen (`Heap.before_run`), and the run's own objects are frozen as
it ends (`collector_paused`), not left young for the next allocations to walk. Frozen objects
are still freed when no longer referenced; only cycles frozen while alive that die later
(MkDocs' config of the running build, the few cycles a run leaves) would wait: every
UNFREEZE_EVERY runs everything is handed back to the collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

UNFREEZE_EVERY = 50
# Whether a Heap froze what its process keeps (gc.get_freeze_count() would tell, but it walks
# every frozen object, on every edit: decision 0003).
_kept_frozen = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off while a generator run derives and renders: the run allocates
    millions of short-lived objects, few of them in cycles, and each full collection walked
    every object the run keeps (the papers, the TF-IDF rows, the pages). Forked workers inherit
    the pause and so copy fewer of the parent's pages. Off: less CPU, the same peak memory
    (decision 0003). What cycles the run leaves are collected after it, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # Every object the run made is young to the collector: the first allocation after
            # this would walk them all, before the pages were written, for the few cycles among
            # them. Frozen instead: where a long-lived process froze what it keeps (Heap), the
            # run's objects join them (fewer collections per edit); elsewhere they are moved to
            # the oldest generation (freeze, then unfreeze), where the next full collection
            # finds them, and a process that ends after its run never pays it (decision 0003).
            gc.freeze()
            if not _kept_frozen:
                gc.unfreeze()
            gc.enable()


class Heap:
    def __init__(self) -> None:
        self.runs = 0

    def before_run(self) -> None:
        """Called before each generator run of a long-lived process: the last build's garbage
        collected, what is left frozen (every UNFREEZE_EVERY runs, all handed back instead)."""
        global _kept_frozen
        self.runs += 1
        if self.runs % UNFREEZE_EVERY == 0:
            gc.unfreeze()
            _kept_frozen = False
            return
        gc.collect()
        gc.freeze()
        _kept_frozen = True
