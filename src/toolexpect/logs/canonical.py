"""The canonical log: ``{"id": ..., "tool_calls": [{"name", "arguments"}]}`` samples.

Accepted shapes: one sample per JSON Lines line, a JSON list of samples, ``{"samples":
[...]}``, a bare list of calls (one sample) and one call per line (one sample, emitted at
the end).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record, dedupe

__all__ = ["NAME", "loose_call", "read", "sniff"]

NAME = "canonical"

_CALL_KEYS = frozenset({"name", "arguments", "id", "kind", "raw_arguments", "valid_json"})
_SAMPLE_KEYS = frozenset({"id", "tool_calls", "calls"})


def _is_call(value: Any) -> bool:
    return type(value) is dict and isinstance(value.get("name"), str) and value.keys() <= _CALL_KEYS


def _is_sample(value: Any) -> bool:
    if type(value) is not dict or not value.keys() <= _SAMPLE_KEYS:
        return False
    calls = value.get("tool_calls", value.get("calls"))
    return type(calls) is list and all(_is_call(c) for c in calls[:3])


def sniff(value: Any) -> bool:
    """A canonical sample, call, list of either, or ``{"samples": [...]}``."""
    if type(value) is dict:
        if "samples" in value and type(value["samples"]) is list and len(value) == 1:
            return all(_is_sample(s) for s in value["samples"][:3])
        return _is_sample(value) or _is_call(value)
    if type(value) is list and value:
        return all(_is_sample(v) for v in value[:3]) or all(_is_call(v) for v in value[:3])
    return False


def _calls(raw_calls: Any, ctx: Context, line: int | None) -> tuple[ToolCall, ...]:
    if type(raw_calls) is not list:
        ctx.report("R404", "tool_calls is not a list; sample read with no calls", line)
        return ()
    out: list[ToolCall] = []
    for raw in raw_calls:
        if type(raw) is dict:
            call = _call(raw, ctx, line)
            if call is not None:
                out.append(call)
        else:
            ctx.report("R404", "a call that is not an object was skipped", line)
    return dedupe(out) if any(call.id is not None for call in out) else tuple(out)


def _call(raw: dict[str, Any], ctx: Context, line: int | None) -> ToolCall | None:
    if "kind" not in raw and "valid_json" not in raw:  # the usual call: a function with arguments
        return ctx.call(raw.get("name"), raw.get("arguments"), raw.get("id"), line)
    kind = raw.get("kind")
    kind = kind if isinstance(kind, str) and kind else "function"
    if raw.get("valid_json") is False and isinstance(raw.get("raw_arguments"), str):
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            return ctx.call(name, None, None, line, kind)
        cid = raw.get("id")
        return ctx.invalid(
            name,
            raw["raw_arguments"],
            cid if isinstance(cid, str) else None,
            kind,
            line,
            "recorded as invalid",
        )
    return ctx.call(raw.get("name"), raw.get("arguments"), raw.get("id"), line, kind)


def _sample(value: dict[str, Any], ctx: Context, line: int | None) -> RecordedSample:
    sid = value.get("id")
    if sid is not None and type(sid) is not str:
        sid = str(sid) if isinstance(sid, int | float) and not isinstance(sid, bool) else None
    calls = value["tool_calls"] if "tool_calls" in value else value.get("calls")
    return RecordedSample(sid, _calls(calls, ctx, line), ctx.path, line)


def loose_call(value: Any) -> bool:
    """A record that is a call on its own (one call per line): such calls form one sample,
    given at the end of the log."""
    return (
        type(value) is dict
        and "name" in value
        and "tool_calls" not in value
        and "calls" not in value
        and not ("samples" in value and type(value["samples"]) is list)
    )


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """Samples in file order; loose calls (one per line) form one sample at the end."""
    loose: list[ToolCall | None] = []
    loose_line: int | None = None
    for line, value in records:
        if loose_call(value):
            loose_line = loose_line or line
            loose.append(_call(value, ctx, line))
        elif type(value) is dict:
            if "tool_calls" in value or "calls" in value:
                yield _sample(value, ctx, line)
            elif "samples" in value and type(value["samples"]) is list:
                for item in value["samples"]:
                    if type(item) is dict:
                        yield _sample(item, ctx, line)
                    else:
                        ctx.report("R404", "a sample that is not an object was skipped", line)
            else:
                ctx.report("R404", "a record that is neither a sample nor a call was skipped", line)
        elif type(value) is list:
            if value and all(
                type(v) is dict and ("tool_calls" in v or "calls" in v) for v in value
            ):
                for item in value:
                    yield _sample(item, ctx, line)
            else:
                yield RecordedSample(None, _calls(value, ctx, line), ctx.path, line)
        else:
            ctx.report("R404", "a record that is neither a sample nor a call was skipped", line)
    if loose:
        yield RecordedSample(None, dedupe(loose), ctx.path, loose_line)
