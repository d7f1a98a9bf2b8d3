"""Logs cut into partitions that any engine can score: list, survey, read and score a shard.

Engine-agnostic (no Dask here; :mod:`toolexpect.dask` maps these functions over a cluster,
and a Spark or Ray job can call them the same way, see docs/scale.md). Paths go through
``fsspec``, so a log may be a local path, a glob, or a URL (``s3://``, ``gs://``, ``az://``,
``https://``; the cloud filesystems are the user's extra).

A partition never splits a run: a local canonical JSON Lines log (one run per line) is cut
into stretches of about ``blocksize`` bytes at line starts (:func:`toolexpect.jobs.stretches`,
which also numbers their first lines); every other log, and every remote one, is one partition.
A stretch that holds a loose call (one call per line, which form one run of the whole log)
says so, and its log is then scored as one partition.
"""

from __future__ import annotations

import dataclasses
import glob
import math
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass

from toolexpect.diagnostics import Diagnostic, make
from toolexpect.jobs import score_stretch, stretches
from toolexpect.logs import LogError, canonical, open_log
from toolexpect.logs._base import Context
from toolexpect.logs._source import open_source
from toolexpect.scoring import CompiledSpecs, Part, PartialScore, Position, score_partition

__all__ = ["BLOCKSIZE", "Shard", "list_logs", "score_shard", "survey_log", "unreadable"]

BLOCKSIZE = 64 << 20
"""The size of a stretch of a local canonical JSON Lines log (64 MiB)."""


@dataclass(frozen=True, slots=True)
class Shard:
    """One partition: a log (as the user named it), its place, its format, and its bytes.

    ``stretch`` is ``(first byte, byte after the last, number of the first line)``, or
    ``None`` for the whole log.
    """

    log: str
    at: Position
    fmt: str = "auto"
    stretch: tuple[int, int, int] | None = None


def _local(url: str) -> str | None:
    """The local path of ``url`` (a plain path or a ``file://`` URL), ``None`` for a remote one."""
    if "://" not in url and "::" not in url:
        return url
    from fsspec.core import url_to_fs
    from fsspec.implementations.local import LocalFileSystem

    fs, path = url_to_fs(url)
    return str(path) if isinstance(fs, LocalFileSystem) else None


def list_logs(paths: Sequence[str]) -> tuple[list[str], list[Diagnostic]]:
    """The logs that ``paths`` name, in order (each glob's matches sorted), and a finding for
    each glob that matches nothing. A local path is kept as written; a URL's matches are URLs."""
    logs: list[str] = []
    findings: list[Diagnostic] = []
    for given in paths:
        if not glob.has_magic(given):
            logs.append(given)
            continue
        try:
            if _local(given) == given:
                found = sorted(name for name in glob.glob(given, recursive=True) if not os.path.isdir(name))
            else:
                from fsspec.core import url_to_fs

                fs, pattern = url_to_fs(given)
                found = sorted(fs.unstrip_protocol(name) for name in fs.glob(pattern) if not fs.isdir(name))
        except (OSError, ValueError, ImportError) as error:  # no such store, its package missing
            problem = getattr(error, "strerror", None) or str(error) or type(error).__name__
            findings.append(make("R400", f"cannot list the logs of {given}: {problem}", path=given))
            continue
        if not found:
            findings.append(make("R400", f"no log matches {given}", path=given))
        logs.extend(found)
    return logs, findings


def survey_log(log: str, number: int, fmt: str = "auto", blocksize: int = BLOCKSIZE) -> list[Shard]:
    """The shards of ``log``, the ``number``-th log of the input. A log that cannot be read is
    one shard, and scoring it says why."""
    whole = [Shard(log, (number, 0), fmt)]
    try:
        path = _local(log)
        if path is None:
            return whole
        reader = open_log(path, fmt)
        if reader.format != canonical.NAME or not open_source(path, Context(path)).lines:
            return [Shard(log, (number, 0), reader.format)]
        count = max(1, math.ceil(os.path.getsize(path) / blocksize))
        cut = stretches(path, count)
    except (LogError, OSError, ValueError, ImportError):
        return whole
    return [Shard(log, (number, part), reader.format, stretch) for part, stretch in enumerate(cut)]


def unreadable(at: Position, finding: Diagnostic) -> PartialScore:
    """The partial score of a shard that cannot be read: no runs, the finding that says why."""
    return PartialScore((Part(at, (), (), (), (finding,)),))


def score_shard(specs: CompiledSpecs, shard: Shard, explained: int | None = None) -> PartialScore | None:
    """Read and score one shard (``explained`` as :func:`~toolexpect.scoring.score_partition`
    takes it). ``None`` when the shard is a stretch holding a loose call: score its log whole.

    A log that cannot be read gives a partial score without runs whose finding names the log.
    """
    read_as = shard.log
    try:
        path = _local(shard.log)
        if path is not None:
            read_as = path
            if shard.stretch is None:
                return _named(_score_whole(specs, path, shard, explained), path, shard.log)
            partial, fatal = score_stretch(specs, path, shard.stretch, shard.at, explained)
            if fatal is not None:
                return _named(unreadable(shard.at, fatal), path, shard.log)
            return None if partial is None else _named(partial, path, shard.log)
        with tempfile.TemporaryDirectory(prefix="toolexpect-") as folder:
            read_as = os.path.join(folder, "log")
            _fetch(shard.log, read_as)
            return _named(_score_whole(specs, read_as, shard, explained), read_as, shard.log)
    except LogError as error:
        return _named(unreadable(shard.at, error.diagnostic), read_as, shard.log)
    except (OSError, ValueError, ImportError) as error:  # fsspec: a missing file, an unknown protocol
        problem = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return unreadable(shard.at, make("R400", f"cannot read log: {problem}", path=shard.log))


def _score_whole(specs: CompiledSpecs, path: str, shard: Shard, explained: int | None) -> PartialScore:
    """Read and score the whole log at local ``path``."""
    reader = open_log(path, shard.fmt)
    return score_partition(specs, reader, at=shard.at, diagnostics=reader.diagnostics, explained=explained)


def _fetch(url: str, local: str) -> None:
    """Copy the log at ``url`` to the local file ``local`` (through ``fsspec``)."""
    import fsspec

    with fsspec.open(url, "rb") as source, open(local, "wb") as target:
        shutil.copyfileobj(source, target, 1 << 20)


def _named(partial: PartialScore, path: str, log: str) -> PartialScore:
    """``partial`` with the log named as the user named it where it says ``path``."""
    if path == log:
        return partial
    parts = []
    for part in partial.parts:
        unused = tuple(
            dataclasses.replace(entry, path=log) if entry.path == path else entry for entry in part.unused
        )
        found = tuple(
            dataclasses.replace(finding, path=log) if finding.path == path else finding
            for finding in part.diagnostics
        )
        parts.append(dataclasses.replace(part, unused=unused, diagnostics=found))
    return PartialScore(tuple(parts))
