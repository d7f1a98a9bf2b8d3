"""Whether an OpenTelemetry trace recorded message content, and the warning when it did not.

GenAI instrumentations record the messages a model received and produced only when content
capture is on; without it a model span holds the model, the finish reasons and the token
counts, and no call can be read from it. A trace whose model spans (``gen_ai.operation.name``
``chat``, ``text_completion`` or ``generate_content``, or an OpenInference ``LLM`` span) and
``gen_ai.choice`` log events hold no content at all (a choice's calls named without their
arguments, as the OpenAI instrumentation logs them then), gets an R411 warning that says how
to turn capture on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeAlias

from toolexpect.logs._base import Context

__all__ = ["Event", "Span", "warn_without_content"]

Event: TypeAlias = tuple[str, dict[str, Any]]
"""A span event or log event: its name and its decoded attributes (a log's body as ``body``)."""

_CONTENT_KEYS = (
    "gen_ai.output.messages",
    "gen_ai.input.messages",
    "gen_ai.completion.",
    "gen_ai.prompt.",
    "llm.output_messages.",
    "llm.input_messages.",
    "output.value",
    "input.value",
)
_MODEL_OPERATIONS = ("chat", "text_completion", "generate_content")


def _is_model_span(attrs: dict[str, Any]) -> bool:
    return (
        attrs.get("gen_ai.operation.name") in _MODEL_OPERATIONS
        or attrs.get("openinference.span.kind") == "LLM"
    )


def _event_content(attrs: dict[str, Any]) -> bool:
    """Whether an event records message content: text, or a call's arguments."""
    if "gen_ai.event.content" in attrs or "gen_ai.output.messages" in attrs:
        return True
    body = attrs.get("body")
    if isinstance(body, str) and body:
        return True  # content given as text (read, or reported, by the reader)
    message = attrs.get("message", body.get("message") if isinstance(body, dict) else None)
    if isinstance(message, str):
        return bool(message)
    if not isinstance(message, dict):
        return False
    if message.get("content") is not None:
        return True
    tool_calls = message.get("tool_calls")
    return any(
        isinstance(item, dict) and isinstance(item.get("function"), dict) and "arguments" in item["function"]
        for item in (tool_calls if isinstance(tool_calls, list) else [])
    )


Span: TypeAlias = tuple[dict[str, Any], list[Event]]
"""A span's decoded attributes and its events."""


def _models_without_content(spans: Iterable[Span], logs: Iterable[Event]) -> int:
    """How many model spans there are when nothing in the trace records content (else 0)."""
    models = 0
    for attrs, events in spans:
        if any(key.startswith(_CONTENT_KEYS) for key in attrs):
            return 0
        if any(_event_content(event) for _name, event in events):
            return 0
        models += _is_model_span(attrs)
    for name, event in logs:
        if _event_content(event):
            return 0
        models += name == "gen_ai.choice"
    return models


def warn_without_content(
    trace_id: str,
    spans: Iterable[Span],
    logs: Iterable[Event],
    ctx: Context,
    line: int | None,
) -> None:
    """Report R411 when the trace has model spans and records no content anywhere."""
    models = _models_without_content(spans, logs)
    if not models:
        return
    records = "record" if models == 1 else "records"
    ctx.report(
        "R411",
        f"trace {trace_id or '(no id)'} holds no message content ({models} model {records}: "
        "spans or gen_ai.choice events), so the calls the model made cannot be read in full; "
        "record again with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true",
        line,
        help="turn content capture on and record again: "
        "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true for the OpenTelemetry GenAI "
        "instrumentations (TRACELOOP_TRACE_CONTENT=true for OpenLLMetry)",
    )
