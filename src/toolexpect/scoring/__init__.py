"""Scoring: the partial scores of runs against compiled cases, merged and finished into a report.

``partial`` scores a partition of the runs into a :class:`PartialScore` that merges with others
in any grouping and order, and finishes into the :class:`ScoreReport`; ``outcomes`` holds the
report's data (cases, runs, findings); ``inputs`` checks what the functions are given. The names
below are re-exported from ``partial`` on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolexpect._lazy import exports

if TYPE_CHECKING:
    from toolexpect.scoring.partial import (
        MAX_UNUSED_IDS,
        CallFinding,
        CaseOutcome,
        CompiledSpecs,
        Part,
        PartialScore,
        Position,
        SampleFinding,
        Scorer,
        ScoreReport,
        SpecsLike,
        UnusedSample,
        score,
        score_partition,
        specs_of,
    )

__all__ = [
    "MAX_UNUSED_IDS",
    "CallFinding",
    "CaseOutcome",
    "CompiledSpecs",
    "Part",
    "PartialScore",
    "Position",
    "SampleFinding",
    "ScoreReport",
    "Scorer",
    "SpecsLike",
    "UnusedSample",
    "score",
    "score_partition",
    "specs_of",
]

_HOMES = {
    "MAX_UNUSED_IDS": "toolexpect.scoring.partial",
    "CallFinding": "toolexpect.scoring.partial",
    "CaseOutcome": "toolexpect.scoring.partial",
    "CompiledSpecs": "toolexpect.scoring.partial",
    "Part": "toolexpect.scoring.partial",
    "PartialScore": "toolexpect.scoring.partial",
    "Position": "toolexpect.scoring.partial",
    "SampleFinding": "toolexpect.scoring.partial",
    "ScoreReport": "toolexpect.scoring.partial",
    "Scorer": "toolexpect.scoring.partial",
    "SpecsLike": "toolexpect.scoring.partial",
    "UnusedSample": "toolexpect.scoring.partial",
    "score": "toolexpect.scoring.partial",
    "score_partition": "toolexpect.scoring.partial",
    "specs_of": "toolexpect.scoring.partial",
}

__getattr__, __dir__ = exports(__name__, _HOMES)
