"""Document nodes to spec text: the one writer of values, names, arguments, calls and requirements.

``toolexpect format`` lays these out into files; failure messages quote expectations with
them, so that what a report shows is what ``format`` writes and parses back. The names a
bare word may have, the word of the absence matcher and the forms of ``require`` are read
off the grammar.

Two matchers of one argument written one after the other, a lower bound (``>=``, ``>``) and
then an upper bound (``<=``, ``<``), are written as one range: ``1 <= days <= 7``. A pattern
that holds a backslash is written as a raw string (``r"\\d+"``) when it can be; every other
string with JSON escapes.
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

from toolexpect.language.grammar import choices, literal, spellings, terminal_regexp

__all__ = [
    "argument_groups",
    "format_value",
    "write_arguments",
    "write_call",
    "write_count",
    "write_group",
    "write_member",
    "write_name",
    "write_number",
    "write_pattern",
    "write_requirement",
    "write_string",
]


@functools.cache
def _bare_name() -> re.Pattern[str]:
    """The grammar's pattern of a name that needs no quotes."""
    return re.compile(terminal_regexp("NAME"))


@functools.cache
def _requirements() -> dict[str, str]:
    """How each kind of requirement is written, by its kind: ``{op}`` and ``{number}`` stand
    for its comparison and threshold."""
    operators = set(choices("at_least"))

    def fill(word: str) -> str:
        return "{number}" if word == "number" else "{op}" if word in operators else word

    return {
        alias.removeprefix("require_"): " ".join(fill(word) for word in words)
        for alias, words in spellings("require_stmt").items()
    }


