"""Score one canonical JSON Lines log in several processes (``toolexpect score -j N``).

The log is cut into ``N`` blocks of equal size, as an engine cuts it (:mod:`toolexpect.scale.blocks`:
a block reads the lines that begin in it, numbered from 1). Each block is read and scored in a
process of a :class:`concurrent.futures.ProcessPoolExecutor`
(:func:`~toolexpect.scale.blocks.score_block`); the partial scores, log findings included, are
merged, their lines numbered as in the log (:func:`~toolexpect.scale.blocks.numbered`), which gives
exactly the report of one process.

One thing cannot be scored in blocks: loose calls (one call per line), which form one sample
at the end of the whole log. A block that holds one refuses, and the log is then read and
scored in this process, as with ``-j 1``.
"""

from __future__ import annotations

import concurrent.futures
import math
import os
from collections.abc import Callable, Sequence

from toolexpect.logs import LogError, LogReader, canonical
from toolexpect.model import Spec
from toolexpect.scale.blocks import blocks, numbered, score_block
from toolexpect.scale.partition import score_read
from toolexpect.scoring.partial import CompiledSpecs, PartialScore, ScoreReport
from toolexpect.spelling import PYTHON, Spelling

__all__ = ["score_log"]


def score_log(
    specs: Sequence[Spec],
    reader: LogReader,
    jobs: int,
    *,
    explained: int | None = None,
    spelling: Spelling = PYTHON,
    told: Callable[[str], None] | None = None,
) -> ScoreReport:
    """The report on ``reader``'s log, its findings included, scored in up to ``jobs``
    processes (``explained`` as :func:`~toolexpect.scoring.partial.score_partition` takes it,
    ``spelling`` as :meth:`~toolexpect.scoring.partial.CompiledSpecs.finish` does).

    Only a canonical JSON Lines log in a plain file is cut into blocks; anything else, a log
    too small for two blocks and a log with loose calls is scored in this process, and
    ``told`` (when given) is told why. ``LogError`` as reading the log would raise it.
    """
    path = reader.path
    compiled = CompiledSpecs.of(specs)
    why = None
    if jobs > 1 and not (reader.format == canonical.NAME and reader.splittable):
        why = (
            "only canonical JSON Lines in a plain file is cut into blocks"
            " (not a compressed file, a pipe or one JSON document)"
        )
    if jobs > 1 and why is None:
        size = os.path.getsize(path)
        cut = blocks(size, max(1, math.ceil(size / jobs)))
        why = "the log is too small to cut into two blocks"
        if len(cut) > 1:
            count = len(cut)
            with concurrent.futures.ProcessPoolExecutor(max_workers=count) as pool:
                found = list(
                    pool.map(
                        score_block,
                        [compiled] * count,
                        [path] * count,
                        cut,
                        [(number,) for number in range(count)],
                        [explained] * count,
                    )
                )
            merged = _merge(compiled, found, spelling)
            if merged is not None:
                return merged
            why = "the log holds loose calls (one call per line), which form one sample of the whole log"
    if why is not None and told is not None:
        told(why)
    return compiled.finish(score_read(compiled, reader, at=(0,), explained=explained), spelling=spelling)


def _merge(
    compiled: CompiledSpecs, found: Sequence[PartialScore | None], spelling: Spelling
) -> ScoreReport | None:
    """The blocks' results joined and numbered; ``None`` when one held a loose call.
    ``LogError`` when a block could not be read, at its line in the log."""
    total = compiled.empty()
    for partial in found:
        if partial is None:
            return None
        total = total.merge(partial)
    total = numbered(total)
    for part in total.parts:
        if part.unreadable:
            raise LogError(part.diagnostics[0])
    return compiled.finish(total, spelling=spelling)
