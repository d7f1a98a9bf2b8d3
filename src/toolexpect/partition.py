"""One partition of the input read, paired with cases, checked and scored: what each task does.

:func:`score_read` takes the samples of one partition (a log reader for a whole log, or the
samples of a stretch of a canonical log) through the stages one process runs on them: the
pairing stage (:func:`toolexpect.pairing.pair_runs`, with the command's options), the schema
checks of ``--tools`` (:func:`toolexpect.toolcheck.check_samples`), and
:func:`toolexpect.scoring.score_partition`. ``score -j`` and ``score --dask`` (through
:mod:`toolexpect.shards`) score their partitions with it.

In one process, the runs the pairing stage can give only once every log is read (spans
joined by trace, records joined by history or key) come after every other run. Here they are
scored as partitions of their own, placed after every partition of the input (:data:`HELD`),
so the merged report keeps that order. The pairing findings (``R420`` to ``R423``) are
about the whole input, which no partition sees: each part carries what pairing noticed about
its runs (:class:`toolexpect.pairing.advice.PairingNotes`), and the finished report words
the notes of every part, as one process would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast, overload

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic
from toolexpect.logs import LogReader
from toolexpect.model import Spec
from toolexpect.pairing import PairedRuns, PairingOptions, pair_runs
from toolexpect.pairing.stage import Stage
from toolexpect.scoring import CompiledSpecs, PartialScore, Position, score_partition

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing.advice import PairingNotes
    from toolexpect.scoring import SampleFinding

__all__ = ["HELD", "LATER", "score_held", "score_read"]

HELD = 1 << 62
"""The first number of the position of runs given once their log was read: after any log's."""

LATER: tuple[Stage, ...] = ("traces", "runs")
"""The stages of the runs given once the logs are read, in their order (second number of HELD
positions)."""


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
) -> PartialScore:
    """Pair, check (with a ``tools`` catalogue) and score one partition's ``samples`` (a log
    reader, several read one after the other, or samples) as the partition at ``at``
    (``diagnostics``: the findings of samples given as such, complete once they are read; a
    reader's own are taken from it; ``explained`` as
    :func:`~toolexpect.scoring.score_partition` takes it; ``through``: what the runs pass
    through on their way to scoring, such as a progress display)."""
    many = isinstance(samples, Sequence) and all(isinstance(log, LogReader) for log in samples)
    logs: list[LogReader | Iterable[RecordedSample]] = (
        list(cast("Sequence[LogReader]", samples))
        if many
        else [cast("LogReader | Iterable[RecordedSample]", samples)]
    )
    readers = [log for log in logs if isinstance(log, LogReader)]
    if readers:
        diagnostics = _Findings(readers)
    cases = Spec(tuple(target.case for target in specs.targets))
    paired = pair_runs([cases], logs, pairing)
    stages = _Stages(paired, through)
    notes = paired.notes
    partial = _scored(specs, stages.of("read"), at, diagnostics, explained, tools, lambda: notes("read"))
    joins = paired.joins
    for number, stage in enumerate(LATER):
        if stages.has(stage):
            place = (HELD, number, *at)
            noted = functools.partial(_with_joins, notes, stage, joins)
            found = _scored(specs, stages.of(stage), place, (), explained, tools, noted)
            partial = partial.merge(found)
            joins = (frozenset(), frozenset())  # carried once, by the first held part
    return partial


def score_held(
    specs: CompiledSpecs,
    logs: Sequence[LogReader],
    places: Sequence[Position],
    *,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore:
    """The runs that pairing gives once ``logs`` are read (joined records), when the logs are
    read together: scored as :func:`score_read` scores those of each log read alone, each run
    at the place of the log it began in (``places``, the logs' positions). An engine that
    scored each log alone scores this way the logs whose runs may join (see
    :mod:`toolexpect.shards`): only these runs change, and they replace the logs' own."""
    cases = Spec(tuple(target.case for target in specs.targets))
    paired = pair_runs([cases], list(logs), pairing)
    stages = _Stages(paired)
    for _ in stages.of("read"):
        pass  # given as read: the same whether a log is read alone or not, and scored so
    partial = specs.empty()
    while (segment := stages.peek()) is not None:
        stage, log = segment
        place = (HELD, LATER.index(stage), *places[log])
        noted = functools.partial(paired.notes, stage, log)
        found = _scored(specs, stages.of(stage, log), place, (), explained, tools, noted)
        partial = partial.merge(found)
    return partial


def _with_joins(
    notes: Callable[[Stage], PairingNotes], stage: Stage, joins: tuple[frozenset[int], frozenset[int]]
) -> PairingNotes:
    found = notes(stage)
    offers, probes = joins
    return replace(found, offers=offers, probes=probes) if offers or probes else found


def _scored(
    specs: CompiledSpecs,
    samples: Iterable[RecordedSample],
    at: Position,
    diagnostics: Sequence[Diagnostic],
    explained: int | None,
    tools: Catalogue | None,
    notes: Callable[[], PairingNotes],
) -> PartialScore:
    """The partial score of ``samples`` at ``at``, with the pairing ``notes`` of its runs
    (asked for once they are read)."""
    found: list[SampleFinding] = []
    if tools is not None:
        from toolexpect.toolcheck import check_samples

        samples = check_samples(samples, tools, found)
    scored = score_partition(
        specs, samples, at=at, diagnostics=diagnostics, explained=explained, call_findings=found
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
        self._next: tuple[tuple[Stage, int], RecordedSample] | None = None
        self._done = False

    def peek(self) -> tuple[Stage, int] | None:
        """The stage of the next run and the number of the log it began in (``None``: no more)."""
        if self._next is None and not self._done:
            sample = next(self._runs, None)
            if sample is None:
                self._done = True
            else:
                self._next = (self._paired.segment, sample)
        return self._next[0] if self._next is not None else None

    def has(self, stage: Stage) -> bool:
        """True when the next run comes from ``stage``."""
        segment = self.peek()
        return segment is not None and segment[0] == stage

    def of(self, stage: Stage, log: int | None = None) -> Iterator[RecordedSample]:
        """The runs from ``stage`` (that began in the ``log``-th log), up to the first from
        elsewhere."""
        while (segment := self.peek()) is not None and segment[0] == stage and log in (None, segment[1]):
            assert self._next is not None
            sample = self._next[1]
            self._next = None
            yield sample
