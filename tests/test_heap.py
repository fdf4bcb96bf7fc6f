"""The cycle collector around a generator run: paused while it runs, and afterwards not made
to walk every object the run made at the next allocation."""

from __future__ import annotations

import gc

from generator.heap import collector_paused


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


def test_what_a_long_lived_process_froze_stays_frozen():
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            made = [[i] for i in range(1_000)]
        assert gc.get_freeze_count() == frozen
        assert made
    finally:
        gc.unfreeze()
