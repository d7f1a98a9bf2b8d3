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
so the merged report keeps that order. The pairing findings (``R420``, ``R421``) are advice
about the whole input, which no partition sees: they are not given here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic
from toolexpect.logs import LogReader
from toolexpect.model import Spec
from toolexpect.pairing import PairedRuns, PairingOptions, pair_runs
from toolexpect.pairing.stage import Stage
from toolexpect.scoring import CompiledSpecs, PartialScore, Position, score_partition

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.scoring import SampleFinding

__all__ = ["HELD", "score_read"]

HELD = 1 << 62
"""The first number of the position of runs given once their log was read: after any log's."""


def score_read(
    specs: CompiledSpecs,
    samples: LogReader | Iterable[RecordedSample],
    *,
    at: Position,
    diagnostics: Sequence[Diagnostic] = (),
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore:
    """Pair, check (with a ``tools`` catalogue) and score one partition's ``samples`` as the
    partition at ``at`` (``diagnostics``: the reader's findings, complete once it is read;
    ``explained`` as :func:`~toolexpect.scoring.score_partition` takes it)."""
    cases = Spec(tuple(target.case for target in specs.targets))
    stages = _Stages(pair_runs([cases], [samples], pairing))
    partial = _scored(specs, stages.of("read"), at, diagnostics, explained, tools)
    later: tuple[Stage, ...] = ("traces", "runs")
    for number, stage in enumerate(later):
        if stages.has(stage):
            place = (HELD, number, *at)
            partial = partial.merge(_scored(specs, stages.of(stage), place, (), explained, tools))
    return partial


def _scored(
    specs: CompiledSpecs,
    samples: Iterable[RecordedSample],
    at: Position,
    diagnostics: Sequence[Diagnostic],
    explained: int | None,
    tools: Catalogue | None,
) -> PartialScore:
    found: list[SampleFinding] = []
    if tools is not None:
        from toolexpect.toolcheck import check_samples

        samples = check_samples(samples, tools, found)
    return score_partition(
        specs, samples, at=at, diagnostics=diagnostics, explained=explained, call_findings=found
    )


class _Stages:
    """The runs of a pairing, taken stage by stage (see ``PairedRuns.stage``)."""

    def __init__(self, paired: PairedRuns) -> None:
        self._paired = paired
        self._runs = iter(paired)
        self._next: tuple[Stage, RecordedSample] | None = None
        self._done = False

    def has(self, stage: Stage) -> bool:
        """True when the next run comes from ``stage``."""
        if self._next is None and not self._done:
            sample = next(self._runs, None)
            if sample is None:
                self._done = True
            else:
                self._next = (self._paired.stage, sample)
        return self._next is not None and self._next[0] == stage

    def of(self, stage: Stage) -> Iterator[RecordedSample]:
        """The runs from ``stage``, up to the first from another."""
        while self.has(stage):
            assert self._next is not None
            sample = self._next[1]
            self._next = None
            yield sample
