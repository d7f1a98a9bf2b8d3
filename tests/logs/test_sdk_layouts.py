"""Envelopes and layouts that real loggers write, read from fixtures the SDKs made.

Each fixture under ``tests/fixtures/logs/`` named here was made by a ``make_*.py`` script
beside it with the real client SDK (see ``tests/fixtures/README.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

from logs_support import FIXTURES, call, read, summary

from toolexpect.logs import open_log

BERLIN = '{"city": "Berlin", "days": 1}'
PARIS = '{"city": "Paris"}'
MAIL = '{"to": "ops@example.com"}'

# --- request/response records -------------------------------------------------------------


def test_openai_chat_request_response_records() -> None:
    """Calls from the response; the request's earlier tool call is history, read first, once."""
    fmt, samples, codes = read("openai-chat/request_response.jsonl")
    assert fmt == "openai-chat"
    assert summary(samples) == [
        ("berlin tomorrow", [call("get_weather", {"city": "Berlin", "days": 1}, "call_b1", raw=BERLIN)]),
        (
            "paris then mail",
            [
                call("get_weather", {"city": "Paris"}, "call_p1", raw=PARIS),
                call("send_email", {"to": "ops@example.com"}, "call_p2", raw=MAIL),
            ],
        ),
    ]
    assert codes == []


def test_openai_responses_request_response_record() -> None:
    """A Responses request's function_call input item is history; the response adds its call."""
    fmt, samples, codes = read("openai-responses/request_response.jsonl")
    assert fmt == "openai-responses"
    assert summary(samples) == [
        (
            "paris then mail",
            [
                call("get_weather", {"city": "Paris"}, "call_r1", raw=PARIS),
                call("send_email", {"to": "ops@example.com"}, "call_r2", raw=MAIL),
            ],
        )
    ]
    assert codes == []


def test_anthropic_request_response_records() -> None:
    """An Anthropic request's assistant tool_use is history; the message adds its calls."""
    fmt, samples, codes = read("anthropic/request_response.jsonl")
    assert fmt == "anthropic"
    assert summary(samples) == [
        ("berlin tomorrow", [call("get_weather", {"city": "Berlin", "days": 1}, "toolu_b1")]),
        (
            "paris then mail",
            [
                call("get_weather", {"city": "Paris"}, "toolu_p1"),
                call("send_email", {"to": "ops@example.com"}, "toolu_p2"),
            ],
        ),
    ]
    assert codes == []


def test_gemini_request_response_record() -> None:
    """A Gemini request's model turn is history; the response (camelCase) adds its call."""
    fmt, samples, codes = read("gemini/request_response.jsonl")
    assert fmt == "gemini"
    assert summary(samples) == [
        (
            "paris then mail",
            [call("get_weather", {"city": "Paris"}), call("send_email", {"to": "ops@example.com"})],
        )
    ]
    assert codes == []


def test_history_counted_once_when_the_response_repeats_it(tmp_path: Path) -> None:
    """A call id in both the request's history and the response is one call."""
    record = (
        '{"id": "c", "request": {"messages": [{"role": "assistant", "tool_calls": [{"id": "x", '
        '"type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}, "response": '
        '{"id": "r", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": '
        '"assistant", "tool_calls": [{"id": "x", "type": "function", "function": {"name": "f", '
        '"arguments": "{}"}}]}}]}}\n'
    )
    path = tmp_path / "log.jsonl"
    path.write_text(record)
    assert summary(list(open_log(path))) == [("c", [call("f", {}, "x", raw="{}")])]


# --- id wrappers --------------------------------------------------------------------------


def test_id_wrappers_for_every_provider() -> None:
    """``id``/``custom_id``/``case``/``key`` beside ``response``/``message``/``output``."""
    expected = {
        "openai-chat/wrapped.jsonl": (
            "openai-chat",
            [("berlin tomorrow", "get_weather"), ("paris then mail", "send_email")],
        ),
        "anthropic/wrapped.jsonl": (
            "anthropic",
            [("berlin tomorrow", "get_weather"), ("paris then mail", "send_email")],
        ),
        "gemini/wrapped.jsonl": ("gemini", [("paris then mail", "send_email")]),
        "openai-responses/wrapped.jsonl": ("openai-responses", [("paris then mail", "send_email")]),
    }
    for path, (fmt, samples) in expected.items():
        found, read_samples, codes = read(path)
        assert found == fmt, path
        assert [(s.id, [c.name for c in s.calls]) for s in read_samples] == [
            (sid, [name]) for sid, name in samples
        ], path
        assert codes == [], path


# --- Gemini ---------------------------------------------------------------------------------


