"""Text to document: parse ``.expect`` source into the canonical JSON document.

Lark's errors become diagnostics here, with the place and, in words, what was expected.
The document is plain JSON data (dicts, lists, str, int, float, bool, None) with a span
for every case, statement and argument; comments are returned beside it for ``format``.
"""

from __future__ import annotations

import builtins
import difflib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, cast

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from toolexpect._grammar import COMMENTS, MAX_DEPTH, DepthError, parser
from toolexpect.diagnostics import Diagnostic, Span, make

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
    end = token.start_pos
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    if "\n" not in text[end : token.start_pos] or end == 0:
        return None
    line_start = text.rfind("\n", 0, end) + 1
    line = text.count("\n", 0, end) + 1
    return Span.point(line, end - line_start + 1)


def _syntax_diagnostic(error: UnexpectedInput, text: str) -> Diagnostic:
    if isinstance(error, UnexpectedToken):
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
    if isinstance(error, UnexpectedCharacters):
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
            fake = Token("NAME", word_match.group(0), line=error.line, column=error.column)
            span = Span(error.line, error.column, error.line, error.column + len(word_match.group(0)))
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
            help=_help_for(allowed, Token("CHAR", char)),
        )
    return make("P100", str(error).splitlines()[0], Span.point(1, 1))  # pragma: no cover


def _span_of(item: Tree[Any] | Token) -> Span:
    """From the first token of ``item`` to the end of its last.

    Every terminal of the grammar is named, so every subtree keeps its tokens; reading the
    span off them is cheaper than having lark propagate positions to every node.
    """
    first: Any = item
    while isinstance(first, Tree):
        first = first.children[0]
    last: Any = item
    while isinstance(last, Tree):
        last = last.children[-1]
    return Span(first.line or 1, first.column or 1, last.end_line or 1, last.end_column or 1)


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def decode_string(token: Token) -> str:
    """Decode a double- or single-quoted string token with JSON escapes."""
    raw = str(token.value)
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


def decode_number(token: Token) -> int | float:
    """Decode a number token: an integer literal stays ``int``, any other is ``float``."""
    raw = str(token.value)
    if re.fullmatch(r"-?[0-9]+", raw):
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


def _partial_to_json(members: list[Any]) -> dict[str, Any]:
    return {"$partial": dict(members)}


@v_args(inline=True)
class _ToDocument(Transformer[Token, Any]):
    """Tree to document: one method per aliased rule of the grammar."""

    # -- values ----------------------------------------------------------------------
    def string(self, token: Token) -> str:
        return decode_string(token)

    def number(self, token: Token) -> int | float:
        return decode_number(token)

    def true(self, _token: Token) -> bool:
        return True

    def false(self, _token: Token) -> bool:
        return False

    def null(self, _token: Token) -> None:
        return None

    def bare_key(self, token: Token) -> str:
        return str(token.value)

    def bare_name(self, token: Token) -> str:
        return str(token.value)

    @v_args(inline=False)
    def list(self, children: builtins.list[Any]) -> _Value:
        items = [c for c in children if not isinstance(c, Token)]
        return _Value(
            [c.value if isinstance(c, _Value) else c for c in items],
            any(isinstance(c, _Value) and c.partial for c in items),
        )

    @v_args(inline=False)
    def object(self, children: builtins.list[Any]) -> _Value:
        members = [c for c in children if not isinstance(c, Token)]
        partial = any(m is _REST for m in members)
        pairs = [m for m in members if m is not _REST]
        result: dict[str, Any] = {}
        nested = False
        for key, value in pairs:
            if isinstance(value, _Value):
                nested = nested or value.partial
                value = value.value
            result[key] = value
        if partial:
            return _Value({"$partial": result}, True)
        if len(result) == 1 and next(iter(result)) in ("$partial", "$literal"):
            return _Value({"$literal": result}, nested)
        return _Value(result, nested)

    def pair(self, key: str, _colon: Token, value: Any) -> tuple[str, Any]:
        return (key, value)

    def rest(self, _token: Token) -> builtins.object:
        return _REST


@dataclass(slots=True)
class _Value:
    """A list or object value during transformation; ``partial`` when it holds ``...``."""

    value: Any
    partial: bool


_REST = object()


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, _Value) else value


