"""Each fixture read into exactly the calls it holds."""

from __future__ import annotations

from pathlib import Path

from logs_support import call, read, summary

from toolexpect.logs import LOG_FORMATS


def test_format_names_are_documented_set() -> None:
    """The format names are the ones the docs list."""
    assert set(LOG_FORMATS) == {
        "canonical",
        "openai-chat",
        "openai-responses",
        "openai-batch",
        "anthropic",
        "gemini",
        "langchain",
        "langsmith",
        "otel",
        "mcp",
        "adk",
        "bfcl",
    }


# --- canonical -------------------------------------------------------------------------


def test_canonical_jsonl_samples() -> None:
    """Samples per line; string arguments decoded; a call logged twice once (R410); bad line R401."""
    fmt, samples, codes = read("canonical/samples.jsonl")
    assert fmt == "canonical"
    rome = '{"city": "Rome", "units": {"temp": "C", "wind": "km/h"}}'
    assert summary(samples) == [
        ("berlin tomorrow", [call("get_weather", {"city": "Berlin", "days": 1})]),
        (
            "paris and rome",
            [
                call("get_weather", {"city": "Paris", "lat": 48.85, "lon": 2.35}, "c1"),
                call(
                    "get_weather",
                    {"city": "Rome", "units": {"temp": "C", "wind": "km/h"}},
                    "c2",
                    raw=rome,
                ),
            ],
        ),
        (
            "broken",
            [
                call("book_flight", {}, raw='{"from": "BER", "to": ', valid=False),
                call("list_flights"),
                call("list_flights", raw=""),
            ],
        ),
        ("kept exact", [call("set_temp", {"value": "45", "ratio": 90.0, "count": 3})]),
    ]
    assert codes == ["R410", "R403", "R401"]
    args = samples[3].calls[0].arguments
    assert type(args["ratio"]) is float and type(args["count"]) is int
    assert type(args["value"]) is str


def test_canonical_places_calls_and_diagnostics() -> None:
    """Calls and R401/R403 carry the file and line they came from."""
    from logs_support import FIXTURES

    from toolexpect.logs import open_log

    reader = open_log(FIXTURES / "canonical/samples.jsonl")
    samples = list(reader)
    assert [s.line for s in samples] == [1, 2, 3, 5]
    assert samples[2].calls[0].line == 3
    assert str(samples[2].calls[0].path).endswith("samples.jsonl")
    again, invalid, bad = reader.diagnostics
    assert (again.code, again.line, again.severity.value) == ("R410", 2, "note")
    assert (bad.code, bad.line) == ("R401", 4)
    assert bad.path is not None and bad.path.endswith("samples.jsonl")
    assert invalid.severity.value == "warning"


def test_canonical_list_of_samples() -> None:
    """A JSON list of samples, including one with no calls."""
    fmt, samples, codes = read("canonical/list_of_samples.json")
    assert fmt == "canonical"
    assert summary(samples) == [("a", [call("search", {"q": "cats"})]), ("b", [])]
    assert codes == []


def test_canonical_wrapped_samples() -> None:
    """``{"samples": [...]}``."""
    _, samples, _ = read("canonical/wrapped.json")
    assert summary(samples) == [("x", [call("ping")])]


def test_canonical_bare_list_of_calls_is_one_sample() -> None:
    """A bare list of calls is one sample without an id."""
    _, samples, _ = read("canonical/bare_calls.json")
    assert summary(samples) == [
        (
            None,
            [call("get_weather", {"city": "Berlin"}), call("get_time", {"tz": "Europe/Berlin"})],
        )
    ]


def test_canonical_call_per_line_is_one_sample() -> None:
    """One call per line forms one sample."""
    fmt, samples, _ = read("canonical/call_per_line.jsonl")
    assert fmt == "canonical"
    assert summary(samples) == [
        (
            None,
            [
                call("open_file", {"path": "/tmp/a.txt"}),
                call(
                    "read_file",
                    {"path": "/tmp/a.txt", "lines": [1, 2]},
                    raw='{"path": "/tmp/a.txt", "lines": [1, 2]}',
                ),
            ],
        )
    ]


# --- OpenAI chat -----------------------------------------------------------------------


