"""OpenAI Responses API: ``output[]`` items of a ``response`` object, and streamed events.

``function_call`` items become calls (``call_id`` as id, ``arguments`` decoded);
``custom_tool_call`` items keep their free-text ``input`` as ``{"input": ...}``;
provider-executed items (``mcp_call``, ``web_search_call``, ``file_search_call``,
``code_interpreter_call``, ``image_generation_call``, ``computer_call``,
``local_shell_call``) are kept with their item type as ``kind``. Streamed event lines are
read from ``response.completed`` (also ``.incomplete`` and ``.failed``). A stream that stops
before it is assembled from its events instead: ``output_item.done`` items as they are, items
only ``added`` with their ``*_arguments.delta`` / ``custom_tool_call_input.delta`` pieces
joined (or the ``*.done`` text), in ``output_index`` order. Arguments cut off mid-way are not
JSON, so such a call is kept as invalid (R403), never dropped. A response wrapped with an id
(``{"id"|"custom_id"|"case"|"key", "response"|"output": ...}``), optionally beside its
``request``, is read too: the calls among the request's ``input`` items are the history
before the response and are read first (a call id seen twice counts once).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Envelope, Record, envelope

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


def _wrapped(value: Any) -> Envelope | None:
    if isinstance(value, dict) and str(value.get("type")).startswith("response."):
        return None  # a stream event, not a wrapper
    return envelope(value, _is_response)


def sniff(value: Any) -> bool:
    """A ``response`` object, a ``response.*`` stream event, or a wrapped response."""
    if _is_response(value) or _wrapped(value) is not None:
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


def response_sample(value: dict[str, Any], ctx: Context, line: int | None, sid: Any = None) -> RecordedSample:
    """One sample from a ``response`` object's ``output``."""
    calls = [item_call(item, ctx, line) for item in value.get("output") or []]
    return ctx.sample(sid if sid is not None else value.get("id"), calls, line)


def _envelope_sample(wrapped: Envelope, ctx: Context, line: int | None) -> RecordedSample:
    """A wrapped response's sample, the calls of its request's ``input`` first."""
    items = (wrapped.request or {}).get("input")
    history = [item_call(i, ctx, line) for i in items] if isinstance(items, list) else []
    sid = wrapped.id if wrapped.id is not None else wrapped.payload.get("id")
    response = response_sample(wrapped.payload, ctx, line, sid)
    return ctx.sample(sid, [*history, *response.calls], line)


class _Stream:
    """The items of one streamed response, put together from its events."""

    def __init__(self, sid: Any, line: int | None) -> None:
        self.id = sid
        self.line = line
        self.items: dict[Any, dict[str, Any]] = {}
        self.index_of: dict[Any, Any] = {}

    def __bool__(self) -> bool:
        return bool(self.items)

    def _slot(self, value: dict[str, Any]) -> dict[str, Any] | None:
        index = value.get("output_index")
        if index is None:
            index = self.index_of.get(value.get("item_id"))
        return self.items.get(index) if index is not None else None

    def add(self, value: dict[str, Any], done: bool) -> None:
        """An ``output_item.added`` (or ``.done``) event: the item, possibly still growing."""
        item = value.get("item")
        if not isinstance(item, dict):
            return
        index = value.get("output_index")
        if index is None or isinstance(index, bool) or not isinstance(index, int | str):
            index = f"#{len(self.items)}"
        self.items[index] = dict(item)
        if item.get("id") is not None:
            self.index_of[item["id"]] = index
        if done:
            self.items[index]["__done"] = True

    def grow(self, value: dict[str, Any], field: str) -> None:
        """A ``*.delta`` event: append its text to the item's ``field``."""
        slot = self._slot(value)
        delta = value.get("delta")
        if slot is not None and not slot.get("__done") and isinstance(delta, str):
            before = slot.get(field)
            slot[field] = (before if isinstance(before, str) else "") + delta

    def settle(self, value: dict[str, Any], field: str, key: str) -> None:
        """A ``*.done`` event: the item's ``field`` is the event's full ``key`` text."""
        slot = self._slot(value)
        if slot is not None and not slot.get("__done") and isinstance(value.get(key), str):
            slot[field] = value[key]

    def sample(self, ctx: Context) -> RecordedSample:
        """The calls of the items seen so far, in output order."""

        def order(index: Any) -> tuple[int, str]:
            return (index, "") if isinstance(index, int) else (1 << 62, str(index))

        items = [self.items[index] for index in sorted(self.items, key=order)]
        return ctx.sample(self.id, [item_call(item, ctx, self.line) for item in items], self.line)


_GROWING = {
    "response.function_call_arguments.delta": "arguments",
    "response.mcp_call_arguments.delta": "arguments",
    "response.custom_tool_call_input.delta": "input",
}
_SETTLED = {
    "response.function_call_arguments.done": ("arguments", "arguments"),
    "response.mcp_call_arguments.done": ("arguments", "arguments"),
    "response.custom_tool_call_input.done": ("input", "input"),
}


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples from response objects and from streamed event lines."""
    stream: _Stream | None = None
    for line, value in records:
        if _is_response(value):
            yield response_sample(value, ctx, line)
            continue
        if isinstance(value, list):
            yield ctx.sample(None, [item_call(i, ctx, line) for i in value], line)
            continue
        wrapped = _wrapped(value)
        if wrapped is not None:
            yield _envelope_sample(wrapped, ctx, line)
            continue
        kind = value.get("type") if isinstance(value, dict) else None
        if not (isinstance(kind, str) and kind.startswith("response.")):
            ctx.report("R404", "a record that is not a Responses API object was skipped", line)
            continue
        assert isinstance(value, dict)
        ctx.defer()  # a streamed response's calls are built at its end
        if kind in ("response.completed", "response.incomplete", "response.failed") and isinstance(
            value.get("response"), dict
        ):
            yield response_sample(value["response"], ctx, stream.line if stream else line)
            stream = None
        elif kind == "response.created" and isinstance(value.get("response"), dict):
            if stream:
                yield stream.sample(ctx)
            stream = _Stream(value["response"].get("id"), line)
        else:
            if stream is None:
                stream = _Stream(None, line)
            if kind in ("response.output_item.added", "response.output_item.done"):
                stream.add(value, done=kind.endswith(".done"))
            elif kind in _GROWING:
                stream.grow(value, _GROWING[kind])
            elif kind in _SETTLED:
                stream.settle(value, *_SETTLED[kind])
    if stream:
        yield stream.sample(ctx)
