"""MCP JSON-RPC traffic: ``tools/call`` requests (``params.name``, ``params.arguments``).

Lines may be bare JSON-RPC messages, JSON-RPC batches (lists), or wrapped as
``{"message": {...}}`` / ``{"payload": {...}}`` by a proxy that logs direction and time; a
request dumped by the ``mcp`` SDK (``{"method": "tools/call", "params": {...}}``, without
``jsonrpc``) reads too. Each session is one sample of its ``tools/call`` requests, in order:
a session starts at an ``initialize`` request (JSON-RPC ids start again there), so a log of
several sessions gives several samples, none with an id (each one run; see ``docs/logs.md``).
The JSON-RPC id is the call id. A request logged twice in one session (same id, same tool
and arguments) counts once, with an R410 note; a request that reuses an id for another call
is kept. Responses and other methods are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "read", "sniff"]

NAME = "mcp"


def _unwrap(value: Any) -> Any:
    if isinstance(value, dict) and "jsonrpc" not in value and "method" not in value:
        for key in ("message", "payload", "data"):
            inner = value.get(key)
            if isinstance(inner, dict | list):
                return inner
    return value


def _is_sdk_request(value: Any) -> bool:
    """A ``tools/call`` request as the SDK dumps it, without the ``jsonrpc`` member."""
    return (
        isinstance(value, dict)
        and value.get("method") == "tools/call"
        and isinstance(value.get("params"), dict)
        and isinstance(value["params"].get("name"), str)
    )


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and (value.get("jsonrpc") == "2.0" or _is_sdk_request(value))


def sniff(value: Any) -> bool:
    """A JSON-RPC 2.0 message (or batch, or wrapped message), or an SDK ``tools/call``."""
    value = _unwrap(value)
    if isinstance(value, list):
        return bool(value) and all(_is_message(v) for v in value)
    return _is_message(value)


class _Session:
    """The calls of one session, and the requests seen by JSON-RPC id."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.line: int | None = None
        self.calls: list[ToolCall] = []
        self.seen: dict[str, tuple[str, Any]] = {}

    def add(self, message: dict[str, Any], params: dict[str, Any], ctx: Context, line: int | None) -> None:
        self.line = self.line or line
        call = ctx.call(params.get("name"), params.get("arguments"), message.get("id"), line)
        if call is not None and call.id is not None:
            before = self.seen.get(call.id)
            if before == (call.name, call.arguments):
                ctx.report(
                    "R410",
                    f"tools/call {call.name!r} with JSON-RPC id {call.id} is logged again in "
                    f"session {self.number}; counted once",
                    line,
                    help="a proxy that logs both directions writes each request twice",
                )
                return
            self.seen[call.id] = (call.name, call.arguments)
        if call is not None:
            self.calls.append(call)

    def sample(self, ctx: Context) -> RecordedSample:
        """The session's sample; no call is dropped here (a reused id names another call)."""
        return RecordedSample(None, tuple(self.calls), ctx.path, self.line)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per session with its ``tools/call`` requests."""
    session = _Session(1)
    for line, value in records:
        value = _unwrap(value)
        messages = value if isinstance(value, list) else [value]
        for message in messages:
            if not _is_message(message):
                ctx.report("R404", "a record that is not a JSON-RPC message was skipped", line)
                continue
            method = message.get("method")
            if method == "initialize" and "id" in message:
                if session.line is not None:
                    yield session.sample(ctx)
                    session = _Session(session.number + 1)
                session.line = line
                continue
            if method != "tools/call":
                continue
            params = message.get("params")
            if not isinstance(params, dict):
                ctx.report("R404", "a tools/call request without params was skipped", line)
                continue
            session.add(message, params, ctx, line)
    if session.line is not None or session.number == 1:
        yield session.sample(ctx)
