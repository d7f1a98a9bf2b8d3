"""LangChain messages: ``AIMessage`` dumps with ``tool_calls`` and ``invalid_tool_calls``.

Three serialisations are read: plain ``model_dump`` dicts (``{"type": "ai", ...}``),
``messages_to_dict`` (``{"type": "ai", "data": {...}}``) and the lc constructor form
(``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``). A list of
messages, or ``{"messages": [...]}`` (graph state), is one conversation, one sample.
``invalid_tool_calls`` are kept with their raw ``args`` text and ``valid_json=False``;
the provider's raw ``additional_kwargs.tool_calls`` are used only when the parsed
``tool_calls`` are absent (the same call is not counted twice).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import openai_chat
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "ai_fields", "message_calls", "read", "sniff"]

NAME = "langchain"

_AI_CLASSES = ("AIMessage", "AIMessageChunk")
_AI_TYPES = ("ai", "AIMessageChunk")
_MESSAGE_TYPES = ("ai", "human", "system", "tool", "function", "chat", "AIMessageChunk")
_MESSAGE_CLASSES = (
    "AIMessage",
    "AIMessageChunk",
    "HumanMessage",
    "SystemMessage",
    "ToolMessage",
    "ChatMessage",
)


def ai_fields(value: Any) -> dict[str, Any] | None:
    """The fields of an AI message in any of the three serialisations, else ``None``."""
    if not isinstance(value, dict):
        return None
    if value.get("lc") == 1 and value.get("type") == "constructor":
        ident = value.get("id")
        kwargs = value.get("kwargs")
        if (
            isinstance(ident, list)
            and ident
            and ident[-1] in _AI_CLASSES
            and isinstance(kwargs, dict)
        ):
            return kwargs
        return None
    if value.get("type") in _AI_TYPES:
        data = value.get("data")
        if isinstance(data, dict) and set(value) <= {"type", "data"}:
            return data
        return value
    return None


def _is_message(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if value.get("lc") == 1 and value.get("type") == "constructor":
        ident = value.get("id")
        return isinstance(ident, list) and bool(ident) and ident[-1] in _MESSAGE_CLASSES
    return value.get("type") in _MESSAGE_TYPES and ("content" in value or "data" in value)


def sniff(value: Any) -> bool:
    """An AI message dump, a list of message dumps, or ``{"messages": [...]}`` of them."""
    if ai_fields(value) is not None and _is_message(value):
        return True
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]
    return (
        isinstance(value, list)
        and bool(value)
        and all(_is_message(m) for m in value)
        and any(ai_fields(m) is not None for m in value)
    )


def message_calls(value: Any, ctx: Context, line: int | None) -> list[ToolCall | None]:
    """The calls of one message dump (nothing for messages that are not AI messages)."""
    fields = ai_fields(value)
    if fields is None:
        return []
    out: list[ToolCall | None] = []
    parsed = fields.get("tool_calls")
    invalid = fields.get("invalid_tool_calls")
    for item in parsed if isinstance(parsed, list) else []:
        if isinstance(item, dict):
            out.append(ctx.call(item.get("name"), item.get("args"), item.get("id"), line))
    for item in invalid if isinstance(invalid, list) else []:
        if not isinstance(item, dict):
            continue
        name, args, cid = item.get("name"), item.get("args"), item.get("id")
        if isinstance(name, str) and name and isinstance(args, str):
            why = str(item.get("error") or "recorded as invalid")
            out.append(
                ctx.invalid(
                    name, args, cid if isinstance(cid, str) else None, "function", line, why
                )
            )
        else:
            out.append(ctx.call(name, args, cid, line))
    if not parsed and not invalid:
        extra = fields.get("additional_kwargs")
        if isinstance(extra, dict):
            out.extend(openai_chat.calls_from_message(extra, ctx, line))
    return out


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per AI message record, per list of messages, or per graph state."""
    for line, value in records:
        sid = None
        if isinstance(value, dict) and isinstance(value.get("messages"), list):
            sid = value.get("id")
            value = value["messages"]
        if isinstance(value, list):
            calls: list[ToolCall | None] = []
            for message in value:
                calls.extend(message_calls(message, ctx, line))
            yield ctx.sample(sid, calls, line)
        elif ai_fields(value) is not None:
            yield ctx.sample(None, message_calls(value, ctx, line), line)
        elif _is_message(value):
            continue
        else:
            ctx.report("R404", "a record that is not a LangChain message was skipped", line)
