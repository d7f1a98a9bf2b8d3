"""Repeated runs of one case folded into one verdict: mean and lowest score, pass rate.

Agents are not deterministic, so a case may have several recorded runs. It passes only when
every run passes, unless it says ``require pass rate >= R`` (a fraction of runs, compared
exactly); a run that errors makes the case an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from toolexpect.calls import ToolCall
from toolexpect.matching.results import CaseResult, Failure, RunResult, Status
from toolexpect.matching.tools import ToolCounter, ToolCounts
from toolexpect.matching.values import exact_fraction
from toolexpect.model import Case

__all__ = ["MAX_KEPT_RUNS", "CaseAccumulator", "Tally", "aggregate", "verdict"]

MAX_KEPT_RUNS = 10
"""How many failing or erroring runs a :class:`CaseResult` keeps for the report."""


@dataclass(frozen=True, slots=True)
class Tally:
    """The runs of one case, counted: what a verdict needs, whatever the number of runs.

    ``scores`` holds each distinct score with how many runs had it (a case's scores are
    matched / expected, so there are at most one more than its expectations), which keeps the
    sum exact; ``precisions`` and ``f1s`` the same for the runs' precision and F1 (matched /
    calls and their harmonic mean: as many as the distinct pairs of matched and calls, never
    one per run); ``kept`` the first :data:`MAX_KEPT_RUNS` failing or erroring runs as (0-based
    run number, result); ``first`` the first run (what a report shows of a case of one run);
    ``tools`` the tools the runs called (:class:`ToolCounts`).
    Tallies of consecutive runs join with :meth:`then` (associative).
    """

    runs: int = 0
    passed: int = 0
    errors: int = 0
    scores: tuple[tuple[float, int], ...] = ()
    kept: tuple[tuple[int, RunResult], ...] = ()
    precisions: tuple[tuple[float, int], ...] = ()
    f1s: tuple[tuple[float, int], ...] = ()
    first: RunResult | None = None
    tools: ToolCounts = field(default_factory=ToolCounts)

    def then(self, later: Tally) -> Tally:
        """The tally of this tally's runs followed by ``later``'s."""
        if not later.runs:
            return self
        if not self.runs:
            return later
        room = MAX_KEPT_RUNS - len(self.kept)
        shifted = tuple((number + self.runs, run) for number, run in later.kept[: max(room, 0)])
        return Tally(
            self.runs + later.runs,
            self.passed + later.passed,
            self.errors + later.errors,
            _joined(self.scores, later.scores),
            self.kept + shifted,
            _joined(self.precisions, later.precisions),
            _joined(self.f1s, later.f1s),
            self.first,
            self.tools.then(later.tools),
        )


def _joined(
    counted: tuple[tuple[float, int], ...], more: tuple[tuple[float, int], ...]
) -> tuple[tuple[float, int], ...]:
    """Two sorted tuples of (value, how many runs had it) as one."""
    counts = dict(counted)
    for value, count in more:
        counts[value] = counts.get(value, 0) + count
    return tuple(sorted(counts.items()))


def _add(counts: dict[float, int], value: float | None) -> None:
    if value is not None:
        counts[value] = counts.get(value, 0) + 1


def _mean(counted: tuple[tuple[float, int], ...]) -> float | None:
    """The mean of the counted values: their exact sum rounded once (what ``math.fsum`` of
    every value gives), over how many there are; ``None`` for none."""
    runs = sum(count for _, count in counted)
    total = float(sum((Fraction(value) * count for value, count in counted), Fraction(0)))
    return total / runs if runs else None


class CaseAccumulator:
    """Fold the runs of one case as they come (streaming logs) into a :class:`CaseResult`."""

    __slots__ = (
        "_case",
        "_errors",
        "_f1s",
        "_first",
        "_kept",
        "_passed",
        "_precisions",
        "_runs",
        "_scores",
        "_tools",
    )

    def __init__(self, case: Case) -> None:
        self._case = case
        self._runs = 0
        self._passed = 0
        self._errors = 0
        self._scores: dict[float, int] = {}
        self._precisions: dict[float, int] = {}
        self._f1s: dict[float, int] = {}
        self._kept: list[tuple[int, RunResult]] = []
        self._first: RunResult | None = None
        self._tools = ToolCounter()

    def add(self, run: RunResult, calls: Sequence[ToolCall] | None = None) -> None:
        """Count one run, and the tools of ``calls``, the calls it was scored on."""
        self._tools.add(calls)
        number = self._runs
        if not number:
            self._first = run
        self._runs += 1
        if run.status == "pass":
            self._passed += 1
        else:
            if run.status == "error":
                self._errors += 1
            if len(self._kept) < MAX_KEPT_RUNS:
                self._kept.append((number, run))
        _add(self._scores, run.score)
        _add(self._precisions, run.precision)
        _add(self._f1s, run.f1)

    def tally(self) -> Tally:
        """The runs counted so far, as a :class:`Tally`."""
        return Tally(
            self._runs,
            self._passed,
            self._errors,
            tuple(sorted(self._scores.items())),
            tuple(self._kept),
            tuple(sorted(self._precisions.items())),
            tuple(sorted(self._f1s.items())),
            self._first,
            self._tools.counts(),
        )

    def result(self) -> CaseResult:
        """The verdict on the runs counted so far."""
        return verdict(self._case, self.tally())


def _rate_met(case: Case, passed: int, runs: int) -> bool:
    """True when the runs that passed reach (or, with ``>``, pass) the required pass rate."""
    rate = Fraction(passed, runs)
    required = exact_fraction(case.pass_rate if case.pass_rate is not None else 1.0)
    return rate > required if case.pass_rate_strict else rate >= required


def verdict(case: Case, tally: Tally) -> CaseResult:
    """The verdict on ``case`` over the runs ``tally`` counts."""
    runs = tally.runs
    passed = tally.passed
    failures: list[Failure] = []
    status: Status
    if not runs:
        status = "error"
        message = f'no recorded sample for case "{case.name}"'
        failures.append(Failure("error", message, case.span))
    elif tally.errors:
        status = "error"
    elif passed == runs or (case.pass_rate is not None and _rate_met(case, passed, runs)):
        status = "pass"
    else:
        status = "fail"
        if case.pass_rate is not None:
            failures.append(
                Failure(
                    "pass_rate",
                    f"{passed} of {runs} runs passed ({passed / runs:.0%}), "
                    f"{'not above' if case.pass_rate_strict else 'below'} "
                    f"the required pass rate {case.pass_rate:g}",
                    case.requirement_span("pass_rate"),
                    {"runs": runs, "passed": passed, "required": case.pass_rate},
                )
            )
        elif runs > 1:
            failures.append(
                Failure(
                    "pass_rate",
                    f"{runs - passed} of {runs} runs failed; every run must pass",
                    case.span,
                    {"runs": runs, "passed": passed, "required": 1.0},
                )
            )
    return CaseResult(
        case=case.name,
        status=status,
        runs=runs,
        passed=passed,
        errors=tally.errors,
        mean_score=_mean(tally.scores),
        min_score=tally.scores[0][0] if tally.scores else None,
        pass_rate=passed / runs if runs else None,
        required_pass_rate=case.pass_rate,
        kept_runs=tally.kept,
        failures=tuple(failures),
        mean_precision=_mean(tally.precisions),
        mean_f1=_mean(tally.f1s),
        first_run=tally.first,
        tools=tally.tools,
    )


def aggregate(case: Case, runs: Sequence[RunResult]) -> CaseResult:
    """Fold all recorded runs of ``case`` into one verdict (see :class:`CaseAccumulator`)."""
    accumulator = CaseAccumulator(case)
    for run in runs:
        accumulator.add(run)
    return accumulator.result()
