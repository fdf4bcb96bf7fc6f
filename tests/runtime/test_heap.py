"""The cycle collector around a generator run: paused while it runs, and afterwards not made
to walk every object the run made at the next allocation."""

from __future__ import annotations

import gc
import weakref

from generator.runtime.heap import UNFREEZE_EVERY, Heap, collector_paused


def test_a_run_leaves_no_young_objects_for_the_collector_to_walk():
    assert gc.isenabled()
    gc.unfreeze()  # as in a process that runs the generator once (an earlier test may have frozen some)
    gc.collect()
    started: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(record)
    try:
        with collector_paused():
            assert not gc.isenabled()
            kept = [(i, [i]) for i in range(50_000)]  # what a run keeps: papers, pages
        assert gc.isenabled()
        after = [[i] for i in range(100)]  # the next allocations: they walked all of `kept`
    finally:
        gc.callbacks.remove(record)
    assert started == []
    assert kept and after
    cycle: list = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1  # cycles are still collected


def test_a_long_lived_process_keeps_what_it_froze_and_freezes_what_a_run_made():
    heap = Heap()
    heap.before_run()  # what it keeps, frozen
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            made = [(i, [i]) for i in range(50_000)]
        # Not left young for the next allocations to walk (0.21-0.28 s an edit at 4,242 papers).
        assert gc.get_freeze_count() >= frozen + 100_000
        assert gc.get_count()[0] < 100
        assert made
    finally:
        gc.unfreeze()
        for _ in range(UNFREEZE_EVERY - 1):  # to its last run: everything handed back
            heap.before_run()
    assert gc.get_freeze_count() == 0
    with collector_paused():
        made = [(i, [i]) for i in range(1_000)]
    assert gc.get_freeze_count() == 0  # a process whose heap froze nothing freezes nothing for good


def test_before_each_run_the_last_builds_garbage_is_collected_and_the_rest_frozen():
    gc.unfreeze()
    heap = Heap()
    try:
        cycle: list = []
        cycle.append(cycle)
        alive = weakref.ref(Garbage(cycle))
        del cycle
        kept = [[i] for i in range(1_000)]
        heap.before_run()
        assert alive() is None  # collected, not frozen
        assert gc.get_freeze_count() >= 1_000
        for _ in range(UNFREEZE_EVERY - 2):
            heap.before_run()
        assert gc.get_freeze_count()
        heap.before_run()  # every UNFREEZE_EVERY runs, everything is handed back to the collector
        assert gc.get_freeze_count() == 0
        assert kept
    finally:
        gc.unfreeze()


class Garbage:
    def __init__(self, cycle: list) -> None:
        self.cycle = cycle
        cycle.append(self)
