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
    "CONDITION_OPS",
    "REST",
    "Entry",
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
    """A list or object value while the document is built; ``partial`` when it holds ``...``
    or a matcher (it is then a pattern, not a plain value).

    ``start`` and ``end`` are its brackets; the span of an argument that ends with it ends at ``end``.
    ``dotted`` when ``...`` is written anywhere in it, a value that a repeated key drops included;
    ``matched`` when a matcher entry (``{city ~ "^Ber"}``) is, likewise.
    """

    value: Any
    partial: bool
    start: Token
    end: Token
    dotted: bool
    matched: bool = False


CONDITION_OPS = frozenset({"<", "<=", ">", ">=", "ne", "regex", "contains"})
"""The matchers that are conditions: several may stand on one argument or key, all holding."""


class Entry(NamedTuple):
    """A matcher entry of an object (``city ~ "^Ber"``, ``1 <= limit <= 50``, ``not key``):
    its key, the matcher nodes it adds to the key's ``$match`` list, and the key's token.
    ``dotted`` when a value inside it holds ``...``."""

    key: str
    matchers: list[dict[str, Any]]
    token: Token
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

    __slots__ = ("dotted", "matched", "partial", "values")

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.partial = False
        self.dotted = False
        self.matched = False

    def add(self, item: Any) -> None:
        """Add a value child: a scalar's token, or a list or object built already."""
        if type(item) is Value:
            self.partial = self.partial or item.partial
            self.dotted = self.dotted or item.dotted
            self.matched = self.matched or item.matched
            self.values.append(item.value)
        else:
            self.values.append(value_of(item))


class Members:
    """The members of an object while lark reads it, each value decoded as it is reduced.

    A key written twice keeps its last value in its first place, as in JSON, and is noted
    for lint; ``rest`` is the ``...`` member; ``nested`` holds the keys whose (last) value
    holds a partial object or is a matcher; ``dotted`` says that ``...`` is written in the
    object, in a value a repeated key drops too, and ``matched`` the same of a matcher.
    Conditions on one key (``1 <= limit <= 50``, ``tags contains "a", tags contains "b"``)
    join its one ``$match`` list; any other matcher or value beside them is a repeated key.
    """

    __slots__ = ("dotted", "first", "matched", "nested", "rest", "values")

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.first: dict[str, Span] = {}  # spans, not tokens: a long object keeps no token
        self.nested: set[str] = set()
        self.rest = False
        self.dotted = False
        self.matched = False

    @property
    def partial(self) -> bool:
        """True when a value of the object holds a partial object."""
        return bool(self.nested)

    def add(self, member: Any) -> None:
        """Add a member: ``(key, value child, key token)`` or the ``...`` mark."""
        if member is REST:
            self.rest = self.dotted = True
            return
        if type(member) is Entry:
            self._entry(member)
            return
        key, value, token = member
        if key in self.first:  # the last value is kept, as in JSON; lint reports the repeat
            _repeat(Repeat("key", key, span_of(token), self.first[key]))
        else:
            self.first[key] = span_of(token)
        if type(value) is Value and value.dotted:
            self.dotted = True
        if type(value) is Value and value.matched:
            self.matched = True
        if type(value) is Value and value.partial:
            self.nested.add(key)
        else:
            self.nested.discard(key)
        self.values[key] = value.value if type(value) is Value else value_of(value)

    def _entry(self, entry: Entry) -> None:
        """Add a matcher entry: joined to the conditions already on its key, else as its value."""
        key = entry.key
        self.matched = True
        self.dotted = self.dotted or entry.dotted
        earlier = self.values.get(key) if key in self.first else None
        if (
            type(earlier) is dict
            and key in self.nested
            and len(earlier) == 1
            and type(earlier.get("$match")) is list
            and _joins(earlier["$match"], entry.matchers)
        ):
            earlier["$match"].extend(entry.matchers)
            return
        if key in self.first:  # the last is kept, as in JSON; lint reports the repeat
            _repeat(Repeat("key", key, span_of(entry.token), self.first[key]))
        else:
            self.first[key] = span_of(entry.token)
        self.nested.add(key)
        self.values[key] = {"$match": entry.matchers}


def _joins(earlier: list[dict[str, Any]], later: list[dict[str, Any]]) -> bool:
    """True when every matcher of both is a condition, all with or all without ``?``."""
    optional = {bool(m.get("optional")) for m in (*earlier, *later)}
    return len(optional) == 1 and all(m["op"] in CONDITION_OPS for m in (*earlier, *later))
