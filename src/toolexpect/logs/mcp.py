"""MCP JSON-RPC traffic: ``tools/call`` requests (``params.name``, ``params.arguments``).

Lines may be bare JSON-RPC messages, JSON-RPC batches (lists), or wrapped as
``{"message": {...}}`` / ``{"payload": {...}}`` by a proxy that logs direction and time.
All ``tools/call`` requests of a file form one sample, in order; the JSON-RPC id is the
call id (a request logged twice counts once). Responses and other methods are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "read", "sniff"]

NAME = "mcp"


def _unwrap(value: Any) -> Any:
    if isinstance(value, dict) and "jsonrpc" not in value:
        for key in ("message", "payload", "data"):
            inner = value.get(key)
            if isinstance(inner, dict | list):
                return inner
    return value


def sniff(value: Any) -> bool:
    """A JSON-RPC 2.0 message (or batch, or wrapped message)."""
    value = _unwrap(value)
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, dict) and v.get("jsonrpc") == "2.0" for v in value)
    return isinstance(value, dict) and value.get("jsonrpc") == "2.0"


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample with every ``tools/call`` request of the file."""
    calls: list[ToolCall | None] = []
    first_line: int | None = None
    for line, value in records:
        value = _unwrap(value)
        messages = value if isinstance(value, list) else [value]
        for message in messages:
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                ctx.report("R404", "a record that is not a JSON-RPC message was skipped", line)
                continue
            if message.get("method") != "tools/call":
                continue
            params = message.get("params")
            if not isinstance(params, dict):
                ctx.report("R404", "a tools/call request without params was skipped", line)
                continue
            first_line = first_line or line
            calls.append(
                ctx.call(params.get("name"), params.get("arguments"), message.get("id"), line)
            )
    yield ctx.sample(None, calls, first_line)
