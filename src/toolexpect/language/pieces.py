"""The pieces of the document while lark reads it: scalar tokens decoded, lists and objects
folded item by item (:class:`Items`, :class:`Members`), so that a long list keeps its values
and never its tokens. A problem of a well-formed token goes to the parse in progress
(:mod:`toolexpect.language.context`) and a stand-in value is used, so that the parse goes on.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from lark import Token

from toolexpect.diagnostics import Span
from toolexpect.document import Repeat
from toolexpect.language.context import problem as _problem
from toolexpect.language.context import repeat as _repeat
from toolexpect.language.strings import Problem, decode_number, decode_string, span_of

__all__ = [
    "REST",
    "Items",
    "Members",
    "Value",
    "name_of",
    "number_of",
    "span_between",
    "string_of",
    "value_of",
]


def string_of(token: Token) -> str:
    """The text of a STRING token (``""`` after noting a bad escape)."""
    try:
        return decode_string(token)
    except Problem as bad:
        _problem(token.start_pos or 0, bad.diagnostic)
        return ""


def number_of(token: Token) -> int | float:
    """The value of a NUMBER token (``0`` after noting a number out of range)."""
    try:
        return decode_number(token)
    except Problem as bad:
        _problem(token.start_pos or 0, bad.diagnostic)
        return 0


def name_of(token: Token) -> str:
    """A tool, argument or case name: a bare NAME, or a STRING for names nothing else spells."""
    return string_of(token) if token.type == "STRING" else str(token)


class Value(NamedTuple):
    """A list or object value while the document is built; ``partial`` when it holds ``...``.

    ``start`` and ``end`` are its brackets; the span of an argument that ends with it ends at ``end``.
    ``dotted`` when ``...`` is written anywhere in it, a value that a repeated key drops included.
    """

    value: Any
    partial: bool
    start: Token
    end: Token
    dotted: bool


REST = object()
"""What the ``...`` member of an object is while the object is read."""
_CONSTANTS: dict[str, Any] = {"TRUE": True, "FALSE": False, "NULL": None}


def value_of(item: Any) -> Any:
    """The JSON value of a value child: a token of a scalar, or a list or object built already."""
    if type(item) is Value:
        return item.value
    kind = item.type
    if kind == "STRING":
        return string_of(item)
    if kind == "NUMBER":
        return number_of(item)
    return _CONSTANTS[kind]


def span_between(first: Token, last: Any) -> dict[str, int]:
    """From the start of ``first`` to the end of ``last``: a token, or a value's closing bracket."""
    if type(last) is Value:
        last = last.end
    return {
        "line": first.line or 1,
        "column": first.column or 1,
        "end_line": last.end_line or 1,
        "end_column": last.end_column or 1,
    }


class Items:
    """The values of a list while lark reads it, each decoded as it is reduced."""

    __slots__ = ("dotted", "partial", "values")

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.partial = False
        self.dotted = False

    def add(self, item: Any) -> None:
        """Add a value child: a scalar's token, or a list or object built already."""
        if type(item) is Value:
            self.partial = self.partial or item.partial
            self.dotted = self.dotted or item.dotted
            self.values.append(item.value)
        else:
            self.values.append(value_of(item))


class Members:
    """The members of an object while lark reads it, each value decoded as it is reduced.

    A key written twice keeps its last value in its first place, as in JSON, and is noted
    for lint; ``rest`` is the ``...`` member; ``nested`` holds the keys whose (last) value
    holds a partial object; ``dotted`` says that ``...`` is written in the object, in a value
    a repeated key drops too.
    """

    __slots__ = ("dotted", "first", "nested", "rest", "values")

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.first: dict[str, Span] = {}  # spans, not tokens: a long object keeps no token
        self.nested: set[str] = set()
        self.rest = False
        self.dotted = False

    @property
    def partial(self) -> bool:
        """True when a value of the object holds a partial object."""
        return bool(self.nested)

    def add(self, member: Any) -> None:
        """Add a member: ``(key, value child, key token)`` or the ``...`` mark."""
        if member is REST:
            self.rest = self.dotted = True
            return
        key, value, token = member
        if key in self.first:  # the last value is kept, as in JSON; lint reports the repeat
            _repeat(Repeat("key", key, span_of(token), self.first[key]))
        else:
            self.first[key] = span_of(token)
        if type(value) is Value and value.dotted:
            self.dotted = True
        if type(value) is Value and value.partial:
            self.nested.add(key)
        else:
            self.nested.discard(key)
        self.values[key] = value.value if type(value) is Value else value_of(value)
