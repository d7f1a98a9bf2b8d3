"""Google ADK eval sets: ``.evalset.json`` eval cases and legacy ``.test.json`` files.

An eval set (``eval_set_id`` + ``eval_cases``, or the camelCase spelling) gives one sample
per eval case, the ``eval_id`` as sample id, with the ``intermediate_data.tool_uses`` (or the
function calls among ``invocation_events``) of every conversation turn in order. A legacy
test file (a list of ``{"query", "expected_tool_use": [{"tool_name", "tool_input"}]}``
turns) is one sample without an id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import gemini
from toolexpect.logs._base import Context, Record, first

__all__ = ["NAME", "read", "sniff"]

NAME = "adk"


def _is_case(value: Any) -> bool:
    return isinstance(value, dict) and ("eval_id" in value or "evalId" in value) and ("conversation" in value)


def _is_legacy(value: Any) -> bool:
    return isinstance(value, dict) and "query" in value and "expected_tool_use" in value


def sniff(value: Any) -> bool:
    """An eval set, one eval case, or a legacy test file."""
    if isinstance(value, dict):
        cases = first(value, "eval_cases", "evalCases")
        return isinstance(cases, list) or _is_case(value)
    return isinstance(value, list) and bool(value) and all(_is_legacy(v) for v in value[:3])


def _turn_calls(turn: Any, ctx: Context, line: int | None) -> list[ToolCall | None]:
    if not isinstance(turn, dict):
        return []
    data = first(turn, "intermediate_data", "intermediateData")
    if not isinstance(data, dict):
        return []
    calls: list[ToolCall | None] = []
    uses = first(data, "tool_uses", "toolUses")
    if isinstance(uses, list):
        for use in uses:
            if isinstance(use, dict):
                calls.append(ctx.call(use.get("name"), use.get("args"), use.get("id"), line))
        return calls
    events = first(data, "invocation_events", "invocationEvents")
    for event in events if isinstance(events, list) else []:
        content = event.get("content") if isinstance(event, dict) else None
        if isinstance(content, dict):
            calls.extend(gemini.parts_calls(content.get("parts"), ctx, line))
    return calls


def _case_sample(case: dict[str, Any], ctx: Context, line: int | None) -> RecordedSample:
    calls: list[ToolCall | None] = []
    conversation = case.get("conversation")
    for turn in conversation if isinstance(conversation, list) else []:
        calls.extend(_turn_calls(turn, ctx, line))
    return ctx.sample(first(case, "eval_id", "evalId"), calls, line)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per eval case; one sample per legacy test file."""
    for line, value in records:
        if isinstance(value, list):
            calls: list[ToolCall | None] = []
            for turn in value:
                uses = turn.get("expected_tool_use") if isinstance(turn, dict) else None
                for use in uses if isinstance(uses, list) else []:
                    if isinstance(use, dict):
                        calls.append(ctx.call(use.get("tool_name"), use.get("tool_input"), None, line))
            yield ctx.sample(None, calls, line)
            continue
        if not isinstance(value, dict):
            ctx.report("R404", "a record that is not an ADK eval set was skipped", line)
            continue
        cases = first(value, "eval_cases", "evalCases")
        if isinstance(cases, list):
            for case in cases:
                if isinstance(case, dict):
                    yield _case_sample(case, ctx, line)
                else:
                    ctx.report("R404", "an eval case that is not an object was skipped", line)
        elif _is_case(value):
            yield _case_sample(value, ctx, line)
        else:
            ctx.report("R404", "a record that is not an ADK eval set was skipped", line)