def write_number(value: int | float) -> str:
    """A number as the language writes it: an ``int`` without a fraction, a float by ``repr``.

    NaN and the infinities, which no spec holds (the readers refuse them) but an expectation
    made in Python may, are shown as reports show them: ``NaN``, ``Infinity``, ``-Infinity``.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def write_string(text: str) -> str:
    """A string in double quotes with JSON escapes, non-ASCII characters kept."""
    return json.dumps(text, ensure_ascii=False)


def write_pattern(pattern: str) -> str:
    """A regular expression: raw (``r"\\d+"``) when it holds a backslash and a raw string can
    hold it (printable, without one of the quotes), else as any string."""
    if "\\" in pattern and pattern.isprintable():
        if '"' not in pattern:
            return f'r"{pattern}"'
        if "'" not in pattern:
            return f"r'{pattern}'"
    return write_string(pattern)


def format_value(value: Any) -> str:
    """Write a document value (``$partial``, ``$literal`` and ``$match`` included) as the language."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return write_number(value)
    if isinstance(value, str):
        return write_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if len(value) == 1 and "$partial" in value and isinstance(value["$partial"], dict):
            members = [write_member(k, v) for k, v in value["$partial"].items()]
            return "{" + ", ".join([*members, "..."]) + "}"
        if len(value) == 1 and "$literal" in value and isinstance(value["$literal"], dict):
            pairs = (f"{write_string(k)}: {format_value(v)}" for k, v in value["$literal"].items())
            return "{" + ", ".join(pairs) + "}"
        return "{" + ", ".join(write_member(k, v) for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {value!r}")


def write_member(key: str, value: Any) -> str:
    """One key of an object: ``"key": value``, or its matchers (``"city" ~ "^Ber"``)."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("$match"), list):
        matchers = [{"name": key, **node} for node in value["$match"]]
        return ", ".join(write_group(group, entry=True) for group in argument_groups(matchers))
    return f"{write_string(key)}: {format_value(value)}"


def write_name(name: str, *, argument: bool = False) -> str:
    """A tool or argument name: bare when the grammar reads it as a name, else quoted."""
    if _bare_name().fullmatch(name) and not (argument and name == literal("NOT")):
        return name
    return write_string(name)


_LOWER = {">=": "<=", ">": "<"}
_UPPER = ("<=", "<")


def _is_range(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """A lower bound followed by an upper bound of the same argument, written as one range."""
    return (
        first["op"] in _LOWER
        and second["op"] in _UPPER
        and first["name"] == second["name"]
        and bool(first.get("optional")) == bool(second.get("optional"))
    )


def argument_groups(args: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The arguments of a call as they are written: one matcher each, or the two of a range."""
    groups: list[list[dict[str, Any]]] = []
    index = 0
    while index < len(args):
        if index + 1 < len(args) and _is_range(args[index], args[index + 1]):
            groups.append(args[index : index + 2])
            index += 2
        else:
            groups.append([args[index]])
            index += 1
    return groups


def write_group(group: list[dict[str, Any]], *, entry: bool = False) -> str:
    """One argument as written: a matcher, or a range of two (see :func:`argument_groups`).

    ``entry``: a matcher of a key inside an object, named as keys are (a quoted string) and
    written ``"key": any``, ``"key"?: value``, ``"key": 20 +- 1`` where an argument has ``=``.
    """
    first = group[0]
    name = write_string(first["name"]) if entry else write_name(first["name"], argument=True)
    if len(group) == 2:
        low, high = group
        name += "?" if low.get("optional") else ""
        return (
            f"{write_number(low['value'])} {_LOWER[low['op']]} {name} "
            f"{high['op']} {write_number(high['value'])}"
        )
    arg = first
    op = arg["op"]
    if op == "absent":
        return "not " + (name if entry else write_name(arg["name"]))
    name += "?" if arg.get("optional") else ""
    equal = ": " if entry else "="
    if op in ("eq", "partial"):
        return f"{name}{equal}{format_value(arg['value'])}"
    if op == "any":
        return f"{name}{equal}any"
    if op == "contains":
        return f"{name} {literal('CONTAINS')} {format_value(arg['value'])}"
    if op == "ne":
        return f"{name} != {format_value(arg['value'])}"
    if op == "in":
        return f"{name} in {format_value(arg['values'])}"
    if op == "regex":
        return f"{name} ~ {write_pattern(arg['pattern'])}"
    if op == "approx":
        return f"{name}{equal}{write_number(arg['value'])} +- {write_number(arg['tolerance'])}"
    return f"{name} {op} {write_number(arg['value'])}"


def write_arguments(args: list[dict[str, Any]]) -> list[str]:
    """Each argument of a call as written (a range is one)."""
    return [write_group(group) for group in argument_groups(args)]


def write_call(call: dict[str, Any]) -> str:
    """A call on one line: its name, and its arguments in parentheses when it has any."""
    args = call.get("args") or []
    head = write_name(call["tool"])
    if not args:
        return head
    return head + "(" + ", ".join(write_arguments(args)) + ")"


@functools.cache
def _count_forms() -> dict[str, str]:
    """How each bound of a count is written, by its alias: ``{}`` stands for each number."""
    return {
        alias: " ".join("{}" if word == "number" else word for word in words)
        for alias, words in spellings("count_bound").items()
    }


def write_count(req: dict[str, Any]) -> str:
    """A count requirement: ``require at most 3 calls of search`` (``exactly`` where both
    bounds are one number, ``call`` after the number 1); ``of CALL`` when it counts one call."""
    low: int | None = req.get("at_least")
    high: int | None = req.get("at_most")
    forms = _count_forms()
    numbers: tuple[int | None, ...]
    if low is not None and high is not None:
        if low == high:
            bound, numbers = forms["count_exactly"].format(low), (low,)
        else:
            bound, numbers = forms["count_between"].format(low, high), (low, high)
    elif high is not None:
        bound, numbers = forms["count_at_most"].format(high), (high,)
    else:
        bound, numbers = forms["count_at_least"].format(low), (low,)
    word = literal("CALL") if numbers == (1,) else literal("CALLS")
    text = f"{literal('REQUIRE')} {bound} {word}"
    call = req.get("call")
    if call is not None:
        text += f" {literal('OF')} {write_call(call)}"
    return text


def write_requirement(req: dict[str, Any]) -> str:
    """A ``require`` statement."""
    if req["kind"] == "count":
        return write_count(req)
    form = _requirements()[req["kind"]]
    if "{number}" not in form:
        return form
    return form.format(op=req.get("op", ">="), number=write_number(req["threshold"]))
