"""Anthropic Messages: ``message`` objects, streamed events, Message Batches results.

``tool_use`` blocks are calls (``input`` object, ``id``); ``server_tool_use`` and
``mcp_tool_use`` blocks are kept with that block type as ``kind``. Streamed events are
reassembled: ``message_start`` opens a message, ``content_block_start`` opens a block and
``input_json_delta`` fragments are joined before decoding; ``message_stop`` emits it.
Batch result lines use ``custom_id`` as sample id; an errored, canceled or expired result
is a sample that failed (``RecordedSample.error``: its type and error message), whose case is
an error rather than a run without calls. A request body or conversation
(``{"messages": [...]}``) yields the assistant turns' calls.

The events the SDK's ``messages.stream()`` helper adds are known too: ``text``,
``input_json``, ``thinking``, ``signature`` and ``citation`` repeat the raw deltas and are
skipped quietly; a ``content_block_stop`` carrying its ``content_block`` and a
``message_stop`` carrying the ``message`` snapshot give the finished block and message.
A message wrapped with an id (``{"id"|"custom_id"|"case"|"key", "response"|"message"|
"output": ...}``), optionally beside its ``request``, is read with the request's
``messages`` as history, their calls first (a call id seen twice counts once). One content
block, or a list of blocks (``message.content``), is one sample.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Envelope, Record, envelope

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
_HELPER_EVENTS = ("text", "input_json", "thinking", "signature", "citation")
"""Events of the SDK's stream helper that repeat what the raw deltas say."""


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


def _is_blocks(value: Any) -> bool:
    """A list of content blocks (``message.content``) holding a call."""
    return (
        isinstance(value, list)
        and all(isinstance(b, dict) and isinstance(b.get("type"), str) and "role" not in b for b in value)
        and any(b["type"] in _CALL_BLOCKS for b in value)
    )


def _is_call_block(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") in _CALL_BLOCKS and "name" in value


def _wrapped(value: Any) -> Envelope | None:
    if isinstance(value, dict) and value.get("type") in (*_EVENTS, *_HELPER_EVENTS):
        return None  # a stream event, not a wrapper
    return envelope(value, _is_message)


def sniff(value: Any) -> bool:
    """A message, a stream event, a batch result, a conversation with tool_use blocks, a
    call block or a list of blocks, or a wrapped message."""
    if not isinstance(value, dict):
        return (
            isinstance(value, list)
            and bool(value)
            and (
                any(isinstance(m, dict) and _has_blocks(m.get("content")) for m in value) or _is_blocks(value)
            )
        )
    if _is_message(value) or _is_call_block(value) or _wrapped(value) is not None:
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
    value: dict[str, Any], ctx: Context, line: int | None, sid: Any, record: Any = None
) -> RecordedSample:
    return ctx.sample(sid, _content_calls(value.get("content"), ctx, line), line, record)


def _conversation(messages: list[Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    calls: list[ToolCall | None] = []
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "assistant":
            calls.extend(_content_calls(m.get("content"), ctx, line))
    return calls


class _Stream:
    def __init__(self, sid: Any, line: int | None, record: Any) -> None:
        self.sid = sid
        self.line = line
        self.record = record  # the stream's first event: what pairing reads
        self.blocks: dict[int, dict[str, Any]] = {}

    def start(self, index: Any, block: Any) -> None:
        if isinstance(block, dict) and isinstance(index, int):
            self.blocks[index] = {"block": block, "json": []}

    def stop(self, index: Any, block: Any) -> None:
        """A ``content_block_stop`` of the SDK helper: the finished block replaces the parts."""
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
        return ctx.sample(self.sid, calls, self.line, self.record)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples from messages, stream events, batch results and conversations."""
    stream: _Stream | None = None
    for line, value in records:
        if isinstance(value, list):
            if _is_blocks(value):
                yield ctx.sample(None, _content_calls(value, ctx, line), line)
            else:
                yield ctx.sample(None, _conversation(value, ctx, line), line)
            continue
        if not isinstance(value, dict):
            ctx.report("R404", "a record that is not an Anthropic object was skipped", line)
            continue
        kind = value.get("type")
        if kind in _EVENTS:
            ctx.defer()  # a streamed message's calls are built at its end
        if kind == "message_start":
            if stream is not None:
                yield stream.sample(ctx)
            message = value.get("message")
            sid = message.get("id") if isinstance(message, dict) else None
            stream = _Stream(sid, line, ctx.here())
        elif kind == "content_block_start":
            stream = stream or _Stream(None, line, ctx.here())
            stream.start(value.get("index"), value.get("content_block"))
        elif kind == "content_block_delta":
            stream = stream or _Stream(None, line, ctx.here())
            stream.delta(value.get("index"), value.get("delta"))
        elif kind == "content_block_stop" and isinstance(value.get("content_block"), dict):
            stream = stream or _Stream(None, line, ctx.here())
            stream.stop(value.get("index"), value["content_block"])
        elif kind == "message_stop":
            snapshot = value.get("message")
            if isinstance(snapshot, dict) and _is_message(snapshot):
                sid = stream.sid if stream is not None and stream.sid is not None else snapshot.get("id")
                began = (stream.line, stream.record) if stream is not None else (line, None)
                yield _message_sample(snapshot, ctx, began[0], sid, began[1])
            elif stream is not None:
                yield stream.sample(ctx)
            stream = None
        elif (kind in _EVENTS or kind in _HELPER_EVENTS) and not _is_message(value):
            continue
        elif _is_message(value):
            yield _message_sample(value, ctx, line, value.get("id"))
        elif "custom_id" in value and isinstance(value.get("result"), dict):
            yield _batch_result(value, ctx, line)
        elif _is_call_block(value):
            yield ctx.sample(None, [block_call(value, ctx, line)], line)
        elif (wrapped := _wrapped(value)) is not None:
            yield _envelope_sample(wrapped, ctx, line)
        elif isinstance(value.get("messages"), list):
            yield ctx.sample(value.get("id"), _conversation(value["messages"], ctx, line), line)
        else:
            ctx.report("R404", "a record that is not an Anthropic object was skipped", line)
    if stream is not None:
        yield stream.sample(ctx)


def _envelope_sample(wrapped: Envelope, ctx: Context, line: int | None) -> RecordedSample:
    """A wrapped message's sample, the calls of its request's ``messages`` first."""
    messages = (wrapped.request or {}).get("messages")
    history = _conversation(messages, ctx, line) if isinstance(messages, list) else []
    sid = wrapped.id if wrapped.id is not None else wrapped.payload.get("id")
    return ctx.sample(sid, [*history, *_content_calls(wrapped.payload.get("content"), ctx, line)], line)


def _batch_result(value: dict[str, Any], ctx: Context, line: int | None) -> RecordedSample:
    sid = value.get("custom_id")
    result = value["result"]
    message = result.get("message")
    if result.get("type") == "succeeded" and isinstance(message, dict):
        return _message_sample(message, ctx, line, sid)
    error = result.get("error")
    while isinstance(error, dict) and isinstance(error.get("error"), dict):
        error = error["error"]
    kind = result.get("type")
    words = [kind if isinstance(kind, str) and kind else "failed"]
    if isinstance(error, dict):
        words.extend(str(error[key]) for key in ("type", "message") if error.get(key))
    return ctx.failed(sid, ": ".join(words), line)
