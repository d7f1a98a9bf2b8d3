"""A canonical JSON Lines log in blocks of a fixed size: cut, scored, and numbered at the end.

A log of N bytes is cut into blocks ``[k*B, (k+1)*B)`` from its size alone (:func:`blocks`),
as ``dask.bytes.read_bytes`` cuts a file with ``\\n`` as delimiter: a block's lines are those
that begin in it (:func:`toolexpect.logs._source.read_lines`: from the first line start at or
after its first byte, a line that begins exactly there included, where fsspec gives it to the
block before, to the end of the line that holds its last byte), so each line is read once, by
one block; a block may hold none. A
block's task does not know the number of its first line: it numbers its lines from 1 and says
how many it read (``Part.lines``, :func:`score_block`). Once every block of a log is in,
:func:`numbered` moves each block's line numbers by the lines of the blocks before it. Engine
agnostic: :mod:`toolexpect.scale.shards` (Dask, Spark, Ray) and
:mod:`toolexpect.scale.processes` (``score -j``) cut, score and number blocks with these functions.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING

from toolexpect.diagnostics import Diagnostic
from toolexpect.logs import LogError, canonical
from toolexpect.logs._base import Context, Record, accounted
from toolexpect.logs._source import read_lines
from toolexpect.pairing.facts import facts_of
from toolexpect.scale.partition import score_read
from toolexpect.scoring.partial import CompiledSpecs, Part, PartialScore, Position

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing import PairingOptions

__all__ = ["Block", "blocks", "numbered", "score_block", "unreadable"]

Block = tuple[int, int]
"""A block of a log: its first byte and the byte after its last. Its lines are those that
begin in it (see :func:`toolexpect.logs._source.read_lines`)."""


def blocks(size: int, blocksize: int) -> list[Block]:
    """The blocks ``[k*blocksize, (k+1)*blocksize)`` of a log of ``size`` bytes (one, at
    least), cut without reading it."""
    count = max(1, math.ceil(size / blocksize))
    return [(number * blocksize, min((number + 1) * blocksize, size)) for number in range(count)]


def unreadable(at: Position, finding: Diagnostic, lines: int | None = None) -> PartialScore:
    """The partial score of a shard that cannot be read: no runs, the finding that says why
    (``lines=0`` for a block, whose log :func:`numbered` then reduces to it)."""
    return PartialScore((Part(at, (), (), (), (finding,), unreadable=True, lines=lines),))


class _Loose(Exception):
    """A block holds a loose call, which only a reading of the whole log can place."""


class _Lines:
    """The records of a block's lines, refused at a loose call; ``read``: how many lines
    were read, once they all are."""

    def __init__(self, records: Generator[Record, None, int]) -> None:
        self._records = records
        self.read = 0

    def __iter__(self) -> Iterator[Record]:
        while True:
            try:
                record = next(self._records)
            except StopIteration as end:
                self.read = end.value
                return
            if canonical.loose_call(record[1]):
                raise _Loose
            yield record


def score_block(
    specs: CompiledSpecs,
    path: str,
    block: Block,
    at: Position,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore | None:
    """Read, pair and score the lines of one block of the canonical JSON Lines log at local
    ``path`` as the partition at ``at`` (:func:`toolexpect.scale.partition.score_read`, with
    ``explained``, ``tools`` and ``pairing`` as it takes them): its partial score, log findings
    included, its log lines numbered from 1 at the block's first line and its part saying how
    many lines it read (``Part.lines``, for :func:`numbered`). ``None`` when it holds a loose
    call; a partial score without runs, with the finding, when the log cannot be read."""
    ctx = Context(path)
    field = pairing.path if pairing is not None else None
    if field is not None:  # a canonical sample's other fields may name its case (--case-from)
        ctx.note = lambda record, _id: facts_of(record, field)
    start, stop = block
    counted = 0
    try:
        records = _Lines(read_lines(path, ctx, start, stop))
        samples = canonical.read(accounted(records, ctx), ctx)
        partial = score_read(
            specs,
            samples,
            at=at,
            diagnostics=ctx.diagnostics,
            explained=explained,
            tools=tools,
            pairing=pairing,
            records=lambda: [ctx.records()],
        )
        counted = records.read
    except _Loose:
        return None
    except LogError as error:  # the exception does not pickle whole: sent back as data
        partial = unreadable(at, error.diagnostic, 0)
    # Pairing gives a canonical log's runs as read (none held): one part, at ``at``.
    return PartialScore(
        tuple(dataclasses.replace(part, lines=counted) if part.at == at else part for part in partial.parts)
    )


def numbered(partial: PartialScore) -> PartialScore:
    """``partial`` with the lines of each block in it numbered as in its log, once it holds
    every block of its log: each block's part (``Part.lines`` set) moved by the lines the
    blocks before it read (:meth:`~toolexpect.scoring.partial.Part.moved`). A log with a block that
    could not be read is that block alone, as a whole log that cannot be read is one finding.
    Other parts are left as they are.

    The blocks of a log are the parts whose positions differ only in their last number, the
    block's (``(log, block)`` on an engine, ``(block,)`` with ``score -j``).
    """
    failed: dict[Position, Position] = {}
    for part in partial.parts:
        if part.lines is not None and part.unreadable:
            failed.setdefault(part.at[:-1], part.at)
    before: dict[Position, int] = {}
    parts: list[Part] = []
    for part in partial.parts:  # in position order
        if part.lines is None:
            parts.append(part)
            continue
        log = part.at[:-1]
        lines = before.get(log, 0)
        before[log] = lines + part.lines
        if failed.get(log, part.at) == part.at:
            parts.append(part.moved(lines))
    return PartialScore(tuple(parts))