def test_gemini_stream_array_is_one_response() -> None:
    """The streamGenerateContent REST array merges into one sample; thoughtSignature is ignored."""
    fmt, samples, codes = read("gemini/stream_array.json")
    assert fmt == "gemini"
    assert summary(samples) == [
        ("stream-1", [call("get_weather", {"city": "Berlin"}), call("get_weather", {"city": "Paris"})])
    ]
    assert codes == []


def test_gemini_batch_error_line_is_a_sample_that_failed() -> None:
    """``{"key", "error"}``: the sample exists, has no calls and carries the error; the line
    was read, so it is no finding."""
    reader = open_log(FIXTURES / "gemini/batch_output.jsonl")
    samples = list(reader)
    assert summary(samples) == [
        ("berlin tomorrow", [call("get_weather", {"city": "Berlin"})]),
        ("quota case", []),
        ("paris", [call("get_weather", {"city": "Paris"})]),
    ]
    assert [(s.error, s.line) for s in samples] == [
        (None, 1),
        ("429: RESOURCE_EXHAUSTED: Resource has been exhausted", 2),
        (None, 3),
    ]
    assert reader.diagnostics == []


def test_gemini_inline_batch_responses_are_named_by_metadata_key() -> None:
    """``InlinedResponse`` dumps: ``metadata.key`` is the id; one with an error has no calls
    and carries the error."""
    reader = open_log(FIXTURES / "gemini/inline_batch.jsonl")
    samples = list(reader)
    assert reader.format == "gemini"
    assert summary(samples) == [
        ("berlin tomorrow", [call("get_weather", {"city": "Berlin"})]),
        ("broken request", []),
    ]
    assert reader.diagnostics == []
    assert samples[0].error is None
    assert samples[1].error is not None and "invalid argument" in samples[1].error


# --- LangChain ------------------------------------------------------------------------------


def test_langchain_dumpd_thread() -> None:
    """A thread of ``dumpd`` messages (human, AI, tool) is one sample of the AI's calls."""
    fmt, samples, codes = read("langchain/dumpd_thread.jsonl")
    assert fmt == "langchain"
    assert summary(samples) == [(None, [call("get_weather", {"city": "Oslo"}, "call_t1")])]
    assert codes == []


def test_langchain_streamed_chunks_merge_by_message_id() -> None:
    """One ``dumpd`` line per ``AIMessageChunk``: argument fragments joined by index, one sample."""
    fmt, samples, codes = read("langchain/dumpd_chunks.jsonl")
    assert fmt == "langchain"
    assert summary(samples) == [
        (
            None,
            [
                call("get_weather", {"city": "Berlin"}, "call_s1", raw='{"city": "Berlin"}'),
                call("get_time", {"city": "Paris"}, "call_s2", raw='{"city": "Paris"}'),
            ],
        )
    ]
    assert codes == []


# --- OpenTelemetry --------------------------------------------------------------------------


def test_openinference_llm_and_tool_spans() -> None:
    """LLM span tool_calls attributes give the calls (the TOOL spans repeat them by id); a trace
    of TOOL spans only reads them, arguments from ``input.value`` when ``tool.parameters`` is a
    schema."""
    fmt, samples, codes = read("otel/openinference.json")
    assert fmt == "otel"
    assert summary(samples) == [
        (
            "000000000000000000000000000a1001",
            [
                call("get_weather", {"city": "Berlin"}, "call_oi1", raw='{"city": "Berlin"}'),
                call("get_weather", {"city": "Paris"}, "call_oi2", raw='{"city": "Paris"}'),
            ],
        ),
        ("000000000000000000000000000a1002", [call("send_email", {"to": "ops@example.com"}, raw=MAIL)]),
    ]
    assert codes == []


def test_trace_without_content_warns_how_to_capture_it() -> None:
    """Model spans with no message content: the sample is kept, and R411 names the setting."""
    reader = open_log(FIXTURES / "otel/no_content.json")
    assert summary(list(reader)) == [("000000000000000000000000000b2001", [])]
    [warning] = reader.diagnostics
    assert warning.code == "R411" and warning.severity.value == "warning"
    assert "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true" in (warning.help or "")


def test_choice_log_events_without_arguments_warn(tmp_path: Path) -> None:
    """``gen_ai.choice`` log events naming calls without arguments (capture off) warn too."""
    function = {"kvlistValue": {"values": [{"key": "name", "value": {"stringValue": "get_weather"}}]}}
    item = {
        "kvlistValue": {
            "values": [{"key": "id", "value": {"stringValue": "c1"}}, {"key": "function", "value": function}]
        }
    }
    calls = {"key": "tool_calls", "value": {"arrayValue": {"values": [item]}}}
    body = {"kvlistValue": {"values": [{"key": "message", "value": {"kvlistValue": {"values": [calls]}}}]}}
    record = {"traceId": "ee09", "eventName": "gen_ai.choice", "timeUnixNano": "1", "body": body}
    path = tmp_path / "logs.jsonl"
    path.write_text(json.dumps({"resourceLogs": [{"scopeLogs": [{"logRecords": [record]}]}]}) + "\n")
    reader = open_log(path)
    assert summary(list(reader)) == [("ee09", [call("get_weather", {}, "c1")])]
    assert [d.code for d in reader.diagnostics] == ["R411"]


