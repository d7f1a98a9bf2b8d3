"""JSON documents written back to back in one text: a stream of values, with their lines.

SDKs' ``to_json()`` appended once per response, or OpenTelemetry's ``ConsoleSpanExporter``,
write pretty-printed objects one after another. Each value is decoded in turn with
``json.JSONDecoder.raw_decode``; its record carries the line it starts on. A value that is
not valid JSON is an ``R401`` at its line and column, and reading goes on at the next line
that starts with ``{`` or ``[`` (where the next pretty-printed document starts).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from toolexpect.diagnostics import Span, make
from toolexpect.logs._base import Context, Record

__all__ = ["concatenated", "values"]

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in _SPACE:
        index += 1
    return index


def concatenated(text: str) -> bool:
    """Whether ``text`` starts with a complete JSON value that other text follows."""
    start = _skip_space(text, 0)
    try:
        _, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return False
    return _skip_space(text, end) < len(text)


def _next_start(text: str, index: int) -> int:
    """The index of the next line starting with ``{`` or ``[`` after ``index``, or the end."""
    while True:
        index = text.find("\n", index)
        if index < 0:
            return len(text)
        index += 1
        if text[index : index + 1] in ("{", "["):
            return index


def values(text: str, ctx: Context) -> Iterator[Record]:
    """The values of ``text`` in order, each with the line it starts on."""
    index = _skip_space(text, 0)
    line = text.count("\n", 0, index) + 1
    while index < len(text):
        try:
            value, end = _DECODER.raw_decode(text, index)
        except json.JSONDecodeError as exc:
            ctx.diagnostics.append(
                make(
                    "R401",
                    f"the JSON value at line {line} is not valid JSON ({exc.msg} at line "
                    f"{exc.lineno}, column {exc.colno}); value skipped",
                    Span.point(exc.lineno, exc.colno),
                    help="a log of concatenated JSON documents holds one complete value after another",
                    path=ctx.path,
                )
            )
            ctx.refused()
            end = _next_start(text, exc.pos)
            value = None
        except RecursionError:
            ctx.report("R401", f"the JSON value at line {line} is nested too deeply; value skipped", line)
            ctx.refused()
            end = _next_start(text, index)
            value = None
        else:
            yield (line, value)
        following = _skip_space(text, end)
        line += text.count("\n", index, following)
        index = following
