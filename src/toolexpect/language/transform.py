"""Parse results to the canonical document: lark's Transformer, run as lark parses.

The transformer is embedded in the parser (``Lark(..., transformer=ToDocument())``), so lark
calls one method per rule or alias as it reduces and no parse tree is built. It holds no
state: a problem of a well-formed token (a bad escape, a number too large) goes to the parse
in progress (:mod:`toolexpect.language.context`), and the parse goes on, so that a syntax
error anywhere still wins.
"""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import Any, NamedTuple

from lark import Token, Transformer

from toolexpect.diagnostics import Span, make
from toolexpect.document import Repeat
from toolexpect.language.context import problem as _problem
from toolexpect.language.context import repeat as _repeat
from toolexpect.language.pieces import (
    REST,
    Entry,
    Items,
    Members,
    Value,
    name_of,
    number_of,
    span_between,
    string_of,
    value_of,
)
from toolexpect.language.strings import Problem, decode_string

__all__ = ["DOCUMENT_VERSION", "ToDocument", "assemble"]

DOCUMENT_VERSION = 1
"""The version of the canonical document format that this parser writes."""


_PATTERN_HELP = (
    'in a pattern, write a raw string, where a backslash is itself: r"\\d+"; '
    'or double each backslash: "\\\\d+"'
)
"""The help of a bad escape in a regular expression (``~ "\\d+"``)."""


class _Statement(NamedTuple):
    """A statement while its case is built: its kind, payload and span."""

    kind: str
    payload: Any
    span: dict[str, int]


def _new_case(name: str, span: dict[str, int], *, implicit: bool = False) -> dict[str, Any]:
    case: dict[str, Any] = {"name": name}
    if implicit:
        case["implicit"] = True
    case["expect"] = []
    case["forbid"] = []
    case["allow"] = []
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
    elif kind == "allow":
        case["allow"].append(statement.payload)
    elif kind == "question":
        if "question" in case:  # the document holds one: lint reports the repeat
            _repeat(
                Repeat(
                    "question",
                    case["name"],
                    Span.from_json(statement.span),
                    Span.from_json(case["question_span"]),
                )
            )
        case["question"] = statement.payload
        case["question_span"] = statement.span
    else:
        case["require"].append(statement.payload)


_MARKS = ("$partial", "$literal", "$match")
"""The keys that mark an object of the document; an object whose only key is one is wrapped
as ``{"$literal": …}``, so that it means itself."""


def _matched_key(members: Members) -> bool:
    """True when the one key of an object holds matchers, not a value (``{"$match" ~ "x"}``)."""
    ((key, value),) = members.values.items()
    return key in members.nested and type(value) is dict and type(value.get("$match")) is list


def _pattern_of(token: Token) -> str:
    """The text of a regular expression's STRING token; a bad escape gets the pattern's help."""
    try:
        return decode_string(token)
    except Problem as bad:
        _problem(token.start_pos or 0, replace(bad.diagnostic, help=_PATTERN_HELP))
        return ""


def _choices_only(values: Value) -> None:
    """Note a ``...`` or a matcher inside the list of ``in``, which takes whole values only.

    A ``...`` or a matcher that a repeated key drops counts too (lint reports the repeat
    besides); noted after any problem inside the list, as the list is read first.
    """
    if not (values.dotted or values.matched):
        return
    opening, closing = values.start, values.end
    span = Span(opening.line or 1, opening.column or 1, closing.end_line or 1, closing.end_column or 1)
    if values.dotted:
        found = make(
            "P100",
            '"..." can only stand in a value after "="',
            span,
            help="list whole values after in, or match a partial object with =",
        )
    else:
        found = make(
            "P100",
            'a matcher inside a value can only stand after "=", "!=" or "contains"',
            span,
            help='list whole values after in; match the key with "=" instead: x={key ~ "..."}',
        )
    _problem(closing.start_pos or 0, found)


class _Run(NamedTuple):
    """The children of a rule that lark inlines into its parent (``_sep``, repetitions)."""

    children: list[Any]


