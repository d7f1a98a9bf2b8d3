"""Logs cut into partitions that any engine can score: list, survey, read and score a shard.

Engine-agnostic (no Dask here; :mod:`toolexpect.dask` maps these functions over a cluster,
and a Spark or Ray job can call them the same way, see docs/scale.md). Paths go through
``fsspec``, so a log may be a local path, a glob, or a URL (``s3://``, ``gs://``, ``az://``,
``https://``; the cloud filesystems are the user's extra).

A partition never splits a run: a canonical JSON Lines log (one run per line) is cut into
stretches of about ``blocksize`` bytes at line starts, each with the number of its first line
(a local log by :func:`toolexpect.jobs.stretches`; a remote one is read once to find them, and
each worker then reads its byte range); every other log is one partition. A stretch that holds
a loose call (one call per line, which form one run of the whole log) says so, and its log is
then scored as one partition.
"""

from __future__ import annotations

import dataclasses
import glob
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolexpect.diagnostics import Diagnostic, make
from toolexpect.jobs import Stretch, score_stretch, stretches
from toolexpect.logs import LogError, canonical, open_log
from toolexpect.logs._base import Context
from toolexpect.logs._source import open_source
from toolexpect.pairing.held import Records
from toolexpect.partition import HELD, LATER, score_aside, score_read, score_relinked
from toolexpect.scoring import CompiledSpecs, Part, PartialScore, Position

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing import PairingOptions

__all__ = [
    "BLOCKSIZE",
    "Shard",
    "list_logs",
    "relink_shard",
    "score_set_aside",
    "score_shard",
    "survey_log",
    "unreadable",
]

BLOCKSIZE = 64 << 20
"""The size of a stretch of a canonical JSON Lines log (64 MiB)."""

_PROBE = 1 << 16
"""How much of a remote log is read to tell its format (its whole lines)."""


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
            found = _remote_stretches(log, fmt, blocksize)
            if found is None:
                return whole
            chosen, cut = found
        else:
            reader = open_log(path, fmt)
            chosen = reader.format
            if chosen != canonical.NAME or not open_source(path, Context(path)).lines:
                return [Shard(log, (number, 0), chosen)]
            cut = stretches(path, max(1, math.ceil(os.path.getsize(path) / blocksize)))
    except (LogError, OSError, ValueError, ImportError):
        return whole
    return [Shard(log, (number, part), chosen, stretch) for part, stretch in enumerate(cut)]


