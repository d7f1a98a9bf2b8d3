"""Reading a log into decoded records: JSON Lines line by line, JSON values, or one document.

A log whose first non-blank line is a complete JSON value is read as JSON Lines, lazily,
one line at a time (bounded memory). Otherwise it is one JSON document, or several written
back to back (``documents.py``). Server-sent-event captures (``data: {...}`` lines) are read
as JSON Lines too. The log is opened once (``streams.py``: files, ``-``, pipes, ``.gz``,
``.zst``); what is read to probe it is served again to the reader.

What is read is bounded whatever the file claims to hold: a line of JSON Lines at most
:data:`MAX_LINE_BYTES`, a whole JSON document at most :data:`MAX_DOCUMENT_BYTES` (``R405``
beyond). A device or a socket is refused before it is read (``R400``).

Lines are read and decoded by :mod:`toolexpect.logs._lines`.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from toolexpect.bounded import read_up_to
from toolexpect.logs._base import Context, LogError, Record
from toolexpect.logs._lines import (
    MAX_LINE_BYTES,
    _decode_error,
    _huge_integer,
    _mib,
    _short,
    _sse_payload,
    lines,
    read_failed,
    read_lines,
)
from toolexpect.logs.documents import concatenated, values
from toolexpect.logs.streams import Replay, open_stream

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_LINE_BYTES",
    "Source",
    "lines",
    "open_source",
    "read_lines",
    "stream_is_plain",
]

MAX_DOCUMENT_BYTES = 256 << 20
"""The largest log read as one JSON document (256 MiB); JSON Lines logs have no total limit."""

_PROBE = 1 << 16
_SKIP_SSE = (b"event:", b"id:", b"retry:", b":")


class Source:
    """The decoded records of one log, read once from its open stream.

    ``lines``: the records are a stream (JSON Lines, or JSON values back to back), else
    ``document`` is the log's one JSON document. ``reopenable``: the log is a regular file
    (``splittable`` too when it is not compressed: ``score -j`` cuts it at line starts).
    """

    def __init__(
        self,
        path: str,
        ctx: Context,
        lines: bool,
        document: Any = None,
        *,
        records: Iterator[Record] | None = None,
        stream: IO[bytes] | None = None,
        reopenable: bool = True,
        splittable: bool = False,
    ) -> None:
        self.path = path
        self.ctx = ctx
        self.lines = lines
        self.document = document
        self.reopenable = reopenable
        self.splittable = splittable
        self._records = records
        self._stream = stream
        self._peeked: list[Record] = []

    def peek(self, count: int) -> list[Any]:
        """The values of the first ``count`` records, kept to be given again by :meth:`records`."""
        if self._records is not None:
            while len(self._peeked) < count:
                record = next(self._records, None)
                if record is None:
                    break
                self._peeked.append(record)
        return [value for _, value in self._peeked[:count]]

    def records(self) -> Iterator[Record]:
        """Decoded records; a malformed line is an R401 and reading goes on."""
        if not self.lines:
            yield (1, self.document)
            return
        peeked, self._peeked = self._peeked, []
        yield from peeked
        if self._records is not None:
            yield from self._records

    def close(self) -> None:
        """Stop reading (closes the stream of a log read line by line)."""
        if self._records is not None:
            self._records.close()  # type: ignore[attr-defined]
        if self._stream is not None and self._stream is not sys.stdin.buffer:
            self._stream.close()


def open_source(path: str | os.PathLike[str], ctx: Context) -> Source:
    """Open ``path`` (``-``: standard input) once and decide between a stream of records
    (JSON Lines, values back to back) and one JSON document."""
    name = os.fspath(path)
    inner, reopenable = open_stream(name, ctx)
    try:
        head = read_up_to(inner, _PROBE)
    except OSError as exc:
        inner.close()
        raise read_failed(ctx, exc, None) from None
    except (EOFError, ValueError) as exc:
        inner.close()
        raise ctx.fatal("R400", f"cannot read log: {exc}", None) from None
    except Exception as exc:  # zstandard.ZstdError is no OSError
        inner.close()
        raise ctx.fatal("R400", f"cannot read log: the compressed log is damaged ({exc})", None) from None
    stream = io.BufferedReader(Replay(head, inner, inner is not sys.stdin.buffer), 1 << 16)
    splittable = reopenable and stream_is_plain(name)
    try:
        return _probe(name, head, stream, ctx, reopenable, splittable)
    except LogError:
        stream.close()
        raise


def stream_is_plain(name: str) -> bool:
    """Whether a log's bytes are its records (not compressed)."""
    return not name.lower().endswith((".gz", ".zst"))


def _probe(
    name: str, head: bytes, stream: IO[bytes], ctx: Context, reopenable: bool, splittable: bool
) -> Source:
    _check_utf8(head, len(head) == _PROBE, ctx)
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff")
    if not text.strip():
        raise ctx.fatal("R402", "log is empty", None, help="a log holds at least one record")
    for line in text.splitlines():
        if not line.strip():
            continue
        body = _sse_payload(line.encode("utf-8"))
        if body is None:
            continue
        try:
            json.loads(body)
        except (ValueError, RecursionError):
            break
        return Source(
            name,
            ctx,
            True,
            records=lines(stream, ctx),
            stream=stream,
            reopenable=reopenable,
            splittable=splittable,
        )
    # Not line-based: one JSON document (pretty-printed), several back to back, else lines.
    try:
        data = stream.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as exc:
        raise read_failed(ctx, exc, None) from None
    finally:
        stream.close()
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ctx.fatal(
            "R405",
            f"log is larger than {_mib(MAX_DOCUMENT_BYTES)} and not JSON Lines; it was not read",
            1,
            help="write one record per line (JSON Lines): lines are read one at a time, "
            f"each up to {_mib(MAX_LINE_BYTES)}",
        )
    try:
        whole = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _decode_error(ctx, data.count(b"\n", 0, exc.start) + 1) from None
    whole = whole.lstrip("\ufeff")
    try:
        document = json.loads(whole)
    except json.JSONDecodeError as exc:
        if concatenated(whole):
            return Source(name, ctx, True, records=values(whole, ctx), reopenable=reopenable)
        if "\n" in whole.strip():
            return Source(name, ctx, True, records=lines(io.BytesIO(data), ctx), reopenable=reopenable)
        raise ctx.fatal(
            "R401",
            f"log is not valid JSON ({exc.msg})",
            exc.lineno,
            help="a log is one JSON document, JSON documents one after another, or JSON Lines",
            column=exc.colno,
        ) from None
    except (ValueError, RecursionError) as exc:
        huge = _huge_integer(whole) if isinstance(exc, ValueError) else None
        if huge is None:
            raise ctx.fatal("R401", f"log is not valid JSON ({_short(exc)})", None) from None
        reason, at = huge
        lineno = whole.count("\n", 0, at) + 1
        raise ctx.fatal(
            "R401",
            f"log cannot be read: {reason}",
            lineno,
            help="write such a number as a string in the log",
            column=at - (whole.rfind("\n", 0, at) + 1) + 1,
        ) from None
    return Source(name, ctx, lines=False, document=document, reopenable=reopenable)


def _check_utf8(head: bytes, more: bool, ctx: Context) -> None:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        truncated = more and exc.start >= len(head) - 3 and exc.reason.startswith("unexpected end")
        if not truncated:
            line = head.count(b"\n", 0, exc.start) + 1
            raise _decode_error(ctx, line) from None