class ToDocument(Transformer[Token, list[Any]]):
    """One method per rule or alias of the grammar; the start rule gives the top-level items.

    Scalar values stay tokens until the node that holds them is built, which can then read
    where they end. :func:`assemble` makes the document of the items.
    """

    def __default__(self, data: Any, children: builtins.list[Any], meta: Any) -> _Run:
        """Rules without a method are inlined into their parent, which reads only ``children``."""
        return _Run(children)

    # -- values ----------------------------------------------------------------------
    def string(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def number(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def true(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def false(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def null(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def bare_key(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def bare_name(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def cmp(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def below(self, children: builtins.list[Token]) -> Token:
        return children[0]

    def at_least(self, children: builtins.list[Token]) -> Token:
        return children[0]

    # A list, an object or an argument list is folded as lark reduces each item of it
    # (``items: items COMMA value``), so that only values are kept, never the tokens.
    def items_first(self, children: builtins.list[Any]) -> Items:
        items = Items()
        items.add(children[0])
        return items

    def items_more(self, children: builtins.list[Any]) -> Items:
        items: Items = children[0]
        items.add(children[2])
        return items

    def list(self, children: builtins.list[Any]) -> Value:
        folded = children[1] if len(children) > 2 else None
        if folded is None:
            return Value([], False, children[0], children[-1], False)
        return Value(folded.values, folded.partial, children[0], children[-1], folded.dotted, folded.matched)

    def members_first(self, children: builtins.list[Any]) -> Members:
        members = Members()
        members.add(children[0])
        return members

    def members_more(self, children: builtins.list[Any]) -> Members:
        members: Members = children[0]
        members.add(children[2])
        return members

    def object(self, children: builtins.list[Any]) -> Value:
        folded: Members | None = children[1] if len(children) > 2 else None
        if folded is None:
            return Value({}, False, children[0], children[-1], False)
        result = folded.values
        start, end, matched = children[0], children[-1], folded.matched
        if folded.rest:
            return Value({"$partial": result}, True, start, end, True, matched)
        if len(result) == 1 and next(iter(result)) in _MARKS and _matched_key(folded):
            if next(iter(result)) != "$match":  # {"$partial" ~ "x"}: the document cannot say it
                _problem(
                    end.start_pos or 0,
                    make(
                        "P100",
                        f"the only key of an object cannot be {next(iter(result))} with matchers",
                        Span(start.line or 1, start.column or 1, end.end_line or 1, end.end_column or 1),
                        help='add "..." or another key to the object',
                    ),
                )
        elif len(result) == 1 and next(iter(result)) in _MARKS:
            return Value({"$literal": result}, folded.partial, start, end, folded.dotted, matched)
        return Value(result, folded.partial, start, end, folded.dotted, matched)

    def keyname(self, children: builtins.list[Token]) -> builtins.list[Token]:
        return children

    def pair(self, children: builtins.list[Any]) -> tuple[str, Any, Token] | Entry:
        keyname, _, value = children
        if type(keyname) is not builtins.list:  # the key "not", written bare
            return ("not", value, keyname)
        key = keyname[0]
        if len(keyname) > 1:  # `key?: value`: absent, or present and equal
            partial = type(value) is Value and value.partial
            node = {"op": "partial" if partial else "eq", "value": value_of(value)}
            return self._entry(keyname, node, value)
        return (string_of(key) if key.type == "STRING" else str(key), value, key)

    def rest(self, _children: builtins.list[Token]) -> builtins.object:
        return REST

    # -- matchers inside values: the forms of an argument, on a key ------------------------
    @staticmethod
    def _entry(keyname: builtins.list[Token], node: dict[str, Any], last: Any) -> Entry:
        """A matcher entry of one node; ``keyname`` is the key and its ``?``."""
        key = keyname[0]
        if len(keyname) > 1:
            node["optional"] = True
        node["span"] = span_between(key, last)
        dotted = type(last) is Value and last.dotted
        return Entry(string_of(key) if key.type == "STRING" else str(key), [node], key, dotted)

    def entry_any(self, children: builtins.list[Any]) -> Entry:
        return self._entry(children[0], {"op": "any"}, children[-1])

    def entry_in(self, children: builtins.list[Any]) -> Entry:
        keyname, _, values = children
        _choices_only(values)
        return self._entry(keyname, {"op": "in", "values": values.value}, values)

    def entry_regex(self, children: builtins.list[Any]) -> Entry:
        keyname, _, pattern = children
        return self._entry(keyname, {"op": "regex", "pattern": _pattern_of(pattern)}, pattern)

    def entry_cmp(self, children: builtins.list[Any]) -> Entry:
        keyname, operator, number = children
        return self._entry(keyname, {"op": str(operator), "value": number_of(number)}, number)

    def entry_ne(self, children: builtins.list[Any]) -> Entry:
        keyname, _, value = children
        return self._entry(keyname, {"op": "ne", "value": value_of(value)}, value)

    def entry_contains(self, children: builtins.list[Any]) -> Entry:
        keyname, _, value = children
        return self._entry(keyname, {"op": "contains", "value": value_of(value)}, value)

    def entry_approx(self, children: builtins.list[Any]) -> Entry:
        keyname, _, centre, _, tolerance = children
        node = {"op": "approx", "value": number_of(centre), "tolerance": number_of(tolerance)}
        return self._entry(keyname, node, tolerance)

    def entry_range(self, children: builtins.list[Any]) -> Entry:
        low, low_op, keyname, high_op, high = children
        key = keyname[0]
        span = span_between(low, high)
        nodes: builtins.list[dict[str, Any]] = []
        for op, bound in ((">=" if low_op.type == "LE" else ">", low), (str(high_op), high)):
            node: dict[str, Any] = {"op": op, "value": number_of(bound)}
            if len(keyname) > 1:
                node["optional"] = True
            node["span"] = dict(span)
            nodes.append(node)
        return Entry(string_of(key) if key.type == "STRING" else str(key), nodes, key, False)

    def entry_absent(self, children: builtins.list[Token]) -> Entry:
        word, key = children
        name = string_of(key) if key.type == "STRING" else str(key)
        return Entry(name, [{"op": "absent", "span": span_between(word, key)}], key, False)

    # -- calls and arguments -----------------------------------------------------------
    def argname(self, children: builtins.list[Token]) -> builtins.list[Token]:
        return children

    def args_first(self, children: builtins.list[Any]) -> builtins.list[dict[str, Any]]:
        return self.args_more([[], None, children[0]])

    def args_more(self, children: builtins.list[Any]) -> builtins.list[dict[str, Any]]:
        args: builtins.list[dict[str, Any]] = children[0]
        arg = children[2]
        if type(arg) is tuple:  # a range: its two bounds
            args.extend(arg)
        else:
            args.append(arg)
        return args

    def call(self, children: builtins.list[Any]) -> dict[str, Any]:
        first = children[0]
        node: dict[str, Any] = {"tool": name_of(first)}
        if len(children) > 3:
            node["args"] = children[2]
        node["span"] = span_between(first, children[-1])
        return node

    @staticmethod
    def _named(argname: builtins.list[Token], op: str) -> dict[str, Any]:
        return {"name": name_of(argname[0]), "op": op}

    @staticmethod
    def _close(node: dict[str, Any], argname: builtins.list[Token], last: Any) -> dict[str, Any]:
        if len(argname) > 1:
            node["optional"] = True
        node["span"] = span_between(argname[0], last)
        return node

    def arg_eq(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, value = children
        node = self._named(argname, "eq")
        if type(value) is Value:
            if value.partial:
                node["op"] = "partial"
            node["value"] = value.value
        else:
            node["value"] = value_of(value)
        return self._close(node, argname, value)

    def arg_any(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, word = children
        return self._close(self._named(argname, "any"), argname, word)

    def arg_in(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, values = children
        node = self._named(argname, "in")
        _choices_only(values)
        node["values"] = values.value
        return self._close(node, argname, values)

    def arg_regex(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, pattern = children
        node = self._named(argname, "regex")
        node["pattern"] = _pattern_of(pattern)
        return self._close(node, argname, pattern)

    def arg_contains(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, value = children
        node = self._named(argname, "contains")
        node["value"] = value_of(value)
        return self._close(node, argname, value)

    def arg_ne(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, value = children
        node = self._named(argname, "ne")
        node["value"] = value.value if type(value) is Value else value_of(value)
        return self._close(node, argname, value)

    def arg_range(self, children: builtins.list[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        low, low_op, argname, high_op, high = children
        span = span_between(low, high)
        lower = self._named(argname, ">=" if low_op.type == "LE" else ">")
        lower["value"] = number_of(low)
        upper = self._named(argname, str(high_op))
        upper["value"] = number_of(high)
        for node in (lower, upper):
            if len(argname) > 1:
                node["optional"] = True
            node["span"] = dict(span)
        return (lower, upper)

    def arg_cmp(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, operator, number = children
        node = self._named(argname, str(operator))
        node["value"] = number_of(number)
        return self._close(node, argname, number)

    def arg_approx(self, children: builtins.list[Any]) -> dict[str, Any]:
        argname, _, centre, _, tolerance = children
        node = self._named(argname, "approx")
        node["value"] = number_of(centre)
        node["tolerance"] = number_of(tolerance)
        return self._close(node, argname, tolerance)

    def arg_absent(self, children: builtins.list[Token]) -> dict[str, Any]:
        word, name = children
        return {"name": name_of(name), "op": "absent", "span": span_between(word, name)}

    # -- statements and cases ----------------------------------------------------------
    @staticmethod
    def _through(first: Token, last: dict[str, int]) -> dict[str, int]:
        """From the start of ``first`` to the end of the span ``last``."""
        return {
            "line": first.line or 1,
            "column": first.column or 1,
            "end_line": last["end_line"],
            "end_column": last["end_column"],
        }

    def expect_stmt(self, children: builtins.list[Any]) -> _Statement:
        calls = children[1::2]
        return _Statement("expect", calls, self._through(children[0], calls[-1]["span"]))

    def forbid_stmt(self, children: builtins.list[Any]) -> _Statement:
        first, call = children
        return _Statement("forbid", call, self._through(first, call["span"]))

    def allow_stmt(self, children: builtins.list[Any]) -> _Statement:
        first, call = children
        return _Statement("allow", call, self._through(first, call["span"]))

    def question_stmt(self, children: builtins.list[Token]) -> _Statement:
        first, text = children
        return _Statement("question", string_of(text), span_between(first, text))

    @staticmethod
    def _threshold(kind: str, children: builtins.list[Token]) -> _Statement:
        first, operator, number = children[0], children[-2], children[-1]
        span = span_between(first, number)
        node: dict[str, Any] = {"kind": kind, "threshold": number_of(number)}
        if operator.type == "GT":  # ">=" is the default, left out of the document
            node["op"] = ">"
        node["span"] = span
        return _Statement("require", node, span)

    def require_accuracy(self, children: builtins.list[Token]) -> _Statement:
        return self._threshold("accuracy", children)

    def require_pass_rate(self, children: builtins.list[Token]) -> _Statement:
        return self._threshold("pass_rate", children)

    @staticmethod
    def _flag(kind: str, children: builtins.list[Token]) -> _Statement:
        span = span_between(children[0], children[-1])
        return _Statement("require", {"kind": kind, "span": span}, span)

    def require_no_unexpected_calls(self, children: builtins.list[Token]) -> _Statement:
        return self._flag("no_unexpected_calls", children)

    def require_no_tool_calls(self, children: builtins.list[Token]) -> _Statement:
        return self._flag("no_tool_calls", children)

    def require_order(self, children: builtins.list[Token]) -> _Statement:
        return self._flag("order", children)

    # A count's bounds: (at least, at most), either left out.
    def count_at_most(self, children: builtins.list[Token]) -> tuple[Token | None, Token | None]:
        return (None, children[-1])

    def count_at_least(self, children: builtins.list[Token]) -> tuple[Token | None, Token | None]:
        return (children[-1], None)

    def count_exactly(self, children: builtins.list[Token]) -> tuple[Token | None, Token | None]:
        return (children[-1], children[-1])

    def count_between(self, children: builtins.list[Token]) -> tuple[Token | None, Token | None]:
        return (children[1], children[3])

    def count_stmt(self, children: builtins.list[Any]) -> _Statement:
        first, (low, high) = children[0], children[1]
        node: dict[str, Any] = {"kind": "count"}
        if low is not None:
            node["at_least"] = number_of(low)
        if high is not None:
            node["at_most"] = number_of(high)
        last = children[-1]
        if type(last) is dict:  # `of CALL`
            node["call"] = last
            span = self._through(first, last["span"])
        else:
            span = span_between(first, last)
        node["span"] = span
        return _Statement("require", node, span)

    def case(self, children: builtins.list[Any]) -> dict[str, Any]:
        case = _new_case(name_of(children[1]), span_between(children[0], children[-1]))
        for child in children[3:-1]:
            if type(child) is _Statement:
                _add(case, child)
        return case

    def start(self, children: builtins.list[Any]) -> builtins.list[Any]:
        return children


def assemble(items: list[Any], implicit_name: str) -> dict[str, Any]:
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
        for key in ("expect", "forbid", "allow", "chains", "require"):
            if not case[key]:
                del case[key]
    return {"version": DOCUMENT_VERSION, "cases": cases}
