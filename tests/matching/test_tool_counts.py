"""The tools a case's runs called, counted: per tool the calls and the runs, at most 50 tools,
and counts of runs taken apart join into the counts of the runs taken together."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from toolexpect.calls import ToolCall
from toolexpect.matching import MAX_TOOLS, ToolCounter, ToolCounts

NAMES = [f"tool_{number:02d}" for number in range(MAX_TOOLS + 20)]


def _counts(runs: list[list[str]]) -> ToolCounts:
    counter = ToolCounter()
    for run in runs:
        counter.add(tuple(ToolCall(name, {}) for name in run))
    return counter.counts()


def test_each_tool_counts_its_calls_and_the_runs_that_called_it() -> None:
    """Two calls of ``search`` in one run and one in another: 3 calls in 2 runs."""
    counts = _counts([["search", "search", "book"], ["search"], []])
    assert counts == ToolCounts((("book", 1, 1), ("search", 3, 2)), 0)


def test_a_run_without_recorded_calls_counts_nothing() -> None:
    """A sample with no recorded calls (``None``) adds no tool."""
    counter = ToolCounter()
    counter.add(None)
    assert counter.counts() == ToolCounts()


def test_beyond_the_cap_the_first_tools_by_name_are_listed() -> None:
    """With more than 50 tools, the first 50 by name are listed, whatever order they came in; the
    calls of the others are counted together."""
    names = list(reversed(NAMES[: MAX_TOOLS + 10]))
    counts = _counts([names, names[:5]])
    assert [name for name, _, _ in counts.tools] == NAMES[:MAX_TOOLS]
    assert counts.other_calls == 10 + 5


runs_strategy = st.lists(st.lists(st.sampled_from(NAMES), max_size=8), max_size=16)


@given(runs_strategy, st.lists(st.integers(0, 16), max_size=4))
def test_counts_of_runs_apart_join_into_the_counts_of_all(runs: list[list[str]], cuts: list[int]) -> None:
    """Runs cut into consecutive groups, each counted apart, join (in any grouping) into the
    counts of all the runs in one pass: the Dask path gives the report one process gives."""
    bounds = sorted({0, len(runs), *(min(cut, len(runs)) for cut in cuts)})
    parts = [_counts(runs[start:end]) for start, end in itertools.pairwise(bounds)]
    left = ToolCounts()
    for part in parts:
        left = left.then(part)
    right = ToolCounts()
    for part in reversed(parts):
        right = part.then(right)
    assert left == right == _counts(runs)


@given(runs_strategy)
def test_the_order_of_runs_does_not_change_the_counts(runs: list[list[str]]) -> None:
    """Which tools are listed depends on their names, never on the order the runs came in."""
    assert _counts(runs) == _counts(list(reversed(runs)))
