"""Hover on a tool or an argument of a call: the catalogue's description and JSON Schema of it;
on a count requirement (``require at most 3 calls of search``): what it counts and when a run
fails it; on an ``allow`` statement: what it lets pass; on a matcher inside a value
(``location={city ~ "^Ber", ...}``): what the key must hold. The last three with or without a
catalogue.

The call under the cursor is found by the spans of the parsed document; when the text does not
parse, by the place the completion scan finds (:mod:`toolexpect.server.context`) and the word
under the cursor.
"""

from __future__ import annotations

import re
from typing import Any, cast

from lsprotocol import types

from toolexpect.catalogue import Tool
from toolexpect.document import without_spans
from toolexpect.language.grammar import literal
from toolexpect.language.write import write_call, write_count, write_member
from toolexpect.server.analysis import Analysis
from toolexpect.server.context import place_at
from toolexpect.server.positions import Positions
from toolexpect.server.toolinfo import Parameter, parameters, schema_block, signature

__all__ = ["hover"]

_WORD_END = re.compile(r"[A-Za-z0-9_\-.:/]*")


def hover(analysis: Analysis, position: types.Position, positions: Positions) -> types.Hover | None:
    """What to show for the tool or argument at ``position`` (with a catalogue that knows the
    tool), else for the count requirement or the ``allow`` there; ``None`` when the cursor is on
    none of them."""
    offset = positions.offset(position)
    document = analysis.loaded.document
    nested = _nested_at(document, positions.span_position(offset)) if document is not None else None
    text = _nested_text(*nested) if nested is not None else _catalogue_text(analysis, offset, positions)
    if text is None and document is not None:
        count = _count_at(document, positions.span_position(offset))
        text = _count_text(count) if count is not None else None
    if text is None and document is not None:
        allowed = _allow_at(document, analysis.loaded.text or "", offset, positions)
        text = _allow_text(allowed) if allowed is not None else None
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _catalogue_text(analysis: Analysis, offset: int, positions: Positions) -> str | None:
    """The catalogue's words on the tool or argument at ``offset``, if any."""
    catalogue = analysis.catalogue
    if catalogue is None:
        return None
    document = analysis.loaded.document
    found = (
        _from_document(document, positions.span_position(offset))
        if document is not None
        else _from_text(analysis.loaded.text or "", offset)
    )
    if found is None:
        return None
    tool_name, argument = found
    tool = catalogue.get(tool_name)
    if tool is None:
        return None
    return _tool_text(tool) if argument is None else _argument_text(tool, argument)


def _inside(span: dict[str, int] | None, place: tuple[int, int]) -> bool:
    if span is None:
        return False
    return (span["line"], span["column"]) <= place < (span["end_line"], span["end_column"])


def _from_document(document: dict[str, Any], place: tuple[int, int]) -> tuple[str, str | None] | None:
    for case in document["cases"]:
        counted = [req["call"] for req in case.get("require", ()) if req["kind"] == "count" and "call" in req]
        for call in (*case.get("expect", ()), *case.get("forbid", ()), *case.get("allow", ()), *counted):
            if not _inside(call.get("span"), place):
                continue
            for arg in call.get("args", ()):
                if _inside(arg.get("span"), place):
                    return call["tool"], arg["name"]
            return call["tool"], None
    return None


