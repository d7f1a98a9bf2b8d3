"""The canonical log: ``{"id": ..., "tool_calls": [{"name", "arguments"}]}`` samples.

Accepted shapes: one sample per JSON Lines line, a JSON list of samples, ``{"samples":
[...]}``, a bare list of calls (one sample) and one call per line (one sample, emitted at
the end). A sample may carry other fields beside its calls (``metadata``, a time), which
``--case-from`` can name; the record is then handed to pairing (``ctx.note``).
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
    """A sample: canonical calls, with other fields beside them only when it holds a call
    (a provider's record without calls is not taken for a canonical sample)."""
    if type(value) is not dict:
        return False
    calls = value.get("tool_calls", value.get("calls"))
    if type(calls) is not list or not all(_is_call(c) for c in calls[:3]):
        return False
    return bool(calls) or value.keys() <= _SAMPLE_KEYS


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
    identified = False
    call_of = ctx.call
    for raw in raw_calls:
        if type(raw) is not dict:
            ctx.report("R404", "a call that is not an object was skipped", line)
            continue
        if "kind" in raw or "valid_json" in raw:
            call = _marked_call(raw, ctx, line)
        else:  # the usual call: a function with arguments
            call = call_of(raw.get("name"), raw.get("arguments"), raw.get("id"), line)
        if call is not None:
            out.append(call)
            identified = identified or call.id is not None
    return dedupe(out, ctx) if identified else tuple(out)


def _marked_call(raw: dict[str, Any], ctx: Context, line: int | None) -> ToolCall | None:
    """A call record that gives its ``kind`` or says whether its arguments were valid."""
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
    note = ctx.note
    if note is None or value.keys() <= _SAMPLE_KEYS:
        return RecordedSample(sid, _calls(calls, ctx, line), ctx.path, line)
    # Fields beside the calls: pairing reads them (--case-from, the fields naming a case).
    return RecordedSample(sid, _calls(calls, ctx, line), ctx.path, line, note(value, sid))


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
    loose: list[ToolCall] = []
    loose_line: int | None = None
    for line, value in records:
        if loose_call(value):
            loose_line = loose_line or line
            loose.extend(_calls([value], ctx, line))
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
            if value and all(type(v) is dict and ("tool_calls" in v or "calls" in v) for v in value):
                for item in value:
                    yield _sample(item, ctx, line)
            else:
                yield RecordedSample(None, _calls(value, ctx, line), ctx.path, line)
        else:
            ctx.report("R404", "a record that is neither a sample nor a call was skipped", line)
    if loose:
        yield RecordedSample(None, dedupe(loose, ctx), ctx.path, loose_line)
