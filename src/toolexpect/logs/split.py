"""Score one large canonical JSON Lines log in two processes, with the one-process result.

The log is cut at a line boundary near its middle. A forked worker reads and scores the
second half while this process reads and scores the first; the worker's runs are then
taken in after the first half's (:meth:`toolexpect.scoring.Scorer.merge`), which gives
the same report as scoring every sample in order.

The worker's part is used only when it is plainly the same as reading on would give:
every record of both halves is one sample (so no loose calls collect across the cut),
and the worker's half gave no diagnostic and no error. Otherwise this process kills the
worker and reads the second half itself, so findings, their order and errors are exactly
those of one process. Only Linux uses a worker (``os.fork``).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from toolexpect.logs import canonical
from toolexpect.logs._base import Context, Record
from toolexpect.logs._source import _read_lines, open_source
from toolexpect.model import Spec
from toolexpect.scoring import Part, Scorer, ScoreReport

__all__ = ["MIN_BYTES", "Part", "Scorer", "score_split", "splittable"]

MIN_BYTES = 4 << 20
"""Logs smaller than this are scored in one process (a worker would not pay)."""


class _Unusual(Exception):
    """The worker's half holds something the split cannot reproduce; read it in order."""


def _sample_record(value: Any) -> bool:
    """A record the canonical reader turns into exactly one sample."""
    return type(value) is dict and ("tool_calls" in value or "calls" in value)


def splittable(path: str, fmt: str, jobs: int) -> int | None:
    """The byte offset to cut ``path`` at for two processes, or ``None`` for one."""
    if jobs < 2 or fmt != "canonical" or not sys.platform.startswith("linux"):
        return None
    if threading.active_count() > 1:
        return None  # forking a process with other threads could leave the worker stuck on a lock
    try:
        size = os.path.getsize(path)
        if size < MIN_BYTES:
            return None
        if not open_source(path, Context(path)).lines:
            return None
        with open(path, "rb") as handle:
            handle.seek(size // 2)
            handle.readline()
            cut = handle.tell()
    except Exception:  # anything odd about the file: the one-process path reports it
        return None
    return cut if 0 < cut < size else None


def score_split(specs: Sequence[Spec], path: str, cut: int, diagnostics: list[Any]) -> ScoreReport:
    """Score the canonical log ``path`` in two processes, cut at byte ``cut``.

    ``diagnostics`` receives the log's findings, as a ``LogReader`` would hold them;
    ``LogError`` is raised for a log that cannot be read, as in one process.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the worker; its part is checked by the parent's tests
        os.close(read_end)
        _worker(specs, path, cut, write_end)
    os.close(write_end)
    reaped = False
    try:
        ctx = Context(path, diagnostics)
        scorer = Scorer(specs)
        usual = [True]
        take = scorer.taker()
        scorer.feed(canonical.read(_first_half(path, ctx, cut, usual), ctx, take))
        if usual[0]:
            part = _collect(read_end)
            os.waitpid(pid, 0)
            reaped = True
        else:
            part = None
            reaped = _stop(pid)
        with open(path, "rb") as handle:
            lines = handle.read(cut).count(b"\n")
        if part is not None:
            scorer.merge(part, lines)
        else:
            rest = _read_lines(path, ctx, cut, None, lines + 1)
            scorer.feed(canonical.read(rest, ctx, take))
        return scorer.report()
    finally:
        if not reaped:
            _stop(pid)
        os.close(read_end)


def _stop(pid: int) -> bool:
    """End the worker (its part is not wanted) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return True


def _first_half(path: str, ctx: Context, cut: int, usual: list[bool]) -> Iterator[Record]:
    for record in _read_lines(path, ctx, 0, cut, 1):
        if usual[0] and not _sample_record(record[1]):
            usual[0] = False
        yield record


def _collect(read_end: int) -> Any:
    """The worker's part, or ``None`` when it could not score its half as one process would."""
    chunks: list[bytes] = []
    while True:
        chunk = os.read(read_end, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    try:
        status, part = pickle.loads(b"".join(chunks))
    except Exception:
        return None
    return part if status == "ok" else None


def _worker(specs: Sequence[Spec], path: str, cut: int, write_end: int) -> None:  # pragma: no cover
    """Score the second half and send the part (or a refusal) down the pipe; never returns."""
    code = 0
    try:
        try:
            ctx = Context(path)
            scorer = Scorer(specs)

            def records() -> Iterator[Record]:
                for record in _read_lines(path, ctx, cut, None, 1):
                    if not _sample_record(record[1]) or ctx.diagnostics:
                        raise _Unusual
                    yield record

            scorer.feed(canonical.read(records(), ctx, scorer.taker()))
            if ctx.diagnostics:
                raise _Unusual
            payload = pickle.dumps(("ok", scorer.part()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:
            payload = pickle.dumps(("redo", None))
        view = memoryview(payload)
        while view:
            written = os.write(write_end, view)
            view = view[written:]
    except BaseException:
        code = 1
    finally:
        os._exit(code)
