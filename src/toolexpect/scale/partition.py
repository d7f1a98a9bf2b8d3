"""One partition of the input read, paired with cases, checked and scored: what each task does.

:func:`score_read` takes the samples of one partition (a log reader for a whole log, or the
samples of a block of a canonical log) through the stages one process runs on them: the
pairing stage (:func:`toolexpect.pairing.pair_runs`, with the command's options), the schema
checks of ``--tools`` (:func:`toolexpect.toolcheck.check_samples`), and
:func:`toolexpect.scoring.partial.score_partition`.

In one process, the runs the pairing stage can give only once every log is read (spans
joined by trace, records joined by history or key) come after every other run: they are
scored as parts placed after the partition's own (``(*at, 1, log)`` for traces, ``(*at, 2,
log)`` for the rest, by the log they began in). An engine gives them in the same places: with
``hold``, :func:`score_read` scores the runs given as read and hands the held records back
(:class:`toolexpect.pairing.groups.Held`); the engine groups them by run key, joins each group
(:func:`toolexpect.pairing.groups.join_group`) and scores the runs that began in each log with
:func:`score_held`. The pairing findings (``R420`` to ``R423``) are about the whole input,
which no partition sees: each part carries what pairing noticed about its runs
(:class:`toolexpect.pairing.advice.PairingNotes`), and the finished report words the notes of
every part, as one process would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast, overload

from toolexpect.calls import LogRecords, RecordedSample
from toolexpect.diagnostics import Diagnostic
from toolexpect.logs import LogReader
from toolexpect.model import Spec
from toolexpect.pairing import PairedRuns, PairingOptions, pair_runs
from toolexpect.pairing.groups import Held
from toolexpect.pairing.stage import Segment, Stage
from toolexpect.scoring.partial import CompiledSpecs, PartialScore, Position, score_partition

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing.advice import PairingNotes
    from toolexpect.scoring.partial import SampleFinding

__all__ = ["LATER", "score_held", "score_read"]

LATER: tuple[Stage, ...] = ("traces", "runs")
"""The stages of the runs given once the logs are read, in their order."""


def score_read(
    specs: CompiledSpecs,
    samples: LogReader | Iterable[RecordedSample] | Sequence[LogReader],
    *,
    at: Position,
    diagnostics: Sequence[Diagnostic] = (),
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
    through: Callable[[Iterator[RecordedSample]], Iterator[RecordedSample]] | None = None,
    records: Callable[[], Iterable[LogRecords]] | None = None,
    hold: list[Held] | None = None,
    first: int = 0,
) -> PartialScore:
    """Pair, check (with a ``tools`` catalogue) and score one partition's ``samples`` (a log
    reader, several read one after the other, or samples) as the partition at ``at``
    (``diagnostics``: the findings of samples given as such, complete once they are read; a
    reader's own are taken from it; ``explained`` as
    :func:`~toolexpect.scoring.partial.score_partition` takes it; ``through``: what the runs pass
    through on their way to scoring, such as a progress display; ``records``: what became of
    the records of samples given as such, asked for once they are read; a reader's are taken
    from it). With ``hold``, the records that later records may join are put there, their logs
    numbered from ``first``, instead of joined (see module)."""
    many = isinstance(samples, Sequence) and all(isinstance(log, LogReader) for log in samples)
    logs: list[LogReader | Iterable[RecordedSample]] = (
        list(cast("Sequence[LogReader]", samples))
        if many
        else [cast("LogReader | Iterable[RecordedSample]", samples)]
    )
    readers = [log for log in logs if isinstance(log, LogReader)]
    if readers:
        diagnostics = _Findings(readers)
        records = records or (lambda: [reader.records for reader in readers])
    cases = Spec(tuple(target.case for target in specs.targets))
    paired = pair_runs([cases], logs, pairing, hold=hold is not None, first=first)
    stages = _Stages(paired, through)
    notes = paired.notes
    partial = _scored(
        specs, stages.of("read"), at, diagnostics, explained, tools, lambda: notes("read"), records
    )
    if hold is not None:
        for _ in stages.of("read"):
            pass
        hold.extend(paired.held)
        return partial
    while (segment := stages.peek()) is not None:
        stage, log = segment
        place = (*at, 1 + LATER.index(stage), log)
        noted = functools.partial(paired.notes, stage, log)
        partial = partial.merge(_scored(specs, stages.of(stage, segment), place, (), explained, tools, noted))
    return partial


def score_held(
    specs: CompiledSpecs,
    stage: Stage,
    log: int,
    runs: Iterable[RecordedSample],
    *,
    at: Position,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
    diagnostics: Sequence[Diagnostic] = (),
) -> PartialScore:
    """The partial score, at ``at``, of the held runs of ``stage`` that began in the ``log``-th
    log, joined by an engine (see module) and given in the order they began: named and noted as
    one process names them, checked and scored (``diagnostics``: findings the joining gave)."""
    cases = Spec(tuple(target.case for target in specs.targets))
    paired = pair_runs([cases], [], pairing)
    named = paired.name(stage, log, runs)
    return _scored(specs, named, at, diagnostics, explained, tools, lambda: paired.notes(stage, log))


def _scored(
    specs: CompiledSpecs,
    samples: Iterable[RecordedSample],
    at: Position,
    diagnostics: Sequence[Diagnostic],
    explained: int | None,
    tools: Catalogue | None,
    notes: Callable[[], PairingNotes],
    records: Callable[[], Iterable[LogRecords]] | None = None,
) -> PartialScore:
    """The partial score of ``samples`` at ``at``, with the pairing ``notes`` of its runs and
    what became of its logs' ``records`` (both asked for once they are read)."""
    found: list[SampleFinding] = []
    if tools is not None:
        from toolexpect.toolcheck import check_samples

        samples = check_samples(samples, tools, found)
    scored = score_partition(
        specs,
        samples,
        at=at,
        diagnostics=diagnostics,
        explained=explained,
        call_findings=found,
        records=records,
    )
    return PartialScore(tuple(replace(part, pairing=notes()) for part in scored.parts))


