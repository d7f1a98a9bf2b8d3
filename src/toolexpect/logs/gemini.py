"""Gemini / Vertex AI ``generateContent``: ``candidates[].content.parts[].functionCall``.

Both JSON spellings are read: camelCase (REST, ``functionCall``, ``responseId``) and
snake_case (SDK ``model_dump``, ``function_call``, ``response_id``). Streamed chunks that
share a response id are merged into one sample; one sample per candidate otherwise.
The ``streamGenerateContent`` REST output, one JSON array of chunks, is one response:
its chunks merged; as the ``response`` of a record beside its ``request``, it reads as one
wrapped response. Batch prediction lines (``{"key"|"custom_id"|"id", "response": {...}}``)
and inline batch responses (``{"metadata": {"key": ...}, "response": {...}}``) use the key
as sample id; a batch line that failed (``{"key", "error"}``) is a sample that failed
(``RecordedSample.error``). Any response wrapped with an id (``{"id"|"custom_id"|"case"|"key", "response"|
"message"|"output": ...}``) reads the same, with the ``contents`` of a ``request`` beside it
as history, their calls first (the same call seen twice counts once). A response is given
once the next record shows it complete (chunks of one response id merge), with the facts of
its own record. A request or conversation
(``{"contents": [...]}``) yields the model turns' calls, and so does one ``Content``
(``{"role": "model", "parts": [...]}``), and a list of ``FunctionCall`` s
(``response.function_calls``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Envelope, Record, envelope, envelope_id, first

__all__ = ["NAME", "parts_calls", "read", "sniff"]

NAME = "gemini"


def _is_response(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("candidates"), list)


def _has_fc(contents: Any) -> bool:
    return isinstance(contents, list) and any(
        isinstance(c, dict)
        and isinstance(c.get("parts"), list)
        and any(isinstance(p, dict) and ("functionCall" in p or "function_call" in p) for p in c["parts"])
        for c in contents
    )


_FUNCTION_CALL_KEYS = frozenset(
    {"id", "name", "args", "partial_args", "partialArgs", "will_continue", "willContinue"}
)


def _is_function_calls(value: Any) -> bool:
    """A list of ``FunctionCall`` s (``response.function_calls``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(v, dict)
            and isinstance(v.get("name"), str)
            and "args" in v
            and v.keys() <= _FUNCTION_CALL_KEYS
            for v in value
        )
    )


def _is_chunks(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_response(v) for v in value)


def _is_failed(value: Any) -> bool:
    """A batch line whose request failed: a key and an ``error`` (a ``google.rpc.Status``)."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("error"), dict)
        and ("key" in value or isinstance(value.get("metadata"), dict))
        and value.get("response") is None
    )


def _wrapped(value: Any) -> Envelope | None:
    found = envelope(value, _is_response)
    if found is None or found.id is not None:
        return found
    key = _metadata_key(value)
    return Envelope(key, found.payload, found.request) if key is not None else found


def _metadata_key(value: dict[str, Any]) -> Any:
    metadata = value.get("metadata")
    return metadata.get("key") if isinstance(metadata, dict) else None


def _is_wrapped_stream(value: Any) -> bool:
    """A ``streamGenerateContent`` array of chunks as the ``response`` of a record."""
    return isinstance(value, dict) and _is_chunks(value.get("response"))


def _chunk_calls(
    chunks: list[Any], ctx: Context, line: int | None
) -> tuple[Any, list[list[ToolCall | None]]]:
    """The response id of a stream's chunks and the calls of each candidate, chunks merged."""
    merged: list[list[ToolCall | None]] = []
    for chunk in chunks:
        _merge(merged, _candidates(chunk, ctx, line))
    return next((first(c, "responseId", "response_id") for c in chunks), None), merged


def sniff(value: Any) -> bool:
    """A GenerateContentResponse or a stream's array of them, a batch line or any wrapper
    of one, a failed batch line, a ``Content`` or ``contents`` with calls."""
    if _is_response(value) or _is_chunks(value) or _is_function_calls(value) or _is_wrapped_stream(value):
        return True
    if isinstance(value, dict):
        if _wrapped(value) is not None:
            return True
        if _is_failed(value) and isinstance(value["error"].get("message"), str):
            return True
        return _has_fc(value.get("contents")) or _has_fc([value])
    return False


def parts_calls(parts: Any, ctx: Context, line: int | None) -> list[ToolCall | None]:
    """The calls of a list of content parts."""
    out: list[ToolCall | None] = []
    if not isinstance(parts, list):
        return out
    for part in parts:
        if not isinstance(part, dict):
            continue
        fc = first(part, "functionCall", "function_call")
        if isinstance(fc, dict):
            out.append(ctx.call(fc.get("name"), fc.get("args"), fc.get("id"), line))
    return out


