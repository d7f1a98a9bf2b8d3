"""What matching gives: the verdict on a run, on a case over its runs, and why they failed.

Every result is a frozen, slotted dataclass built with its constructor. Positions in the
data (``pairs``, ``details``) are 0-based; messages written for people say ``call #N``
with N 1-based.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from toolexpect.diagnostics import Span
from toolexpect.matching.tools import ToolCounts

__all__ = [
    "ArgReport",
    "CaseResult",
    "Failure",
    "FailureKind",
    "LaterFailures",
    "MatchResult",
    "NearMiss",
    "RunResult",
    "Status",
    "figures",
]

Status = Literal["pass", "fail", "error"]
"""The outcome of a run or a case."""

FailureKind = Literal[
    "unmatched",
    "threshold",
    "forbidden",
    "unexpected",
    "order",
    "no_tool_calls",
    "count",
    "pass_rate",
    "error",
    "request_failed",
]
"""What a :class:`Failure` is about."""


@dataclass(frozen=True, slots=True)
class ArgReport:
    """How one argument matcher of an expectation fared against one recorded call.

    ``expected`` describes the matcher (``"Berlin"``, ``>= 5``, ``absent``); ``got`` is the
    recorded value rendered as short JSON, or ``None`` when the argument is missing.
    """

    name: str
    holds: bool
    expected: str
    got: str | None
    message: str


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A recorded call close to an unmatched expectation: how many matchers hold, and which.

    ``call`` is 0-based; ``paired_with`` is the expectation the call was paired with, if any.
    """

    call: int
    holds: int
    total: int
    paired_with: int | None
    valid_json: bool
    args: tuple[ArgReport, ...]


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a run or a case failed: a kind, one line for people, the spec span, and details.

    ``details`` holds structured data per kind (all positions 0-based):

    * ``unmatched``: ``expectation``, ``tool``, ``never_called``, ``similar_tools``,
      ``closest`` (a tuple of :class:`NearMiss`, best first)
    * ``threshold``: ``score``, ``threshold``, ``matched``, ``expected``
    * ``forbidden``: ``forbid`` (index in ``case.forbids``), ``tool``, ``calls``
    * ``unexpected``: ``calls`` (the unpaired calls this record covers), ``tools``
    * ``order``: ``requirement`` (``"then"`` or ``"require order"``), ``chain`` (index in
      ``case.chains``, ``None`` for ``require order``), ``step``, ``expectation``,
      ``after_call`` (the call the previous step matched, ``None`` for the first step),
      ``matching_calls`` (every call matching the step, wherever it is)
    * ``no_tool_calls``: ``calls`` (all of them)
    * ``count`` (a count requirement not met): ``count`` (index in ``case.counts``), ``tool``
      (``None`` for a count of every call), ``at_least`` and ``at_most`` (``None`` when not
      written), ``counted`` and ``calls`` (the calls it counted)
    * ``pass_rate``: ``runs``, ``passed``, ``required``
    * ``error``: nothing
    * ``request_failed`` (the run's request failed, so it was not scored): ``error`` (the
      provider's words), ``path`` and ``line`` (the log record)
    """

    kind: FailureKind
    message: str
    span: Span | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


class LaterFailures(Sequence[Failure]):
    """The failures of a run, worked out on first read and kept (a cached value in a slot).

    It reads, compares, hashes, prints and pickles as the tuple it stands for. Working
    them out is pure, so two threads reading at once at worst both do it, with equal results.
    """

    __slots__ = ("_explain", "_items")

    def __init__(self, explain: Callable[[], tuple[Failure, ...]]) -> None:
        """Keep ``explain``, the function that works the failures out."""
        self._explain = explain
        self._items: tuple[Failure, ...] | None = None

    def items(self) -> tuple[Failure, ...]:
        """The failures as a tuple (worked out now if not yet)."""
        items = self._items
        if items is None:
            items = self._items = self._explain()
        return items

    @overload
    def __getitem__(self, index: int) -> Failure: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Failure, ...]: ...

    def __getitem__(self, index: int | slice) -> Failure | tuple[Failure, ...]:
        return self.items()[index]

    def __len__(self) -> int:
        return len(self.items())

    def __iter__(self) -> Iterator[Failure]:
        return iter(self.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LaterFailures):
            other = other.items()
        return self.items() == other

    def __hash__(self) -> int:
        return hash(self.items())

    def __repr__(self) -> str:
        return repr(self.items())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.items(),))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The accuracy of one run: pairs and counts, without requirements.

    ``precision`` is paired calls / recorded calls (allowed calls left out), 1.0 when no such
    call was recorded (no call was wrong). ``f1`` is the harmonic mean of ``score`` and
    ``precision`` (0.0 when both are 0).
    """

    score: float
    matched: int
    expected: int
    calls: int
    precision: float
    f1: float
    pairs: tuple[tuple[int, int], ...]
    unmatched: tuple[int, ...]
    unpaired_calls: tuple[int, ...]
    allowed_calls: tuple[int, ...] = ()
    """The unpaired calls that match an ``allow`` of the case (precision leaves them out)."""


@dataclass(slots=True)
class RunResult:
    """The verdict on one recorded run of a case.

    ``score`` is matched / expected, ``None`` for an error or a case without expectations;
    ``precision`` and ``f1`` as in :class:`MatchResult` (``None`` for an error; ``f1`` also
    ``None`` without expectations). ``pairs`` maps expectation index to call index (0-based,
    sorted by expectation). ``failures`` is empty for a passing run; for a run scored with
    ``explain_later`` it is a :class:`LaterFailures`, worked out when first read.
    ``allowed`` counts the calls no expectation is paired with that match an ``allow`` of the
    case (and no ``forbid``): neither expected nor unexpected, they are not among the calls
    ``precision`` is over.
    """

    case: str
    status: Status
    score: float | None
    matched: int
    expected: int
    calls: int
    precision: float | None
    f1: float | None
    pairs: tuple[tuple[int, int], ...]
    failures: Sequence[Failure] = ()
    allowed: int = 0

    @property
    def passed(self) -> bool:
        """True when the run passes."""
        return self.status == "pass"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the constructor call that makes this run (failures as a tuple)."""
        fields = (self.case, self.status, self.score, self.matched, self.expected, self.calls)
        figures = (self.precision, self.f1, self.pairs, tuple(self.failures), self.allowed)
        return (RunResult, (*fields, *figures))

    @property
    def unmatched(self) -> tuple[int, ...]:
        """The indices of the expectations left without a call."""
        paired = {e for e, _ in self.pairs}
        return tuple(e for e in range(self.expected) if e not in paired)


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The verdict on a case over all its recorded runs.

    ``pass_rate`` is passed / runs (``None`` without runs); ``mean_score`` and ``min_score``
    are over runs that have a score, ``mean_precision`` and ``mean_f1`` over runs that have
    one. ``kept_runs`` holds up to ``MAX_KEPT_RUNS`` failing or erroring runs as (0-based run
    number, result); ``failures`` the case-level reasons; ``first_run`` the first run;
    ``tools`` the tools its runs called.
    """

    case: str
    status: Status
    runs: int
    passed: int
    errors: int
    mean_score: float | None
    min_score: float | None
    pass_rate: float | None
    required_pass_rate: float | None
    kept_runs: tuple[tuple[int, RunResult], ...] = ()
    failures: tuple[Failure, ...] = ()
    mean_precision: float | None = None
    mean_f1: float | None = None
    first_run: RunResult | None = None
    tools: ToolCounts = field(default_factory=ToolCounts)


def figures(matched: int, expected: int, calls: int) -> tuple[float | None, float, float | None]:
    """(score, precision, f1) of a run with ``matched`` of ``expected`` paired among ``calls``
    (the run's calls but the allowed ones).

    The score is ``None`` without expectations, and so is f1; precision is 1.0 without calls.
    """
    score = matched / expected if expected else None
    precision = matched / calls if calls else 1.0
    if score is None:
        return None, precision, None
    total = score + precision
    return score, precision, (2 * score * precision / total if total else 0.0)
