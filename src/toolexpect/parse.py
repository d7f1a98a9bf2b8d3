"""Text to document: parse ``.expect`` source into the canonical JSON document.

Lark's errors become diagnostics here, with the place and, in words, what was expected.
The document is plain JSON data (dicts, lists, str, int, float, bool, None) with a span
for every case, statement and argument; comments are returned beside it for ``format``.
"""

from __future__ import annotations

import builtins
import difflib
import functools
import json
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolexpect import __version__, _tables
from toolexpect._grammar import (
    COMMENTS,
    MAX_DEPTH,
    DepthError,
    OneLoop,
    Token,
    Unsure,
    build,
    grammar_text,
    new_token,
)
from toolexpect.diagnostics import Diagnostic, Span, make

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

__all__ = ["DOCUMENT_VERSION", "Comment", "ParseResult", "parse_text"]

DOCUMENT_VERSION = 1
"""The version of the canonical document format that this parser writes."""


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment of the source, kept for ``format``: its text (from ``#``) and place."""

    text: str
    line: int
    column: int


@dataclass(slots=True)
class ParseResult:
    """What parsing gave: the document (``None`` on a syntax error) and what was found."""

    document: dict[str, Any] | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)


class _Problem(Exception):
    """Raised inside the transformer to turn a well-formed but invalid token into a diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


_DISPLAY: dict[str, str] = {
    "LPAR": '"("',
    "RPAR": '")"',
    "LSQB": '"["',
    "RSQB": '"]"',
    "LBRACE": '"{"',
    "RBRACE": '"}"',
    "COMMA": '","',
    "COLON": '":"',
    "SEMICOLON": '";"',
    "EQUAL": '"="',
    "TILDE": '"~"',
    "QMARK": '"?"',
    "GE": '">="',
    "GT": '">"',
    "LE": '"<="',
    "LT": '"<"',
    "PLUSMINUS": '"+-"',
    "ELLIPSIS": '"..."',
    "NAME": "a name",
    "KEY": "an object key",
    "STRING": "a string",
    "NUMBER": "a number",
    "_NL": "a new line",
    "$END": "end of input",
}
_ORDER = list(_DISPLAY)

_STATEMENT_WORDS = ("case", "expect", "forbid", "question", "require")
_REQUIRE_FORMS = (
    "require accuracy >= 0.8",
    "require no unexpected calls",
    "require no tool calls",
    "require order",
    "require pass rate >= 0.8",
)


def _display(terminal: str) -> str:
    if terminal in _DISPLAY:
        return _DISPLAY[terminal]
    return f'"{terminal.lower()}"'


def _describe_expected(expected: set[str]) -> str:
    names = sorted(
        (t for t in expected if t not in ("SEMICOLON",) or len(expected) == 1),
        key=lambda t: (_ORDER.index(t) if t in _ORDER else -1, t),
    )
    words = [_display(t) for t in names]
    if "_NL" in expected and "SEMICOLON" in expected:
        words = [w for w in words if w != "a new line"] + ["a new line"]
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found(token: Token) -> str:
    if token.type == "$END":
        return "end of input"
    if token.type == "_NL":
        return "end of line"
    if token.type == "STRING":
        return f"the string {token.value}"
    return f'"{token.value}"'


def _help_for(expected: set[str], token: Token) -> str | None:
    word = str(token.value) if token.type != "$END" else ""
    if {"EXPECT", "FORBID", "REQUIRE"} <= expected and token.type in ("NAME", "KEY"):
        close = difflib.get_close_matches(word, _STATEMENT_WORDS, n=1)
        if close:
            return f'did you mean "{close[0]}"?'
        return "a statement starts with case, expect, forbid, question or require"
    if {"ACCURACY", "ORDER"} <= expected:
        return "write one of: " + "; ".join(_REQUIRE_FORMS)
    if "STRING" in expected and "NAME" not in expected and token.type in ("NAME", "KEY"):
        return f'quote text: "{word}"'
    if {"EQUAL", "TILDE", "IN"} <= expected:
        return (
            "give the argument a matcher: name=value, name=any, name in [...], "
            'name ~ "regex", name >= number, or write "not name"'
        )
    if "RPAR" in expected and "COMMA" in expected:
        if token.type in ("NAME", "STRING"):
            return 'separate arguments with ","'
        return 'close the argument list with ")"'
    if "RSQB" in expected and "COMMA" in expected:
        return 'separate list items with "," and close the list with "]"'
    if "RBRACE" in expected and "COMMA" in expected:
        return 'separate object members with "," and close the object with "}"'
    if "RBRACE" in expected and token.type == "$END":
        return 'close the case with "}"'
    if "_NL" in expected and "SEMICOLON" in expected:
        return 'put each statement on its own line, or separate statements with ";"'
    return None


def _end_span(text: str) -> Span:
    """Just after the last character that is not white space: where something is missing."""
    lines = text.rstrip().split("\n")
    line = len(lines)
    column = len(lines[-1].rstrip("\r")) + 1
    return Span.point(line, column)


def _state_accepts(error: UnexpectedInput) -> set[str]:
    """The terminals the parser accepts where ``error`` happened (empty when unknown)."""
    state = getattr(error, "state", None)
    try:
        return set(state.parse_conf.parse_table.states[state.position])  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        return set()


def _unclosed_before(text: str, token: Token, expected: set[str]) -> Span | None:
    """Where a list left open at the end of a line should have been closed.

    Inside (), [] and {} new lines are not statement breaks, so a missing ")" shows only at
    the next line's first token; the caret belongs after the last character written before it.
    """
    if not expected & {"RPAR", "RSQB", "RBRACE"} or token.start_pos is None:
        return None
    if expected & {"EXPECT", "FORBID", "REQUIRE"}:
        return None  # at a statement: the "}" that would do is the case's, not a list's
    end = token.start_pos
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    if "\n" not in text[end : token.start_pos] or end == 0:
        return None
    line_start = text.rfind("\n", 0, end) + 1
    line = text.count("\n", 0, end) + 1
    return Span.point(line, end - line_start + 1)


def _syntax_diagnostic(error: UnexpectedInput, text: str) -> Diagnostic:
    lark = _lark()
    if isinstance(error, lark.UnexpectedToken):
        token = error.token
        expected = set(getattr(error, "accepts", None) or error.expected)
        expected.discard("COMMENT")
        if token.type == "$END":
            return make(
                "P102",
                f"expected {_describe_expected(expected)} before end of input",
                _end_span(text),
                help=_help_for(expected, token),
            )
        length = max(1, len(str(token.value))) if token.type != "_NL" else 1
        span = Span(token.line or 1, token.column or 1, token.line or 1, (token.column or 1) + length)
        unclosed = _unclosed_before(text, token, expected)
        if unclosed is not None:
            return make(
                "P100",
                f"expected {_describe_expected(expected)} at the end of this line; "
                f"the next line goes on with {_found(token)}",
                unclosed,
                help=_help_for(expected, token),
            )
        return make(
            "P100",
            f"expected {_describe_expected(expected)}, found {_found(token)}",
            span,
            help=_help_for(expected, token),
        )
    if isinstance(error, lark.UnexpectedCharacters):
        allowed = set(error.allowed or ())
        allowed.discard("COMMENT")
        accepts = _state_accepts(error)
        if accepts:
            # The contextual lexer also accepts what neighbouring states do (a new line
            # everywhere); name only what the parser takes here.
            allowed = (allowed & accepts) or allowed
        char = error.char
        span = Span.point(error.line, error.column)
        if char in "\"'":
            return make(
                "P101",
                "string is not closed before the end of the line",
                span,
                help=f"close the string with {char}; write a line break inside it as \\n",
            )
        word_match = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[error.pos_in_stream :])
        if word_match:
            word = word_match.group(0)
            end = error.column + len(word)
            at = error.pos_in_stream or 0
            fake = new_token("NAME", word, at, error.line, error.column)
            span = Span(error.line, error.column, error.line, end)
            return make(
                "P100",
                f'expected {_describe_expected(allowed)}, found "{word_match.group(0)}"',
                span,
                help=_help_for(allowed, fake),
            )
        return make(
            "P101",
            f"unexpected character {char!r}; expected {_describe_expected(allowed)}",
            span,
            help=_help_for(allowed, new_token("CHAR", char, 0, error.line, error.column)),
        )
    return make("P100", str(error).splitlines()[0], Span.point(1, 1))  # pragma: no cover


def _span_of(token: Token) -> Span:
    """The span of one token."""
    return Span(token.line or 1, token.column or 1, token.end_line or 1, token.end_column or 1)


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def decode_string(token: Token) -> str:
    """Decode a double- or single-quoted string token with JSON escapes."""
    raw = str(token)
    quote, body = raw[0], raw[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "'" and quote == "'":
            out.append("'")
            i += 2
        elif nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", body[i + 2 : i + 6]):
            code = int(body[i + 2 : i + 6], 16)
            i += 6
            if 0xD800 <= code < 0xDC00 and re.fullmatch(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}", body[i : i + 6]):
                low = int(body[i + 2 : i + 6], 16)
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            elif 0xD800 <= code < 0xE000:
                column = (token.column or 1) + 1 + i - 6
                line = token.line or 1
                raise _Problem(
                    make(
                        "P103",
                        f"escape \\u{code:04x} is half of a surrogate pair without its other half",
                        Span(line, column, line, column + 6),
                        help="write the character itself, or both halves: \\ud83d\\ude00",
                    )
                )
            out.append(chr(code))
        else:
            column = (token.column or 1) + 1 + i
            line = token.line or 1
            raise _Problem(
                make(
                    "P103",
                    f"invalid escape \\{nxt} in string",
                    Span(line, column, line, column + 2),
                    help='use one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
                )
            )
    return "".join(out)


_INTEGER = re.compile(r"-?[0-9]+")


def decode_number(token: Token) -> int | float:
    """Decode a number token: an integer literal stays ``int``, any other is ``float``."""
    raw = str(token)
    if _INTEGER.fullmatch(raw):
        return int(raw)
    value = float(raw)
    if math.isinf(value):
        raise _Problem(
            make(
                "P110",
                f"number {raw} is too large to represent",
                _span_of(token),
                help="use a number within the range of a 64-bit float",
            )
        )
    return value


class _Value:
    """A list or object value while the document is built; ``partial`` when it holds ``...``.

    ``end`` is its closing bracket, where the span of an argument that ends with it ends.
    """

    __slots__ = ("end", "partial", "start", "value")

    def __init__(self, value: Any, partial: bool, start: Token, end: Token) -> None:
        self.value = value
        self.partial = partial
        self.start = start
        self.end = end


_REST = object()


class _Build:
    """What one parse collects beside the document: the problems of well-formed tokens.

    A problem does not stop the parse, so that a syntax error anywhere still wins; the one
    reported is the first in the order the source is read (``key`` is a source offset).
    """

    __slots__ = ("problems",)

    def __init__(self) -> None:
        self.problems: list[tuple[int, Diagnostic]] = []

    def problem(self, key: int, diagnostic: Diagnostic) -> None:
        self.problems.append((key, diagnostic))


_BUILD = _Build()
"""The collector of the parse in progress; ``parse_text`` resets it for every parse."""


def _string(token: Token) -> str:
    try:
        return decode_string(token)
    except _Problem as problem:
        _BUILD.problem(token.start_pos or 0, problem.diagnostic)
        return ""


def _number(token: Token) -> int | float:
    try:
        return decode_number(token)
    except _Problem as problem:
        _BUILD.problem(token.start_pos or 0, problem.diagnostic)
        return 0


def _name(token: Token) -> str:
    """A tool, argument or case name: a bare NAME, or a STRING for names nothing else spells."""
    return _string(token) if token.type == "STRING" else str(token)


_CONSTANTS: dict[str, Any] = {"TRUE": True, "FALSE": False, "NULL": None}


def _value(item: Any) -> Any:
    """The JSON value of a value child: a token of a scalar, or a list or object built already."""
    if type(item) is _Value:
        return item.value
    kind = item.type
    if kind == "STRING":
        return _string(item)
    if kind == "NUMBER":
        return _number(item)
    return _CONSTANTS[kind]


def _span(first: Token, last: Any) -> dict[str, int]:
    """From the start of ``first`` to the end of ``last``: a token, or a value's closing bracket."""
    if type(last) is _Value:
        last = last.end
    if type(last) is Token and "\n" not in last:
        # The one loop's token of one line (most): where it ends, without asking it.
        return {
            "line": first.line or 1,
            "column": first.column or 1,
            "end_line": last.line,
            "end_column": last.column + len(last),
        }
    return {
        "line": first.line or 1,
        "column": first.column or 1,
        "end_line": last.end_line or 1,
        "end_column": last.end_column or 1,
    }


