"""LangSmith run exports: runs (``run_type``, ``trace_id``) grouped into one sample per trace.

Runs may come one per line, as a JSON list, as ``{"runs": [...]}``, or nested in
``child_runs``. Within a trace, runs are ordered by ``dotted_order`` (else ``start_time``).
The calls are those the model produced: tool calls in ``llm`` runs' outputs (LangChain
message dumps or OpenAI-style messages). A trace with no such calls falls back to its
``tool`` runs (``name`` and ``inputs``). Duplicates by call id count once. The whole file
is read before samples are emitted, because one trace can be spread over the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import langchain, openai_chat
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "read", "sniff"]

NAME = "langsmith"

_RUN_TYPES = ("tool", "llm", "chain", "retriever", "prompt", "parser", "embedding")


def _is_run(value: Any) -> bool:
    return isinstance(value, dict) and value.get("run_type") in _RUN_TYPES


def sniff(value: Any) -> bool:
    """A run, a list of runs, or ``{"runs": [...]}``."""
    if isinstance(value, dict) and isinstance(value.get("runs"), list):
        value = value["runs"]
    if isinstance(value, list):
        return bool(value) and all(_is_run(r) for r in value[:3])
    return _is_run(value)


def _flatten(value: Any, line: int | None, out: list[tuple[int | None, dict[str, Any]]]) -> None:
    if isinstance(value, list):
        for item in value:
            _flatten(item, line, out)
    elif isinstance(value, dict):
        if isinstance(value.get("runs"), list) and "run_type" not in value:
            _flatten(value["runs"], line, out)
            return
        if _is_run(value):
            out.append((line, value))
            if isinstance(value.get("child_runs"), list):
                _flatten(value["child_runs"], line, out)


def _llm_calls(run: dict[str, Any], ctx: Context, line: int | None) -> list[ToolCall | None]:
    outputs = run.get("outputs")
    calls: list[ToolCall | None] = []
    if not isinstance(outputs, dict):
        return calls
    generations = outputs.get("generations")
    if isinstance(generations, list):
        for group in generations:
            for gen in group if isinstance(group, list) else [group]:
                if isinstance(gen, dict):
                    calls.extend(_message(gen.get("message"), ctx, line))
    for key in ("output", "message"):
        calls.extend(_message(outputs.get(key), ctx, line))
    if isinstance(outputs.get("choices"), list):
        for choice in outputs["choices"]:
            if isinstance(choice, dict):
                calls.extend(openai_chat.calls_from_message(choice.get("message"), ctx, line))
    return calls


def _message(message: Any, ctx: Context, line: int | None) -> list[ToolCall | None]:
    if langchain.ai_fields(message) is not None:
        return langchain.message_calls(message, ctx, line)
    if isinstance(message, dict) and message.get("role") == "assistant":
        return openai_chat.calls_from_message(message, ctx, line)
    return []


def _tool_call(run: dict[str, Any], ctx: Context, line: int | None) -> ToolCall | None:
    inputs = run.get("inputs")
    if isinstance(inputs, dict) and set(inputs) == {"input"} and isinstance(inputs["input"], str):
        inputs = inputs["input"]
    extra = run.get("extra")
    meta = extra.get("metadata") if isinstance(extra, dict) else None
    cid = meta.get("tool_call_id") if isinstance(meta, dict) else None
    return ctx.call(run.get("name"), inputs, cid, line)


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per trace, in order of first appearance."""
    ctx.defer()  # calls are built once every run of the log is read
    traces: dict[Any, list[tuple[int | None, dict[str, Any]]]] = {}
    for line, value in records:
        runs: list[tuple[int | None, dict[str, Any]]] = []
        _flatten(value, line, runs)
        if not runs:
            ctx.report("R404", "a record that is not a LangSmith run was skipped", line)
        for run_line, run in runs:
            trace = run.get("trace_id") or run.get("id")
            traces.setdefault(trace if isinstance(trace, str) else str(trace), []).append((run_line, run))
    for trace, runs in traces.items():
        runs.sort(key=_order)
        model_calls: list[ToolCall | None] = []
        tool_calls: list[ToolCall | None] = []
        for line, run in runs:
            if run.get("run_type") == "llm":
                model_calls.extend(_llm_calls(run, ctx, line))
            elif run.get("run_type") == "tool":
                tool_calls.append(_tool_call(run, ctx, line))
        chosen = model_calls if any(c is not None for c in model_calls) else tool_calls
        yield ctx.sample(trace, chosen, runs[0][0], runs[0][1])


def _order(entry: tuple[int | None, dict[str, Any]]) -> tuple[str, str]:
    run = entry[1]
    dotted = run.get("dotted_order")
    start = run.get("start_time")
    return (
        dotted if isinstance(dotted, str) else "",
        start if isinstance(start, str) else "",
    )
