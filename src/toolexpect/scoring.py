"""Score spec cases against recorded samples: pairing by id, repeated runs, unused samples.

Pure: takes models and an iterable of samples (streamed from a log), returns data.
Pairing follows docs/language.md (recorded logs): a sample pairs with the case whose name
equals its id; samples without an id pair with the only case when the specs hold exactly
one; a case left without a sample is an error; a sample no case claims is listed as unused.

Samples are scored in one way: :func:`score_partition` scores a stretch of samples into a
:class:`PartialScore`; partial scores of consecutive stretches :meth:`~PartialScore.merge`
(associatively) into the partial score of all of them, and :meth:`~CompiledSpecs.finish`
makes the report. Scoring a log in pieces (processes, machines) and merging the pieces in
log order gives exactly the report of scoring it in one go. :class:`Scorer` and
:func:`score` do that in one process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.matching import CaseAccumulator, CaseResult, CompiledCase, RunResult, compile_case
from toolexpect.model import Case, Spec

if TYPE_CHECKING:  # toolcheck loads jsonschema, which scoring without --tools never needs
    from toolexpect.toolcheck import CallFinding

__all__ = [
    "CaseOutcome",
    "CompiledSpecs",
    "PartialScore",
    "SampleFinding",
    "ScoreReport",
    "Scorer",
    "UnusedSample",
    "score",
    "score_partition",
]


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


@dataclass(frozen=True, slots=True)
class Target:
    """One case that samples may pair with: its spec file, the case, and the compiled case."""

    file: str | None
    case: Case
    compiled: CompiledCase


@dataclass(frozen=True, slots=True)
class CompiledSpecs:
    """The cases of some specs made ready to score: targets in order, and who pairs with whom.

    ``by_name`` gives the targets (indices) of each case name; a sample without an id pairs
    with ``only``, the one target when there is exactly one.
    """

    targets: tuple[Target, ...]
    by_name: Mapping[str, tuple[int, ...]]
    only: tuple[int, ...] | None

    @classmethod
    def of(cls, specs: Sequence[Spec]) -> CompiledSpecs:
        """Compile every case of ``specs``."""
        targets = tuple(Target(spec.path, case, compile_case(case)) for spec in specs for case in spec.cases)
        by_name: dict[str, tuple[int, ...]] = {}
        for number, target in enumerate(targets):
            by_name[target.case.name] = (*by_name.get(target.case.name, ()), number)
        return cls(targets, by_name, (0,) if len(targets) == 1 else None)

    def empty(self) -> PartialScore:
        """The partial score of no samples."""
        return PartialScore(tuple(() for _ in self.targets), ())

    def finish(self, partial: PartialScore) -> ScoreReport:
        """The report on the samples ``partial`` scored."""
        outcomes = []
        for target, runs in zip(self.targets, partial.runs, strict=True):
            accumulator = CaseAccumulator(target.case)
            for run in runs:
                accumulator.add(run)
            outcomes.append(CaseOutcome(target.file, target.case, accumulator.result(), runs))
        count = len(self.targets)
        return ScoreReport(
            cases=tuple(outcomes),
            unused=tuple(
                UnusedSample(
                    id=entry.id,
                    count=entry.count,
                    path=entry.path,
                    line=entry.line,
                    reason=(
                        "no case has this name"
                        if entry.id is not None
                        else f"a sample without an id pairs only with a spec of exactly one case "
                        f"(these specs have {count})"
                    ),
                )
                for entry in partial.unused
            ),
        )


@dataclass(frozen=True, slots=True)
class Unclaimed:
    """Samples of one id that no case claims: how many, and where the first was read."""

    id: str | None
    count: int
    path: str | None
    line: int | None


@dataclass(frozen=True, slots=True)
class PartialScore:
    """What scoring some consecutive samples gave: each target's runs, the unclaimed samples.

    ``runs`` is in the order of :attr:`CompiledSpecs.targets`; ``unused`` in the order each
    id was first seen.
    """

    runs: tuple[tuple[RunResult, ...], ...]
    unused: tuple[Unclaimed, ...]

    def merge(self, later: PartialScore) -> PartialScore:
        """The partial score of this one's samples followed by ``later``'s (associative)."""
        unused = {entry.id: entry for entry in self.unused}
        for entry in later.unused:
            known = unused.get(entry.id)
            unused[entry.id] = entry if known is None else Unclaimed(
                known.id, known.count + entry.count, known.path, known.line
            )
        return PartialScore(
            tuple(mine + theirs for mine, theirs in zip(self.runs, later.runs, strict=True)),
            tuple(unused.values()),
        )


def score_partition(
    specs: CompiledSpecs, samples: Iterable[RecordedSample], *, explained: int | None = None
) -> PartialScore:
    """Score ``samples`` (consecutive samples of a log, in order) against ``specs``.

    ``explained``: how many failing runs of each case keep their failures (the reports but
    the JSON one show a few); later failing runs keep their figures and status only, and runs
    with equal figures share one record, so memory does not grow with failing runs. ``None``
    keeps every run's failures.
    """
    targets = specs.targets
    by_name = specs.by_name
    runs: list[list[RunResult]] = [[] for _ in targets]
    failing = [0] * len(targets)
    bare: dict[tuple[object, ...], RunResult] = {}
    unused: dict[str | None, Unclaimed] = {}
    for sample in samples:
        sample_id = sample.id
        chosen = by_name.get(sample_id) if sample_id is not None else specs.only
        if chosen is None:
            known = unused.get(sample_id)
            unused[sample_id] = (
                Unclaimed(sample_id, 1, sample.path, sample.line)
                if known is None
                else Unclaimed(sample_id, known.count + 1, known.path, known.line)
            )
            continue
        for number in chosen:
            run = targets[number].compiled.evaluate(sample.calls)
            if explained is not None and run.status != "pass":
                failing[number] += 1
                if failing[number] > explained:
                    run = _bare(run, bare)
            runs[number].append(run)
    return PartialScore(tuple(tuple(found) for found in runs), tuple(unused.values()))


def _bare(run: RunResult, known: dict[tuple[object, ...], RunResult]) -> RunResult:
    """``run`` without its failures and pairs, shared with every earlier run of equal figures."""
    key = (run.case, run.status, run.score, run.matched, run.expected, run.calls, run.precision, run.f1)
    found = known.get(key)
    if found is None:
        found = known[key] = replace(run, pairs=(), failures=())
    return found


class Scorer:
    """Score samples as they come, in one or more feeds, then report."""

    def __init__(self, specs: Sequence[Spec], *, explained: int | None = None) -> None:
        """Compile the cases of ``specs``; ``explained`` as :func:`score_partition` takes it."""
        self.specs = CompiledSpecs.of(specs)
        self.partial = self.specs.empty()
        self.explained = explained

    def feed(self, samples: Iterable[RecordedSample]) -> None:
        """Score ``samples``, in order, after those fed before."""
        self.partial = self.partial.merge(score_partition(self.specs, samples, explained=self.explained))

    def report(self) -> ScoreReport:
        """The report on everything fed."""
        return self.specs.finish(self.partial)


def score(
    specs: Sequence[Spec], samples: Iterable[RecordedSample], *, explained: int | None = None
) -> ScoreReport:
    """Score every case of ``specs`` against the samples that pair with it (``explained``: how
    many failing runs of each case keep their failures, see :func:`score_partition`)."""
    scorer = Scorer(specs, explained=explained)
    scorer.feed(samples)
    return scorer.report()