class _Statement:
    """A statement while its case is built: its kind, payload and span."""

    __slots__ = ("first", "kind", "payload", "span")

    def __init__(self, kind: str, payload: Any, span: dict[str, int], first: Token) -> None:
        self.kind = kind
        self.payload = payload
        self.span = span
        self.first = first


def _new_case(name: str, span: dict[str, int], *, implicit: bool = False) -> dict[str, Any]:
    case: dict[str, Any] = {"name": name}
    if implicit:
        case["implicit"] = True
    case["expect"] = []
    case["forbid"] = []
    case["chains"] = []
    case["require"] = []
    case["span"] = span
    return case


def _add(case: dict[str, Any], statement: _Statement) -> None:
    kind = statement.kind
    if kind == "expect":
        calls = statement.payload
        expect = case["expect"]
        start = len(expect)
        expect.extend(calls)
        if len(calls) > 1:
            case["chains"].append(list(range(start, start + len(calls))))
    elif kind == "forbid":
        case["forbid"].append(statement.payload)
    elif kind == "question":
        case["question"] = statement.payload
        case["question_span"] = statement.span
    else:
        case["require"].append(statement.payload)


def passes_through(method: Any) -> Any:
    """Mark a rule's method that returns its one child as it is (lark's loop may skip the call)."""
    method.passes_through = True
    return method


