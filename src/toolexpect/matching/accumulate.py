"""Repeated runs of one case folded into one verdict: mean and lowest score, pass rate.

Agents are not deterministic, so a case may have several recorded runs. It passes only when
every run passes, unless it says ``require pass rate >= R`` (a fraction of runs, compared
exactly); a run that errors makes the case an error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from toolexpect.matching.results import CaseResult, Failure, RunResult, Status
from toolexpect.matching.values import exact_fraction
from toolexpect.model import Case

__all__ = ["MAX_KEPT_RUNS", "CaseAccumulator", "aggregate"]

MAX_KEPT_RUNS = 10
"""How many failing or erroring runs a :class:`CaseResult` keeps for the report."""


class CaseAccumulator:
    """Fold the runs of one case as they come (streaming logs) into a :class:`CaseResult`."""

    __slots__ = ("_case", "_errors", "_kept", "_min", "_passed", "_runs", "_scored", "_sum")

    def __init__(self, case: Case) -> None:
        self._case = case
        self._runs = 0
        self._passed = 0
        self._errors = 0
        self._scored = 0
        self._sum: list[float] = []
        self._min: float | None = None
        self._kept: list[tuple[int, RunResult]] = []

    def add(self, run: RunResult) -> None:
        """Count one run."""
        number = self._runs
        self._runs += 1
        if run.status == "pass":
            self._passed += 1
        else:
            if run.status == "error":
                self._errors += 1
            if len(self._kept) < MAX_KEPT_RUNS:
                self._kept.append((number, run))
        if run.score is not None:
            self._scored += 1
            self._sum.append(run.score)
            if len(self._sum) > 1024:
                self._sum = [math.fsum(self._sum)]
            self._min = run.score if self._min is None else min(self._min, run.score)

    def _rate_met(self, case: Case, runs: int) -> bool:
        """True when the runs that passed reach (or, with ``>``, pass) the required pass rate."""
        rate = Fraction(self._passed, runs)
        required = exact_fraction(case.pass_rate if case.pass_rate is not None else 1.0)
        return rate > required if case.pass_rate_strict else rate >= required

    def result(self) -> CaseResult:
        """The verdict on the runs counted so far."""
        case = self._case
        runs = self._runs
        failures: list[Failure] = []
        status: Status
        if not runs:
            status = "error"
            message = f'no recorded sample for case "{case.name}"'
            failures.append(Failure("error", message, case.span))
        elif self._errors:
            status = "error"
        elif self._passed == runs or (case.pass_rate is not None and self._rate_met(case, runs)):
            status = "pass"
        else:
            status = "fail"
            if case.pass_rate is not None:
                failures.append(
                    Failure(
                        "pass_rate",
                        f"{self._passed} of {runs} runs passed ({self._passed / runs:.0%}), "
                        f"{'not above' if case.pass_rate_strict else 'below'} "
                        f"the required pass rate {case.pass_rate:g}",
                        case.requirement_span("pass_rate"),
                        {"runs": runs, "passed": self._passed, "required": case.pass_rate},
                    )
                )
            elif runs > 1:
                failures.append(
                    Failure(
                        "pass_rate",
                        f"{runs - self._passed} of {runs} runs failed; every run must pass",
                        case.span,
                        {"runs": runs, "passed": self._passed, "required": 1.0},
                    )
                )
        mean = math.fsum(self._sum) / self._scored if self._scored else None
        return CaseResult(
            case=case.name,
            status=status,
            runs=runs,
            passed=self._passed,
            errors=self._errors,
            mean_score=mean,
            min_score=self._min,
            pass_rate=self._passed / runs if runs else None,
            required_pass_rate=case.pass_rate,
            kept_runs=tuple(self._kept),
            failures=tuple(failures),
        )


def aggregate(case: Case, runs: Sequence[RunResult]) -> CaseResult:
    """Fold all recorded runs of ``case`` into one verdict (see :class:`CaseAccumulator`)."""
    accumulator = CaseAccumulator(case)
    for run in runs:
        accumulator.add(run)
    return accumulator.result()
