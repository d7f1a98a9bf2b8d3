"""Anthropic Messages: ``message`` objects, streamed events, Message Batches results.

``tool_use`` blocks are calls (``input`` object, ``id``); ``server_tool_use`` and
``mcp_tool_use`` blocks are kept with that block type as ``kind``. Streamed events are
reassembled: ``message_start`` opens a message, ``content_block_start`` opens a block and
``input_json_delta`` fragments are joined before decoding; ``message_stop`` emits it.
Batch result lines use ``custom_id`` as sample id; an errored, canceled or expired result
is an R404 and a sample with no calls. A request body or conversation
(``{"messages": [...]}``) yields the assistant turns' calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "read", "sniff"]

NAME = "anthropic"

_CALL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
_EVENTS = (
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
    "error",
)


def _has_blocks(content: Any) -> bool:
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") in (*_CALL_BLOCKS, "tool_result") for b in content
    )


def _is_message(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("content"), list)
        and (value.get("type") == "message" or _has_blocks(value["content"]))
        and "choices" not in value
    )


def sniff(value: Any) -> bool:
    """A message, a stream event, a batch result, or a conversation with tool_use blocks."""
    if not isinstance(value, dict):
        return (
            isinstance(value, list)
            and bool(value)
            and any(isinstance(m, dict) and _has_blocks(m.get("content")) for m in value)
        )
    if _is_message(value):
        return True
    if value.get("type") in _EVENTS and (
        "message" in value or "index" in value or value.get("type") == "message_stop"
    ):
        return True
    result = value.get("result")
    if "custom_id" in value and isinstance(result, dict) and "type" in result:
        return True
    messages = value.get("messages")
    return isinstance(messages, list) and any(
        isinstance(m, dict) and _has_blocks(m.get("content")) for m in messages
    )


def block_call(block: Any, ctx: Context, line: int | None) -> ToolCall | None:
    """The call of one content block, or ``None`` for blocks that are not calls."""
    if isinstance(block, dict) and block.get("type") in _CALL_BLOCKS:
        kind = "function" if block["type"] == "tool_use" else block["type"]
        return ctx.call(block.get("name"), block.get("input"), block.get("id"), line, kind)
    return None


def _content_calls(content: Any, ctx: Context, line: int | None) -> list[ToolCall | None]:
    if not isinstance(content, list):
        return []
    return [block_call(b, ctx, line) for b in content]


def _message_sample(
    value: dict[str, Any], ctx: Context, line: int | None, sid: Any
) -> RecordedSample:
    return ctx.sample(sid, _content_calls(value.get("content"), ctx, line), line)


def _conversation(messages: list[Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    calls: list[ToolCall | None] = []
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "assistant":
            calls.extend(_content_calls(m.get("content"), ctx, line))
    return calls


class _Stream:
    def __init__(self, sid: Any, line: int | None) -> None:
        self.sid = sid
        self.line = line
        self.blocks: dict[int, dict[str, Any]] = {}

    def start(self, index: Any, block: Any) -> None:
        if isinstance(block, dict) and isinstance(index, int):
            self.blocks[index] = {"block": block, "json": []}

    def delta(self, index: Any, delta: Any) -> None:
        entry = self.blocks.get(index) if isinstance(index, int) else None
        if (
            entry is not None
            and isinstance(delta, dict)
            and delta.get("type") == "input_json_delta"
            and isinstance(delta.get("partial_json"), str)
        ):
            entry["json"].append(delta["partial_json"])

    def sample(self, ctx: Context) -> RecordedSample:
        calls: list[ToolCall | None] = []
        for index in sorted(self.blocks):
            block = self.blocks[index]["block"]
            if block.get("type") not in _CALL_BLOCKS:
                continue
            fragments = self.blocks[index]["json"]
            args = "".join(fragments) if fragments else block.get("input")
            kind = "function" if block["type"] == "tool_use" else block["type"]
            calls.append(ctx.call(block.get("name"), args, block.get("id"), self.line, kind))
        return ctx.sample(self.sid, calls, self.line)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples from messages, stream events, batch results and conversations."""
    stream: _Stream | None = None
    for line, value in records:
        if isinstance(value, list):
            yield ctx.sample(None, _conversation(value, ctx, line), line)
            continue
        if not isinstance(value, dict):
            ctx.report("R404", "a record that is not an Anthropic object was skipped", line)
            continue
        kind = value.get("type")
        if kind == "message_start":
            if stream is not None:
                yield stream.sample(ctx)
            message = value.get("message")
            sid = message.get("id") if isinstance(message, dict) else None
            stream = _Stream(sid, line)
        elif kind == "content_block_start":
            stream = stream or _Stream(None, line)
            stream.start(value.get("index"), value.get("content_block"))
        elif kind == "content_block_delta":
            stream = stream or _Stream(None, line)
            stream.delta(value.get("index"), value.get("delta"))
        elif kind == "message_stop":
            if stream is not None:
                yield stream.sample(ctx)
            stream = None
        elif kind in _EVENTS and not _is_message(value):
            continue
        elif _is_message(value):
            yield _message_sample(value, ctx, line, value.get("id"))
        elif "custom_id" in value and isinstance(value.get("result"), dict):
            yield _batch_result(value, ctx, line)
        elif isinstance(value.get("messages"), list):
            yield ctx.sample(value.get("id"), _conversation(value["messages"], ctx, line), line)
        else:
            ctx.report("R404", "a record that is not an Anthropic object was skipped", line)
    if stream is not None:
        yield stream.sample(ctx)


def _batch_result(value: dict[str, Any], ctx: Context, line: int | None) -> RecordedSample:
    sid = value.get("custom_id")
    result = value["result"]
    message = result.get("message")
    if result.get("type") == "succeeded" and isinstance(message, dict):
        return _message_sample(message, ctx, line, sid)
    error = result.get("error")
    while isinstance(error, dict) and isinstance(error.get("error"), dict):
        error = error["error"]
    detail = error.get("message") if isinstance(error, dict) else None
    ctx.report(
        "R404",
        f"batch request {sid!r} {result.get('type', 'failed')}"
        f"{': ' + str(detail) if detail else ''}; read as a sample with no calls",
        line,
    )
    return ctx.sample(sid, [], line)