def test_openai_completion_parallel_calls() -> None:
    """Parallel calls in order, nested arguments, empty arguments string means {}."""
    fmt, samples, codes = read("openai-chat/completion_parallel.json")
    assert fmt == "openai-chat"
    hotels = (
        '{"city": "Paris", "filters": {"stars": [4, 5], "max_price": 250.0, "amenities": {"wifi": true}}}'
    )
    assert summary(samples) == [
        (
            "chatcmpl-9x2Kq7YbQe1",
            [
                call(
                    "get_weather",
                    {"location": "Paris, France", "unit": "celsius"},
                    "call_Ab12",
                    raw='{"location": "Paris, France", "unit": "celsius"}',
                ),
                call(
                    "search_hotels",
                    {
                        "city": "Paris",
                        "filters": {
                            "stars": [4, 5],
                            "max_price": 250.0,
                            "amenities": {"wifi": True},
                        },
                    },
                    "call_Cd34",
                    raw=hotels,
                ),
                call("get_time", {}, "call_Ef56", raw=""),
            ],
        )
    ]
    assert codes == []


def test_openai_conversation_history_dedup_invalid_and_legacy() -> None:
    """History re-sent counts once (an R410 note); invalid arguments kept; legacy function_call read."""
    fmt, samples, codes = read("openai-chat/conversation.json")
    assert fmt == "openai-chat"
    assert summary(samples) == [
        (
            "conv-42",
            [
                call(
                    "search_flights",
                    {"to": "FCO", "date": "2024-07-01"},
                    "call_1",
                    raw='{"to": "FCO", "date": "2024-07-01"}',
                ),
                call(
                    "book_flight",
                    {},
                    "call_2",
                    raw='{"flight": "AZ401", "seat": "12A"',
                    valid=False,
                ),
                call("get_weather", {"city": "Rome"}, raw='{"city": "Rome"}'),
            ],
        )
    ]
    assert codes == ["R403", "R410"]


def test_openai_stream_reassembled_across_key_and_escape_splits() -> None:
    """Chunk fragments split inside keys and escapes reassemble into the exact arguments."""
    fmt, samples, codes = read("openai-chat/stream.jsonl")
    assert fmt == "openai-chat"
    raw0 = '{"city": "S\\u00e3o Paulo", "note": "say \\"hi\\""}'
    raw1 = '{"query": "caf\\u00e9s", "limit": 5}'
    assert summary(samples) == [
        (
            "chatcmpl-stream1",
            [
                call("get_weather", {"city": "São Paulo", "note": 'say "hi"'}, "call_s0", raw=raw0),
                call("search", {"query": "cafés", "limit": 5}, "call_s1", raw=raw1),
            ],
        )
    ]
    assert codes == []


def test_openai_stream_from_sse_capture() -> None:
    """A raw server-sent-events capture (``data:`` lines, ``[DONE]``) reads as chunks."""
    fmt, samples, _ = read("openai-chat/stream.sse")
    assert fmt == "openai-chat"
    assert summary(samples) == [("chatcmpl-sse", [call("lookup", {"id": 7}, "call_x", raw='{"id": 7}')])]


# --- OpenAI Responses and Batch ----------------------------------------------------------


def test_openai_responses_output_items() -> None:
    """function_call by call_id; provider-executed items kept with their own kind."""
    fmt, samples, codes = read("openai-responses/response.json")
    assert fmt == "openai-responses"
    mcp_raw = '{"repoName":"openai/openai-python","question":"what is a Response?"}'
    assert summary(samples) == [
        (
            "resp_67ccd2bed1ec8190",
            [
                call(
                    "web_search",
                    {"type": "search", "query": "weather Berlin today"},
                    "ws_67ccf18f64008190",
                    "web_search_call",
                ),
                call(
                    "get_weather",
                    {"location": "Berlin, Germany", "days": 3},
                    "call_12345xyz",
                    raw='{"location":"Berlin, Germany","days":3}',
                ),
                call(
                    "send_email",
                    {},
                    "call_67890abc",
                    raw='{"to":"a@b.c","body":"Hi\\nthere"',
                    valid=False,
                ),
                call(
                    "ask_question",
                    {"repoName": "openai/openai-python", "question": "what is a Response?"},
                    "mcp_682d437d90a88191",
                    "mcp_call",
                    raw=mcp_raw,
                ),
                call(
                    "file_search",
                    {"queries": ["deep research"]},
                    "fs_67c09ccea8c48191",
                    "file_search_call",
                ),
                call(
                    "code_interpreter",
                    {"code": "print(2**10)"},
                    "ci_68",
                    "code_interpreter_call",
                ),
            ],
        )
    ]
    assert codes == ["R403"]


