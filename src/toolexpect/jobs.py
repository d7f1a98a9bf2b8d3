"""Score one canonical JSON Lines log in several processes (``toolexpect score -j N``).

The log is cut at line boundaries into ``N`` stretches of about equal size. Each stretch is
read and scored in a process of a :class:`concurrent.futures.ProcessPoolExecutor`
(:func:`score_stretch`, by :func:`~toolexpect.scoring.score_partition`); the partial scores,
log findings included, are merged, which gives exactly the report of one process.
:mod:`toolexpect.dask` cuts and scores stretches the same way on a Dask cluster.

One thing cannot be scored in stretches: loose calls (one call per line), which form one
sample at the end of the whole log. A stretch that holds one refuses, and the log is then
read and scored in this process, as with ``-j 1``.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, BinaryIO

from toolexpect.diagnostics import Diagnostic
from toolexpect.logs import LogError, LogReader, canonical
from toolexpect.logs._base import Context, Record
from toolexpect.logs._source import read_lines
from toolexpect.model import Spec
from toolexpect.pairing.facts import facts_of
from toolexpect.partition import score_read
from toolexpect.scoring import CompiledSpecs, PartialScore, Position, ScoreReport

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing import PairingOptions

__all__ = ["Stretch", "score_log", "score_stretch", "stretches"]

Stretch = tuple[int, int, int]
"""A stretch of a log: its first byte, the byte after its last, and the number of its first line."""


class _Loose(Exception):
    """A stretch holds a loose call, which only a reading of the whole log can place."""


def stretches(path: str, jobs: int) -> list[Stretch]:
    """``path`` cut at line starts into at most ``jobs`` stretches of about equal size."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as handle:
        for number in range(1, jobs):
            target = size * number // jobs
            if target <= cuts[-1]:
                continue
            handle.seek(target)
            handle.readline()  # to the start of the next line
            if handle.tell() >= size:
                break
            cuts.append(handle.tell())
        lines = [1]
        for before, cut in itertools.pairwise(cuts):
            lines.append(lines[-1] + _newlines(handle, before, cut))
    cuts.append(size)
    return [(cuts[n], cuts[n + 1], lines[n]) for n in range(len(cuts) - 1)]


def _newlines(handle: BinaryIO, start: int, stop: int) -> int:
    """How many line ends the bytes ``start`` to ``stop`` of ``handle`` hold (read in chunks)."""
    handle.seek(start)
    count = 0
    left = stop - start
    while left > 0:
        chunk = handle.read(min(left, 1 << 20))
        if not chunk:
            break
        count += chunk.count(b"\n")
        left -= len(chunk)
    return count


def _no_loose_calls(records: Iterator[Record]) -> Iterator[Record]:
    for record in records:
        if canonical.loose_call(record[1]):
            raise _Loose
        yield record


def score_stretch(
    specs: CompiledSpecs,
    path: str,
    stretch: Stretch,
    at: Position,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> tuple[PartialScore | None, Diagnostic | None]:
    """Read, pair and score one stretch of a canonical JSON Lines log as the partition at
    ``at`` (:func:`toolexpect.partition.score_read`, with ``tools`` and ``pairing`` as it takes
    them): its partial score, log findings included (``None`` when it holds a loose call), and
    the finding of a log that cannot be read (``None`` if it can)."""
    ctx = Context(path)
    field = pairing.path if pairing is not None else None
    if field is not None:  # a canonical sample's other fields may name its case (--case-from)
        ctx.note = lambda record, _id: facts_of(record, field)
    start, stop, first_line = stretch
    try:
        records = _no_loose_calls(read_lines(path, ctx, start, stop, first_line))
        samples = canonical.read(records, ctx)
        partial = score_read(
            specs,
            samples,
            at=at,
            diagnostics=ctx.diagnostics,
            explained=explained,
            tools=tools,
            pairing=pairing,
        )
    except _Loose:
        return None, None
    except LogError as error:  # sent back as data: the exception does not pickle whole
        return None, error.diagnostic
    return partial, None


def score_log(
    specs: Sequence[Spec], reader: LogReader, jobs: int, *, explained: int | None = None
) -> ScoreReport:
    """The report on ``reader``'s log, its findings included, scored in up to ``jobs``
    processes (``explained`` as :func:`~toolexpect.scoring.score_partition` takes it).

    Only a canonical JSON Lines log is cut into stretches; anything else, and a log with
    loose calls, is scored in this process. ``LogError`` as reading the log would raise it.
    """
    path = reader.path
    compiled = CompiledSpecs.of(specs)
    if jobs > 1 and reader.format == canonical.NAME and reader.splittable:
        parts = stretches(path, jobs)
        if len(parts) > 1:
            with concurrent.futures.ProcessPoolExecutor(max_workers=len(parts)) as pool:
                found = list(
                    pool.map(
                        score_stretch,
                        [compiled] * len(parts),
                        [path] * len(parts),
                        parts,
                        [(number,) for number in range(len(parts))],
                        [explained] * len(parts),
                    )
                )
            merged = _merge(compiled, found)
            if merged is not None:
                return merged
    return compiled.finish(score_read(compiled, reader, at=(0,), explained=explained))


def _merge(
    compiled: CompiledSpecs, found: Sequence[tuple[PartialScore | None, Diagnostic | None]]
) -> ScoreReport | None:
    """The stretches' results joined in log order; ``None`` when one held a loose call."""
    total = compiled.empty()
    for partial, fatal in found:
        if fatal is not None:
            raise LogError(fatal)
        if partial is None:
            return None
        total = total.merge(partial)
    return compiled.finish(total)

