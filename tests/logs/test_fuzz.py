"""Whatever bytes or JSON a log holds, reading it raises nothing but LogError."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import LOG_FORMATS, LogError, open_log, samples_from_value

_KEYS = st.sampled_from(
    [
        "id",
        "tool_calls",
        "name",
        "arguments",
        "args",
        "input",
        "choices",
        "message",
        "delta",
        "function",
        "index",
        "type",
        "content",
        "role",
        "output",
        "call_id",
        "candidates",
        "parts",
        "functionCall",
        "function_call",
        "lc",
        "kwargs",
        "data",
        "run_type",
        "trace_id",
        "outputs",
        "generations",
        "resourceSpans",
        "scopeSpans",
        "spans",
        "attributes",
        "key",
        "value",
        "stringValue",
        "jsonrpc",
        "method",
        "params",
        "eval_cases",
        "conversation",
        "intermediate_data",
        "tool_uses",
        "result",
        "custom_id",
        "response",
        "body",
        "object",
        "messages",
        "partial_json",
        "content_block",
        "samples",
        "contents",
        "error",
    ]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(
        [
            "tool_use",
            "function_call",
            "ai",
            "chat.completion.chunk",
            "chat.completion",
            "tools/call",
            "2.0",
            "execute_tool",
            "tool_call",
            "message_start",
            "content_block_start",
            "content_block_delta",
            "input_json_delta",
            "message_stop",
            "llm",
            "tool",
            "constructor",
            "response.completed",
            "succeeded",
            "[f(a=1)]",
            '{"a": 1}',
            "{bad",
            "AIMessage",
            "assistant",
        ]
    ),
)
JSON = st.recursive(
    _SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(_KEYS, children, max_size=6)),
    max_leaves=30,
)
_FORMATS = st.sampled_from(["auto", *LOG_FORMATS])
_SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _read_file(data: bytes, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        path.write_bytes(data)
        try:
            reader = open_log(path, fmt)
            samples = list(reader)
        except LogError:
            return
        assert all(isinstance(s, RecordedSample) for s in samples)
        assert all(isinstance(c, ToolCall) for s in samples for c in s.calls)


@_SETTINGS
@given(st.binary(max_size=300), _FORMATS)
def test_random_bytes(data: bytes, fmt: str) -> None:
    """Random bytes in a file: samples or LogError."""
    _read_file(data, fmt)


@_SETTINGS
@given(st.lists(JSON, min_size=1, max_size=5), _FORMATS, st.booleans())
def test_random_json_lines_and_documents(values: list[Any], fmt: str, as_lines: bool) -> None:
    """Random JSON as JSON Lines or as one document: samples or LogError."""
    if as_lines:
        text = "\n".join(json.dumps(v) for v in values)
    else:
        text = json.dumps(values if len(values) > 1 else values[0], indent=1)
    _read_file(text.encode(), fmt)


@_SETTINGS
@given(JSON, _FORMATS)
def test_random_values_in_memory(value: Any, fmt: str) -> None:
    """Random values into samples_from_value: samples or LogError."""
    try:
        samples = samples_from_value(value, fmt)
    except LogError:
        return
    assert all(isinstance(s, RecordedSample) for s in samples)
    for sample in samples:
        for c in sample.calls:
            assert isinstance(c.name, str) and c.name
            assert isinstance(c.arguments, dict)
            assert c.valid_json or c.raw_arguments is not None


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60))
def test_random_bfcl_strings(text: str) -> None:
    """Any BFCL result string: samples or LogError, and nothing evaluated."""
    try:
        samples_from_value({"id": "x", "result": text}, "bfcl")
    except LogError:
        return


def test_deeply_nested_json_line(tmp_path: Path) -> None:
    """A line nested beyond the JSON decoder's limit is R401, not a crash."""
    path = tmp_path / "deep.jsonl"
    good = json.dumps({"id": "a", "tool_calls": [{"name": "f"}]})
    path.write_text(good + "\n" + "[" * 100000 + "]" * 100000 + "\n")
    reader = open_log(path)
    assert [s.id for s in reader] == ["a"]
    assert [d.code for d in reader.diagnostics] == ["R401"]
