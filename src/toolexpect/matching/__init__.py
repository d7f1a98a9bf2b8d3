"""Match a case's expectations against recorded runs, and decide pass or fail.

Pure: no I/O, no printing. The modules, in the order data flows through them:

* :mod:`~toolexpect.matching.values`: when two values are equivalent (docs/language.md),
  and hashable keys of values for the equality index;
* :mod:`~toolexpect.matching.matchers`: each argument matcher as a test of a call's arguments;
* :mod:`~toolexpect.matching.pairing`: the maximum matching of expectations to calls;
* :mod:`~toolexpect.matching.case`: a compiled case scoring a run and checking requirements;
* :mod:`~toolexpect.matching.explain`: why a failing run failed (closest calls, near misses),
  worded by :mod:`~toolexpect.matching.wording`;
* :mod:`~toolexpect.matching.accumulate`: repeated runs of a case folded into one verdict;
* :mod:`~toolexpect.matching.tools`: the tools a case's runs called, counted;
* :mod:`~toolexpect.matching.results`: the result records all of them return.
"""

from __future__ import annotations

from toolexpect.matching.accumulate import MAX_KEPT_RUNS, CaseAccumulator, Tally, aggregate, verdict
from toolexpect.matching.case import CompiledCase, compile_case, evaluate, tool_call_accuracy
from toolexpect.matching.explain import MAX_CLOSEST, MAX_EXPLAINED, MAX_LISTED, MAX_SCANNED, source_call
from toolexpect.matching.matchers import arg_matches, expectation_matches
from toolexpect.matching.results import (
    ArgReport,
    CaseResult,
    Failure,
    FailureKind,
    LaterFailures,
    MatchResult,
    NearMiss,
    RunResult,
    Status,
)
from toolexpect.matching.tools import MAX_TOOLS, ToolCounter, ToolCounts

__all__ = [
    "MAX_CLOSEST",
    "MAX_EXPLAINED",
    "MAX_KEPT_RUNS",
    "MAX_LISTED",
    "MAX_SCANNED",
    "MAX_TOOLS",
    "ArgReport",
    "CaseAccumulator",
    "CaseResult",
    "CompiledCase",
    "Failure",
    "FailureKind",
    "LaterFailures",
    "MatchResult",
    "NearMiss",
    "RunResult",
    "Status",
    "Tally",
    "ToolCounter",
    "ToolCounts",
    "aggregate",
    "arg_matches",
    "compile_case",
    "evaluate",
    "expectation_matches",
    "source_call",
    "tool_call_accuracy",
    "verdict",
]