class _Run:
    """The children of a rule that lark inlines into its parent (``_sep``, repetitions)."""

    __slots__ = ("children",)

    def __init__(self, children: list[Any]) -> None:
        self.children = children


class _ToDocument:
    """Builds the document while lark parses: one method per rule or alias of the grammar.

    Lark calls these as it reduces, so no parse tree is built. Scalar values stay tokens
    until the node that holds them is built, which can then read where they end.
    """

    def __default__(self, data: Any, children: builtins.list[Any], meta: Any) -> _Run:
        """Rules without a method are inlined into their parent, which reads only ``children``."""
        return _Run(children)

    # -- values ----------------------------------------------------------------------
    @passes_through
    def string(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def number(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def true(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def false(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def null(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def bare_key(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def bare_name(self, children: builtins.list[Token]) -> Token:
        return children[0]

    @passes_through
    def cmp(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def list(self, children: builtins.list[Any]) -> _Value:
        items: builtins.list[Any] = []
        partial = False
        for child in children[1:-1:2]:
            if type(child) is _Value:
                partial = partial or child.partial
                items.append(child.value)
            else:
                items.append(_value(child))
        return _Value(items, partial, children[0], children[-1])

    def object(self, children: builtins.list[Any]) -> _Value:
        result: dict[str, Any] = {}
        nested = rest = False
        for member in children[1:-1:2]:
            if member is _REST:
                rest = True
                continue
            key, value = member
            if type(value) is _Value:
                nested = nested or value.partial
                result[key] = value.value
            else:
                result[key] = _value(value)
        if rest:
            return _Value({"$partial": result}, True, children[0], children[-1])
        if len(result) == 1 and next(iter(result)) in ("$partial", "$literal"):
            return _Value({"$literal": result}, nested, children[0], children[-1])
        return _Value(result, nested, children[0], children[-1])

    def pair(self, children: builtins.list[Any]) -> tuple[str, Any]:
        key = children[0]
        return (_string(key) if key.type == "STRING" else str(key), children[2])

    def rest(self, _children: builtins.list[Token]) -> builtins.object:
        return _REST

    # -- calls and arguments -----------------------------------------------------------
    def argname(self, children: builtins.list[Token]) -> builtins.list[Token]:
        return children

    def call(self, children: builtins.list[Any]) -> dict[str, Any]:
        first = children[0]
        node: dict[str, Any] = {"tool": _name(first)}
        if len(children) > 3:
            node["args"] = [c for c in children[2:-1] if type(c) is dict]
        node["span"] = _span(first, children[-1])
        return node

    @staticmethod
    def _named(argname: builtins.list[Token], op: str) -> dict[str, Any]:
        return {"name": _name(argname[0]), "op": op}

    @staticmethod
    def _close(node: dict[str, Any], argname: builtins.list[Token], last: Any) -> dict[str, Any]:
        if len(argname) > 1:
            node["optional"] = True
        node["span"] = _span(argname[0], last)
        return node

    def arg_eq(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, value = children
        node = self._named(argname, "eq")
        if type(value) is _Value:
            if value.partial:
                node["op"] = "partial"
            node["value"] = value.value
        else:
            node["value"] = _value(value)
        return self._close(node, argname, value)

    def arg_any(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, word = children
        return self._close(self._named(argname, "any"), argname, word)

    def arg_in(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, values = children
        node = self._named(argname, "in")
        if values.partial:
            # Reported after any problem inside the list, as the list is read first.
            opening, closing = values.start, values.end
            _BUILD.problem(
                closing.start_pos or 0,
                make(
                    "P100",
                    '"..." can only stand in a value after "="',
                    Span(
                        opening.line or 1,
                        opening.column or 1,
                        closing.end_line or 1,
                        closing.end_column or 1,
                    ),
                    help="list whole values after in, or match a partial object with =",
                ),
            )
        node["values"] = values.value
        return self._close(node, argname, values)

    def arg_regex(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, pattern = children
        node = self._named(argname, "regex")
        node["pattern"] = _string(pattern)
        return self._close(node, argname, pattern)

    def arg_cmp(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, operator, number = children
        node = self._named(argname, str(operator))
        node["value"] = _number(number)
        return self._close(node, argname, number)

    def arg_approx(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, centre, _, tolerance = children
        node = self._named(argname, "approx")
        node["value"] = _number(centre)
        node["tolerance"] = _number(tolerance)
        return self._close(node, argname, tolerance)

    def arg_absent(self, children: builtins.list[Token]) -> dict[str, Any]:
        word, name = children
        return {"name": _name(name), "op": "absent", "span": _span(word, name)}

    # -- statements and cases ----------------------------------------------------------
    def expect_stmt(self, children: builtins.list[Any]) -> _Statement:
        calls = children[1::2]
        last = calls[-1]["span"]
        first = children[0]
        span = {
            "line": first.line or 1,
            "column": first.column or 1,
            "end_line": last["end_line"],
            "end_column": last["end_column"],
        }
        return _Statement("expect", calls, span, first)

    def forbid_stmt(self, children: builtins.list[Any]) -> _Statement:
        first, call = children
        last = call["span"]
        span = {
            "line": first.line or 1,
            "column": first.column or 1,
            "end_line": last["end_line"],
            "end_column": last["end_column"],
        }
        return _Statement("forbid", call, span, first)

    def question_stmt(self, children: builtins.list[Token]) -> _Statement:
        first, text = children
        return _Statement("question", _string(text), _span(first, text), first)

    def _threshold(self, kind: str, children: builtins.list[Token]) -> _Statement:
        first, number = children[0], children[-1]
        span = _span(first, number)
        return _Statement("require", {"kind": kind, "threshold": _number(number), "span": span}, span, first)

    def require_accuracy(self, children: builtins.list[Token]) -> _Statement:
        return self._threshold("accuracy", children)

    def require_pass_rate(self, children: builtins.list[Token]) -> _Statement:
        return self._threshold("pass_rate", children)

    @staticmethod
    def _flag(kind: str, children: builtins.list[Token]) -> _Statement:
        span = _span(children[0], children[-1])
        return _Statement("require", {"kind": kind, "span": span}, span, children[0])

    def require_no_unexpected_calls(self, children: builtins.list[Token]) -> _Statement:
        return self._flag("no_unexpected_calls", children)

    def require_no_tool_calls(self, children: builtins.list[Token]) -> _Statement:
        return self._flag("no_tool_calls", children)

    def require_order(self, children: builtins.list[Token]) -> _Statement:
        return self._flag("order", children)

    def case(self, children: builtins.list[Any]) -> dict[str, Any]:
        case = _new_case(_name(children[1]), _span(children[0], children[-1]))
        for child in children[3:-1]:
            if type(child) is _Statement:
                _add(case, child)
        return case

    def start(self, children: builtins.list[Any]) -> builtins.list[Any]:
        return children


_TRANSFORMER = _ToDocument()


def _assemble(items: list[Any], implicit_name: str) -> dict[str, Any]:
    """The document of the top-level items: cases, and loose statements of the implicit case."""
    implicit: dict[str, Any] | None = None
    cases: list[dict[str, Any]] = []
    for item in items:
        if type(item) is dict:
            cases.append(item)
        elif type(item) is _Statement:
            if implicit is None:
                implicit = _new_case(implicit_name, dict(item.span), implicit=True)
            _add(implicit, item)
            implicit["span"] = {
                "line": implicit["span"]["line"],
                "column": implicit["span"]["column"],
                "end_line": item.span["end_line"],
                "end_column": item.span["end_column"],
            }
    if implicit is not None:
        cases.insert(0, implicit)
    for case in cases:
        for key in ("expect", "forbid", "chains", "require"):
            if not case[key]:
                del case[key]
    return {"version": DOCUMENT_VERSION, "cases": cases}


def parse_text(text: str, name: str = "spec") -> ParseResult:
    """Parse ``.expect`` source; ``name`` names the implicit case (the file's stem)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    tokens: list[Token] = []
    comments: list[Comment] = []
    problems: list[tuple[int, Diagnostic]] = []
    _BUILD.problems = problems
    try:
        items = _parse(text, tokens)
    except DepthError as error:
        token = error.token
        return ParseResult(
            None,
            [
                make(
                    "P104",
                    f"values nest deeper than {MAX_DEPTH} levels",
                    _span_of(token),
                    help=f"flatten the value; toolexpect reads at most {MAX_DEPTH} levels of [] and {{}}",
                )
            ],
            comments,
        )
    except _SyntaxError as error:
        return ParseResult(None, [_syntax_diagnostic(error.error, text)], comments)
    finally:
        _BUILD.problems = []
        comments.extend(Comment(str(t.value).rstrip("\r"), t.line or 1, t.column or 1) for t in tokens)
    if problems:
        first = min(problems, key=lambda item: item[0])
        return ParseResult(None, [first[1]], comments)
    return ParseResult(_assemble(items, name), [], comments)


ONE_LOOP = True
"""Parse with :class:`toolexpect._grammar.OneLoop` first; ``False`` leaves every text to lark."""


class _SyntaxError(Exception):
    """Lark's error for a text that does not parse, carried out of :func:`_parse`."""

    def __init__(self, error: UnexpectedInput) -> None:
        super().__init__(str(error))
        self.error = error


class _Lark:
    """Lark's parser of the language, with the document builder embedded, and its errors.

    The error classes are taken when the parser is built, from the same import of lark, so
    that they are the ones its parser raises even if lark is imported again later (pytest's
    ``pytester`` drops the modules a run imported).
    """

    def __init__(self) -> None:
        from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

        self.parser = build(cache=True, transformer=_TRANSFORMER)
        self.UnexpectedInput = UnexpectedInput
        self.UnexpectedToken = UnexpectedToken
        self.UnexpectedCharacters = UnexpectedCharacters


@functools.cache
def _lark() -> _Lark:
    """Lark's parser and errors, made once."""
    return _Lark()


def _parser() -> Lark:
    """The parser of the language with the document builder embedded, built once."""
    return _lark().parser


@functools.cache
def _one_loop() -> OneLoop | None:
    """The one-loop runner of the parser's tables, or ``None`` if lark's are not as expected.

    The tables come from the user's cache when they were made from this grammar (no lark
    import); otherwise they are read off lark's parser and cached.
    """
    grammar = grammar_text()
    path = _tables.tables_path(__version__)
    tables = _tables.load(path, grammar) if path else None
    try:
        if tables is None:
            tables = _tables.extract(_parser(), COMMENTS)
            if path:
                _tables.save(path, grammar, tables)
        return OneLoop(tables, _TRANSFORMER, COMMENTS)
    except (AttributeError, KeyError, TypeError):  # pragma: no cover - another lark
        return None


def _parse(text: str, comments: list[Token]) -> list[Any]:
    COMMENTS.target = comments
    try:
        loop = _one_loop() if ONE_LOOP else None
        if loop is not None:
            try:
                items: list[Any] = loop(text)
                return items
            except Unsure:
                # Parse again with lark, which says what is wrong; forget what was collected.
                comments.clear()
                _BUILD.problems.clear()
        lark = _lark()
        try:
            items = lark.parser.parse(text)  # type: ignore[assignment]
        except lark.UnexpectedInput as error:
            raise _SyntaxError(error) from None
        return items
    finally:
        COMMENTS.target = None


def literal(value: Any) -> str:
    """Write a JSON value as the language spells it (used by ``format``)."""
    return json.dumps(value, ensure_ascii=False)