def test_openai_responses_stream_events() -> None:
    """A stream of response.* events is read once, from response.completed."""
    fmt, samples, _ = read("openai-responses/stream.jsonl")
    assert fmt == "openai-responses"
    assert summary(samples) == [
        ("resp_stream1", [call("get_time", {"tz": "UTC"}, "call_s1", raw='{"tz":"UTC"}')])
    ]


def test_openai_responses_stream_cut_off_is_assembled_from_its_events() -> None:
    """A stream without ``response.completed``: items joined from deltas, in output order."""
    fmt, samples, codes = read("openai-responses/stream_cut.jsonl")
    assert fmt == "openai-responses"
    assert summary(samples) == [
        (
            "resp_cut1",
            [
                # Cut off mid-arguments: kept, as invalid JSON (R403), not dropped.
                call("search_flights", {}, "call_c1", raw='{"from": "BER", "to": "LIS"', valid=False),
                call("get_weather", {"city": "Oslo"}, "call_c2", raw='{"city":"Oslo"}'),
            ],
        ),
        (
            "resp_cut2",
            [
                call("run_sql", {"input": "SELECT 1 FROM t"}, "call_c3", kind="custom_tool_call"),
                # The arguments' done event gives the full text; a delta without an
                # output_index is placed by its item id.
                call("notify", {"to": "ops"}, "call_c4", raw='{"to": "ops"}'),
            ],
        ),
    ]
    assert codes == ["R403"]


def test_openai_batch_output() -> None:
    """custom_id is the sample id; an expired request is a sample that failed, with the
    API's error, and no finding (the line was read)."""
    fmt, samples, codes = read("openai-batch/output.jsonl")
    assert fmt == "openai-batch"
    assert summary(samples) == [
        (
            "case-1",
            [
                call(
                    "get_weather",
                    {"city": "Oslo", "unit": "celsius"},
                    "call_b1",
                    raw='{"city": "Oslo", "unit": "celsius"}',
                )
            ],
        ),
        ("case-2", []),
        ("case-3", [call("lookup", {}, "call_b3", raw="{}")]),
    ]
    assert [s.error for s in samples] == [
        None,
        "batch_expired: This request could not be executed before the completion window expired.",
        None,
    ]
    assert codes == []


def test_openai_batch_input() -> None:
    """Batch input lines yield the calls of each request's history."""
    fmt, samples, _ = read("openai-batch/input.jsonl")
    assert fmt == "openai-batch"
    assert summary(samples) == [
        ("case-1", [call("get_weather", {"city": "Oslo"}, "call_h1", raw='{"city": "Oslo"}')]),
        ("case-2", []),
    ]


# --- Anthropic ---------------------------------------------------------------------------


def test_anthropic_message_blocks() -> None:
    """tool_use in order; server_tool_use and mcp_tool_use keep their kind."""
    fmt, samples, codes = read("anthropic/message.json")
    assert fmt == "anthropic"
    assert summary(samples) == [
        (
            "msg_01Aq9w938a90dw8q",
            [
                call(
                    "get_weather",
                    {"location": "San Francisco, CA", "unit": "fahrenheit"},
                    "toolu_01A09q90qw90lq917835lq9",
                ),
                call("get_weather", {"location": "New York, NY", "unit": "fahrenheit"}, "toolu_01B"),
                call(
                    "web_search",
                    {"query": "claude shannon birth date"},
                    "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
                    "server_tool_use",
                ),
                call(
                    "echo",
                    {"param1": "value1", "nested": {"list": [1, 2.5, "3"]}},
                    "mcptoolu_014Q35RayjACSWkSj4X2yov1",
                    "mcp_tool_use",
                ),
                call("list_alerts", {}, "toolu_01C"),
            ],
        )
    ]
    assert codes == []


