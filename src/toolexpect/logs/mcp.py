"""MCP JSON-RPC traffic: ``tools/call`` requests (``params.name``, ``params.arguments``).

Lines may be bare JSON-RPC messages, JSON-RPC batches (lists), or wrapped as
``{"message": {...}}`` / ``{"payload": {...}}`` by a proxy that logs direction and time; a
request dumped by the ``mcp`` SDK (``{"method": "tools/call", "params": {...}}``, without
``jsonrpc``) reads too. Each session is one sample of its ``tools/call`` requests, in order:
a session starts at an ``initialize`` request (JSON-RPC ids start again there), so a log of
several sessions gives several samples, none with an id (each one run; see ``docs/logs.md``).
A proxy's record that names its session (:data:`SESSION_FIELDS`) puts its messages in that
session, whatever was logged between, and the session's id is the sample id. Pairing reads
a session's facts (``--case-from``, the question) from the fields of its records.
The JSON-RPC id is the call id. A request logged twice in one session (same id, same tool
and arguments) counts once, with an R410 note; a request that reuses an id for another call
is kept. Responses and other methods are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "SESSION_FIELDS", "read", "sniff"]

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


SESSION_FIELDS = ("session", "session_id", "sessionId", "mcp_session_id", "mcpSessionId")
"""Fields of a proxy's record that name the MCP session it belongs to, the first present wins."""


def _session_key(value: Any) -> str | None:
    """The session a proxy's record names (``session``, ``session_id``, ...), else ``None``."""
    if not isinstance(value, dict) or "jsonrpc" in value or "method" in value:
        return None
    for field in SESSION_FIELDS:
        key = value.get(field)
        if isinstance(key, str) and key:
            return key
        if isinstance(key, int) and not isinstance(key, bool):
            return str(key)
    return None


class _Session:
    """The calls of one session, the requests seen by JSON-RPC id, and the fields of its
    records (the earliest record's first), which pairing reads."""

    def __init__(self, number: int, key: str | None) -> None:
        self.number = number
        self.key = key
        self.line: int | None = None
        self.calls: list[ToolCall] = []
        self.seen: dict[str, tuple[str, Any]] = {}
        self.fields: dict[str, Any] = {}

    def note(self, record: Any) -> None:
        """Keep the fields of a record of this session that an earlier one did not have."""
        if isinstance(record, dict):
            for name, value in record.items():
                self.fields.setdefault(name, value)

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
        """The session's sample, its facts read from its records' fields when pairing asks;
        no call is dropped here (a reused id names another call)."""
        facts = ctx.note(self.fields, self.key) if ctx.note is not None else None
        return RecordedSample(self.key, tuple(self.calls), ctx.path, self.line, facts)


class _Sessions:
    """The sessions of a log in order of their start; the one each session key is in now."""

    def __init__(self) -> None:
        self.all: list[_Session] = []
        self.current: dict[str | None, _Session] = {}

    def open(self, key: str | None) -> _Session:
        """A new session under ``key`` (a later ``initialize`` under a key starts another)."""
        session = self.current[key] = _Session(len(self.all) + 1, key)
        self.all.append(session)
        return session

    def of(self, key: str | None) -> _Session:
        """The session of ``key`` now, opened when there is none (a log started mid-session)."""
        found = self.current.get(key)
        return found if found is not None else self.open(key)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per session with its ``tools/call`` requests, in order of their start."""
    sessions = _Sessions()
    for line, record in records:
        key = _session_key(record)
        value = _unwrap(record)
        messages = value if isinstance(value, list) else [value]
        for message in messages:
            if not _is_message(message):
                ctx.report("R404", "a record that is not a JSON-RPC message was skipped", line)
                continue
            method = message.get("method")
            if method == "initialize" and "id" in message:
                session = sessions.current.get(key)
                if session is None or session.line is not None:
                    session = sessions.open(key)
                session.line = line
                session.note(record)
                continue
            if method != "tools/call":
                continue
            params = message.get("params")
            if not isinstance(params, dict):
                ctx.report("R404", "a tools/call request without params was skipped", line)
                continue
            session = sessions.of(key)
            session.note(record)
            session.add(message, params, ctx, line)
    for session in sessions.all or [_Session(1, None)]:
        yield session.sample(ctx)
