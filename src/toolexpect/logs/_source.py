"""Reading a log file into decoded records: JSON Lines line by line, or one JSON document.

A file whose first non-blank line is a complete JSON value is read as JSON Lines, lazily,
one line at a time (bounded memory). Otherwise the whole file is one JSON document.
Server-sent-event captures (``data: {...}`` lines) are read as JSON Lines too.

What is read is bounded whatever the file claims to hold: a line of JSON Lines at most
:data:`MAX_LINE_BYTES`, a whole JSON document at most :data:`MAX_DOCUMENT_BYTES` (``R405``
beyond). Only regular files are read (a log is read more than once: to detect its format,
then to score it), so a FIFO or a device is refused before it is opened (``R400``).

Lines are decoded by ``orjson`` where it gives exactly what ``json.loads`` gives (see
:func:`_decode`), else by ``json``, which also words every error.
"""

from __future__ import annotations

import functools
import json
import os
import stat
import sys
from collections.abc import Iterator
from typing import Any

import orjson

from toolexpect.logs._base import Context, LogError, Record

__all__ = ["MAX_DOCUMENT_BYTES", "MAX_LINE_BYTES", "Source", "open_source", "read_lines"]

MAX_LINE_BYTES = 256 << 20
"""The longest line of a JSON Lines log, its line break included (256 MiB)."""

MAX_DOCUMENT_BYTES = 256 << 20
"""The largest log read as one JSON document (256 MiB); JSON Lines logs have no total limit."""

_PROBE = 1 << 16
_SKIP_SSE = (b"event:", b"id:", b"retry:", b":")


class Source:
    """The decoded records of one file, and whether it is line-based."""

    def __init__(self, path: str, ctx: Context, lines: bool, document: Any = None) -> None:
        self.path = path
        self.ctx = ctx
        self.lines = lines
        self.document = document

    def records(self) -> Iterator[Record]:
        """Decoded records; a malformed line is an R401 and reading goes on."""
        if not self.lines:
            yield (1, self.document)
            return
        yield from read_lines(self.path, self.ctx)


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
        f"line {lineno} of the log is longer than {_mib(MAX_LINE_BYTES)}; reading stopped",
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
    path: str, ctx: Context, start: int = 0, stop: int | None = None, first_line: int = 1
) -> Iterator[Record]:
    """The records of the lines in bytes ``start`` to ``stop`` (line boundaries), numbered
    from ``first_line``."""
    brackets = _bracket_limit()
    longest = MAX_LINE_BYTES
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed in finally; generator lifetime
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    try:
        if start:
            handle.seek(start)
        bounded = stop is not None
        left = stop - start if stop is not None else 0
        lineno = first_line - 1
        for raw in iter(functools.partial(handle.readline, longest + 1), b""):
            if len(raw) > longest:
                raise _line_too_long(ctx, lineno + 1)
            if bounded:
                if left <= 0:
                    break
                left -= len(raw)
            lineno += 1
            line = raw
            first = raw[:1]
            if first != b"{" and first != b"[":
                if not raw.strip():
                    continue
                if lineno == 1 and not start and raw.startswith(b"\xef\xbb\xbf"):
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
                ctx.report(
                    "R401",
                    f"line {lineno} is not valid JSON ({reason}); line skipped",
                    lineno,
                    help="each line of a JSON Lines log must be one JSON value",
                    column=column,
                )
                continue
            yield (lineno, value)
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    finally:
        handle.close()


def _json_error(exc: BaseException, line: bytes, body: bytes) -> tuple[str, int]:
    """json's reason for refusing ``body`` and the column of ``line`` where it stopped (the
    body may stand after a ``data:`` prefix or a byte order mark); column 1 when unknown."""
    if not isinstance(exc, json.JSONDecodeError):
        return _short(exc), 1
    offset = max(line.find(body), 0)
    before = line[:offset].decode("utf-8", "replace").lstrip("\ufeff")
    # json counts its own lines; a record ends at the line's end (a cut record: just after it).
    content = len(body.decode("utf-8", "replace").rstrip("\r\n"))
    return exc.msg, len(before) + min(exc.pos, content) + 1


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def open_source(path: str | os.PathLike[str], ctx: Context) -> Source:
    """Probe ``path`` and decide between JSON Lines and one JSON document."""
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    except ValueError as exc:  # e.g. an embedded NUL in the path
        raise ctx.fatal("R400", f"cannot read log: {exc}", None) from None
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise ctx.fatal(
            "R400",
            "cannot read log: not a regular file (a pipe, a device or a socket)",
            None,
            help="save the log to a file first: a log is read more than once",
        )
    try:
        with open(name, "rb") as handle:
            head = handle.read(_PROBE)
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    except ValueError as exc:  # e.g. an embedded NUL in the path
        raise ctx.fatal("R400", f"cannot read log: {exc}", None) from None
    _check_utf8(head, size, ctx)
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
        return Source(name, ctx, lines=True)
    # Not line-based: one JSON document (pretty-printed), else lines with errors.
    try:
        with open(name, "rb") as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
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
    try:
        document = json.loads(whole.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        if "\n" in whole.strip():
            return Source(name, ctx, lines=True)
        raise ctx.fatal(
            "R401",
            f"log is not valid JSON ({exc.msg})",
            exc.lineno,
            help="a log is one JSON document or JSON Lines",
            column=exc.colno,
        ) from None
    except (ValueError, RecursionError) as exc:
        raise ctx.fatal("R401", f"log is not valid JSON ({_short(exc)})", None) from None
    return Source(name, ctx, lines=False, document=document)


def _check_utf8(head: bytes, size: int, ctx: Context) -> None:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        truncated = (
            len(head) < size
            and exc.start >= len(head) - 3
            and exc.reason.startswith("unexpected end")
        )
        if not truncated:
            line = head.count(b"\n", 0, exc.start) + 1
            raise _decode_error(ctx, line) from None
