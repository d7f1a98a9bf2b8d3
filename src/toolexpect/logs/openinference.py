"""OpenInference attributes on OpenTelemetry spans (Arize Phoenix and its instrumentors).

An ``LLM`` span lists the model's calls as flattened attributes,
``llm.output_messages.<i>.message.tool_calls.<j>.tool_call.function.name`` and
``...function.arguments`` (JSON text), with ``...tool_call.id``; a ``TOOL`` span names the
tool it ran in ``tool.name``, with the call's arguments in ``tool.parameters`` (or, where
that holds the tool's JSON Schema, in ``input.value``) and its id in ``tool_call.id``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolexpect.calls import ToolCall
from toolexpect.logs._base import Context

__all__ = ["is_tool_span", "model_calls", "tool_call"]

_OUTPUT = re.compile(
    r"llm\.output_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\.(?:function\.)?(name|arguments|id)"
)
_SPAN_KIND = "openinference.span.kind"


def model_calls(attrs: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    """The calls of an ``LLM`` span's ``llm.output_messages`` attributes, in index order."""
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for key, value in attrs.items():
        if key.startswith("llm.output_messages."):
            match = _OUTPUT.fullmatch(key)
            if match:
                found.setdefault((int(match[1]), int(match[2])), {})[match[3]] = value
    return [
        ctx.call(parts.get("name"), parts.get("arguments"), parts.get("id"), line)
        for _, parts in sorted(found.items())
    ]


def is_tool_span(attrs: dict[str, Any]) -> bool:
    """A ``TOOL`` span naming its tool."""
    return attrs.get(_SPAN_KIND) == "TOOL" and isinstance(attrs.get("tool.name"), str)


def _schema(value: Any) -> bool:
    """Whether ``value`` (JSON text or an object) is a JSON Schema of parameters."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return False
    return isinstance(value, dict) and value.get("type") == "object" and "properties" in value


def tool_call(attrs: dict[str, Any], ctx: Context, line: int | None) -> ToolCall | None:
    """The call a ``TOOL`` span ran."""
    arguments = attrs.get("tool.parameters")
    if arguments is None or _schema(arguments):
        arguments = attrs.get("input.value")
    call_id = attrs.get("tool_call.id", attrs.get("tool.id"))
    return ctx.call(attrs.get("tool.name"), arguments, call_id, line)
