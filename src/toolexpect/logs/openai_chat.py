"""OpenAI Chat Completions: responses, ``messages`` conversations and streamed chunks.

* a ``chat.completion`` response: one sample per choice, the response id as sample id;
* a conversation (``{"messages": [...]}`` or a bare list of messages): the assistant
  messages' ``tool_calls`` (and legacy ``function_call``), one sample;
* ``chat.completion.chunk`` lines: tool-call fragments reassembled by stream id, choice
  index and tool-call index; a sample is emitted when its choice finishes;
* one assistant message (``response.choices[0].message``) or a list of its ``tool_calls``;
* a completion wrapped with an id (``{"id"|"custom_id"|"case"|"key", "response"|"message"|
  "output": ...}``), optionally beside its ``request``: the request's ``messages`` are the
  history before the response, their calls read first (a call id seen twice counts once).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Envelope, Record, envelope

__all__ = ["NAME", "calls_from_message", "is_chat_message", "is_conversation", "read", "sniff"]

NAME = "openai-chat"


def is_chat_message(value: Any) -> bool:
    """An OpenAI-style chat message (``role`` plus ``tool_calls``/``content``)."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("role"), str)
        and ("content" in value or "tool_calls" in value or "function_call" in value)
        and not _anthropic_content(value.get("content"))
    )


def _anthropic_content(content: Any) -> bool:
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result") for b in content
    )


def _is_completion(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("choices"), list)
        and (
            value.get("object") in ("chat.completion", "chat.completion.chunk")
            or any(isinstance(c, dict) and ("message" in c or "delta" in c) for c in value["choices"])
        )
    )


def _is_assistant(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("role") == "assistant"
        and is_chat_message(value)
        and _has_calls([value])
    )


def _is_call_item(value: Any) -> bool:
    return isinstance(value, dict) and (
        (value.get("type") == "function" and isinstance(value.get("function"), dict))
        or (value.get("type") == "custom" and isinstance(value.get("custom"), dict))
    )


def _wrapped(value: Any) -> Envelope | None:
    return envelope(value, _is_completion)


def sniff(value: Any) -> bool:
    """A completion, a chunk, a conversation of chat messages, one assistant message or its
    tool calls, or a wrapped completion."""
    if _is_completion(value) or _is_assistant(value):
        return True
    if isinstance(value, list) and value and all(_is_call_item(v) for v in value):
        return True
    if _wrapped(value) is not None:
        return True
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        msgs = value["messages"]
        return bool(msgs) and all(is_chat_message(m) for m in msgs) and _has_calls(msgs)
    if isinstance(value, list) and value:
        return all(is_chat_message(m) for m in value) and _has_calls(value)
    return False


def _has_calls(messages: list[Any]) -> bool:
    return any(isinstance(m, dict) and ("tool_calls" in m or "function_call" in m) for m in messages)


def calls_from_message(message: Any, ctx: Context, line: int | None) -> list[ToolCall | None]:
    """The calls of one assistant message (``tool_calls`` items and ``function_call``)."""
    out: list[ToolCall | None] = []
    if not isinstance(message, dict):
        return out
    tool_calls = message.get("tool_calls")
    if isinstance(tool_calls, list):
        for item in tool_calls:
            if not isinstance(item, dict):
                ctx.report("R404", "a tool call that is not an object was skipped", line)
                continue
            fn = item.get("function")
            if isinstance(fn, dict):
                out.append(ctx.call(fn.get("name"), fn.get("arguments"), item.get("id"), line))
            elif isinstance(item.get("custom"), dict):
                custom = item["custom"]
                out.append(
                    ctx.call(
                        custom.get("name"),
                        {"input": custom.get("input")},
                        item.get("id"),
                        line,
                        kind="custom",
                    )
                )
            else:
                ctx.report("R404", "a tool call without a function was skipped", line)
    fn_call = message.get("function_call")
    if isinstance(fn_call, dict):
        out.append(ctx.call(fn_call.get("name"), fn_call.get("arguments"), None, line))
    return out


