"""OpenTelemetry GenAI telemetry in OTLP JSON: spans (``resourceSpans``) and log events.

One sample per ``traceId`` (the trace id is the sample id), calls ordered by span start
time. A model span's calls are read from the first of these that it has:

1. ``gen_ai.output.messages`` (``tool_call`` parts), the current conventions;
2. ``gen_ai.client.inference.operation.details`` span events carrying that attribute;
3. ``gen_ai.choice`` span events (conventions up to 1.36: ``message.tool_calls``, in the
   event's attributes or as JSON in ``gen_ai.event.content``);
4. flattened ``gen_ai.completion.<i>.tool_calls.<j>.name|arguments|id`` attributes, as
   OpenLLMetry records them.

``gen_ai.choice`` events sent as OTLP **log records** (``resourceLogs``, the event name in
``eventName`` or the ``event.name`` attribute, the content in the body) are read too, ordered
by time; a trace takes them only when its spans recorded no model calls. Calls also come
from ``execute_tool`` spans (``gen_ai.tool.name``, ``gen_ai.tool.call.arguments``,
``gen_ai.tool.call.id``). A call seen twice counts once, by call id; an ``execute_tool``
span without a call id repeats the earliest model-span call not yet run of its tool and
arguments, and is a call of its own when there is none (a tool no model call names).
OpenInference attributes (``llm.output_messages.<i>.message.tool_calls.<j>.tool_call.*`` on
``LLM`` spans, ``TOOL`` spans with ``tool.name``) are read as the last form of model-span calls
and as tool spans (see :mod:`toolexpect.logs.openinference`). A trace whose model spans hold
no message content at all (instrumentations record it only when asked to) and no tool span
gives an R411 warning naming the setting that turns content capture on; its sample is kept
(see :mod:`toolexpect.logs.otel_content`).
Typed attribute values are decoded (``intValue`` given as a decimal string becomes an int).
Files hold one OTLP request, or one per line (the collector's file exporter); a plain
span list (``{"name", "context", "attributes": {...}}`` as the Python SDK prints) also reads,
and so does any-agent's ``AgentTrace`` export (``{"spans": [...], "final_output"}``, integer
trace ids written as hex): its ``call_llm`` spans' ``gen_ai.output`` (type ``json``) names
calls as ``{"tool.name", "tool.args"}``, its ``execute_tool`` spans hold ``gen_ai.tool.args``.
A span logged twice (the same span id in its trace) is read once, with an R410 note.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import openinference
from toolexpect.logs._base import Context, Record
from toolexpect.logs.otel_content import Event, warn_without_content

__all__ = ["NAME", "attribute_value", "read", "sniff"]

NAME = "otel"


def sniff(value: Any) -> bool:
    """An OTLP traces or logs request (``resourceSpans``, ``resourceLogs``) or SDK span dumps."""
    if isinstance(value, dict):
        return (
            isinstance(value.get("resourceSpans", value.get("resource_spans")), list)
            or isinstance(value.get("resourceLogs", value.get("resource_logs")), list)
            or _is_sdk_span(value)
            or _span_list(value.get("spans"))
        )
    return _span_list(value)


def _span_list(value: Any) -> bool:
    """A non-empty list of SDK span dumps (the first few checked)."""
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
        self.spans: list[tuple[int, int, int | None, dict[str, Any], list[Event]]] = []
        self.logs: list[tuple[int, int, int | None, Event]] = []


def _events(items: Any) -> list[Event]:
    """Name and attributes of each span event (OTLP ``events[]`` or an SDK dump's)."""
    events: list[Event] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            events.append((item["name"], _attributes(item.get("attributes"))))
    return events


def _sdk_id(value: Any, width: int) -> Any:
    """An SDK dump's trace or span id: an integer (any-agent's ``AgentSpan``) as hex."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return format(value, f"0{width}x")
    return value


def _spans(value: Any) -> Iterator[tuple[Any, Any, int, dict[str, Any], list[Event]]]:
    """(trace id, span id, start time, attributes, events) of each span of one record."""
    if isinstance(value, dict) and _span_list(value.get("spans")):
        value = value["spans"]  # any-agent's AgentTrace: {"spans": [...], "final_output": ...}
    if isinstance(value, list):
        for span in value:
            if _is_sdk_span(span):
                start = span.get("start_time")
                context = span["context"]
                yield (
                    _sdk_id(context.get("trace_id"), 32),
                    _sdk_id(context.get("span_id"), 16),
                    start if isinstance(start, int) and not isinstance(start, bool) else 0,
                    span["attributes"] | {"__start": start if isinstance(start, str) else ""},
                    _events(span.get("events")),
                )
        return
    if _is_sdk_span(value):
        yield from _spans([value])
        return
    resources = value.get("resourceSpans", value.get("resource_spans")) if isinstance(value, dict) else None
    for resource in resources if isinstance(resources, list) else []:
        if not isinstance(resource, dict):
            continue
        scopes = resource.get("scopeSpans", resource.get("scope_spans"))
        # The resource's attributes (service.name, a deployment's own keys) stand behind each
        # span's, so that --case-from can name either; a span's own attribute wins.
        own = resource.get("resource")
        shared = _attributes(own.get("attributes")) if isinstance(own, dict) else {}
        for scope in scopes if isinstance(scopes, list) else []:
            spans = scope.get("spans") if isinstance(scope, dict) else None
            for span in spans if isinstance(spans, list) else []:
                if isinstance(span, dict):
                    trace = span.get("traceId", span.get("trace_id"))
                    attributes = _attributes(span.get("attributes"))
                    if shared:
                        attributes = shared | attributes
                    span_id = span.get("spanId", span.get("span_id"))
                    yield trace, span_id, _start(span), attributes, _events(span.get("events"))


def _log_events(value: Any) -> Iterator[tuple[Any, int, Event]]:
    """(trace id, time, event) of each named log record of an OTLP logs request."""
    resources = value.get("resourceLogs", value.get("resource_logs")) if isinstance(value, dict) else None
    for resource in resources if isinstance(resources, list) else []:
        scopes = resource.get("scopeLogs", resource.get("scope_logs")) if isinstance(resource, dict) else None
        for scope in scopes if isinstance(scopes, list) else []:
            records = scope.get("logRecords", scope.get("log_records")) if isinstance(scope, dict) else None
            for record in records if isinstance(records, list) else []:
                if not isinstance(record, dict):
                    continue
                attributes = _attributes(record.get("attributes"))
                name = record.get("eventName", record.get("event_name")) or attributes.get("event.name")
                if not isinstance(name, str):
                    continue
                attributes["body"] = attribute_value(record.get("body"))
                when = record.get("timeUnixNano", record.get("observedTimeUnixNano"))
                trace = record.get("traceId", record.get("trace_id"))
                yield trace, _start({"startTimeUnixNano": when}), (name, attributes)


def _json_value(raw: Any, what: str, ctx: Context, line: int | None) -> Any:
    """``raw`` decoded when it is JSON text (R404 and ``None`` when it is not), else as it is."""
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        ctx.report("R404", f"{what} is not valid JSON; ignored", line)
        return None


def _model_calls(attrs: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    raw = _json_value(attrs.get("gen_ai.output.messages"), "gen_ai.output.messages", ctx, line)
    calls: list[ToolCall | None] = []
    for message in raw if isinstance(raw, list) else []:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and part.get("type") == "tool_call":
                calls.append(ctx.call(part.get("name"), part.get("arguments"), part.get("id"), line))
    return calls


def _choice_calls(event: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    """Calls of one ``gen_ai.choice`` event: ``message.tool_calls`` of its content."""
    content: Any = event
    if "gen_ai.event.content" in event:
        content = _json_value(event["gen_ai.event.content"], "gen_ai.event.content", ctx, line)
    elif isinstance(event.get("body"), dict | str):
        content = _json_value(event["body"], "the gen_ai.choice body", ctx, line)
    message = content.get("message") if isinstance(content, dict) else None
    message = _json_value(message, "the gen_ai.choice message", ctx, line)
    tool_calls = message.get("tool_calls") if isinstance(message, dict) else None
    calls: list[ToolCall | None] = []
    for item in tool_calls if isinstance(tool_calls, list) else []:
        if not isinstance(item, dict):
            continue
        function = item.get("function")
        function = function if isinstance(function, dict) else item
        calls.append(ctx.call(function.get("name"), function.get("arguments"), item.get("id"), line))
    return calls


def _event_calls(events: list[Event], ctx: Context, line: int | None) -> list[ToolCall | None]:
    """Calls of a span's events: operation-details events first, else ``gen_ai.choice`` ones."""
    calls: list[ToolCall | None] = []
    for name, attrs in events:
        if name == "gen_ai.client.inference.operation.details":
            calls.extend(_model_calls(attrs, ctx, line))
    if calls:
        return calls
    for name, attrs in events:
        if name == "gen_ai.choice":
            calls.extend(_choice_calls(attrs, ctx, line))
    return calls


_FLAT = re.compile(r"gen_ai\.completion\.(\d+)\.tool_calls\.(\d+)\.(name|arguments|id)")


def _flat_calls(attrs: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    """Calls of flattened ``gen_ai.completion.<i>.tool_calls.<j>.*`` attributes, in index order."""
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for key, value in attrs.items():
        if key.startswith("gen_ai.completion."):
            match = _FLAT.fullmatch(key)
            if match:
                index = (int(match[1]), int(match[2]))
                found.setdefault(index, {})[match[3]] = value
    return [
        ctx.call(parts.get("name"), parts.get("arguments"), parts.get("id"), line)
        for _, parts in sorted(found.items())
    ]


def _llm_output_calls(attrs: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    """Calls of an any-agent ``call_llm`` span: its ``gen_ai.output`` (``genai.output`` in
    early releases) of type ``json``, a list of ``{"tool.name", "tool.args"}`` or of Chat
    Completions ``tool_calls``."""
    if attrs.get("gen_ai.operation.name") != "call_llm":
        return []
    for prefix in ("gen_ai.output", "genai.output"):
        if prefix in attrs and attrs.get(f"{prefix}.type") == "json":
            raw = _json_value(attrs[prefix], prefix, ctx, line)
            break
    else:
        return []
    calls: list[ToolCall | None] = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict):
            continue
        if "tool.name" in item:
            calls.append(ctx.call(item["tool.name"], item.get("tool.args"), item.get("tool.call.id"), line))
        elif isinstance(item.get("function"), dict):
            function = item["function"]
            calls.append(ctx.call(function.get("name"), function.get("arguments"), item.get("id"), line))
    return calls


def _span_calls(
    attrs: dict[str, Any], events: list[Event], ctx: Context, line: int | None
) -> list[ToolCall | None]:
    """A model span's calls, from the first of its records of them that has any."""
    return (
        _model_calls(attrs, ctx, line)
        or _event_calls(events, ctx, line)
        or _flat_calls(attrs, ctx, line)
        or openinference.model_calls(attrs, ctx, line)
        or _llm_output_calls(attrs, ctx, line)
    )


def _tool_arguments(attrs: dict[str, Any]) -> Any:
    """An ``execute_tool`` span's arguments: ``gen_ai.tool.call.arguments``, or any-agent's
    ``gen_ai.tool.args`` (JSON text, in some releases the JSON text of that text)."""
    if "gen_ai.tool.call.arguments" in attrs:
        return attrs["gen_ai.tool.call.arguments"]
    raw = attrs.get("gen_ai.tool.args")
    if isinstance(raw, str) and raw.startswith('"'):
        try:
            inner = json.loads(raw)
        except (ValueError, RecursionError):
            return raw
        return inner if isinstance(inner, str) else raw
    return raw


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per trace id, in order of first appearance."""
    ctx.defer()  # calls are built once every span of the log is read
    traces: dict[str, _Trace] = {}
    seen: set[tuple[str, str]] = set()
    seq = 0
    for line, value in records:
        found = False
        for trace_id, span_id, start, attrs, events in _spans(value):
            found = True
            key = str(trace_id) if trace_id is not None else ""
            if isinstance(span_id, str | int) and not isinstance(span_id, bool) and span_id:
                if (key, str(span_id)) in seen:
                    ctx.report(
                        "R410",
                        f"span {span_id} of trace {key or '(none)'} is logged again; read once",
                        line,
                        help="an exporter or a copy wrote the same span twice",
                    )
                    continue
                seen.add((key, str(span_id)))
            trace = traces.setdefault(key, _Trace(line))
            seq += 1
            trace.spans.append((start, seq, line, attrs, events))
        for trace_id, when, event in _log_events(value):
            found = True
            key = str(trace_id) if trace_id is not None else ""
            trace = traces.setdefault(key, _Trace(line))
            seq += 1
            trace.logs.append((when, seq, line, event))
        if not found:
            ctx.report("R404", "a record without OpenTelemetry spans or GenAI events was skipped", line)
    for trace_id, trace in traces.items():
        trace.spans.sort(key=lambda s: (s[0], str(s[3].get("__start", "")), s[1]))
        per_span: list[tuple[list[ToolCall | None], ToolCall | None]] = []
        for _start_ns, _seq, line, attrs, events in trace.spans:
            tool: ToolCall | None = None
            if attrs.get("gen_ai.operation.name") == "execute_tool":
                tool = ctx.call(
                    attrs.get("gen_ai.tool.name"),
                    _tool_arguments(attrs),
                    attrs.get("gen_ai.tool.call.id"),
                    line,
                )
            elif openinference.is_tool_span(attrs):
                tool = openinference.tool_call(attrs, ctx, line)
            per_span.append((_span_calls(attrs, events, ctx, line), tool))
        has_model = any(c is not None for model, _ in per_span for c in model)
        if not has_model and trace.logs:
            trace.logs.sort(key=lambda entry: (entry[0], entry[1]))
            logged = [
                call for _when, _seq, line, event in trace.logs for call in _event_calls([event], ctx, line)
            ]
            has_model = any(c is not None for c in logged)
            per_span.insert(0, (logged, None))
        calls: list[ToolCall | None] = []
        pending: list[ToolCall] = []
        for model, tool in per_span:
            calls.extend(model)
            pending.extend(c for c in model if c is not None)
            if tool is None:
                continue
            run = _run_of(tool, pending)
            if run is None:
                calls.append(tool)
            elif run.id is None and tool.id is not None:
                # The tool span knows the call's id, its model span did not.
                index = next(i for i, c in enumerate(calls) if c is run)
                calls[index] = dataclasses.replace(run, id=tool.id)
        if not any(tool for _, tool in per_span):
            spans = [(attrs, events) for _start_ns, _seq, _line, attrs, events in trace.spans]
            logs = [event for _when, _seq, _line, event in trace.logs]
            warn_without_content(trace_id, spans, logs, ctx, trace.line)
        record = _trace_attributes(trace) if ctx.note is not None else None
        yield ctx.sample(trace_id or None, calls, trace.line, record)


def _run_of(tool: ToolCall, pending: list[ToolCall]) -> ToolCall | None:
    """The model-span call of ``pending`` that a tool span runs (taken from ``pending``), or
    ``None`` when the tool span is a call of its own.

    A tool span with a call id runs the model call of that id and tool. Otherwise it runs the
    earliest model call not yet run of the same tool and the same arguments (any arguments
    when the span recorded none) that has no other id; a tool no model call names, or other
    arguments, is a call of its own.
    """
    match: ToolCall | None = None
    if tool.id is not None:
        match = next((c for c in pending if c.id == tool.id and c.name == tool.name), None)
    if match is None:
        same = [c for c in pending if c.name == tool.name and (tool.id is None or c.id is None)]
        match = next((c for c in same if c.arguments == tool.arguments), None)
        if match is None and not tool.arguments and tool.raw_arguments is None:
            match = same[0] if same else None
    if match is not None:
        pending.remove(match)
    return match


def _trace_attributes(trace: _Trace) -> dict[str, Any]:
    """The attributes of a trace's spans, the earliest span's first: what pairing reads."""
    merged: dict[str, Any] = {}
    for span in trace.spans:
        for key, value in span[3].items():
            merged.setdefault(key, value)
    return merged
