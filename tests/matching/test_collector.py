"""The one pause of the cyclic garbage collector, around the building of many results."""

from __future__ import annotations

import gc

from toolexpect import Sample, ToolCallAccuracyEvaluator
from toolexpect.matching.collector import collector_paused


def test_the_collector_is_paused_inside_and_runs_again_after() -> None:
    """Inside the block the collector does not run; after it, it runs as it did before."""
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_paused_before_stays_paused() -> None:
    """A caller that paused the collector itself finds it paused after the block."""
    gc.disable()
    try:
        with collector_paused(settle=True):
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_settling_leaves_no_young_objects() -> None:
    """With ``settle`` the objects made in the block end in the oldest generation: the young
    generations are empty after it."""
    with collector_paused(settle=True):
        made = [[index] for index in range(10_000)]
    assert gc.get_count()[0] < 100
    assert len(made) == 10_000


def test_the_api_scores_a_sample_with_the_collector_paused_and_restores_it() -> None:
    """The evaluator pauses the collector while it compiles and scores, and leaves it running."""
    seen: list[bool] = []

    class Watching(dict):  # type: ignore[type-arg]
        def items(self):  # type: ignore[no-untyped-def]
            seen.append(gc.isenabled())
            return super().items()

    evaluation = ToolCallAccuracyEvaluator().evaluate(
        Sample(
            expected_tool_calls=[{"name": "f", "arguments": Watching(x=1)}],
            tool_calls=[{"name": "f", "arguments": Watching(x=1)}],
        )
    )
    assert evaluation.value == 1.0
    assert seen and not any(seen)
    assert gc.isenabled()
