"""JSON spec files read with the standard ``json`` module; a light tokenizer gives each key
and value its place."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.document import Repeat
from toolexpect.language.layout import MAX_DEPTH
from toolexpect.language.strings import MAX_INT_DIGITS, underflows
from toolexpect.lines import LineIndex
from toolexpect.specfiles.located import DOCUMENT_DEPTH, Located, PathKey, bad_number

__all__ = ["read_json"]

_TOKEN = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<punct>[{}\[\],:])'
    r"|(?P<atom>-?[0-9][0-9eE.+\-]*|true|false|null|NaN|-?Infinity)"
)


def _json_error(error: json.JSONDecodeError) -> Diagnostic:
    return make(
        "P108",
        f"invalid JSON: {error.msg}",
        Span.point(error.lineno, error.colno),
        help='fix the JSON syntax at this place; a JSON spec is one object with a "cases" list',
    )


class _BadNumber(ValueError):
    """A number literal the language cannot hold, raised while ``json`` reads it."""

    def __init__(self, literal: str, kind: str) -> None:
        super().__init__(literal)
        self.literal = literal
        self.kind = kind


def _json_int(literal: str) -> int:
    if len(literal) - literal.startswith("-") > MAX_INT_DIGITS:
        raise _BadNumber(literal, "integer")
    return int(literal)


def _json_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise _BadNumber(literal, "float")
    if underflows(literal, value):
        raise _BadNumber(literal, "underflow")
    return value


def _json_constant(name: str) -> Any:
    raise _BadNumber(name, "constant")


def read_json(text: str) -> Located:
    """Read a JSON spec; on bad JSON the result has no document and a P108 diagnostic."""
    if text.startswith("\ufeff"):
        text = text[1:]
    depth_error = _json_depth(text)
    if depth_error is not None:
        return Located(None, diagnostics=[depth_error])
    try:
        document = json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except json.JSONDecodeError as error:
        return Located(None, diagnostics=[_json_error(error)])
    except _BadNumber as bad:
        return Located(None, diagnostics=[_nan_or_huge(text, bad)])
    located = Located(document)
    _index_json(text, located)
    return located


def _nan_or_huge(text: str, bad: _BadNumber) -> Diagnostic:
    """The diagnostic of ``bad``, placed where it is first written outside a string."""
    literal = bad.literal
    lines = LineIndex(text)
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "atom" and match.group() == literal:
            line, column = lines.position(match.start())
            span = Span(line, column, line, column + len(literal))
            if literal.lstrip("-") in ("NaN", "Infinity"):
                return make(
                    "P110",
                    f"{literal} is not a JSON number",
                    span,
                    help="write finite numbers; JSON has no NaN or Infinity",
                )
            return bad_number(literal, bad.kind, span)
    return bad_number(literal, bad.kind, None)


def _json_depth(text: str) -> Diagnostic | None:
    depth = 0
    in_string = False
    escaped = False
    line, column = 1, 0
    for ch in text:
        column += 1
        if ch == "\n":
            line, column = line + 1, 0
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > DOCUMENT_DEPTH:
                return make(
                    "P104",
                    f"values nest deeper than {MAX_DEPTH} levels",
                    Span.point(line, column),
                    help=f"flatten the value; toolexpect reads at most {MAX_DEPTH} levels of [] and {{}}",
                )
        elif ch in "]}":
            depth -= 1
    return None


def _index_json(text: str, located: Located) -> None:
    lines = LineIndex(text)

    def span(start: int, end: int) -> Span:
        line, column = lines.position(start)
        end_line, end_column = lines.position(end)
        return Span(line, column, end_line, end_column)

    # Each frame: [kind, path, next index or pending key, start offset]
    stack: list[list[Any]] = []
    pos = 0
    expecting_key = False
    pending_key: str | None = None

    def value_path() -> PathKey:
        if not stack:
            return ()
        frame = stack[-1]
        if frame[0] == "list":
            return (*frame[1], frame[2])
        return (*frame[1], pending_key if pending_key is not None else "")

    for match in _TOKEN.finditer(text, pos):
        kind = match.lastgroup
        if kind == "ws":
            continue
        token = match.group()
        start, end = match.start(), match.end()
        if kind == "punct":
            if token in "{[":
                path = value_path()
                stack.append(["dict" if token == "{" else "list", path, 0, start])
                expecting_key = token == "{"
            elif token in "}]":
                frame = stack.pop()
                located.spans[frame[1]] = span(frame[3], end)
                if stack and stack[-1][0] == "list":
                    stack[-1][2] += 1
                expecting_key = False
            elif token == ",":
                expecting_key = bool(stack) and stack[-1][0] == "dict"
            elif token == ":":
                expecting_key = False
            continue
        if expecting_key and kind == "string":
            pending_key = json.loads(token)
            assert stack
            where = (*stack[-1][1], pending_key)
            here = span(start, end)
            if where in located.keys:
                located.repeats.append(Repeat("key", pending_key, here, located.keys[where]))
            else:
                located.keys[where] = here
            continue
        path = value_path()
        located.spans[path] = span(start, end)
        if stack and stack[-1][0] == "list":
            stack[-1][2] += 1
