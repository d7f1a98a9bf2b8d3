"""OpenAI Responses API: ``output[]`` items of a ``response`` object, and streamed events.

``function_call`` items become calls (``call_id`` as id, ``arguments`` decoded);
``custom_tool_call`` items keep their free-text ``input`` as ``{"input": ...}``;
provider-executed and built-in items (``mcp_call``, ``web_search_call``, ``file_search_call``,
``code_interpreter_call``, ``image_generation_call``, ``computer_call``,
``local_shell_call``, ``shell_call``, ``apply_patch_call``, ``tool_search_call``) are kept
with their item type as ``kind``, their arguments what the model asked for (a search's
``action`` without its ``sources``, the ``queries``, the ``code``), never what came back.
Streamed event lines are read from ``response.completed`` (also ``.incomplete`` and
``.failed``). A stream that stops
before it is assembled from its events instead: ``output_item.done`` items as they are, items
only ``added`` with their ``*_arguments.delta`` / ``custom_tool_call_input.delta`` pieces
joined (or the ``*.done`` text), in ``output_index`` order. Arguments cut off mid-way are not
JSON, so such a call is kept as invalid (R403), never dropped. A response wrapped with an id
(``{"id"|"custom_id"|"case"|"key", "response"|"output": ...}``), optionally beside its
``request``, is read too: the calls among the request's ``input`` items are the history
before the response and are read first (a call id seen twice counts once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Envelope, Record, envelope

__all__ = ["NAME", "read", "response_sample", "sniff"]

NAME = "openai-responses"


def _asked(value: Any, *results: str) -> Any:
    """An item's request object without the fields that hold what came back (``results``)."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k not in results}
    return value


def _fields(item: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: item[k] for k in keys if k in item}


def _computer(item: dict[str, Any]) -> Any:
    """A ``computer_call``'s ``action``, or its batched ``actions`` as ``{"actions": [...]}``."""
    if item.get("action") is None and isinstance(item.get("actions"), list):
        return {"actions": item["actions"]}
    return item.get("action")


_PROVIDER: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {
    # What the model asked for, never what came back: a search's ``sources``, a file
    # search's ``results``, the interpreter's ``outputs`` and container, an image's
    # ``result``, an MCP call's ``output`` are left out.
    "web_search_call": ("web_search", lambda item: _asked(item.get("action"), "sources")),
    "file_search_call": ("file_search", lambda item: _fields(item, "queries")),
    "code_interpreter_call": ("code_interpreter", lambda item: _fields(item, "code")),
    "image_generation_call": ("image_generation", lambda item: {}),
    "computer_call": ("computer", _computer),
    "local_shell_call": ("local_shell", lambda item: item.get("action")),
    "shell_call": ("shell", lambda item: item.get("action")),
    "apply_patch_call": ("apply_patch", lambda item: item.get("operation")),
    "tool_search_call": ("tool_search", lambda item: item.get("arguments")),
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
        name, arguments = _PROVIDER[kind]
        cid = item.get("call_id") or item.get("id")
        return ctx.call(name, arguments(item), cid, line, kind)
    return None


def response_sample(
    value: dict[str, Any], ctx: Context, line: int | None, sid: Any = None, record: Any = None
) -> RecordedSample:
    """One sample from a ``response`` object's ``output`` (``record``: see ``Context.sample``)."""
    calls = [item_call(item, ctx, line) for item in value.get("output") or []]
    return ctx.sample(sid if sid is not None else value.get("id"), calls, line, record)


def _envelope_sample(wrapped: Envelope, ctx: Context, line: int | None) -> RecordedSample:
    """A wrapped response's sample, the calls of its request's ``input`` first."""
    items = (wrapped.request or {}).get("input")
    history = [item_call(i, ctx, line) for i in items] if isinstance(items, list) else []
    sid = wrapped.id if wrapped.id is not None else wrapped.payload.get("id")
    response = response_sample(wrapped.payload, ctx, line, sid)
    return ctx.sample(sid, [*history, *response.calls], line)


class _Stream:
    """The items of one streamed response, put together from its events."""

    def __init__(self, sid: Any, line: int | None, record: Any) -> None:
        self.id = sid
        self.line = line
        self.record = record  # the stream's first event: what pairing reads
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
        calls = [item_call(item, ctx, self.line) for item in items]
        return ctx.sample(self.id, calls, self.line, self.record)


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
            began = (stream.line, stream.record) if stream else (line, None)
            yield response_sample(value["response"], ctx, began[0], None, began[1])
            stream = None
        elif kind == "response.created" and isinstance(value.get("response"), dict):
            if stream:
                yield stream.sample(ctx)
            stream = _Stream(value["response"].get("id"), line, ctx.here())
        else:
            if stream is None:
                stream = _Stream(None, line, ctx.here())
            if kind in ("response.output_item.added", "response.output_item.done"):
                stream.add(value, done=kind.endswith(".done"))
            elif kind in _GROWING:
                stream.grow(value, _GROWING[kind])
            elif kind in _SETTLED:
                stream.settle(value, *_SETTLED[kind])
    if stream:
        yield stream.sample(ctx)
