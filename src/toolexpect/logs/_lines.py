"""JSON Lines read line by line: each line bounded, decoded, and numbered; a block of a file.

A line is at most :data:`MAX_LINE_BYTES` (``R405`` beyond). Lines are decoded by ``orjson``
where it gives exactly what ``json.loads`` gives (see :func:`_decode`), else by ``json``, which
also words every error (``R401``, and reading goes on). Server-sent-event captures
(``data: {...}`` lines) are read as JSON Lines too. :func:`read_lines` reads the lines that
begin in a block of a regular file (``score -j``, ``score --dask``: ``toolexpect.scale.blocks``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Generator
from typing import IO, Any

import orjson

from toolexpect.logs._base import Context, LogError, Record
from toolexpect.logs.streams import Shrank, shrank

__all__ = ["MAX_LINE_BYTES", "lines", "read_failed", "read_lines"]

_SKIP_SSE = (b"event:", b"id:", b"retry:", b":")

MAX_LINE_BYTES = 256 << 20
"""The longest line of a JSON Lines log, its line break included (256 MiB)."""


def _decode_error(ctx: Context, lineno: int | None) -> LogError:
    return ctx.fatal(
        "R400",
        "log is not UTF-8 text",
        lineno,
        help="re-encode the log as UTF-8",
    )


def read_failed(ctx: Context, exc: OSError, lineno: int | None) -> LogError:
    """The error of a log whose reading failed at ``lineno``: ``R406`` for a log that shrank
    while it was read (:class:`~toolexpect.logs.streams.Shrank`), else ``R400``."""
    if isinstance(exc, Shrank):
        return ctx.fatal(
            "R406",
            str(exc),
            lineno,
            help="score a log once it is complete: rotate logs by renaming them (logrotate's "
            "default, not copytruncate), or score the rotated copy",
        )
    return ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", lineno)


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
    its lines exactly once; a block in which no line begins holds none. A file that ends before
    ``stop`` shrank since it was cut into blocks (``R406``).
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
    size = None if stop is None else max(0, stop - first)
    return lines(handle, ctx, size, bom=not first, start=first)


def lines(
    handle: IO[bytes], ctx: Context, size: int | None = None, bom: bool = True, start: int = 0
) -> Generator[Record, None, int]:
    """The records of the lines of ``handle`` that begin in its next ``size`` bytes (all of
    them by default), numbered from 1; returns how many lines were read (blank and malformed
    ones included); closes ``handle`` at the end. A stream that ends before ``size`` bytes is
    a file that shrank while it was read (``R406``; ``start``: where ``handle`` stands in it)."""
    brackets = _bracket_limit()
    longest = MAX_LINE_BYTES
    lineno = 0
    try:
        left = size
        while left is None or left > 0:
            raw = handle.readline(longest + 1)
            if not raw:
                if size is not None and left is not None:  # a block cut when the log was longer
                    raise shrank(start + size, start + size - left, "at least when it was cut into blocks")
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
                ctx.refused()
                continue
            yield (lineno, value)
        return lineno
    except OSError as exc:
        # At the line being read when the stream failed (a compressed log cut short).
        raise read_failed(ctx, exc, lineno + 1) from None
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
