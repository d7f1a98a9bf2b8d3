"""Score spec cases against recorded samples: pairing by id, repeated runs, unused samples.

Pure: takes models and an iterable of samples (streamed from a log), returns data.
Pairing follows LANGUAGE.md section 5: a sample pairs with the case whose name equals its
id; samples without an id pair with the only case when the specs hold exactly one; a case
left without a sample is an error; a sample no case claims is listed as unused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.matching import (
    CaseAccumulator,
    CaseResult,
    CompiledCase,
    Paired,
    RunResult,
    compile_case,
    new_run,
    same_calls,
)
from toolexpect.model import Case, Spec

if TYPE_CHECKING:  # toolcheck loads jsonschema, which scoring without --tools never needs
    from toolexpect.toolcheck import CallFinding

__all__ = ["CaseOutcome", "SampleFinding", "ScoreReport", "Scorer", "UnusedSample", "score"]


@dataclass(frozen=True, slots=True)
class UnusedSample:
    """A sample that no case claimed: its id (``None`` for none), how many, and where first."""

    id: str | None
    count: int
    path: str | None
    line: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class SampleFinding:
    """A recorded call that breaks its tool's schema, with the sample it was found in."""

    sample_id: str | None
    path: str | None
    line: int | None
    finding: CallFinding


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """One case of one spec file and what its recorded runs gave."""

    file: str | None
    case: Case
    result: CaseResult
    runs: tuple[RunResult, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """Every case's outcome, the unused samples, and counts for the summary."""

    cases: tuple[CaseOutcome, ...]
    unused: tuple[UnusedSample, ...] = field(default=())
    call_findings: tuple[SampleFinding, ...] = field(default=())
    log_diagnostics: tuple[Diagnostic, ...] = field(default=())

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


_Step = Callable[[RunResult], None]
_Plain = Callable[[list[Any]], RunResult | Paired | None]


@dataclass(slots=True)
class _Slot:
    file: str | None
    case: Case
    compiled: CompiledCase
    accumulator: CaseAccumulator
    runs: list[RunResult] = field(default_factory=list)

    def add(self, calls: tuple[object, ...], held: _Held | None = None) -> None:
        run = _evaluate(self.compiled, calls, held)
        self.accumulator.add(run)
        self.runs.append(run)


_Held = tuple[CompiledCase, list[Any], Paired]
"""A failing run's pairing from the call dicts (:meth:`Scorer.taker`), for the sample the
reader makes of them next."""


def _evaluate(compiled: CompiledCase, calls: tuple[Any, ...], held: _Held | None) -> RunResult:
    """The run of ``calls``, finished from ``held`` when that is their pairing already made."""
    if held is not None and held[0] is compiled and same_calls(held[1], calls):
        return compiled.evaluate_paired(calls, held[2])
    return compiled.evaluate(calls)


def score(specs: Sequence[Spec], samples: Iterable[RecordedSample]) -> ScoreReport:
    """Score every case of ``specs`` against the samples that pair with it."""
    scorer = Scorer(specs)
    scorer.feed(samples)
    return scorer.report()


Part = tuple[
    list[tuple[bytes, list[int], list[tuple[Any, ...]]]],
    list[tuple[str | None, int, str | None, int | None]],
]
"""What :meth:`Scorer.part` gives: per case slot its runs, and the unused samples as
(id, count, path, line of the first).

A slot's runs are ``(kinds, compact, full)``: ``kinds`` holds a byte per run, in order;
``b"p"`` is a passing run whose figures are the case's own for its counts, written into
``compact`` as ``matched, calls, then the call of each expectation (-1 for none)``;
``b"f"`` is any other run, the next tuple of ``full`` (every field of the run). Compact
runs are a few integers each, cheap to send to another process and to rebuild."""


class Scorer:
    """Score samples as they come, in several parts if need be, then report.

    :func:`score` is ``feed`` once and ``report``. A part scored elsewhere (another
    process, on a later stretch of the same log) is taken in with ``merge``, after the
    samples before it: the result is the same as feeding all the samples in order.
    """

    def __init__(self, specs: Sequence[Spec]) -> None:
        self._slots: list[_Slot] = []
        self._by_name: dict[str, list[_Slot]] = {}
        for spec in specs:
            for case in spec.cases:
                slot = _Slot(spec.path, case, compile_case(case), CaseAccumulator(case))
                self._slots.append(slot)
                self._by_name.setdefault(case.name, []).append(slot)
        self._unused: dict[str | None, list[Any]] = {}
        self._held: _Held | None = None

    def feed(self, samples: Iterable[RecordedSample]) -> None:
        """Score samples, in order."""
        by_name = self._by_name
        slots = self._slots
        only = slots[0] if len(slots) == 1 else None
        unused = self._unused
        # The common target, one case of the name: its steps bound once (the per-sample path).
        single: dict[str, tuple[Callable[..., RunResult], _Step, _Step, CompiledCase]] = {
            name: (slot.compiled.evaluate, slot.accumulator.add, slot.runs.append, slot.compiled)
            for name, group in by_name.items()
            if len(group) == 1
            for slot in group
        }
        for sample in samples:
            sample_id = sample.id
            # The pairing the taker made of this sample's call dicts, when it failed there.
            held = self._held
            if held is not None:
                self._held = None
            if sample_id is not None:
                steps = single.get(sample_id)
                if steps is not None:
                    evaluate, count, keep, compiled = steps
                    calls = sample.calls
                    run = evaluate(calls) if held is None else _evaluate(compiled, calls, held)
                    count(run)
                    keep(run)
                    continue
            targets = by_name.get(sample_id) if sample_id is not None else None
            if targets is None and sample_id is None and only is not None:
                targets = [only]
            if not targets:
                entry = unused.get(sample_id)
                if entry is None:
                    unused[sample_id] = [1, sample.path, sample.line]
                else:
                    entry[0] += 1
                continue
            for slot in targets:
                slot.add(sample.calls, held)

    def taker(self) -> Callable[[str | None, list[Any]], bool]:
        """A consumer of canonical samples as decoded (``toolexpect.logs.canonical.Take``).

        It scores a sample whose calls are plain call dicts, when the run passes, with no
        call object built (:meth:`CompiledCase.score_plain`), and returns True; anything
        else it leaves, returning False, to be read as usual and given to :meth:`feed`.
        Taken and fed samples must come in log order, as the canonical reader gives them:
        a run that fails is explained from the call objects of the sample read next, paired
        once (the pairing made here is kept for it when they are the same calls).
        """
        steps: dict[str | None, tuple[_Plain, _Step, _Step, CompiledCase]] = {}
        for name, group in self._by_name.items():
            if len(group) == 1:
                compiled = group[0].compiled
                steps[name] = (compiled.score_plain, group[0].accumulator.add, group[0].runs.append, compiled)
        if len(self._slots) == 1:
            slot = self._slots[0]
            compiled = slot.compiled
            steps[None] = (compiled.score_plain, slot.accumulator.add, slot.runs.append, compiled)
        lookup = steps.get

        def take(sample_id: str | None, calls: list[Any]) -> bool:
            found = lookup(sample_id)
            if found is None:
                return False
            evaluate, count, keep, compiled = found
            run = evaluate(calls)
            if run is None:
                return False
            if isinstance(run, tuple):
                self._held = (compiled, calls, run)
                return False
            count(run)
            keep(run)
            return True

        return take

    def part(self) -> Part:
        """Everything fed so far as plain data (for :meth:`merge` in another scorer)."""
        runs: list[tuple[bytes, list[int], list[tuple[Any, ...]]]] = []
        for slot in self._slots:
            kinds = bytearray()
            compact: list[int] = []
            full: list[tuple[Any, ...]] = []
            figures = slot.compiled.figures
            expected = len(slot.case.expectations)
            for r in slot.runs:
                if (
                    r.status == "pass"
                    and not r.failures
                    and r.expected == expected
                    and (r.score, r.precision, r.f1) == figures(r.matched, r.calls)
                ):
                    assigned = [-1] * expected
                    for e, c in r.pairs:
                        assigned[e] = c
                    kinds.append(112)  # b"p"
                    compact.append(r.matched)
                    compact.append(r.calls)
                    compact.extend(assigned)
                else:
                    kinds.append(102)  # b"f"
                    full.append(
                        (
                            r.status, r.score, r.matched, r.expected, r.calls, r.precision, r.f1, r.pairs,
                            r.failures,
                        )
                    )
            runs.append((bytes(kinds), compact, full))
        unused = [(key, entry[0], entry[1], entry[2]) for key, entry in self._unused.items()]
        return runs, unused

    def merge(self, part: Part, line_offset: int = 0) -> None:
        """Take in a :meth:`part` scored on the samples that follow those fed so far.

        ``line_offset`` is added to the unused samples' lines (the part's lines counted
        from its own start).
        """
        runs, unused = part
        for slot, (kinds, compact, full) in zip(self._slots, runs, strict=True):
            compiled = slot.compiled
            shared = compiled.shared_figures
            figures_of = compiled.figures
            pairs_of = compiled.pairs
            add = slot.accumulator.add
            keep = slot.runs.append
            name = slot.case.name
            expected = len(slot.case.expectations)
            at = 0
            others = iter(full)
            for kind in kinds:
                if kind == 112:  # b"p"
                    matched = compact[at]
                    calls = compact[at + 1]
                    assigned = compact[at + 2 : at + 2 + expected]
                    at += 2 + expected
                    score_, precision, f1 = figures_of(matched, calls)
                    pairs = pairs_of(assigned, matched)
                    run = new_run(name, "pass", score_, matched, expected, calls, precision, f1, pairs, ())
                else:
                    status, score_, matched, want, calls, precision, f1, pairs, why = next(others)
                    same = shared(matched, calls, (score_, precision, f1))
                    run = new_run(name, status, same[0], matched, want, calls, same[1], same[2], pairs, why)
                add(run)
                keep(run)
        for key, count, path, line in unused:
            entry = self._unused.get(key)
            if entry is None:
                self._unused[key] = [count, path, line + line_offset if line is not None else None]
            else:
                entry[0] += count

    def report(self) -> ScoreReport:
        """The report on everything fed and merged."""
        slots = self._slots
        outcomes = tuple(
            CaseOutcome(s.file, s.case, s.accumulator.result(), tuple(s.runs)) for s in slots
        )
        names = len(slots)
        return ScoreReport(
            cases=outcomes,
            unused=tuple(
                UnusedSample(
                    id=sample_id,
                    count=entry[0],
                    path=entry[1],
                    line=entry[2],
                    reason=(
                        "no case has this name"
                        if sample_id is not None
                        else f"a sample without an id pairs only with a spec of exactly one case "
                        f"(these specs have {names})"
                    ),
                )
                for sample_id, entry in self._unused.items()
            ),
        )
