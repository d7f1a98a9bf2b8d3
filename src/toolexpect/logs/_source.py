"""Reading a log into decoded records: JSON Lines line by line, JSON values, or one document.

A log whose first non-blank line is a complete JSON value is read as JSON Lines, lazily,
one line at a time (bounded memory). Otherwise it is one JSON document, or several written
back to back (``documents.py``). Server-sent-event captures (``data: {...}`` lines) are read
as JSON Lines too. The log is opened once (``streams.py``: files, ``-``, pipes, ``.gz``,
``.zst``); what is read to probe it is served again to the reader.

What is read is bounded whatever the file claims to hold: a line of JSON Lines at most
:data:`MAX_LINE_BYTES`, a whole JSON document at most :data:`MAX_DOCUMENT_BYTES` (``R405``
beyond). A device or a socket is refused before it is read (``R400``).

Lines are decoded by ``orjson`` where it gives exactly what ``json.loads`` gives (see
:func:`_decode`), else by ``json``, which also words every error.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Generator, Iterator
from typing import IO, Any

import orjson

from toolexpect.bounded import read_up_to
from toolexpect.logs._base import Context, LogError, Record
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

MAX_LINE_BYTES = 256 << 20
"""The longest line of a JSON Lines log, its line break included (256 MiB)."""

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


def _decode_error(ctx: Context, lineno: int | None) -> LogError:
    return ctx.fatal(
        "R400",
        "log is not UTF-8 text",
        lineno,
        help="re-encode the log as UTF-8",
    )


def _mib(size: int) -> str:
    return f"{size >> 20} MiB" if size % (1 << 20) == 0 else f"{size:,} bytes"


def _line_too_long(ctx: Context, lineno: int) -> LogError:
    return ctx.fatal(
        "R405",
        f"this line of the log is longer than {_mib(MAX_LINE_BYTES)}; reading stopped",
        lineno,
        help="each line of a JSON Lines log is one record; check that the file is a log",
    )


def _sse_payload(raw: bytes) -> bytes | None:
    """The JSON of a server-sent-event line, or ``None`` for lines to skip."""
    stripped = raw.strip()
    if stripped.startswith(b"data:"):
        body = stripped[5:].strip()
        if body == b"[DONE]" or not body:
            return None
        return body
    if stripped.startswith(_SKIP_SSE):
        return None
    return stripped


_SHAPE = bytes(
    0x30 if 0x30 <= byte <= 0x39 else 0x5B if byte in (0x5B, 0x7B) else 0x20 for byte in range(256)
)
"""A line's shape for :func:`read_lines`: digits as ``0``, ``[`` and ``{`` as ``[``, the
rest as spaces."""

_LONG_INTEGER = b"0" * 19
"""19 digits in a row: the shortest integer that may not fit 64 bits."""


def _bracket_limit() -> int:
    """How deep a line decoded by ``orjson`` may nest: half the recursion limit, a depth
    ``json`` reaches too (unless called some hundreds of frames deep)."""
    return min(sys.getrecursionlimit() // 2, 1000)


def _decode(raw: bytes, brackets: int) -> Any:
    """``json.loads(raw)``: the same value, or the same error.

    ``orjson`` decodes the line where it gives what ``json.loads`` gives. The two agree on
    every value both accept (duplicate keys: the last wins, in the first one's place), except
    that ``orjson`` turns an integer beyond 64 bits into a float and nests at most 1,024 deep
    where ``json`` stops at the recursion limit. So a line with a run of 19 digits, or one that
    may nest deeper than ``brackets`` (judged by its length and its count of brackets), goes to
    ``json``, as does every line ``orjson`` refuses (NaN and Infinity, lone surrogates, bytes
    that are not UTF-8, errors), and ``json`` words every error.
    """
    outline = raw.translate(_SHAPE)
    if _LONG_INTEGER not in outline and (len(raw) < 2 * brackets or outline.count(b"[") <= brackets):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


def read_lines(
    path: str, ctx: Context, start: int = 0, stop: int | None = None
) -> Generator[Record, None, int]:
    """The records of the lines of a regular, uncompressed file that begin in bytes ``start``
    to ``stop`` (a block; to the end without ``stop``), numbered from 1 at the block's first
    line; the generator returns how many lines it read.

    A block that starts at byte 0 starts there; any other block starts at the first line start
    after ``start - 1`` (the byte after the first ``\n`` at or after ``start - 1``, so a line
    that begins exactly at ``start`` is this block's). It ends with the line that holds its
    last byte, read to that line's end. Blocks ``[k*B, (k+1)*B)`` of a file thus hold each of
    its lines exactly once; a block in which no line begins holds none.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by lines(); generator lifetime
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    first = 0
    if start:
        try:
            handle.seek(start - 1)
            while (skipped := handle.readline(1 << 20)) and not skipped.endswith(b"\n"):
                pass
            first = handle.tell()
        except OSError as exc:
            handle.close()
            raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    return lines(handle, ctx, None if stop is None else max(0, stop - first), bom=not first)


def lines(
    handle: IO[bytes], ctx: Context, size: int | None = None, bom: bool = True
) -> Generator[Record, None, int]:
    """The records of the lines of ``handle`` that begin in its next ``size`` bytes (all of
    them by default), numbered from 1; returns how many lines were read (blank and malformed
    ones included); closes ``handle`` at the end."""
    brackets = _bracket_limit()
    longest = MAX_LINE_BYTES
    lineno = 0
    try:
        left = size
        while left is None or left > 0:
            raw = handle.readline(longest + 1)
            if not raw:
                break
            if len(raw) > longest:
                raise _line_too_long(ctx, lineno + 1)
            if left is not None:
                left -= len(raw)
            lineno += 1
            line = raw
            first = raw[:1]
            if first != b"{" and first != b"[":
                if not raw.strip():
                    continue
                if lineno == 1 and bom and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                body = _sse_payload(raw)
                if body is None:
                    continue
                raw = body
            try:
                value = _decode(raw, brackets)
            except UnicodeDecodeError:
                raise _decode_error(ctx, lineno) from None
            except (ValueError, RecursionError) as exc:
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise _decode_error(ctx, lineno) from None
                reason, column = _json_error(exc, line, raw)
                valid = isinstance(exc, ValueError) and not isinstance(exc, json.JSONDecodeError)
                what = "cannot be read" if valid else "is not valid JSON"
                ctx.report(
                    "R401",
                    f"this line {what} ({reason}); it was skipped",
                    lineno,
                    help="write such a number as a string in the log"
                    if valid and reason.startswith("an integer of")
                    else "each line of a JSON Lines log must be one JSON value",
                    column=column,
                )
                continue
            yield (lineno, value)
        return lineno
    except OSError as exc:
        # At the line being read when the stream failed (a compressed log cut short).
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", lineno + 1) from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _huge_integer(text: str) -> tuple[str, int] | None:
    """The reason and offset of an integer in ``text`` longer than Python reads from text
    (``sys.get_int_max_str_digits()``, 4,300 digits by default), if there is one."""
    limit = sys.get_int_max_str_digits()
    if limit == 0:
        return None
    found = re.search(rf"\d{{{limit + 1},}}", text)
    if found is None:
        return None
    return f"an integer of {len(found.group()):,} digits; at most {limit:,} digits are read", found.start()


def _json_error(exc: BaseException, line: bytes, body: bytes) -> tuple[str, int]:
    """json's reason for refusing ``body`` and the column of ``line`` where it stopped (the
    body may stand after a ``data:`` prefix or a byte order mark); column 1 when unknown."""
    offset = max(line.find(body), 0)
    if not isinstance(exc, json.JSONDecodeError):
        text = line.decode("utf-8", "replace").lstrip("\ufeff")
        huge = _huge_integer(text) if isinstance(exc, ValueError) else None
        return (_short(exc), 1) if huge is None else (huge[0], huge[1] + 1)
    before = line[:offset].decode("utf-8", "replace").lstrip("\ufeff")
    # json counts its own lines; a record ends at the line's end (a cut record: just after it).
    content = len(body.decode("utf-8", "replace").rstrip("\r\n"))
    return exc.msg, len(before) + min(exc.pos, content) + 1


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def open_source(path: str | os.PathLike[str], ctx: Context) -> Source:
    """Open ``path`` (``-``: standard input) once and decide between a stream of records
    (JSON Lines, values back to back) and one JSON document."""
    name = os.fspath(path)
    inner, reopenable = open_stream(name, ctx)
    try:
        head = read_up_to(inner, _PROBE)
    except (OSError, EOFError, ValueError) as exc:
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
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
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
