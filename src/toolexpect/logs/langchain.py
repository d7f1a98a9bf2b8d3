"""LangChain messages: ``AIMessage`` dumps with ``tool_calls`` and ``invalid_tool_calls``.

Three serialisations are read: plain ``model_dump`` dicts (``{"type": "ai", ...}``),
``messages_to_dict`` (``{"type": "ai", "data": {...}}``) and the lc constructor form
(``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``). A list of
messages, ``{"messages": [...]}`` (graph state), or a LangGraph thread or thread state
(``{"thread_id", "values": {"messages": [...]}}``; the thread id is the sample id) is one
conversation, one sample.
``invalid_tool_calls`` are kept with their raw ``args`` text and ``valid_json=False``;
the provider's raw ``additional_kwargs.tool_calls`` are used only when the parsed
``tool_calls`` are absent (the same call is not counted twice). A thread may mix the
serialisations, and hold ``{"role", "content"}`` dicts, which LangChain takes as messages too.

Streamed ``AIMessageChunk`` records (one ``dumpd`` or dump per chunk) are merged by message
``id`` as LangChain's chunk addition does: ``tool_call_chunks`` of one ``index`` are joined,
their ``name`` and ``args`` text concatenated, the first ``id`` kept; the joined arguments are
then decoded. One sample per message, given when a chunk says it is the last
(``chunk_position: "last"``) or at the end of the log. A message's ``tool_calls`` list
(``{"name", "args", "id", "type": "tool_call"}`` dicts) is one sample.
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


def _message_class(name: Any) -> bool:
    """A LangChain message class name (``HumanMessage``, ``ToolMessageChunk``, ...)."""
    return isinstance(name, str) and (name.endswith("Message") or name.endswith("MessageChunk"))


def ai_fields(value: Any) -> dict[str, Any] | None:
    """The fields of an AI message in any of the three serialisations, else ``None``."""
    if not isinstance(value, dict):
        return None
    if value.get("lc") == 1 and value.get("type") == "constructor":
        ident = value.get("id")
        kwargs = value.get("kwargs")
        if isinstance(ident, list) and ident and ident[-1] in _AI_CLASSES and isinstance(kwargs, dict):
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
        return isinstance(ident, list) and bool(ident) and _message_class(ident[-1])
    if value.get("type") in _MESSAGE_TYPES and ("content" in value or "data" in value):
        return True
    return isinstance(value.get("role"), str) and "content" in value and "type" not in value


def _is_tool_calls(value: Any) -> bool:
    """A list of LangChain ``ToolCall`` dicts (``message.tool_calls``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, dict) and v.get("type") == "tool_call" and "name" in v for v in value)
    )


def _thread(value: Any) -> tuple[Any, list[Any]] | None:
    """The id and messages of ``{"messages": [...]}`` (id ``id``) or of a LangGraph thread
    or its state (``{"thread_id", "values": {"messages": [...]}}``), else ``None``."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("messages"), list):
        return value.get("id"), value["messages"]
    state = value.get("values")
    if isinstance(state, dict) and isinstance(state.get("messages"), list):
        return _thread_id(value), state["messages"]
    return None


def _thread_id(value: dict[str, Any]) -> Any:
    """A LangGraph thread's id: ``thread_id``, a state's ``checkpoint.thread_id``, or a
    ``StateSnapshot``'s ``config.configurable.thread_id``."""
    if value.get("thread_id") is not None:
        return value["thread_id"]
    checkpoint = value.get("checkpoint")
    if isinstance(checkpoint, dict) and checkpoint.get("thread_id") is not None:
        return checkpoint["thread_id"]
    config = value.get("config")
    configurable = config.get("configurable") if isinstance(config, dict) else None
    return configurable.get("thread_id") if isinstance(configurable, dict) else None


def sniff(value: Any) -> bool:
    """An AI message dump, a list of message dumps, ``{"messages": [...]}`` of them or a
    LangGraph thread state holding them, or a message's ``tool_calls``."""
    if (ai_fields(value) is not None and _is_message(value)) or _is_tool_calls(value):
        return True
    thread = _thread(value)
    if thread is not None:
        value = thread[1]
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
            out.append(ctx.invalid(name, args, cid if isinstance(cid, str) else None, "function", line, why))
        else:
            out.append(ctx.call(name, args, cid, line))
    if not parsed and not invalid:
        extra = fields.get("additional_kwargs")
        if isinstance(extra, dict):
            out.extend(openai_chat.calls_from_message(extra, ctx, line))
    return out


def _chunk(value: Any) -> dict[str, Any] | None:
    """The fields of a streamed ``AIMessageChunk`` record, else ``None``."""
    fields = ai_fields(value)
    if fields is None:
        return None
    is_chunk = fields.get("type") == "AIMessageChunk" or (
        isinstance(value.get("id"), list) and value["id"][-1:] == ["AIMessageChunk"]
    )
    return fields if is_chunk else None


class _Chunks:
    """The chunks of one streamed message, put together as ``AIMessageChunk.__add__`` does."""

    def __init__(self, line: int | None, record: Any) -> None:
        self.line = line
        self.record = record  # the first chunk: what pairing reads
        self.parts: dict[Any, dict[str, Any]] = {}
        self.whole: list[Any] = []
        self.streamed = False

    def add(self, fields: dict[str, Any], line: int | None) -> None:
        chunks = fields.get("tool_call_chunks")
        if isinstance(chunks, list) and chunks:
            self.streamed = True
            for item in chunks:
                if not isinstance(item, dict):
                    continue
                index = item.get("index")
                usable = isinstance(index, int | str) and not isinstance(index, bool)
                key = index if usable else len(self.parts)
                part = self.parts.setdefault(key, {"name": "", "args": "", "id": None, "line": line})
                for field in ("name", "args"):
                    if isinstance(item.get(field), str):
                        part[field] += item[field]
                if part["id"] is None and isinstance(item.get("id"), str):
                    part["id"] = item["id"]
        else:
            self.whole.append(fields)

    def sample(self, ctx: Context) -> RecordedSample:
        calls: list[ToolCall | None] = []
        if self.streamed:
            for part in self.parts.values():
                calls.append(ctx.call(part["name"], part["args"], part["id"], part["line"]))
        for fields in self.whole:
            calls.extend(message_calls({"type": "ai", **fields}, ctx, self.line))
        return ctx.sample(None, calls, self.line, self.record)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per AI message record, per streamed message, per list of messages, or per
    graph state."""
    streams: dict[Any, _Chunks] = {}
    for line, value in records:
        sid = None
        chunk = _chunk(value)
        if chunk is not None:
            key = chunk.get("id") if isinstance(chunk.get("id"), str) else None
            stream = streams.get(key)
            if stream is None:
                ctx.defer()  # a streamed message's calls are built at its last chunk
                stream = streams[key] = _Chunks(line, ctx.here())
            stream.add(chunk, line)
            if chunk.get("chunk_position") == "last":
                yield streams.pop(key).sample(ctx)
            continue
        if _is_tool_calls(value):
            yield ctx.sample(None, message_calls({"type": "ai", "tool_calls": value}, ctx, line), line)
            continue
        thread = _thread(value)
        if thread is not None:
            sid, value = thread
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
    for stream in streams.values():
        yield stream.sample(ctx)
