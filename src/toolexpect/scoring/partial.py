"""Score spec cases against recorded samples: pairing by id, repeated runs, unused samples.

Pure: takes models and an iterable of samples (streamed from a log), returns data.
Pairing follows docs/language.md (recorded logs): a sample pairs with the case whose name
equals its id; samples without an id pairs with the only case when the specs hold exactly
one; a case left without a sample is an error; a sample no case claims is listed as unused.

Samples are scored in one way, the seam every engine uses (docs/scale.md):
:func:`score_partition` scores one partition of the input into a :class:`PartialScore`,
placed by its position in the input (``at``, a tuple of whole numbers that sorts as the
input runs); partial scores :meth:`~PartialScore.merge` associatively and commutatively,
in any grouping and order (processes, Dask, Spark); :meth:`~CompiledSpecs.finish` makes
the report, exactly the report of scoring the input in one go. :class:`CompiledSpecs`
pickles as its cases and compiles again where it is unpickled. :class:`Scorer` and
:func:`score` do all of it in one process.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeAlias, cast

from toolexpect.calls import LogRecords, RecordedSample
from toolexpect.diagnostics import Diagnostic, Severity, Span
from toolexpect.matching import (
    MAX_KEPT_RUNS,
    CaseAccumulator,
    CompiledCase,
    RunResult,
    Tally,
    compile_case,
    verdict,
)
from toolexpect.model import Case, Spec
from toolexpect.scoring.outcomes import (
    MAX_UNUSED_IDS,
    CallFinding,
    CaseOutcome,
    SampleFinding,
    ScoreReport,
    UnusedSample,
)
from toolexpect.spelling import PYTHON, Spelling

if TYPE_CHECKING:
    from toolexpect.pairing.advice import PairingNotes

Position = tuple[int, ...]
"""Where a partition stands in the input: tuples of whole numbers that sort as the input runs
(a partition number; or the log's number and the number of the block within it)."""

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

SpecPath: TypeAlias = str | os.PathLike[str]
SpecsLike: TypeAlias = Spec | SpecPath | Iterable[Spec | SpecPath]
"""What the scoring functions take as ``specs``: ``Spec`` objects, paths of spec files or of
folders holding them, or one of either."""


def specs_of(specs: SpecsLike) -> list[Spec]:
    """The ``Spec`` objects of ``specs``, in order: ``Spec`` objects as they are, and spec files
    read from paths (``str`` or ``os.PathLike``; a folder gives the spec files below it, each
    file read once) and checked as ``toolexpect score`` checks them.

    A spec file with errors, or one that cannot be read, is a ``toolexpect.api.SpecError`` (a
    ``ValueError`` carrying the diagnostics of every such file), and so is a folder that holds
    no spec file; anything else than a spec or a path is a ``TypeError`` naming ``specs``.
    """
    given: list[Spec | SpecPath]
    if isinstance(specs, Spec | str | os.PathLike):
        given = [specs]
    elif isinstance(specs, bytes | Mapping) or not isinstance(specs, Iterable):
        raise TypeError(_not_specs(specs))
    else:
        given = list(specs)
    if all(type(item) is Spec for item in given):
        return cast(list[Spec], given)
    for item in given:
        if not isinstance(item, Spec | str | os.PathLike):
            raise TypeError(_not_specs(item))
    return _with_loaded(given)


def _not_specs(value: object) -> str:
    return (
        "specs takes Spec objects (toolexpect.load_spec, toolexpect.parse_spec) or paths of spec "
        f"files and folders (str or os.PathLike), or a list of them; got {type(value).__name__}"
    )


def _with_loaded(given: list[Spec | SpecPath]) -> list[Spec]:
    """``given`` with each path replaced by the specs read from it, as :func:`specs_of` says."""
    from toolexpect.api.errors import SpecError
    from toolexpect.specfiles.stages import SPEC_SUFFIXES, SpecFile, load_spec_files

    placed: list[Spec | SpecFile] = []
    read: dict[str, SpecFile] = {}
    for item in given:
        if isinstance(item, Spec):
            placed.append(item)
            continue
        files, empty = load_spec_files([item])
        if empty:
            endings = ", ".join("*" + suffix for suffix in SPEC_SUFFIXES)
            raise ValueError(f"specs: no spec files ({endings}) in {empty[0]}")
        for path, loaded in files.items():
            if path not in read:
                read[path] = loaded
                placed.append(loaded)
    failed = [f for f in read.values() if not f.ok or f.spec is None]
    if failed:
        raise SpecError(
            [d for f in failed for d in f.diagnostics if d.severity is Severity.ERROR],
            sources={path: f.text for path, f in read.items() if f.text is not None},
        )
    return [item if isinstance(item, Spec) else cast(Spec, item.spec) for item in placed]


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
    def of(cls, specs: SpecsLike) -> CompiledSpecs:
        """Compile every case of ``specs`` (spec file paths are read, see :func:`specs_of`)."""
        return _compiled_again(tuple((spec.path, case) for spec in specs_of(specs) for case in spec.cases))

    def empty(self) -> PartialScore:
        """The partial score of no samples."""
        return PartialScore(())

    def finish(self, partial: PartialScore, *, spelling: Spelling = PYTHON) -> ScoreReport:
        """The report on the samples ``partial`` scored: its partitions joined in input order;
        the pairing findings spell the options they suggest as ``spelling`` says (the
        surface that shows them: Python's by default)."""
        runs: list[list[RunResult]] = [[] for _ in self.targets]
        tallies = [Tally() for _ in self.targets]
        unused: dict[str | None, Unclaimed] = {}
        untracked = unreadable = 0
        diagnostics: list[Diagnostic] = []
        call_findings: list[SampleFinding] = []
        notes: PairingNotes | None = None
        records: dict[str | None, LogRecords] = {}
        for part in partial.parts:
            if part.tallies and len(part.tallies) != len(tallies):
                raise ValueError("a partial score of other specs cannot be finished with these")
            if part.lines is not None:
                raise ValueError(
                    f"the lines of the block at {part.at} are not numbered yet"
                    " (toolexpect.scale.shards.numbered)"
                )
            for number, more in enumerate(part.runs):
                runs[number].extend(more)
            for number, tally in enumerate(part.tallies):
                tallies[number] = tallies[number].then(tally)
            for entry in part.unused:
                known = unused.get(entry.id)
                unused[entry.id] = (
                    entry
                    if known is None
                    else Unclaimed(known.id, known.count + entry.count, known.path, known.line)
                )
            untracked += part.untracked
            unreadable += part.unreadable
            diagnostics.extend(part.diagnostics)
            call_findings.extend(part.call_findings)
            for counted in part.records:
                before = records.get(counted.path)
                records[counted.path] = counted if before is None else before.then(counted)
            if part.pairing is not None:
                notes = part.pairing if notes is None else notes.then(part.pairing)
        if notes is not None:
            diagnostics.extend(notes.findings(self.by_name, spelling))
        outcomes = tuple(
            CaseOutcome(target.file, target.case, verdict(target.case, tally), tuple(found))
            for target, tally, found in zip(self.targets, tallies, runs, strict=True)
        )
        count = len(self.targets)
        # Beyond the cap, a partition counts the samples of its later ids apart, so the counts
        # of single ids are no longer known; the first ids of the input are still listed.
        capped = bool(untracked) or len(unused) > MAX_UNUSED_IDS
        listed = itertools.islice(unused.values(), MAX_UNUSED_IDS)
        return ScoreReport(
            cases=outcomes,
            unused=tuple(
                UnusedSample(
                    id=entry.id,
                    count=None if capped else entry.count,
                    path=entry.path,
                    line=entry.line,
                    reason=(
                        "no case has this name"
                        if entry.id is not None
                        else f"a sample without an id pairs only with a spec of exactly one case "
                        f"(these specs have {count})"
                    ),
                )
                for entry in listed
            ),
            call_findings=tuple(call_findings),
            log_diagnostics=tuple(diagnostics),
            unused_runs=untracked + sum(entry.count for entry in unused.values()),
            unused_capped=capped,
            unreadable_partitions=unreadable,
            log_records=tuple(records.values()),
        )

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle as the cases and their files; unpickling compiles them again, once."""
        return (_compiled_again, (tuple((t.file, t.case) for t in self.targets),))


def _compiled_again(cases: tuple[tuple[str | None, Case], ...]) -> CompiledSpecs:
    """:class:`CompiledSpecs` of the cases of a pickle (see :meth:`CompiledSpecs.__reduce__`)."""
    targets = tuple(Target(file, case, compile_case(case)) for file, case in cases)
    by_name: dict[str, tuple[int, ...]] = {}
    for number, target in enumerate(targets):
        by_name[target.case.name] = (*by_name.get(target.case.name, ()), number)
    return CompiledSpecs(targets, by_name, (0,) if len(targets) == 1 else None)


@dataclass(frozen=True, slots=True)
class Unclaimed:
    """Samples of one id that no case claims: how many, and where the first was read."""

    id: str | None
    count: int
    path: str | None
    line: int | None


@dataclass(frozen=True, slots=True)
class Part:
    """What one partition gave: each target's tally (``()`` for no samples read) and runs
    (``()`` when runs are not kept), the unclaimed samples of its first
    :data:`MAX_UNUSED_IDS` ids and how many samples of later ids (``untracked``), the log
    findings; ``unreadable`` when its log could not be read at all (a finding says why); the
    recorded calls that break their tool's schema (``score --tools``); what pairing its runs
    noticed (``pairing``: the pairing findings of the whole input are worded from the notes of
    every part at finish)."""

    at: Position
    runs: tuple[tuple[RunResult, ...], ...]
    tallies: tuple[Tally, ...]
    unused: tuple[Unclaimed, ...]
    diagnostics: tuple[Diagnostic, ...]
    untracked: int = 0
    unreadable: bool = False
    call_findings: tuple[SampleFinding, ...] = ()
    pairing: PairingNotes | None = None
    records: tuple[LogRecords, ...] = ()
    """What became of the records of the logs this partition read (its blocks': a block's)."""
    lines: int | None = None
    """For a block of a log read on its own: how many lines it read, its log lines numbered
    from 1 at its first line, until they are moved (``toolexpect.scale.shards.numbered``);
    ``None`` for a part whose lines are the log's own."""

    def moved(self, lines: int) -> Part:
        """This part with every log line number it holds moved by ``lines`` (where its unclaimed
        samples, log findings, schema findings and pairing notes were read), its lines its log's."""

        def line(number: int | None) -> int | None:
            return None if number is None else number + lines

        def span(found: Span | None) -> Span | None:
            if found is None:
                return None
            return replace(found, line=found.line + lines, end_line=found.end_line + lines)

        return replace(
            self,
            unused=tuple(replace(entry, line=line(entry.line)) for entry in self.unused),
            diagnostics=tuple(replace(finding, span=span(finding.span)) for finding in self.diagnostics),
            call_findings=tuple(replace(found, line=line(found.line)) for found in self.call_findings),
            pairing=None if self.pairing is None else self.pairing.moved(lines),
            lines=None,
        )


@dataclass(frozen=True, slots=True)
class PartialScore:
    """What scoring some partitions gave, each kept at its place in the input.

    ``parts`` are sorted by position, one per partition; :meth:`merge` joins two partial
    scores in any order and grouping, and :meth:`CompiledSpecs.finish` reads the parts in
    input order, so the report never depends on which partition finished first.
    """

    parts: tuple[Part, ...]

    def merge(self, other: PartialScore) -> PartialScore:
        """The partial score of both partial scores' partitions (associative, commutative).

        ``ValueError`` when both hold a partition at the same position (scored twice).
        """
        if not other.parts:
            return self
        if not self.parts:
            return other
        parts = sorted((*self.parts, *other.parts), key=_place)
        for before, after in itertools.pairwise(parts):
            if before.at == after.at:
                raise ValueError(f"two partial scores hold the partition at {before.at}")
        return PartialScore(tuple(parts))


def _place(part: Part) -> Position:
    return part.at


def score_partition(
    specs: CompiledSpecs,
    samples: Iterable[RecordedSample],
    *,
    at: Position = (0,),
    diagnostics: Sequence[Diagnostic] = (),
    explained: int | None = None,
    call_findings: Sequence[SampleFinding] = (),
    records: Callable[[], Iterable[LogRecords]] | None = None,
) -> PartialScore:
    """Score ``samples`` (one partition of the input, in order) against ``specs``.

    ``at``: the partition's place in the input (see :data:`Position`); partitions at
    different places merge in their input order. ``diagnostics``: the log findings of the
    partition, read once the samples are (a reader's list fills as it is read);
    ``call_findings`` likewise, the calls that break their tool's schema
    (:func:`toolexpect.toolcheck.check_samples`); ``records``, asked for once the samples
    are read: what became of the records of the partition's logs (``LogReader.records``).
    ``explained``: ``None`` keeps every run (the JSON report lists each); a number (at most
    :data:`~toolexpect.matching.MAX_KEPT_RUNS`, how many failing runs of a case the other
    reports explain) keeps no run beyond each case's accumulators (its figures, its first run,
    its first failing runs whole), so memory does not grow with the number of runs, and
    explains a failing run only when a report reads its failures (the runs it keeps).
    """
    if explained is not None and not 0 <= explained <= MAX_KEPT_RUNS:
        raise ValueError(f"explained must be None or between 0 and {MAX_KEPT_RUNS}, not {explained}")
    targets = specs.targets
    by_name = specs.by_name
    keep = explained is None
    runs: list[list[RunResult]] = [[] for _ in targets]
    tallies = [CaseAccumulator(target.case) for target in targets]
    unused: dict[str | None, Unclaimed] = {}
    untracked = 0
    for sample in samples:
        sample_id = sample.id
        chosen = by_name.get(sample_id) if sample_id is not None else specs.only
        if chosen is None:
            known = unused.get(sample_id)
            if known is not None:
                unused[sample_id] = Unclaimed(sample_id, known.count + 1, known.path, known.line)
            elif len(unused) < MAX_UNUSED_IDS:
                unused[sample_id] = Unclaimed(sample_id, 1, sample.path, sample.line)
            else:
                untracked += 1
            continue
        error = sample.error
        for number in chosen:
            compiled = targets[number].compiled
            run = (
                compiled.evaluate(sample.calls, explain_later=not keep)
                if error is None
                else compiled.failed(error, sample.path, sample.line)
            )
            tallies[number].add(run, sample.calls)
            if keep:
                runs[number].append(run)
    part = Part(
        at,
        tuple(tuple(found) for found in runs) if keep else (),
        tuple(tally.tally() for tally in tallies),
        tuple(unused.values()),
        tuple(diagnostics),
        untracked,
        call_findings=tuple(call_findings),
        records=() if records is None else tuple(records()),
    )
    return PartialScore((part,))


class Scorer:
    """Score samples as they come, in one or more feeds, then report."""

    def __init__(self, specs: SpecsLike, *, explained: int | None = None) -> None:
        """Compile the cases of ``specs`` (``Spec`` objects or spec file paths, see
        :func:`specs_of`); ``explained`` as :func:`score_partition` takes it."""
        self.specs = CompiledSpecs.of(specs)
        self.partial = self.specs.empty()
        self.explained = explained
        self.feeds = 0

    def feed(self, samples: Iterable[RecordedSample]) -> None:
        """Score ``samples``, in order, after those fed before."""
        scored = score_partition(self.specs, samples, at=(self.feeds,), explained=self.explained)
        self.feeds += 1
        self.partial = self.partial.merge(scored)

    def report(self) -> ScoreReport:
        """The report on everything fed."""
        return self.specs.finish(self.partial)


def score(
    specs: SpecsLike, samples: Iterable[RecordedSample], *, explained: int | None = None
) -> ScoreReport:
    """Score every case of ``specs`` (``Spec`` objects, or paths of spec files and folders read
    and checked as ``toolexpect score`` does, see :func:`specs_of`) against the samples that
    pair with it (``explained``: how many failing runs of each case keep their failures, see
    :func:`score_partition`)."""
    scorer = Scorer(specs, explained=explained)
    scorer.feed(samples)
    return scorer.report()