def test_anthropic_stream_input_json_delta() -> None:
    """input_json_delta fragments split inside keys and escapes reassemble exactly."""
    fmt, samples, codes = read("anthropic/stream.jsonl")
    assert fmt == "anthropic"
    raw = '{"location": "Z\\u00fcrich", "unit": "celsius", "note": "a \\"quoted\\" word"}'
    assert summary(samples) == [
        (
            "msg_014p7gG3wDgGV9EUtLvnow3U",
            [
                call(
                    "get_weather",
                    {"location": "Zürich", "unit": "celsius", "note": 'a "quoted" word'},
                    "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                    raw=raw,
                ),
                call("get_time", {}, "toolu_02", raw=""),
            ],
        )
    ]
    assert codes == []


def test_anthropic_batch_results() -> None:
    """custom_id as id; an errored result is a sample that failed, with its error, and no
    finding (the line was read)."""
    fmt, samples, codes = read("anthropic/batch_results.jsonl")
    assert fmt == "anthropic"
    assert summary(samples) == [
        ("my-first-request", [call("lookup_order", {"order_id": "A-1001"}, "toolu_b1")]),
        ("my-second-request", []),
    ]
    assert [s.error for s in samples] == [None, "errored: invalid_request_error: Validation error"]
    assert codes == []


# --- Gemini ------------------------------------------------------------------------------


def test_gemini_camel_case_response() -> None:
    """functionCall parts in order; missing args means {}; responseId as id."""
    fmt, samples, _ = read("gemini/response.json")
    assert fmt == "gemini"
    assert summary(samples) == [
        (
            "kQ3yZ7yGJ6mWz7IPh8mOsQE",
            [
                call("set_light_values", {"brightness": 25, "color_temp": "warm"}),
                call(
                    "find_theaters",
                    {
                        "location": "Mountain View, CA",
                        "movie": "Barbie",
                        "filters": {"imax": True, "times": ["18:00", "20:30"]},
                    },
                ),
                call("get_time"),
            ],
        )
    ]


def test_gemini_snake_case_sdk_dump() -> None:
    """The SDK's snake_case dump (function_call, response_id) reads the same way."""
    fmt, samples, _ = read("gemini/sdk_dump.json")
    assert fmt == "gemini"
    assert summary(samples) == [
        (
            "resp-snake-1",
            [call("get_current_weather", {"city": "Boston", "ratio": 90.0, "zip": "02101"})],
        )
    ]


def test_gemini_stream_chunks_merge_and_batch_line() -> None:
    """Chunks sharing a responseId merge; a batch line uses its key."""
    fmt, samples, _ = read("gemini/stream.jsonl")
    assert fmt == "gemini"
    assert summary(samples) == [
        (
            "stream-abc",
            [
                call("search_docs", {"query": "rate limits"}),
                call("search_docs", {"query": "quotas", "page": 2}),
            ],
        ),
        ("batch-req-7", [call("translate", {"text": "hello", "target": "de"})]),
    ]


# --- LangChain / LangSmith ---------------------------------------------------------------


def test_langchain_plain_dump_parsed_and_invalid_calls() -> None:
    """tool_calls and invalid_tool_calls read; raw additional_kwargs not counted again."""
    fmt, samples, codes = read("langchain/ai_message_plain.json")
    assert fmt == "langchain"
    assert summary(samples) == [
        (
            None,
            [
                call("multiply", {"a": 3, "b": 12}, "call_lc1"),
                call("add", {}, "call_lc2", raw='{"a": 11, "b": 49', valid=False),
            ],
        )
    ]
    assert codes == ["R403"]


def test_langchain_messages_to_dict_conversation() -> None:
    """A messages_to_dict list is one sample; the repeated AI message counts once."""
    fmt, samples, _ = read("langchain/messages_to_dict.json")
    assert fmt == "langchain"
    assert summary(samples) == [
        (
            None,
            [
                call("multiply", {"a": 3, "b": 12}, "call_m1"),
                call("add", {"a": 11, "b": 49}, "call_a1"),
            ],
        )
    ]


def test_langchain_lc_constructor_lines() -> None:
    """The lc constructor form (AIMessage and AIMessageChunk), one sample per line."""
    fmt, samples, _ = read("langchain/lc_constructor.jsonl")
    assert fmt == "langchain"
    assert summary(samples) == [
        (
            None,
            [
                call(
                    "get_stock_price",
                    {"ticker": "NVDA", "range": {"from": "2024-01-01", "to": "2024-06-30"}},
                    "toolu_x1",
                )
            ],
        ),
        (None, [call("noop", {}, "call_n")]),
    ]