def _candidates(value: dict[str, Any], ctx: Context, line: int | None) -> list[list[ToolCall | None]]:
    out = []
    for cand in value.get("candidates") or []:
        content = cand.get("content") if isinstance(cand, dict) else None
        parts = content.get("parts") if isinstance(content, dict) else None
        out.append(parts_calls(parts, ctx, line))
    return out


def _contents_calls(contents: list[Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    calls: list[ToolCall | None] = []
    for c in contents:
        if isinstance(c, dict) and c.get("role") in ("model", None):
            calls.extend(parts_calls(c.get("parts"), ctx, line))
    return calls


def _merge(into: list[list[ToolCall | None]], cands: list[list[ToolCall | None]]) -> None:
    for i, calls in enumerate(cands):
        if i < len(into):
            into[i].extend(calls)
        else:
            into.append(calls)


def _failed(value: dict[str, Any], ctx: Context, line: int | None) -> RecordedSample:
    metadata = value.get("metadata")
    sid = value["key"] if "key" in value else metadata.get("key") if isinstance(metadata, dict) else None
    error = value["error"]
    words = [str(error[key]) for key in ("code", "status", "message") if error.get(key)]
    return ctx.failed(sid, ": ".join(words) or "the request failed", line)


def _stream_samples(value: Any, ctx: Context, line: int | None) -> Iterator[RecordedSample]:
    """A stream's array of chunks, bare or as the ``response`` of a record (its id, and the
    ``contents`` of its ``request`` as history, read as for one response)."""
    if isinstance(value, list):
        stream_id, merged = _chunk_calls(value, ctx, line)
        for calls in merged:
            yield ctx.sample(stream_id, calls, line)
        return
    stream_id, merged = _chunk_calls(value["response"], ctx, line)
    sid = envelope_id(value)
    sid = sid if sid is not None else _metadata_key(value)
    request = value.get("request")
    contents = request.get("contents") if isinstance(request, dict) else None
    history = _contents_calls(contents, ctx, line) if isinstance(contents, list) else []
    for calls in [[*history, *calls] for calls in merged] or [history]:
        yield ctx.sample(sid if sid is not None else stream_id, calls, line)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples in file order; consecutive chunks of one response id merge."""
    current_id: Any = None
    current: list[list[ToolCall | None]] | None = None
    current_line: int | None = None
    current_record: Any = None  # what the held response was read from: its facts

    def flush() -> Iterator[RecordedSample]:
        if current is not None:
            for calls in current:
                yield ctx.sample(current_id, calls, current_line, current_record)

    for line, value in records:
        if _is_chunks(value) or _is_wrapped_stream(value):
            yield from flush()
            current = None
            yield from _stream_samples(value, ctx, line)
            continue
        if _is_function_calls(value):
            yield ctx.sample(None, parts_calls([{"functionCall": v} for v in value], ctx, line), line)
            continue
        if not isinstance(value, dict):
            if isinstance(value, list) and _has_fc(value):
                yield ctx.sample(None, _contents_calls(value, ctx, line), line)
            else:
                ctx.report("R404", "a record that is not a Gemini response was skipped", line)
            continue
        history: list[ToolCall | None] = []
        sid: Any
        wrapped = None if _is_response(value) else _wrapped(value)
        if _is_response(value):
            response = value
            sid = first(value, "responseId", "response_id")
        elif wrapped is not None:
            response = wrapped.payload
            sid = wrapped.id if wrapped.id is not None else first(response, "responseId", "response_id")
            contents = (wrapped.request or {}).get("contents")
            if isinstance(contents, list):
                history = _contents_calls(contents, ctx, line)
        elif _is_failed(value):
            yield from flush()
            current = None
            yield _failed(value, ctx, line)
            continue
        elif isinstance(value.get("response"), dict):
            response = value["response"]
            sid = first(value, "key", "custom_id", "id")
        elif isinstance(value.get("contents"), list):
            yield from flush()
            current = None
            yield ctx.sample(value.get("id"), _contents_calls(value["contents"], ctx, line), line)
            continue
        elif _has_fc([value]):
            yield from flush()
            current = None
            yield ctx.sample(None, _contents_calls([value], ctx, line), line)
            continue
        else:
            ctx.report("R404", "a record that is not a Gemini response was skipped", line)
            continue
        if not _is_response(response):
            yield from flush()
            current = None
            ctx.report(
                "R404",
                f"batch request {sid!r} has no candidates; read as a sample with no calls",
                line,
            )
            yield ctx.sample(sid, [], line)
            continue
        cands = _candidates(response, ctx, line)
        if history:
            cands = [[*history, *calls] for calls in cands] or [history]
        if current is not None and sid is not None and sid == current_id and response is value:
            _merge(current, cands)
            continue
        yield from flush()
        current, current_id, current_line, current_record = cands, sid, line, ctx.here()
    yield from flush()
