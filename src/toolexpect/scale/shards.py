"""Logs cut into partitions that any engine can score: list, survey, read and score a shard.

Engine-agnostic (no Dask here; :mod:`toolexpect.scale.dask` maps these functions over a cluster,
:mod:`toolexpect.scale.processes` over processes, and a Spark or Ray job can call them the same way, see
docs/scale.md). Paths go through ``fsspec``, so a log may be a local path, a glob, or a URL
(``s3://``, ``gs://``, ``az://``, ``https://``; the cloud filesystems are the user's extra).

A partition never splits a run. A canonical JSON Lines log (one run per line, not compressed),
local or remote, is cut into blocks of a fixed size from its size alone (:func:`blocks`):
surveying it reads only its first 64 KiB, to tell its format. Each block's task reads the lines
that begin in it (:func:`toolexpect.logs._source.read_lines`: from the first line start in the
block to the end of the line that holds its last byte), numbered from 1, and says how many it
read (``Part.lines``); once every block of a log is in, :func:`numbered` moves each block's
lines by the lines of the blocks before it. Every other log is one partition. A block that
holds a loose call (one call per line, which form one run of the whole log) says so, and its
log is then scored as one partition.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolexpect.calls import ToolCall
from toolexpect.diagnostics import Diagnostic, make
from toolexpect.logs import LogError, canonical, open_log
from toolexpect.pairing.groups import Held
from toolexpect.scale.blocks import Block, blocks, numbered, score_block, unreadable
from toolexpect.scale.partition import score_read
from toolexpect.scoring.partial import CompiledSpecs, PartialScore, Position

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing import PairingOptions

__all__ = [
    "BLOCKSIZE",
    "Block",
    "Scored",
    "Shard",
    "blocks",
    "list_logs",
    "numbered",
    "score_block",
    "score_shard",
    "survey_log",
    "unreadable",
]

BLOCKSIZE = 64 << 20
"""The size of a block of a canonical JSON Lines log (64 MiB)."""

_PROBE = 1 << 16
"""How much of a remote log is read to tell its format (its whole lines)."""


@dataclass(frozen=True, slots=True)
class Shard:
    """One partition: a log (as the user named it), its place, its format, and its bytes
    (``block``: a block of a canonical JSON Lines log, or ``None`` for the whole log)."""

    log: str
    at: Position
    fmt: str = "auto"
    block: Block | None = None


@dataclass(frozen=True, slots=True)
class Scored:
    """What scoring one shard gave: the partial score of its runs given as read, and its held
    records (:class:`~toolexpect.pairing.groups.Held`: records that records of other logs may
    join), for the engine to group by run key (:mod:`toolexpect.scale.grouped`)."""

    partial: PartialScore
    held: tuple[Held, ...] = ()


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
    """The shards of ``log``, the ``number``-th log of the input: the blocks of ``blocksize``
    bytes of a canonical JSON Lines log that is not compressed (only its size and first lines
    are read), else the whole log. A log that cannot be read is one shard, and scoring it says
    why."""
    whole = [Shard(log, (number, 0), fmt)]
    try:
        path = _local(log)
        if path is None:
            found = _remote_probe(log, fmt)
            if found is None:
                return whole
            chosen, size = found
        else:
            reader = open_log(path, fmt)
            chosen = reader.format
            if chosen != canonical.NAME or not reader.splittable:
                return [Shard(log, (number, 0), chosen)]
            size = os.path.getsize(path)
    except (LogError, OSError, ValueError, ImportError):
        return whole
    return [Shard(log, (number, part), chosen, block) for part, block in enumerate(blocks(size, blocksize))]


def _remote_probe(url: str, fmt: str) -> tuple[str, int] | None:
    """The format and size of the canonical JSON Lines log at ``url`` (its first 64 KiB read
    through ``fsspec``); ``None`` for any other log, a compressed one, one whose size is not
    known, or one whose first line is longer than the probe."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(url)
    size = fs.size(path)
    if size is None:  # a server that does not say how large the log is: read whole
        return None
    with fs.open(path, "rb") as handle:
        head = handle.read(_PROBE)
    if len(head) < size:
        head = head[: head.rfind(b"\n") + 1]
    if not head:
        return None
    with tempfile.TemporaryDirectory(prefix="toolexpect-") as folder:
        probe = os.path.join(folder, _basename(url))  # its suffix says whether it is compressed
        with open(probe, "wb") as written:
            written.write(head)
        reader = open_log(probe, fmt)
        if reader.format != canonical.NAME or not reader.splittable:
            return None
    return reader.format, size