def test_langsmith_runs_by_trace() -> None:
    """One sample per trace; llm-run calls win over tool runs; tool-only traces ordered."""
    fmt, samples, codes = read("langsmith/runs.jsonl")
    assert fmt == "langsmith"
    assert summary(samples) == [
        (
            "0190f2a1-0000-7000-8000-000000000001",
            [
                call("get_weather", {"city": "Lisbon"}, "call_ls1"),
                call("get_forecast", {"city": "Lisbon", "days": 5}, "call_ls2"),
            ],
        ),
        (
            "0190f2a1-0000-7000-8000-000000000002",
            [
                call("search", {}, raw="{'q': 'python'}", valid=False),
                call("lookup_user", {"user_id": 42}, raw='{"user_id": 42}'),
            ],
        ),
    ]
    assert codes == ["R403"]


# --- OpenTelemetry, MCP ------------------------------------------------------------------


def test_otel_traces() -> None:
    """Model-span calls and tool spans dedupe by id; typed attributes decoded; per trace."""
    fmt, samples, codes = read("otel/traces.json")
    assert fmt == "otel"
    assert summary(samples) == [
        (
            "5b8efff798038103d269b633813fc60c",
            [
                call("get_weather", {"location": "Paris", "unit": "celsius"}, "call_ot1"),
                call("get_population", {"city": "Paris", "year": 2020}, "call_ot2"),
            ],
        ),
        (
            "4bf92f3577b34da6a3ce929d0e0e4736",
            [
                call(
                    "send_sms",
                    {"to": "+4915112345678", "retries": 3, "urgent": True, "tags": ["a", 1.5]},
                ),
                call("parse", {}, raw="{not json", valid=False),
            ],
        ),
    ]
    assert codes == ["R403"]


def test_otel_span_events_and_flattened_attributes() -> None:
    """``gen_ai.choice`` span events, operation-details events and OpenLLMetry's flat keys."""
    fmt, samples, codes = read("otel/span_events.json")
    assert fmt == "otel"
    assert summary(samples) == [
        (
            "aaaa0000000000000000000000000001",
            [
                call("lookup_order", {"order_id": "A-17"}, "call_ev1", raw='{"order_id": "A-17"}'),
                # The tool span repeats call_ev2: counted once.
                call("refund", {"order_id": "A-17", "amount": 20}, "call_ev2"),
            ],
        ),
        (
            "bbbb0000000000000000000000000002",
            [
                call(
                    "get_weather", {"city": "Oslo", "days": 2}, "call_fl1", raw='{"city": "Oslo", "days": 2}'
                ),
                call("get_time", {"tz": "UTC"}, raw='{"tz": "UTC"}'),
                call("get_news"),  # index 10 sorts after 1: numbers, not text
            ],
        ),
        # An operation-details event wins over a gen_ai.choice event of the same span.
        ("cccc0000000000000000000000000003", [call("search", {"q": "otel"}, "call_od1")]),
    ]
    assert codes == []


def test_otel_log_events_by_time_and_only_without_span_calls() -> None:
    """``resourceLogs`` events by time; a trace whose spans hold calls ignores them."""
    fmt, samples, codes = read("otel/log_events.jsonl")
    assert fmt == "otel"
    assert summary(samples) == [
        (
            "dddd0000000000000000000000000004",
            [
                call("lookup_user", {"id": 7}, "call_lg1", raw='{"id": 7}'),
                call("send_email", {"to": "ops@example.com"}, "call_lg2", raw='{"to": "ops@example.com"}'),
            ],
        ),
        ("eeee0000000000000000000000000005", [call("ping")]),
        ("ffff", []),
    ]
    assert codes == ["R404"]


def test_mcp_session() -> None:
    """tools/call requests in order, the re-sent request once (an R410 note), a truncated
    line R401."""
    fmt, samples, codes = read("mcp/session.jsonl")
    assert fmt == "mcp"
    assert summary(samples) == [
        (
            None,
            [
                call("get_weather", {"location": "New York", "days": 2}, "2"),
                call("list_alerts", {}, "req-3"),
            ],
        )
    ]
    assert codes == ["R410", "R401"]


# --- ADK, BFCL ---------------------------------------------------------------------------