def test_existing_traces_with_content_do_not_warn() -> None:
    """Traces that record content (the earlier fixtures) give no R411."""
    for path in ("otel/traces.json", "otel/span_events.json", "otel/log_events.jsonl"):
        _, _, codes = read(path)
        assert "R411" not in codes, path


# --- BFCL -----------------------------------------------------------------------------------


def test_bfcl_prompting_results() -> None:
    """Python call text as BFCL reads it (fences, tags, no brackets); broken text positioned;
    an answer in words is a sample without calls and no diagnostic."""
    reader = open_log(FIXTURES / "bfcl/prompting_result.jsonl")
    samples = list(reader)
    assert reader.format == "bfcl"
    assert summary(samples) == [
        ("simple_7", [call("get_weather", {"city": "Berlin", "days": 1})]),
        (
            "parallel_2",
            [
                call("get_weather", {"city": "Berlin"}),
                call("get_weather", {"city": "Paris", "units": {"temp": "C"}}),
            ],
        ),
        ("simple_9", []),
        ("irrelevance_3", []),
        ("simple_10", [call("convert", {"amount": 10.5, "unit": "EUR"})]),
    ]
    [broken] = reader.diagnostics
    assert (broken.code, broken.line) == ("R404", 3)
    assert "'simple_9'" in broken.message and "column 35 of the output" in broken.message


# --- MCP ------------------------------------------------------------------------------------


def test_mcp_sessions_are_separate_samples() -> None:
    """Ids restart after each ``initialize``: one sample per session, nothing dropped silently."""
    reader = open_log(FIXTURES / "mcp/two_sessions.jsonl")
    samples = list(reader)
    assert summary(samples) == [
        (
            None,
            [
                call("get_weather", {"city": "Berlin"}, "3"),
                call("send_email", {"to": "ops@example.com"}, "4"),
            ],
        ),
        (None, [call("get_weather", {"city": "Paris"}, "3")]),
    ]
    assert [s.line for s in samples] == [1, 9]
    [note] = reader.diagnostics
    assert (note.code, note.line, note.severity.value) == ("R410", 14, "note")
    assert "session 2" in note.message


def test_mcp_reused_id_with_another_call_is_kept(tmp_path: Path) -> None:
    """A JSON-RPC id used again for a different call is another call, not a duplicate."""
    lines = [
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a"}}',
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "b"}}',
    ]
    path = tmp_path / "mcp.jsonl"
    path.write_text("\n".join(lines) + "\n")
    reader = open_log(path)
    assert summary(list(reader)) == [(None, [call("a", {}, "1"), call("b", {}, "1")])]
    assert reader.diagnostics == []


# --- Anthropic stream helper ----------------------------------------------------------------


def test_anthropic_helper_stream_events_read_quietly() -> None:
    """``messages.stream()`` events (``text``, ``input_json``, snapshots) read with no finding."""
    fmt, samples, codes = read("anthropic/helper_stream.jsonl")
    assert fmt == "anthropic"
    assert summary(samples) == [
        ("msg_01Stream", [call("get_weather", {"city": "Berlin", "days": 1}, "toolu_s1")])
    ]
    assert codes == []


# --- any wrapper around any provider object -------------------------------------------------

_BARE = {
    "openai-chat": "openai-chat/completion_parallel.json",
    "anthropic": "anthropic/message.json",
    "gemini": "gemini/response.json",
    "openai-responses": "openai-responses/response.json",
}


def test_every_wrapper_reads_like_the_bare_object(tmp_path: Path) -> None:
    """Each id field beside each payload field gives the bare object's calls, named by the id."""
    for fmt, relpath in _BARE.items():
        bare = json.loads((FIXTURES / relpath).read_text(encoding="utf-8"))
        _, plain, plain_codes = read(relpath)
        for id_key in ("id", "custom_id", "case", "key"):
            for payload_key in ("response", "message", "output"):
                path = tmp_path / f"{fmt}-{id_key}-{payload_key}.jsonl"
                path.write_text(json.dumps({id_key: "my case", payload_key: bare, "latency_ms": 3}) + "\n")
                reader = open_log(path)
                samples = list(reader)
                where = (fmt, id_key, payload_key)
                assert reader.format == fmt, where
                assert [s.id for s in samples] == ["my case"] * len(plain), where
                assert [s.calls for s in samples] == [s.calls for s in plain], where
                assert [d.code for d in reader.diagnostics] == plain_codes, where
