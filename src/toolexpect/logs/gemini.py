"""Gemini / Vertex AI ``generateContent``: ``candidates[].content.parts[].functionCall``.

Both JSON spellings are read: camelCase (REST, ``functionCall``, ``responseId``) and
snake_case (SDK ``model_dump``, ``function_call``, ``response_id``). Streamed chunks that
share a response id are merged into one sample; one sample per candidate otherwise.
Batch prediction lines (``{"key"|"custom_id"|"id", "response": {...}}``) use the key as
sample id; a request or conversation (``{"contents": [...]}``) yields the model turns' calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record, first

__all__ = ["NAME", "parts_calls", "read", "sniff"]

NAME = "gemini"


def _is_response(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("candidates"), list)


def _has_fc(contents: Any) -> bool:
    return isinstance(contents, list) and any(
        isinstance(c, dict)
        and isinstance(c.get("parts"), list)
        and any(
            isinstance(p, dict) and ("functionCall" in p or "function_call" in p)
            for p in c["parts"]
        )
        for c in contents
    )


def sniff(value: Any) -> bool:
    """A GenerateContentResponse, a batch line wrapping one, or ``contents`` with calls."""
    if _is_response(value):
        return True
    if isinstance(value, dict):
        if _is_response(value.get("response")):
            return True
        return _has_fc(value.get("contents"))
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


def _candidates(
    value: dict[str, Any], ctx: Context, line: int | None
) -> list[list[ToolCall | None]]:
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


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples in file order; consecutive chunks of one response id merge."""
    current_id: Any = None
    current: list[list[ToolCall | None]] | None = None
    current_line: int | None = None

    def flush() -> Iterator[RecordedSample]:
        if current is not None:
            for calls in current:
                yield ctx.sample(current_id, calls, current_line)

    for line, value in records:
        if not isinstance(value, dict):
            if isinstance(value, list) and _has_fc(value):
                yield ctx.sample(None, _contents_calls(value, ctx, line), line)
            else:
                ctx.report("R404", "a record that is not a Gemini response was skipped", line)
            continue
        sid: Any
        if _is_response(value):
            response = value
            sid = first(value, "responseId", "response_id")
        elif isinstance(value.get("response"), dict):
            response = value["response"]
            sid = first(value, "key", "custom_id", "id")
        elif isinstance(value.get("contents"), list):
            yield from flush()
            current = None
            yield ctx.sample(value.get("id"), _contents_calls(value["contents"], ctx, line), line)
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
        if current is not None and sid is not None and sid == current_id and response is value:
            for i, calls in enumerate(cands):
                if i < len(current):
                    current[i].extend(calls)
                else:
                    current.append(calls)
            continue
        yield from flush()
        current, current_id, current_line = cands, sid, line
    yield from flush()
