"""OpenAI Responses API: ``output[]`` items of a ``response`` object, and streamed events.

``function_call`` items become calls (``call_id`` as id, ``arguments`` decoded);
``custom_tool_call`` items keep their free-text ``input`` as ``{"input": ...}``;
provider-executed items (``mcp_call``, ``web_search_call``, ``file_search_call``,
``code_interpreter_call``, ``image_generation_call``, ``computer_call``,
``local_shell_call``) are kept with their item type as ``kind``. Streamed event lines are
read from ``response.completed`` (or, if the stream stops early, ``output_item.done``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "read", "response_sample", "sniff"]

NAME = "openai-responses"

_PROVIDER = {
    "web_search_call": ("web_search", ("action",)),
    "file_search_call": ("file_search", ("queries",)),
    "code_interpreter_call": ("code_interpreter", ("code", "container_id")),
    "image_generation_call": ("image_generation", ()),
    "computer_call": ("computer", ("action",)),
    "local_shell_call": ("local_shell", ("action",)),
}
_ITEM_TYPES = ("function_call", "mcp_call", "custom_tool_call", *_PROVIDER)


def _is_response(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("output"), list)
        and (
            value.get("object") == "response"
            or any(isinstance(i, dict) and i.get("type") in _ITEM_TYPES for i in value["output"])
        )
    )


def sniff(value: Any) -> bool:
    """A ``response`` object, or a ``response.*`` stream event."""
    if _is_response(value):
        return True
    return (
        isinstance(value, dict)
        and isinstance(value.get("type"), str)
        and value["type"].startswith("response.")
        and ("response" in value or "item" in value or "sequence_number" in value)
    )


def item_call(item: Any, ctx: Context, line: int | None) -> ToolCall | None:
    """The call of one output item, or ``None`` for items that are not calls."""
    if not isinstance(item, dict):
        return None
    kind = item.get("type")
    if kind == "function_call":
        cid = item.get("call_id") or item.get("id")
        return ctx.call(item.get("name"), item.get("arguments"), cid, line)
    if kind == "mcp_call":
        return ctx.call(item.get("name"), item.get("arguments"), item.get("id"), line, "mcp_call")
    if kind == "custom_tool_call":
        cid = item.get("call_id") or item.get("id")
        return ctx.call(item.get("name"), {"input": item.get("input")}, cid, line, kind)
    if isinstance(kind, str) and kind in _PROVIDER:
        name, keys = _PROVIDER[kind]
        args = {k: item[k] for k in keys if k in item}
        if len(keys) == 1 and isinstance(args.get(keys[0]), dict):
            args = args[keys[0]]
        cid = item.get("call_id") or item.get("id")
        return ctx.call(name, args, cid, line, kind)
    return None


def response_sample(
    value: dict[str, Any], ctx: Context, line: int | None, sid: Any = None
) -> RecordedSample:
    """One sample from a ``response`` object's ``output``."""
    calls = [item_call(item, ctx, line) for item in value.get("output") or []]
    return ctx.sample(sid if sid is not None else value.get("id"), calls, line)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples from response objects and from streamed event lines."""
    pending: list[Any] = []
    pending_id: Any = None
    pending_line: int | None = None
    for line, value in records:
        if _is_response(value):
            yield response_sample(value, ctx, line)
            continue
        if isinstance(value, list):
            yield ctx.sample(None, [item_call(i, ctx, line) for i in value], line)
            continue
        kind = value.get("type") if isinstance(value, dict) else None
        if kind in ("response.completed", "response.incomplete", "response.failed") and isinstance(
            value.get("response"), dict
        ):
            yield response_sample(value["response"], ctx, pending_line or line)
            pending, pending_id, pending_line = [], None, None
        elif kind == "response.created" and isinstance(value.get("response"), dict):
            if pending:
                yield ctx.sample(
                    pending_id, [item_call(i, ctx, pending_line) for i in pending], pending_line
                )
            pending, pending_id, pending_line = [], value["response"].get("id"), line
        elif kind == "response.output_item.done":
            pending.append(value.get("item"))
            pending_line = pending_line or line
        elif not (isinstance(kind, str) and kind.startswith("response.")):
            ctx.report("R404", "a record that is not a Responses API object was skipped", line)
    if pending:
        yield ctx.sample(
            pending_id, [item_call(i, ctx, pending_line) for i in pending], pending_line
        )