class _Findings(Sequence[Diagnostic]):
    """The findings of some readers, one after the other, as they are when asked for."""

    def __init__(self, readers: Sequence[LogReader]) -> None:
        self._readers = readers

    def _all(self) -> list[Diagnostic]:
        return [finding for reader in self._readers for finding in reader.diagnostics]

    def __len__(self) -> int:
        return sum(len(reader.diagnostics) for reader in self._readers)

    @overload
    def __getitem__(self, index: int) -> Diagnostic: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Diagnostic]: ...
    def __getitem__(self, index: int | slice) -> Diagnostic | Sequence[Diagnostic]:
        return self._all()[index]

    def __iter__(self) -> Iterator[Diagnostic]:
        for reader in self._readers:
            yield from reader.diagnostics


class _Stages:
    """The runs of a pairing, taken stage by stage (see ``PairedRuns.segment``)."""

    def __init__(
        self,
        paired: PairedRuns,
        through: Callable[[Iterator[RecordedSample]], Iterator[RecordedSample]] | None = None,
    ) -> None:
        self._paired = paired
        self._runs = through(iter(paired)) if through is not None else iter(paired)
        self._next: tuple[Segment, RecordedSample] | None = None
        self._done = False

    def peek(self) -> Segment | None:
        """Where the next run comes from (``None``: no more runs)."""
        if self._next is None and not self._done:
            sample = next(self._runs, None)
            if sample is None:
                self._done = True
            else:
                self._next = (self._paired.segment, sample)
        return self._next[0] if self._next is not None else None

    def of(self, stage: Stage, segment: Segment | None = None) -> Iterator[RecordedSample]:
        """The runs from ``stage`` (from ``segment``), up to the first from elsewhere."""
        while (found := self.peek()) is not None and found[0] == stage and segment in (None, found):
            assert self._next is not None
            sample = self._next[1]
            self._next = None
            yield sample