class _Builder:
    """Walks the parse tree of statements and builds the document with spans."""

    def __init__(self, implicit_name: str) -> None:
        self.implicit_name = implicit_name
        self.values = _ToDocument()

    def value(self, tree: Tree[Any] | Token) -> Any:
        return (
            self.values.transform(tree)
            if isinstance(tree, Tree)
            else self.values.transform(Tree("string", [tree]))
        )

    def name(self, item: Tree[Any] | Token) -> str:
        result = self.values.transform(item) if isinstance(item, Tree) else str(item.value)
        return str(result)

    def document(self, tree: Tree[Any]) -> dict[str, Any]:
        implicit: dict[str, Any] | None = None
        cases: list[dict[str, Any]] = []
        for child in tree.children:
            if isinstance(child, Token):
                continue
            if child.data == "case":
                cases.append(self.case(child))
            else:
                if implicit is None:
                    implicit = self.new_case(self.implicit_name, _span_of(child), implicit=True)
                self.statement(implicit, child)
                implicit["span"] = _merge(implicit["span"], _span_of(child))
        if implicit is not None:
            cases.insert(0, implicit)
        for case in cases:
            for key in ("expect", "forbid", "chains", "require"):
                if not case[key]:
                    del case[key]
        return {"version": DOCUMENT_VERSION, "cases": cases}

    @staticmethod
    def new_case(name: str, span: Span, *, implicit: bool = False) -> dict[str, Any]:
        case: dict[str, Any] = {"name": name}
        if implicit:
            case["implicit"] = True
        case.update({"expect": [], "forbid": [], "chains": [], "require": [], "span": span.to_json()})
        return case

    def case(self, tree: Tree[Any]) -> dict[str, Any]:
        name_tree = next(c for c in tree.children if isinstance(c, Tree))
        case = self.new_case(self.name(name_tree), _span_of(tree))
        for child in tree.children:
            if isinstance(child, Tree) and child is not name_tree:
                self.statement(case, child)
        return case

    def statement(self, case: dict[str, Any], tree: Tree[Any]) -> None:
        kind = tree.data
        span = _span_of(tree).to_json()
        if kind == "expect_stmt":
            calls = [self.call(c) for c in tree.children if isinstance(c, Tree)]
            start = len(case["expect"])
            case["expect"].extend(calls)
            if len(calls) > 1:
                case["chains"].append(list(range(start, start + len(calls))))
        elif kind == "forbid_stmt":
            case["forbid"].append(self.call(next(c for c in tree.children if isinstance(c, Tree))))
        elif kind == "question_stmt":
            case["question"] = self.name(next(c for c in tree.children if isinstance(c, Tree)))
            case["question_span"] = span
        elif kind in ("require_accuracy", "require_pass_rate"):
            number = next(c for c in tree.children if isinstance(c, Tree))
            case["require"].append(
                {
                    "kind": "accuracy" if kind == "require_accuracy" else "pass_rate",
                    "threshold": self.values.transform(number),
                    "span": span,
                }
            )
        else:
            flag = kind.removeprefix("require_")
            case["require"].append({"kind": flag, "span": span})

    def call(self, tree: Tree[Any]) -> dict[str, Any]:
        children = [c for c in tree.children if isinstance(c, Tree) or c.type in ("NAME", "STRING")]
        tool = self.name(children[0])
        args = [self.arg(a) for a in children[1:]]
        node: dict[str, Any] = {"tool": tool}
        if args:
            node["args"] = args
        node["span"] = _span_of(tree).to_json()
        return node

    def arg(self, tree: Tree[Any]) -> dict[str, Any]:
        kind = tree.data
        parts = [c for c in tree.children]
        node: dict[str, Any] = {}
        if kind == "arg_absent":
            node["name"] = self.name(parts[1])
            node["op"] = "absent"
        else:
            argname = parts[0]
            node["name"] = self.name(argname.children[0])
            optional = any(isinstance(c, Token) and c.type == "QMARK" for c in argname.children)
            if kind == "arg_eq":
                value = self.values.transform(parts[2]) if isinstance(parts[2], Tree) else parts[2]
                node["op"] = "partial" if isinstance(value, _Value) and value.partial else "eq"
                node["value"] = _plain(value)
            elif kind == "arg_any":
                node["op"] = "any"
            elif kind == "arg_in":
                values = self.values.transform(parts[2])
                if values.partial:
                    raise _Problem(
                        make(
                            "P100",
                            '"..." can only stand in a value after "="',
                            _span_of(parts[2]),
                            help="list whole values after in, or match a partial object with =",
                        )
                    )
                node["op"] = "in"
                node["values"] = values.value
            elif kind == "arg_regex":
                node["op"] = "regex"
                node["pattern"] = self.values.transform(parts[2])
            elif kind == "arg_cmp":
                operator = cast(Token, parts[1].children[0])
                node["op"] = str(operator.value)
                node["value"] = self.values.transform(parts[2])
            elif kind == "arg_approx":
                node["op"] = "approx"
                node["value"] = self.values.transform(parts[2])
                node["tolerance"] = self.values.transform(parts[4])
            if optional:
                node["optional"] = True
        node["span"] = _span_of(tree).to_json()
        return node


def _merge(first: dict[str, int], second: Span) -> dict[str, int]:
    return {
        "line": first["line"],
        "column": first["column"],
        "end_line": second.end_line,
        "end_column": second.end_column,
    }


def parse_text(text: str, name: str = "spec") -> ParseResult:
    """Parse ``.expect`` source; ``name`` names the implicit case (the file's stem)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    tokens: list[Token] = []
    comments: list[Comment] = []
    try:
        tree = _parse(text, tokens)
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
    except UnexpectedInput as error:
        return ParseResult(None, [_syntax_diagnostic(error, text)], comments)
    finally:
        comments.extend(Comment(str(t.value).rstrip("\r"), t.line or 1, t.column or 1) for t in tokens)
    try:
        document = _Builder(name).document(tree)
    except _Problem as problem:
        return ParseResult(None, [problem.diagnostic], comments)
    except VisitError as error:
        if isinstance(error.orig_exc, _Problem):
            return ParseResult(None, [error.orig_exc.diagnostic], comments)
        raise
    return ParseResult(document, [], comments)


def _parse(text: str, comments: list[Token]) -> Tree[Any]:
    lark = parser()
    COMMENTS.target = comments
    try:
        tree: Tree[Any] = lark.parse(text)
        return tree
    finally:
        COMMENTS.target = None


def literal(value: Any) -> str:
    """Write a JSON value as the language spells it (used by ``format``)."""
    return json.dumps(value, ensure_ascii=False)
