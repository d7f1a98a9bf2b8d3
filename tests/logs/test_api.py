"""The public API: open_log, samples_from_value, errors, JSON and table output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from logs_support import FIXTURES, call, summary

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import (
    LOG_FORMATS,
    LogError,
    calls_to_json,
    open_log,
    samples_from_value,
)
from toolexpect.report.calls import render_calls_table


def test_missing_file_is_log_error() -> None:
    """A missing file raises LogError with R400."""
    with pytest.raises(LogError) as info:
        open_log(FIXTURES / "does-not-exist.jsonl")
    assert info.value.diagnostic.code == "R400"


def test_not_utf8_is_log_error(tmp_path: Path) -> None:
    """A file that is not UTF-8 raises LogError R400."""
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"name": "caf\xe9"}\n'.encode("latin-1"))
    with pytest.raises(LogError) as info:
        list(open_log(path))
    assert info.value.diagnostic.code == "R400"
    assert "UTF-8" in info.value.diagnostic.message


def test_unknown_content_names_formats_tried(tmp_path: Path) -> None:
    """A log that fits no format is R402 naming every format tried."""
    path = tmp_path / "other.json"
    path.write_text('{"hello": "world"}')
    with pytest.raises(LogError) as info:
        open_log(path)
    diagnostic = info.value.diagnostic
    assert diagnostic.code == "R402"
    for name in LOG_FORMATS:
        assert name in diagnostic.message


def test_forced_format_that_does_not_fit(tmp_path: Path) -> None:
    """Forcing a format the content does not match is a clear R402."""
    with pytest.raises(LogError) as info:
        open_log(FIXTURES / "anthropic/message.json", "gemini")
    assert info.value.diagnostic.code == "R402"
    assert "'gemini'" in info.value.diagnostic.message


def test_forced_format_that_fits() -> None:
    """Forcing the right format reads the same samples as detection."""
    reader = open_log(FIXTURES / "mcp/session.jsonl", "mcp")
    assert reader.format == "mcp"
    assert len(next(iter(reader)).calls) == 2


def test_unknown_format_name() -> None:
    """An unknown format name is a LogError listing the known ones."""
    with pytest.raises(LogError) as info:
        open_log(FIXTURES / "mcp/session.jsonl", "xml")
    assert "openai-chat" in info.value.diagnostic.message


def test_empty_file(tmp_path: Path) -> None:
    """An empty log is a LogError."""
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    with pytest.raises(LogError):
        open_log(path)


def test_pretty_document_with_syntax_error(tmp_path: Path) -> None:
    """A log with no line of valid JSON is R401."""
    path = tmp_path / "broken.json"
    path.write_text('{"id": "a",\n "tool_calls": [\n')
    with pytest.raises(LogError) as info:
        open_log(path)
    assert info.value.diagnostic.code == "R401"


def test_reader_is_lazy_and_rereadable(tmp_path: Path) -> None:
    """Samples come one at a time; iterating again re-reads with fresh diagnostics."""
    path = tmp_path / "log.jsonl"
    lines = [json.dumps({"id": str(i), "tool_calls": [{"name": "f", "arguments": {}}]}) for i in range(5)]
    path.write_text("\n".join([*lines, "oops"]) + "\n")
    reader = open_log(path)
    iterator = iter(reader)
    assert next(iterator).id == "0"
    assert reader.diagnostics == []
    assert len(list(iterator)) == 4
    assert [d.code for d in reader.diagnostics] == ["R401"]
    assert len(list(reader)) == 5
    assert [d.code for d in reader.diagnostics] == ["R401"]


def test_bom_and_crlf(tmp_path: Path) -> None:
    """A UTF-8 BOM and CRLF line ends are accepted."""
    path = tmp_path / "bom.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"id": "a", "tool_calls": [{"name": "f"}]}\r\n{"id": "b", "tool_calls": []}\r\n'
    )
    assert summary(list(open_log(path))) == [("a", [call("f")]), ("b", [])]


class _Model:
    """Stands in for a pydantic SDK object."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def model_dump(self) -> dict[str, Any]:
        return self._data


class _Legacy:
    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def to_dict(self) -> dict[str, Any]:
        return self._data


def test_samples_from_sdk_object() -> None:
    """Objects with model_dump() are read like their JSON form."""
    message = json.loads((FIXTURES / "anthropic/message.json").read_text())
    samples = samples_from_value(_Model(message))
    assert [c.name for c in samples[0].calls] == [
        "get_weather",
        "get_weather",
        "web_search",
        "echo",
        "list_alerts",
    ]


def test_samples_from_list_of_sdk_messages() -> None:
    """A list of message objects (an agent's returned history) is one conversation."""
    messages = [
        _Legacy({"role": "user", "content": "hi"}),
        _Model(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "f", "arguments": '{"x": 1}'},
                    }
                ],
            }
        ),
    ]
    assert summary(samples_from_value(messages)) == [(None, [call("f", {"x": 1}, "c1", raw='{"x": 1}')])]


def test_samples_from_list_of_stream_events() -> None:
    """A list whose elements are records (stream events) is spread into records."""
    events = [json.loads(line) for line in (FIXTURES / "anthropic/stream.jsonl").read_text().splitlines()]
    samples = samples_from_value(events)
    assert [c.name for c in samples[0].calls] == ["get_weather", "get_time"]


def test_samples_from_canonical_dict_and_text() -> None:
    """Plain dicts and JSON text both read."""
    value = {"id": "s", "tool_calls": [{"name": "f", "arguments": {"a": 1}}]}
    assert summary(samples_from_value(value)) == [("s", [call("f", {"a": 1})])]
    assert summary(samples_from_value(json.dumps(value))) == [("s", [call("f", {"a": 1})])]


def test_samples_from_recorded_samples_pass_through() -> None:
    """RecordedSample and ToolCall values are taken as they are."""
    sample = RecordedSample("x", (ToolCall("f"),))
    assert samples_from_value(sample) == [sample]
    assert samples_from_value([ToolCall("f")]) == [RecordedSample(None, (ToolCall("f"),))]


def test_samples_from_unreadable_object() -> None:
    """An object with no known dump method is a LogError."""
    with pytest.raises(LogError):
        samples_from_value(object())


def test_calls_to_json_shape() -> None:
    """calls_to_json gives the documented shape."""
    samples = [RecordedSample("a", (ToolCall("f", {"x": 1}, "c1"),))]
    assert calls_to_json(samples) == {"samples": [{"id": "a", "calls": [call("f", {"x": 1}, "c1")]}]}


def test_render_calls_table() -> None:
    """The table lists each call with kind, id and arguments; invalid JSON is marked."""
    samples = [
        RecordedSample(
            "berlin",
            (
                ToolCall("get_weather", {"city": "Berlin"}, "c1"),
                ToolCall("book", {}, None, "function", '{"a": ', False),
            ),
        ),
        RecordedSample(None, ()),
    ]
    assert render_calls_table(samples) == (
        "sample 1 'berlin': 2 calls\n"
        "  #  tool         kind      id  arguments\n"
        '  1  get_weather  function  c1  {"city": "Berlin"}\n'
        '  2  book         function  -   <invalid JSON> {"a":\n'
        "\n"
        "sample 2: 0 calls\n"
    )
