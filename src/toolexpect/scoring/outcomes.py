"""What scoring gives: each case's outcome, the unclaimed samples, the calls that break their
tool's schema, the report that holds them.

The data :func:`toolexpect.scoring.partial.score` and :meth:`toolexpect.scoring.partial.CompiledSpecs.finish`
return and every report renders (``toolexpect.report``); importable from
:mod:`toolexpect.scoring.partial` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolexpect.calls import LogRecords
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.matching import CaseResult, RunResult
from toolexpect.model import Case
from toolexpect.toolcheck.findings import CallFinding, SampleFinding

__all__ = ["MAX_UNUSED_IDS", "CallFinding", "CaseOutcome", "SampleFinding", "ScoreReport", "UnusedSample"]


MAX_UNUSED_IDS = 1000
"""How many distinct ids of samples no case claims a report lists (the first ones, in input
order). Beyond that many, the report lists the first ones without their counts and gives the
exact number of unclaimed samples in all (``ScoreReport.unused_runs``)."""


@dataclass(frozen=True, slots=True)
class UnusedSample:
    """A sample that no case claimed: its id (``None`` for none), how many (``None`` when more
    than :data:`MAX_UNUSED_IDS` ids went unclaimed), and where the first was read."""

    id: str | None
    count: int | None
    path: str | None
    line: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """One case of one spec file and what its recorded runs gave.

    ``runs`` holds every run when it was scored with ``explained=None`` (the JSON report lists
    them), none otherwise: the reports then read ``result``, the case's accumulators.
    """

    file: str | None
    case: Case
    result: CaseResult
    runs: tuple[RunResult, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """Every case's outcome, the unused samples, and counts for the summary.

    ``unused`` lists the ids of samples no case claimed, at most :data:`MAX_UNUSED_IDS`
    (``unused_capped`` when there were more); ``unused_runs`` is how many such samples
    there were in all. ``unreadable_partitions``: how many partitions of the logs could not be read
    at all (scored elsewhere, the rest goes on without them; each has its finding in
    ``log_diagnostics``).
    """

    cases: tuple[CaseOutcome, ...]
    unused: tuple[UnusedSample, ...] = field(default=())
    call_findings: tuple[SampleFinding, ...] = field(default=())
    log_diagnostics: tuple[Diagnostic, ...] = field(default=())
    unused_runs: int = 0
    unused_capped: bool = False
    unreadable_partitions: int = 0
    log_records: tuple[LogRecords, ...] = field(default=())
    """What became of the records of each log read, in input order (logs given as samples,
    through the Python API, have none)."""

    @property
    def passed(self) -> int:
        """How many cases passed."""
        return sum(o.result.status == "pass" for o in self.cases)

    @property
    def failed(self) -> int:
        """How many cases failed."""
        return sum(o.result.status == "fail" for o in self.cases)

    @property
    def errors(self) -> int:
        """How many cases could not be scored."""
        return sum(o.result.status == "error" for o in self.cases)

    @property
    def unreadable_records(self) -> int:
        """How many log records could not be read (errors among the log diagnostics)."""
        return sum(d.severity is Severity.ERROR for d in self.log_diagnostics)

    @property
    def ok(self) -> bool:
        """True when every case passed and every log record could be read."""
        return self.passed == len(self.cases) and not self.unreadable_records
