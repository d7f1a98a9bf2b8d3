"""OpenTelemetry GenAI spans in OTLP JSON (``resourceSpans[].scopeSpans[].spans[]``).

One sample per ``traceId`` (the trace id is the sample id), calls ordered by span start
time. Calls come from ``gen_ai.output.messages`` (``tool_call`` parts of model spans) and
from ``execute_tool`` spans (``gen_ai.tool.name``, ``gen_ai.tool.call.arguments``,
``gen_ai.tool.call.id``). A call seen in both counts once, by call id; ``execute_tool``
spans without a call id are used only when the trace has no model-span calls.
Typed attribute values are decoded (``intValue`` given as a decimal string becomes an int).
Files hold one OTLP request, or one per line (the collector's file exporter); a plain
span list (``{"name", "context", "attributes": {...}}`` as the Python SDK prints) also reads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "attribute_value", "read", "sniff"]

NAME = "otel"


def sniff(value: Any) -> bool:
    """An OTLP traces request (``resourceSpans``) or a list of SDK span dumps."""
    if isinstance(value, dict):
        return isinstance(
            value.get("resourceSpans", value.get("resource_spans")), list
        ) or _is_sdk_span(value)
    return isinstance(value, list) and bool(value) and all(_is_sdk_span(s) for s in value[:3])


def _is_sdk_span(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("context"), dict)
        and "trace_id" in value["context"]
        and isinstance(value.get("attributes"), dict)
    )


def attribute_value(value: Any) -> Any:
    """Decode one OTLP ``AnyValue`` (``stringValue``, ``intValue``, ``kvlistValue``, ...)."""
    if not isinstance(value, dict):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        raw = value["intValue"]
        try:
            return int(raw)
        except (TypeError, ValueError):
            return raw
    if "doubleValue" in value:
        raw = value["doubleValue"]
        try:
            return float(raw)
        except (TypeError, ValueError):
            return raw
    if "boolValue" in value:
        return value["boolValue"]
    if "arrayValue" in value:
        arr = value["arrayValue"]
        items = arr.get("values") if isinstance(arr, dict) else None
        return [attribute_value(v) for v in items] if isinstance(items, list) else []
    if "kvlistValue" in value:
        kv = value["kvlistValue"]
        items = kv.get("values") if isinstance(kv, dict) else None
        return _attributes(items)
    if "bytesValue" in value:
        return value["bytesValue"]
    return None


def _attributes(items: Any) -> dict[str, Any]:
    if isinstance(items, dict):
        return items
    out: dict[str, Any] = {}
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                out[item["key"]] = attribute_value(item.get("value"))
    return out


def _start(span: dict[str, Any]) -> int:
    raw = span.get("startTimeUnixNano", span.get("start_time_unix_nano"))
    try:
        return int(raw) if raw is not None and not isinstance(raw, bool) else 0
    except (TypeError, ValueError):
        return 0


class _Trace:
    def __init__(self, line: int | None) -> None:
        self.line = line
        self.spans: list[tuple[int, int, int | None, dict[str, Any]]] = []


def _spans(value: Any) -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """(trace id, start time, attributes) of each span of one record."""
    if isinstance(value, list):
        for span in value:
            if _is_sdk_span(span):
                start = span.get("start_time")
                yield (
                    span["context"].get("trace_id"),
                    0,
                    span["attributes"] | {"__start": start if isinstance(start, str) else ""},
                )
        return
    if _is_sdk_span(value):
        yield from _spans([value])
        return
    resources = (
        value.get("resourceSpans", value.get("resource_spans")) if isinstance(value, dict) else None
    )
    for resource in resources if isinstance(resources, list) else []:
        scopes = (
            resource.get("scopeSpans", resource.get("scope_spans"))
            if isinstance(resource, dict)
            else None
        )
        for scope in scopes if isinstance(scopes, list) else []:
            spans = scope.get("spans") if isinstance(scope, dict) else None
            for span in spans if isinstance(spans, list) else []:
                if isinstance(span, dict):
                    trace = span.get("traceId", span.get("trace_id"))
                    yield trace, _start(span), _attributes(span.get("attributes"))


def _model_calls(attrs: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    raw = attrs.get("gen_ai.output.messages")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            ctx.report("R404", "gen_ai.output.messages is not valid JSON; ignored", line)
            return []
    calls: list[ToolCall | None] = []
    for message in raw if isinstance(raw, list) else []:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and part.get("type") == "tool_call":
                calls.append(
                    ctx.call(part.get("name"), part.get("arguments"), part.get("id"), line)
                )
    return calls


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per trace id, in order of first appearance."""
    traces: dict[str, _Trace] = {}
    seq = 0
    for line, value in records:
        found = False
        for trace_id, start, attrs in _spans(value):
            found = True
            key = str(trace_id) if trace_id is not None else ""
            trace = traces.setdefault(key, _Trace(line))
            seq += 1
            trace.spans.append((start, seq, line, attrs))
        if not found:
            ctx.report("R404", "a record without OpenTelemetry spans was skipped", line)
    for trace_id, trace in traces.items():
        trace.spans.sort(key=lambda s: (s[0], str(s[3].get("__start", "")), s[1]))
        per_span: list[tuple[list[ToolCall | None], ToolCall | None]] = []
        for _start_ns, _seq, line, attrs in trace.spans:
            tool: ToolCall | None = None
            if attrs.get("gen_ai.operation.name") == "execute_tool":
                tool = ctx.call(
                    attrs.get("gen_ai.tool.name"),
                    attrs.get("gen_ai.tool.call.arguments"),
                    attrs.get("gen_ai.tool.call.id"),
                    line,
                )
            per_span.append((_model_calls(attrs, ctx, line), tool))
        has_model = any(c is not None for model, _ in per_span for c in model)
        calls: list[ToolCall | None] = []
        for model, tool in per_span:
            calls.extend(model)
            # A tool span repeats a model-span call (same id, dropped by dedupe); without an
            # id it can only be told apart when no model span recorded calls.
            if tool is not None and (tool.id is not None or not has_model):
                calls.append(tool)
        yield ctx.sample(trace_id or None, calls, trace.line)
