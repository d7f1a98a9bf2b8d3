"""Hover on a tool or an argument of a call: the catalogue's description and JSON Schema of it.

The call under the cursor is found by the spans of the parsed document; when the text does not
parse, by the place the completion scan finds (:mod:`toolexpect.server.context`) and the word
under the cursor.
"""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from toolexpect.catalogue import Tool
from toolexpect.server.analysis import Analysis
from toolexpect.server.context import place_at
from toolexpect.server.positions import Positions
from toolexpect.server.toolinfo import Parameter, parameters, schema_block, signature

__all__ = ["hover"]

_WORD_END = re.compile(r"[A-Za-z0-9_\-.:/]*")


def hover(analysis: Analysis, position: types.Position, positions: Positions) -> types.Hover | None:
    """What to show for the tool or argument at ``position``; ``None`` without a catalogue, or
    when the cursor is on neither."""
    catalogue = analysis.catalogue
    if catalogue is None:
        return None
    offset = positions.offset(position)
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
    text = _tool_text(tool) if argument is None else _argument_text(tool, argument)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _inside(span: dict[str, int] | None, place: tuple[int, int]) -> bool:
    if span is None:
        return False
    return (span["line"], span["column"]) <= place < (span["end_line"], span["end_column"])


def _from_document(document: dict[str, Any], place: tuple[int, int]) -> tuple[str, str | None] | None:
    for case in document["cases"]:
        for call in (*case.get("expect", ()), *case.get("forbid", ())):
            if not _inside(call.get("span"), place):
                continue
            for arg in call.get("args", ()):
                if _inside(arg.get("span"), place):
                    return call["tool"], arg["name"]
            return call["tool"], None
    return None


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