def test_adk_evalset() -> None:
    """One sample per eval case, turns in order, snake_case and camelCase."""
    fmt, samples, _ = read("adk/home.evalset.json")
    assert fmt == "adk"
    assert summary(samples) == [
        (
            "eval_case_id",
            [
                call(
                    "set_device_info",
                    {"location": "Bedroom", "device_id": "device_2", "status": "OFF"},
                    "adk-0a1b",
                ),
                call("get_device_info", {"location": "Kitchen"}, "adk-0a1c"),
                call(
                    "set_device_info",
                    {"location": "Kitchen", "device_id": "device_7", "status": "OFF"},
                    "adk-0a1d",
                ),
            ],
        ),
        ("camel_case_case", [call("get_status", {}, "adk-x")]),
    ]


def test_adk_legacy_test_file() -> None:
    """A legacy .test.json is one sample of expected_tool_use across turns."""
    fmt, samples, _ = read("adk/legacy.test.json")
    assert fmt == "adk"
    assert summary(samples) == [(None, [call("roll_die", {"sides": 6}), call("check_prime", {"nums": [7]})])]


def test_bfcl_results() -> None:
    """String and dict forms; nothing evaluated; non-literal values kept invalid."""
    fmt, samples, codes = read("bfcl/result.jsonl")
    assert fmt == "bfcl"
    assert summary(samples) == [
        ("simple_0", [call("calculate_triangle_area", {"base": 10, "height": 5, "unit": "units"})]),
        (
            "parallel_3",
            [
                call("spotify.play", {"artist": "Taylor Swift", "duration": 20}),
                call("spotify.play", {"artist": "Maroon 5", "duration": 15.0}),
            ],
        ),
        (
            "simple_fc_1",
            [
                call("math_factorial", {"number": 5}, raw='{"number": 5}'),
                call("get_area", {"shape": "circle", "dims": {"r": 2.5}}),
            ],
        ),
        (
            "unsafe_2",
            [
                call(
                    "os_system",
                    {},
                    raw="os_system(cmd=__import__('os').system('echo pwned'))",
                    valid=False,
                ),
                call("ok", {"x": [1, 2], "y": None, "z": True, "w": -3}),
            ],
        ),
        ("text_4", []),
        (
            "multi_turn_base_0",
            [
                call("cd", {"folder": "document"}),
                call("mkdir", {"dir_name": "temp"}),
                call("ls", {"a": True}, raw='{"a": true}'),
            ],
        ),
    ]
    assert codes == ["R403"]  # an answer in words ("text_4") is a sample without calls


def _chat(number: int, calls: bool = False) -> str:
    """One conversation record; with ``calls``, its answer holds Anthropic ``tool_use`` blocks."""
    import json

    answer: dict[str, object] = {"role": "assistant", "content": "Hello."}
    if calls:
        answer = {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
        }
    return json.dumps({"id": f"run {number}", "messages": [{"role": "user", "content": "Hi?"}, answer]})


def test_chat_conversations_without_any_call_are_read_as_runs_without_calls(tmp_path: Path) -> None:
    """A log of conversations that hold no call (the runs of cases requiring none) fits no
    format's own test; it is read as OpenAI Chat, each record a run without calls."""
    from toolexpect.logs import open_log

    log = tmp_path / "talk.jsonl"
    log.write_text("".join(_chat(n) + "\n" for n in range(3)), encoding="utf-8")
    reader = open_log(log)
    assert reader.format == "openai-chat"
    assert [(s.id, s.calls) for s in reader] == [("run 0", ()), ("run 1", ()), ("run 2", ())]
    assert reader.diagnostics == []
    assert reader.records.without_calls == 3


def test_anthropic_blocks_after_the_probed_records_are_reported_not_lost(tmp_path: Path) -> None:
    """When the first records decide OpenAI Chat, a later conversation holding Anthropic
    ``tool_use`` blocks is an R404 at its line naming the format to give, never 0 calls in
    silence."""
    from toolexpect.logs import open_log

    log = tmp_path / "talk.jsonl"
    log.write_text("".join(_chat(n, calls=n == 25) + "\n" for n in range(26)), encoding="utf-8")
    reader = open_log(log)
    assert reader.format == "openai-chat"
    list(reader)
    found = [(d.code, d.span.line if d.span else None, d.help) for d in reader.diagnostics]
    assert found == [("R404", 26, "read the log with --log-format anthropic")]
    assert reader.records.reported == 1
