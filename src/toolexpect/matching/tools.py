"""The tools a case's runs called, counted: per tool, how many calls and how many runs.

What a comparison of two reports needs to say which calls appeared or vanished, kept small
whatever the number of runs: per case, never per run, and at most :data:`MAX_TOOLS` tools, the
first by name (code point order); the calls of the other tools are counted together. Which
tools are kept depends only on the names called, never on the order runs come in, so counts of
consecutive runs join exactly (:meth:`ToolCounts.then`, associative and commutative).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolexpect.calls import ToolCall

__all__ = ["MAX_TOOLS", "ToolCounter", "ToolCounts"]

MAX_TOOLS = 50
"""How many tools the counts of one case name (the first by name); the rest are counted together."""


@dataclass(frozen=True, slots=True)
class ToolCounts:
    """Tools called over some runs: ``tools`` as (name, calls, runs that called it), sorted by
    name, at most :data:`MAX_TOOLS`; ``other_calls``: calls of tools beyond those."""

    tools: tuple[tuple[str, int, int], ...] = ()
    other_calls: int = 0

    def then(self, later: ToolCounts) -> ToolCounts:
        """The counts of this one's runs and ``later``'s together."""
        if not later.tools and not later.other_calls:
            return self
        if not self.tools and not self.other_calls:
            return later
        joined = {name: (calls, runs) for name, calls, runs in self.tools}
        for name, calls, runs in later.tools:
            before_calls, before_runs = joined.get(name, (0, 0))
            joined[name] = (before_calls + calls, before_runs + runs)
        names = sorted(joined)
        dropped = sum(joined[name][0] for name in names[MAX_TOOLS:])
        return ToolCounts(
            tuple((name, *joined[name]) for name in names[:MAX_TOOLS]),
            self.other_calls + later.other_calls + dropped,
        )


class ToolCounter:
    """Count the tools of runs as they come (see :class:`ToolCounts`)."""

    __slots__ = ("_counts", "_other", "_runs")

    def __init__(self) -> None:
        self._counts: dict[str, list[int]] = {}  # name: [calls, runs, the last run that called it]
        self._other = 0
        self._runs = 0

    def add(self, calls: Sequence[ToolCall] | None) -> None:
        """Count the calls of one run (``None``: nothing recorded)."""
        if not calls:
            return
        self._runs += 1
        run = self._runs
        counts = self._counts
        for call in calls:
            name = call.name
            known = counts.get(name)
            if known is not None:
                known[0] += 1
                if known[2] != run:
                    known[1] += 1
                    known[2] = run
                continue
            if len(counts) >= MAX_TOOLS:
                last = max(counts)
                if name > last:
                    self._other += 1
                    continue
                self._other += counts.pop(last)[0]
            counts[name] = [1, 1, run]

    def counts(self) -> ToolCounts:
        """The tools counted so far."""
        return ToolCounts(
            tuple((name, calls, runs) for name, (calls, runs, _) in sorted(self._counts.items())),
            self._other,
        )