def _remote_stretches(url: str, fmt: str, blocksize: int) -> tuple[str, list[Stretch]] | None:
    """The format and stretches of the canonical JSON Lines log at ``url``, read once through
    ``fsspec``; ``None`` for any other log (or one whose first lines are longer than the probe)."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(url)
    with fs.open(path, "rb") as handle:
        head = handle.read(_PROBE)
        size = fs.size(path)
    if len(head) < size:
        head = head[: head.rfind(b"\n") + 1]
    if not head:
        return None
    with tempfile.TemporaryDirectory(prefix="toolexpect-") as folder:
        probe = os.path.join(folder, "head")
        with open(probe, "wb") as written:
            written.write(head)
        chosen = open_log(probe, fmt).format
        if chosen != canonical.NAME or not open_source(probe, Context(probe)).lines:
            return None
    cuts = [(0, 1)]  # (first byte, its line's number) of each stretch
    target, line, base = blocksize, 1, 0
    with fs.open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            position = 0
            while target < base + len(chunk):
                found = chunk.find(b"\n", max(target - base, position))
                if found < 0:
                    break
                line += chunk.count(b"\n", position, found + 1)
                position = found + 1
                cuts.append((base + position, line))
                target = ((base + position) // blocksize + 1) * blocksize
            line += chunk.count(b"\n", position)
            base += len(chunk)
    if len(cuts) > 1 and cuts[-1][0] >= base:
        cuts.pop()
    bounds = [*(byte for byte, _ in cuts[1:]), base]
    return chosen, [(byte, stop, first) for (byte, first), stop in zip(cuts, bounds, strict=True)]


def unreadable(at: Position, finding: Diagnostic) -> PartialScore:
    """The partial score of a shard that cannot be read: no runs, the finding that says why."""
    return PartialScore((Part(at, (), (), (), (finding,), unreadable=True),))


def score_shard(
    specs: CompiledSpecs,
    shard: Shard,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore | None:
    """Read, pair and score one shard (:func:`toolexpect.partition.score_read`: ``explained``,
    ``tools`` and ``pairing`` as it takes them). ``None`` when the shard is a stretch holding a
    loose call: score its log whole.

    A log that cannot be read gives a partial score without runs whose finding names the log.
    """
    read_as = shard.log
    try:
        path = _local(shard.log)
        if path is not None:
            read_as = path
            if shard.stretch is None:
                return _named(_score_whole(specs, path, shard, explained, tools, pairing), path, shard.log)
            partial, fatal = score_stretch(specs, path, shard.stretch, shard.at, explained, tools, pairing)
            if fatal is not None:
                return _named(unreadable(shard.at, fatal), path, shard.log)
            return None if partial is None else _named(partial, path, shard.log)
        with tempfile.TemporaryDirectory(prefix="toolexpect-") as folder:
            # Named as the URL names the log: its suffix says how to decompress it, and its
            # name is the case --pair-by file pairs it with.
            read_as = os.path.join(folder, _basename(shard.log))
            if shard.stretch is None:
                _fetch(shard.log, read_as)
                whole = _score_whole(specs, read_as, shard, explained, tools, pairing)
                return _named(whole, read_as, shard.log)
            start, stop, first_line = shard.stretch
            _fetch(shard.log, read_as, start, stop)
            stretch = (0, stop - start, first_line)
            partial, fatal = score_stretch(specs, read_as, stretch, shard.at, explained, tools, pairing)
            if fatal is not None:
                return _named(unreadable(shard.at, fatal), read_as, shard.log)
            return None if partial is None else _named(partial, read_as, shard.log)
    except LogError as error:
        return _named(unreadable(shard.at, error.diagnostic), read_as, shard.log)
    except (OSError, ValueError, ImportError) as error:  # fsspec: a missing file, an unknown protocol
        problem = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return unreadable(shard.at, make("R400", f"cannot read log: {problem}", path=shard.log))


def relink_shard(
    specs: CompiledSpecs,
    shard: Shard,
    cross: frozenset[int],
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> tuple[PartialScore, Records]:
    """The runs given once the whole log of ``shard`` is read, but for its records linked to
    other logs through the ``cross`` handles (see :mod:`toolexpect.linked`), which are given
    apart for :func:`score_set_aside` (:func:`toolexpect.partition.score_relinked`). A log
    that cannot be read now gives a partial score without runs whose finding names it."""
    with tempfile.TemporaryDirectory(prefix="toolexpect-") as folder:
        path = _local(shard.log)
        try:
            if path is None:
                path = os.path.join(folder, _basename(shard.log))
                _fetch(shard.log, path)
            reader = open_log(path, shard.fmt)
            partial, records = score_relinked(
                specs, reader, shard.at, cross, explained=explained, tools=tools, pairing=pairing
            )
        except LogError as error:
            finding = error.diagnostic
        except (OSError, ValueError, ImportError) as error:
            problem = getattr(error, "strerror", None) or str(error) or type(error).__name__
            finding = make("R400", f"cannot read log: {problem}", path=shard.log)
        else:
            return _named(partial, path, shard.log), records
    return unreadable((HELD, len(LATER), *shard.at), finding), Records(shard.log, shard.fmt, (), ())


def score_set_aside(
    specs: CompiledSpecs,
    relinked: Sequence[tuple[PartialScore, Records]],
    shards: Sequence[Shard],
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore:
    """The runs of the records :func:`relink_shard` set aside from the logs of ``shards`` (in
    input order), paired together as one process pairs them
    (:func:`toolexpect.partition.score_aside`)."""
    records = [found for _, found in relinked]
    numbers = [shard.at[0] for shard in shards]
    partial = score_aside(specs, records, numbers, explained=explained, tools=tools, pairing=pairing)
    for found, shard in zip(records, shards, strict=True):
        partial = _named(partial, found.path, shard.log)
    return partial


def _score_whole(
    specs: CompiledSpecs,
    path: str,
    shard: Shard,
    explained: int | None,
    tools: Catalogue | None,
    pairing: PairingOptions | None,
) -> PartialScore:
    """Read, pair and score the whole log at local ``path``."""
    reader = open_log(path, shard.fmt)
    return score_read(
        specs,
        reader,
        at=shard.at,
        diagnostics=reader.diagnostics,
        explained=explained,
        tools=tools,
        pairing=pairing,
        joins=True,
    )


def _basename(url: str) -> str:
    """The file name at the end of ``url`` (``log`` when it ends with none)."""
    from urllib.parse import urlsplit

    name = os.path.basename(urlsplit(url.rsplit("::", 1)[-1]).path)
    return name if name not in ("", ".", "..") else "log"


def _fetch(url: str, local: str, start: int = 0, stop: int | None = None) -> None:
    """Copy bytes ``start`` to ``stop`` (all of them by default) of the log at ``url`` to the
    local file ``local`` (through ``fsspec``)."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(url)
    with fs.open(path, "rb") as source, open(local, "wb") as target:
        source.seek(start)
        left = None if stop is None else stop - start
        while left is None or left > 0:
            chunk = source.read(1 << 20 if left is None else min(left, 1 << 20))
            if not chunk:
                break
            target.write(chunk)
            if left is not None:
                left -= len(chunk)


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
        checked = tuple(
            dataclasses.replace(finding, path=log) if finding.path == path else finding
            for finding in part.call_findings
        )
        notes = part.pairing.renamed(path, log) if part.pairing is not None else None
        parts.append(
            dataclasses.replace(part, unused=unused, diagnostics=found, call_findings=checked, pairing=notes)
        )
    return PartialScore(tuple(parts))