def score_shard(
    specs: CompiledSpecs,
    shard: Shard,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> Scored | None:
    """Read, pair and score one shard (:func:`toolexpect.scale.partition.score_read`: ``explained``,
    ``tools`` and ``pairing`` as it takes them): the runs given as read, scored, and the held
    records, named as the user named their log; a block as :func:`score_block` scores it, its
    lines to be moved by :func:`numbered`. ``None`` when the shard is a block holding a loose
    call: score its log whole.

    A log that cannot be read gives a partial score without runs whose finding names the log.
    """
    lost = None if shard.block is None else 0  # a block that cannot be read: its log is one finding
    block, span = shard.block, None
    if block is not None and _local(shard.log) is None:
        start, stop = block
        begin = max(0, start - 1)  # the byte before the block says whether a line begins at it
        block, span = (start - begin, stop - begin), (begin, stop)
    read_as = shard.log
    try:
        with _on_disk(shard.log, span) as path:
            read_as = path
            held: list[Held] = []
            if block is None:
                reader = open_log(path, shard.fmt)
                partial: PartialScore | None = score_read(
                    specs,
                    reader,
                    at=shard.at,
                    explained=explained,
                    tools=tools,
                    pairing=pairing,
                    hold=held,
                    first=shard.at[0],
                )
            else:
                partial = score_block(specs, path, block, shard.at, explained, tools, pairing)
            if partial is None:
                return None
            return Scored(_named(partial, path, shard.log), tuple(_held_named(held, path, shard.log)))
    except (LogError, OSError, ValueError, ImportError) as error:  # fsspec: a missing file, a protocol
        return Scored(_named(unreadable(shard.at, _cannot_read(error, shard.log), lost), read_as, shard.log))


def _held_named(held: list[Held], path: str, log: str) -> list[Held]:
    """``held`` with the log named as the user named it where it says ``path``."""
    if path == log:
        return held

    def call(found: ToolCall) -> ToolCall:
        return dataclasses.replace(found, path=log) if found.path == path else found

    return [
        dataclasses.replace(
            record,
            sample=dataclasses.replace(
                record.sample,
                path=log if record.sample.path == path else record.sample.path,
                calls=tuple(call(found) for found in record.sample.calls),
            ),
        )
        for record in held
    ]


@contextlib.contextmanager
def _on_disk(log: str, span: tuple[int, int] | None = None) -> Iterator[str]:
    """The log ``log`` as a local file: itself when it is local, else a copy of it (of its bytes
    ``span`` only, when given) in a temporary folder, named as the URL names the log: its suffix
    says how to decompress it, and its name is the case ``--pair-by file`` pairs it with."""
    path = _local(log)
    if path is not None:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="toolexpect-") as folder:
        copy = os.path.join(folder, _basename(log))
        _fetch(log, copy, *(span or (0, None)))
        yield copy


def _cannot_read(error: Exception, log: str) -> Diagnostic:
    """The finding of a log that cannot be read: the reader's own, else an ``R400`` naming it
    (fsspec: a missing file, an unknown protocol, a filesystem that is not installed)."""
    if isinstance(error, LogError):
        return error.diagnostic
    problem = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return make("R400", f"cannot read log: {problem}", path=log)


def _basename(url: str) -> str:
    """The file name at the end of ``url`` (``log`` when it ends with none)."""
    from urllib.parse import urlsplit

    name = os.path.basename(urlsplit(url.rsplit("::", 1)[-1]).path)
    return name if name not in ("", ".", "..") else "log"


def _fetch(url: str, local: str, start: int = 0, stop: int | None = None) -> None:
    """Copy the bytes of the log at ``url`` from ``start`` to ``stop`` and on to the end of the
    line that holds byte ``stop - 1`` (all of them by default) to the local file ``local``
    (through ``fsspec``, which reads the ranges)."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(url)
    with fs.open(path, "rb") as source, open(local, "wb") as target:
        source.seek(start)
        at = start
        while chunk := source.read(1 << 20):
            target.write(chunk)
            at += len(chunk)
            if stop is not None and at >= stop and b"\n" in chunk[max(0, stop - 1 - (at - len(chunk))) :]:
                break


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
        records = tuple(
            dataclasses.replace(counted, path=log) if counted.path == path else counted
            for counted in part.records
        )
        parts.append(
            dataclasses.replace(
                part, unused=unused, diagnostics=found, call_findings=checked, pairing=notes, records=records
            )
        )
    return PartialScore(tuple(parts))