def conversation_calls(messages: list[Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    """Calls of the assistant messages of a conversation, in order."""
    out: list[ToolCall | None] = []
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant":
            if _anthropic_content(message.get("content")):
                ctx.report(
                    "R404",
                    "a message with Anthropic tool_use blocks was skipped in an OpenAI Chat log",
                    line,
                    help="read the log with --log-format anthropic",
                )
            out.extend(calls_from_message(message, ctx, line))
    return out


def is_conversation(value: Any) -> bool:
    """A conversation of chat messages, with or without calls (``{"messages": [...]}`` or a
    list of messages): what only this format reads once no format fits a log's records."""
    messages = value.get("messages") if isinstance(value, dict) else value
    return (
        isinstance(messages, list)
        and bool(messages)
        and all(is_chat_message(m) for m in messages)
        and any(m.get("role") == "user" for m in messages)
    )


def completion_samples(value: dict[str, Any], ctx: Context, line: int | None) -> list[RecordedSample]:
    """One sample per choice of a ``chat.completion`` response."""
    samples = []
    for choice in value.get("choices") or []:
        if isinstance(choice, dict):
            calls = calls_from_message(choice.get("message"), ctx, line)
            samples.append(ctx.sample(value.get("id"), calls, line))
    return samples


def _envelope_samples(wrapped: Envelope, ctx: Context, line: int | None) -> list[RecordedSample]:
    """One sample per choice of a wrapped completion, the request's history first."""
    request = wrapped.request or {}
    messages = request.get("messages")
    history = conversation_calls(messages, ctx, line) if isinstance(messages, list) else []
    sid = wrapped.id if wrapped.id is not None else wrapped.payload.get("id")
    return [
        ctx.sample(sid, [*history, *calls_from_message(choice.get("message"), ctx, line)], line)
        for choice in wrapped.payload.get("choices") or []
        if isinstance(choice, dict)
    ]


class _Stream:
    """Tool-call fragments of one streamed choice, by tool-call index."""

    def __init__(self, sid: Any, line: int | None, record: Any) -> None:
        self.sid = sid
        self.line = line
        self.record = record  # the first chunk: what pairing reads
        self.parts: dict[int, dict[str, Any]] = {}
        self.legacy: dict[str, Any] | None = None

    def add(self, delta: dict[str, Any]) -> None:
        for item in delta.get("tool_calls") or []:
            if not isinstance(item, dict):
                continue
            index = item.get("index")
            index = index if isinstance(index, int) else len(self.parts)
            part = self.parts.setdefault(index, {"id": None, "name": "", "args": []})
            if item.get("id"):
                part["id"] = item["id"]
            fn = item.get("function")
            if isinstance(fn, dict):
                if isinstance(fn.get("name"), str):
                    part["name"] += fn["name"]
                if isinstance(fn.get("arguments"), str):
                    part["args"].append(fn["arguments"])
        fc = delta.get("function_call")
        if isinstance(fc, dict):
            if self.legacy is None:
                self.legacy = {"name": "", "args": []}
            if isinstance(fc.get("name"), str):
                self.legacy["name"] += fc["name"]
            if isinstance(fc.get("arguments"), str):
                self.legacy["args"].append(fc["arguments"])

    def sample(self, ctx: Context) -> RecordedSample:
        calls: list[ToolCall | None] = []
        for index in sorted(self.parts):
            part = self.parts[index]
            calls.append(ctx.call(part["name"], "".join(part["args"]), part["id"], self.line))
        if self.legacy is not None:
            calls.append(ctx.call(self.legacy["name"], "".join(self.legacy["args"]), None, self.line))
        return ctx.sample(self.sid, calls, self.line, self.record)


def _hashable(value: Any) -> Any:
    return value if value is None or isinstance(value, str | int | float) else repr(value)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples from completions, chunks and conversations, in file order."""
    streams: dict[tuple[Any, Any], _Stream] = {}
    for line, value in records:
        if isinstance(value, dict) and value.get("object") == "chat.completion.chunk":
            for choice in value.get("choices") or []:
                if not isinstance(choice, dict):
                    continue
                key = (_hashable(value.get("id")), _hashable(choice.get("index", 0)))
                stream = streams.get(key)
                if stream is None:
                    ctx.defer()  # a streamed choice's calls are built when it finishes
                    stream = streams[key] = _Stream(value.get("id"), line, ctx.here())
                delta = choice.get("delta")
                if isinstance(delta, dict):
                    stream.add(delta)
                if choice.get("finish_reason"):
                    yield streams.pop(key).sample(ctx)
        elif _is_completion(value):
            yield from completion_samples(value, ctx, line)
        elif _is_assistant(value):
            yield ctx.sample(None, calls_from_message(value, ctx, line), line)
        elif (wrapped := _wrapped(value)) is not None:
            yield from _envelope_samples(wrapped, ctx, line)
        elif isinstance(value, dict) and isinstance(value.get("messages"), list):
            calls = conversation_calls(value["messages"], ctx, line)
            yield ctx.sample(value.get("id"), calls, line)
        elif isinstance(value, list) and value and all(_is_call_item(v) for v in value):
            yield ctx.sample(None, calls_from_message({"tool_calls": value}, ctx, line), line)
        elif isinstance(value, list):
            yield ctx.sample(None, conversation_calls(value, ctx, line), line)
        else:
            ctx.report("R404", "a record that is not a chat completion was skipped", line)
    for stream in streams.values():
        yield stream.sample(ctx)