def _calls(document: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for case in document["cases"]:
        counted = [req["call"] for req in case.get("require", ()) if req["kind"] == "count" and "call" in req]
        found.extend((*case.get("expect", ()), *case.get("forbid", ()), *counted))
    return found


def _nested_at(document: dict[str, Any], place: tuple[int, int]) -> tuple[str, str, list[Any]] | None:
    """The matchers of a key inside a value under the cursor: the argument, the path to the key
    (``location.city``) and its ``$match`` list."""
    for call in _calls(document):
        for arg in call.get("args", ()):
            if not _inside(arg.get("span"), place) or not isinstance(arg.get("value"), dict | list):
                continue
            stack: list[tuple[Any, str]] = [(arg["value"], arg["name"])]
            while stack:
                node, path = stack.pop()
                if isinstance(node, list):
                    stack.extend((item, f"{path}[{i}]") for i, item in enumerate(node))
                    continue
                if not isinstance(node, dict) or (len(node) == 1 and "$literal" in node):
                    continue
                entries = (
                    node["$partial"] if len(node) == 1 and isinstance(node.get("$partial"), dict) else node
                )
                for key, entry in entries.items():
                    if isinstance(entry, dict) and len(entry) == 1 and isinstance(entry.get("$match"), list):
                        matchers = entry["$match"]
                        if any(_inside(m.get("span"), place) for m in matchers if isinstance(m, dict)):
                            return arg["name"], f"{path}.{key}", matchers
                        stack.extend(
                            (m.get("value"), f"{path}.{key}") for m in matchers if isinstance(m, dict)
                        )
                    else:
                        stack.append((entry, f"{path}.{key}"))
    return None


_HOLDS = {
    "eq": "is present and equal to the value, by the nested rule (type included: 5 is not 5.0)",
    "partial": "is present and matches the pattern, by the nested rule",
    "any": "is present, with any value (null included)",
    "in": "is present and equal to one of the listed values, by the nested rule",
    "regex": "is a string in which the RE2 pattern finds a match",
    "<": "is a number (not a boolean) less than the bound",
    "<=": "is a number (not a boolean) at most the bound",
    ">": "is a number (not a boolean) greater than the bound",
    ">=": "is a number (not a boolean) at least the bound",
    "ne": "is present and not equal to the value, by the nested rule",
    "approx": "is a number within the tolerance",
    "absent": "is absent",
    "contains": "is a list holding an element equal to the value (nested rule), or a string holding it",
}
"""What each matcher of a key inside a value asks of the key."""


def _nested_text(argument: str, path: str, matchers: list[Any]) -> str:
    """What the matchers of one key inside a value ask of it, and when a call fails them."""
    key = path.rsplit(".", 1)[-1]
    clean = [{k: v for k, v in m.items() if k != "span"} for m in matchers]
    written = write_member(key, {"$match": clean})
    asks = "; and it ".join(dict.fromkeys(_HOLDS.get(m["op"], m["op"]) for m in clean))
    if any(m.get("optional") for m in clean):
        asks = "is absent, or it " + asks.replace("is present and ", "is ")
    where = path.rsplit(".", 1)[0]
    return (
        f"```\n{written}\n```\n\nA matcher inside the value of `{argument}`: the key `{key}` of "
        f"`{where}` {asks}. "
        "A call whose value fails it does not match; comparisons and tolerances compare numbers "
        "by value, as at the top level."
    )


def _count_at(document: dict[str, Any], place: tuple[int, int]) -> dict[str, Any] | None:
    """The count requirement under the cursor, if any."""
    for case in document["cases"]:
        for req in case.get("require", ()):
            if req["kind"] == "count" and _inside(req.get("span"), place):
                return cast(dict[str, Any], req)
    return None


def _count_text(req: dict[str, Any]) -> str:
    """What a count requirement counts, and when a run fails it."""
    low, high, call = req.get("at_least"), req.get("at_most"), req.get("call")
    if call is None:
        counted = "every tool call of the run"
    elif call.get("args"):
        counted = f"the calls of `{call['tool']}` that match its arguments"
    else:
        counted = f"the calls of `{call['tool']}`, whatever their arguments"
    if low is not None and low == high:
        fails = f"unless it makes exactly {low}"
    elif low is not None and high is not None:
        fails = f"unless it makes from {low} to {high}"
    elif high is not None:
        fails = f"when it makes more than {high}"
    else:
        fails = f"when it makes fewer than {low}"
    statement = write_count({key: value for key, value in req.items() if key != "span"})
    return (
        f"```\n{statement}\n```\n\nCounts {counted}, whatever expectation they are paired with: "
        f"a run fails the case {fails}. A count never changes the accuracy."
    )


_KEYWORD = re.compile(r"[A-Za-z]+")


def _allow_at(
    document: dict[str, Any], text: str, offset: int, positions: Positions
) -> dict[str, Any] | None:
    """The allowed call under the cursor, or whose ``allow`` keyword is under it, if any."""
    place = positions.span_position(offset)
    start = offset
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    word = _KEYWORD.match(text, start)
    after: tuple[int, int] | None = None
    if word is not None and word.group() == literal("ALLOW"):
        end = word.end()
        while end < len(text) and text[end] in " \t":
            end += 1
        after = positions.span_position(end)
    for case in document["cases"]:
        for call in case.get("allow", ()):
            span = call.get("span")
            if _inside(span, place) or (span is not None and after == (span["line"], span["column"])):
                return cast(dict[str, Any], call)
    return None


def _allow_text(call: dict[str, Any]) -> str:
    """What an ``allow`` lets pass, and what it never changes."""
    statement = f"{literal('ALLOW')} {write_call(without_spans(call))}"
    which = (
        f"calls of `{call['tool']}` that match its arguments"
        if call.get("args")
        else f"calls of `{call['tool']}`, whatever their arguments"
    )
    return (
        f"```\n{statement}\n```\n\nAllows {which}, any number of times or none: such a call that no "
        "expectation is paired with is neither expected nor unexpected. `require no unexpected calls` "
        "lets it pass and precision and F1 leave it out; it never counts towards the accuracy, and a "
        "`forbid` that matches it still fails the run."
    )


def _from_text(text: str, offset: int) -> tuple[str, str | None] | None:
    rest = _WORD_END.match(text, offset)  # the part of the word after the cursor, maybe empty
    place = place_at(text, rest.end() if rest else offset)
    word = place.prefix
    if place.where == "tool" and word:
        return word, None
    if place.where in ("argument", "matcher", "value") and place.tool:
        return place.tool, (word or place.argument)
    return None


def _tool_text(tool: Tool) -> str:
    parts = [f"```\n{signature(tool)}\n```"]
    if tool.description:
        parts.append(tool.description)
    parts.append(schema_block(dict(tool.parameters)))
    return "\n\n".join(parts)


def _argument_text(tool: Tool, name: str) -> str | None:
    found: Parameter | None = next((p for p in parameters(tool) if p.name == name), None)
    if found is None:
        return None
    head = f"```\n{tool.name}({found.name}{'' if found.required else '?'}: {found.types})\n```"
    parts = [head, "required" if found.required else "optional"]
    if found.description:
        parts.append(found.description)
    parts.append(schema_block(found.schema))
    return "\n\n".join(parts)
