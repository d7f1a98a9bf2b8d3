"""Exports and layouts real stacks write, each read with every call in its run and case.

Fixtures are built as their stack writes them: the SDK's own objects dumped where the SDK is
installed, the documented export or envelope shape otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from logs_support import FIXTURES, call, summary

from toolexpect.api import parse_spec
from toolexpect.calls import RecordedSample
from toolexpect.logs import open_log, open_logs
from toolexpect.pairing import PairingOptions, pair_runs


def _read(path: Path, fmt: str = "auto") -> tuple[str, list[RecordedSample], list[tuple[str, int | None]]]:
    """Format, samples and (code, line) of each diagnostic of a log."""
    reader = open_log(path, fmt)
    samples = list(reader)
    where = [(d.code, d.span.line if d.span else None) for d in reader.diagnostics]
    return reader.format, samples, where


def _paired(spec: str, log: Path, options: PairingOptions) -> list[tuple[str | None, list[str]]]:
    """(case, tool names) of each run of ``log`` paired with the cases of ``spec``."""
    paired = pair_runs([parse_spec(spec, "cases")], open_logs([str(log)]), options)
    return [(s.id, [c.name for c in s.calls]) for s in paired]


# --- OpenTelemetry -----------------------------------------------------------------------


def _attr(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}


def _span(span_id: str, start: int, name: str, attributes: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": span_id,
        "parentSpanId": "b7ad6b7169203331",
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(1764720000_000_000_000 + start),
        "endTimeUnixNano": str(1764720000_000_000_000 + start + 500),
        "attributes": attributes,
    }


def _tool_span(span_id: str, start: int, tool: str, arguments: str) -> dict[str, Any]:
    """An ``execute_tool`` span as an instrumentation without call ids records it."""
    return _span(
        span_id,
        start,
        f"execute_tool {tool}",
        [
            _attr("gen_ai.operation.name", "execute_tool"),
            _attr("gen_ai.tool.name", tool),
            _attr("gen_ai.tool.call.arguments", arguments),
            _attr("app.case", "weather and sms"),
        ],
    )


def test_otel_tool_span_without_id_is_kept_unless_it_runs_a_model_call(tmp_path: Path) -> None:
    """An ``execute_tool`` span without a call id repeats the model call of its tool and
    arguments (counted once); a tool no model call names is a call of its own, in span order."""
    output = [
        {
            "role": "assistant",
            "parts": [
                {"type": "tool_call", "id": "call_w1", "name": "get_weather", "arguments": {"city": "Oslo"}}
            ],
            "finish_reason": "tool_call",
        }
    ]
    chat = _span(
        "00f067aa0ba902b7",
        1,
        "chat gpt-4o",
        [
            _attr("gen_ai.operation.name", "chat"),
            _attr("gen_ai.request.model", "gpt-4o"),
            _attr("gen_ai.output.messages", json.dumps(output)),
            _attr("app.case", "weather and sms"),
        ],
    )
    spans = [
        chat,
        _tool_span("00f067aa0ba902b8", 2, "get_weather", '{"city": "Oslo"}'),
        _tool_span("00f067aa0ba902b9", 3, "send_sms", '{"to": "+4712345678"}'),
        _tool_span("00f067aa0ba902ba", 4, "get_weather", '{"city": "Bergen"}'),
    ]
    request = {
        "resourceSpans": [
            {
                "resource": {"attributes": [_attr("service.name", "weather-agent")]},
                "scopeSpans": [{"scope": {"name": "agent"}, "spans": spans}],
            }
        ]
    }
    log = tmp_path / "trace.json"
    log.write_text(json.dumps(request, indent=2), encoding="utf-8")
    fmt, samples, where = _read(log)
    assert fmt == "otel"
    assert summary(samples) == [
        (
            "0af7651916cd43dd8448eb211c80319c",
            [
                call("get_weather", {"city": "Oslo"}, "call_w1"),
                call("send_sms", {"to": "+4712345678"}, raw='{"to": "+4712345678"}'),
                call("get_weather", {"city": "Bergen"}, raw='{"city": "Bergen"}'),
            ],
        )
    ]
    assert where == []
    spec = 'case "weather and sms" {\n    expect get_weather(city="Oslo")\n}\n'
    assert _paired(spec, log, PairingOptions(case_from="app.case")) == [
        ("weather and sms", ["get_weather", "send_sms", "get_weather"])
    ]


# --- LangGraph thread state, one-line documents -----------------------------------------


def _thread_messages(city: str, cid: str) -> list[Any]:
    """A LangChain conversation: the question, the model's call, the tool's answer, serialised
    by ``dumpd`` as LangGraph's JSON serialiser and LangSmith write them."""
    from langchain_core.load import dumpd
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    messages = [
        HumanMessage(f"Weather in {city}?", id=f"h-{cid}"),
        AIMessage(
            "",
            id=f"ai-{cid}",
            tool_calls=[{"name": "get_weather", "args": {"city": city}, "id": cid, "type": "tool_call"}],
        ),
        ToolMessage("sunny", tool_call_id=cid, id=f"t-{cid}"),
    ]
    return [dumpd(m) for m in messages]


def test_langgraph_thread_state_is_one_run_named_by_its_thread(tmp_path: Path) -> None:
    """``{"thread_id", "values": {"messages": [...]}}`` (a LangGraph thread or its state) is
    one run of its messages' calls, the thread id its id and its case by id."""
    from langchain_core.messages import messages_from_dict, messages_to_dict

    state = {
        "thread_id": "t1",
        "created_at": "2026-12-04T02:00:00+00:00",
        "metadata": {"graph_id": "agent", "case": "oslo"},
        "status": "idle",
        "values": {"messages": _thread_messages("Oslo", "call_g1")},
    }
    as_dicts = messages_to_dict(
        messages_from_dict([{"type": "human", "data": {"content": "Weather in Bergen?"}}])
    )
    snapshot = {
        "values": {"messages": [*as_dicts, *_thread_messages("Bergen", "call_g2")[1:]]},
        "next": [],
        "checkpoint": {"thread_id": "t2", "checkpoint_ns": "", "checkpoint_id": "1f0"},
        "metadata": {"step": 3, "case": "bergen"},
    }
    log = tmp_path / "threads.jsonl"
    log.write_text(json.dumps(state) + "\n" + json.dumps(snapshot) + "\n", encoding="utf-8")
    fmt, samples, where = _read(log)
    assert fmt == "langchain"
    assert summary(samples) == [
        ("t1", [call("get_weather", {"city": "Oslo"}, "call_g1")]),
        ("t2", [call("get_weather", {"city": "Bergen"}, "call_g2")]),
    ]
    assert where == []
    spec = 'case "t1" {\n    expect get_weather(city="Oslo")\n}\ncase "t2" {\n    expect get_weather()\n}\n'
    assert _paired(spec, log, PairingOptions()) == [("t1", ["get_weather"]), ("t2", ["get_weather"])]
    by_field = spec.replace('"t1"', '"oslo"').replace('"t2"', '"bergen"')
    assert _paired(by_field, log, PairingOptions(case_from="metadata.case")) == [
        ("oslo", ["get_weather"]),
        ("bergen", ["get_weather"]),
    ]


def _conversations() -> list[dict[str, Any]]:
    """Two conversations as users save them: ``{"id", "messages"}`` of Chat Completions
    messages (the assistant's made by the OpenAI SDK's types)."""
    from openai.types.chat import ChatCompletionMessage

    out = []
    for number, city in ((1, "Berlin"), (2, "Lisbon")):
        assistant = ChatCompletionMessage.model_validate(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_d{number}",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
                    }
                ],
            }
        )
        out.append(
            {
                "id": f"conv-{number}",
                "messages": [
                    {"role": "user", "content": f"Weather in {city}?"},
                    assistant.model_dump(mode="json", exclude_none=True),
                    {"role": "tool", "tool_call_id": f"call_d{number}", "content": "sunny"},
                ],
            }
        )
    return out


def test_a_json_document_written_on_one_line_reads_as_pretty_printed(tmp_path: Path) -> None:
    """``json.dump(conversations, f)`` writes one line: its list is read as the same document
    pretty-printed is, one run per conversation, paired by id."""
    conversations = _conversations()
    runs = [
        ("conv-1", [call("get_weather", {"city": "Berlin"}, "call_d1", raw='{"city": "Berlin"}')]),
        ("conv-2", [call("get_weather", {"city": "Lisbon"}, "call_d2", raw='{"city": "Lisbon"}')]),
    ]
    spec = (
        'case "conv-1" {\n    expect get_weather(city="Berlin")\n}\n'
        'case "conv-2" {\n    expect get_weather()\n}\n'
    )
    for name, text in (
        ("one_line.json", json.dumps(conversations)),
        ("pretty.json", json.dumps(conversations, indent=2)),
    ):
        log = tmp_path / name
        log.write_text(text, encoding="utf-8")
        fmt, samples, where = _read(log)
        assert (name, fmt, summary(samples), where) == (name, "openai-chat", runs, [])
        assert _paired(spec, log, PairingOptions()) == [
            ("conv-1", ["get_weather"]),
            ("conv-2", ["get_weather"]),
        ]
        assert _read(log, "openai-chat")[1:] == (samples, [])
    mixed = tmp_path / "mixed.jsonl"  # a list on a line, then a conversation per line
    mixed.write_text(
        json.dumps(conversations[:1]) + "\n" + json.dumps(conversations[1]) + "\n", encoding="utf-8"
    )
    fmt, samples, where = _read(mixed)
    assert (fmt, summary(samples), [s.line for s in samples], where) == ("openai-chat", runs, [1, 2], [])


def test_a_list_of_langchain_threads_on_one_line_is_a_run_per_thread(tmp_path: Path) -> None:
    """A list of LangChain threads written by ``json.dump`` on one line, or one such list per
    line, gives one run per thread, in order, at the line of its list."""
    threads = [
        {"id": "th-1", "messages": _thread_messages("Oslo", "call_l1")},
        {"thread_id": "th-2", "values": {"messages": _thread_messages("Rome", "call_l2")}},
    ]
    expected = [
        ("th-1", [call("get_weather", {"city": "Oslo"}, "call_l1")]),
        ("th-2", [call("get_weather", {"city": "Rome"}, "call_l2")]),
    ]
    log = tmp_path / "threads.json"
    log.write_text(json.dumps(threads), encoding="utf-8")
    fmt, samples, where = _read(log)
    assert (fmt, summary(samples), where) == ("langchain", expected, [])
    log.write_text(json.dumps(threads[:1]) + "\n" + json.dumps(threads[1:]) + "\n", encoding="utf-8")
    fmt, samples, where = _read(log)
    assert (fmt, summary(samples), where) == ("langchain", expected, [])
    assert [s.line for s in samples] == [1, 2]


# --- BFCL prompting output --------------------------------------------------------------


def _bfcl_line(test_id: str, result: str) -> str:
    """A line of a BFCL result file (``BFCL_v3_<category>_result.json``) as it writes it."""
    return json.dumps(
        {"id": test_id, "result": result, "input_token_count": 312, "output_token_count": 24, "latency": 0.71}
    )


def test_bfcl_prompting_output_without_its_closing_bracket_or_in_a_tool_code_fence(tmp_path: Path) -> None:
    """Output missing only its closing ``]`` gets it, as BFCL's decoder appends it; a
    ```` ```tool_code ```` fence (Gemma) holds calls, one per line or a list; each result line
    is its own run, its test id the case."""
    log = tmp_path / "BFCL_v3_simple_result.json"
    results = [
        ("simple_0", "[calculate_derivative(function='3x**2 + 2x - 1', x_value=0.0)"),
        ("simple_1", "```tool_code\n[get_weather(city='Berlin', days=1)]\n```"),
        (
            "parallel_0",
            "I'll look both up.\n```tool_code\nget_weather(city='Oslo')\nget_time(tz='Europe/Oslo')\n```\n",
        ),
        ("simple_2", "[get_weather(city='Berlin', days=1]"),
    ]
    log.write_text("".join(_bfcl_line(*r) + "\n" for r in results), encoding="utf-8")
    fmt, samples, where = _read(log)
    assert fmt == "bfcl"
    assert summary(samples) == [
        ("simple_0", [call("calculate_derivative", {"function": "3x**2 + 2x - 1", "x_value": 0.0})]),
        ("simple_1", [call("get_weather", {"city": "Berlin", "days": 1})]),
        ("parallel_0", [call("get_weather", {"city": "Oslo"}), call("get_time", {"tz": "Europe/Oslo"})]),
        ("simple_2", []),
    ]
    assert where == [("R404", 4)]  # the unbalanced call is said, at its line
    spec = "".join(f'case "{test_id}" {{\n    expect any\n}}\n' for test_id, _ in results)
    assert [case for case, _ in _paired(spec, log, PairingOptions())] == [
        "simple_0",
        "simple_1",
        "parallel_0",
        "simple_2",
    ]


# --- MCP proxy logs ---------------------------------------------------------------------


def _mcp_proxy_log() -> list[str]:
    """A proxy's log of two MCP sessions over Streamable HTTP, their messages made by the
    ``mcp`` SDK's types and wrapped with the ``Mcp-Session-Id`` they were sent under: session
    ``oslo`` starts with ``initialize``; ``rome`` was under way when logging began, and its
    requests come between those of ``oslo`` (JSON-RPC ids of both start at 1)."""
    import mcp.types as t

    def call(rid: int, name: str, arguments: dict[str, Any]) -> Any:
        params = t.CallToolRequestParams(name=name, arguments=arguments)
        return t.JSONRPCRequest(
            jsonrpc="2.0",
            id=rid,
            method="tools/call",
            params=params.model_dump(mode="json", by_alias=True, exclude_none=True),
        )

    init = t.InitializeRequestParams(
        protocolVersion="2025-06-18",
        capabilities=t.ClientCapabilities(),
        clientInfo=t.Implementation(name="travel-agent", version="1.0"),
    )
    initialize = t.JSONRPCRequest(
        jsonrpc="2.0",
        id=1,
        method="initialize",
        params=init.model_dump(mode="json", by_alias=True, exclude_none=True),
    )
    traffic = [
        ("oslo", initialize),
        ("oslo", call(2, "get_weather", {"city": "Oslo"})),
        ("rome", call(7, "get_weather", {"city": "Rome"})),
        ("oslo", call(3, "send_email", {"to": "ops@example.com"})),
        ("rome", call(8, "book_table", {"city": "Rome", "people": 2})),
    ]
    return [
        json.dumps(
            {
                "time": f"2026-12-04T02:00:0{number}Z",
                "session": session,
                "direction": "client_to_server",
                "message": message.model_dump(mode="json", by_alias=True, exclude_none=True),
            }
        )
        for number, (session, message) in enumerate(traffic)
    ]


def test_mcp_proxy_sessions_are_told_apart_by_their_session_field(tmp_path: Path) -> None:
    """A proxy's ``session`` field puts each request in its session, interleaved or without
    its own ``initialize``; the session is the run's id, and ``--case-from session`` names the
    case from the records' fields."""
    log = tmp_path / "proxy.jsonl"
    log.write_text("\n".join(_mcp_proxy_log()) + "\n", encoding="utf-8")
    fmt, samples, where = _read(log)
    assert fmt == "mcp"
    assert summary(samples) == [
        (
            "oslo",
            [call("get_weather", {"city": "Oslo"}, "2"), call("send_email", {"to": "ops@example.com"}, "3")],
        ),
        (
            "rome",
            [
                call("get_weather", {"city": "Rome"}, "7"),
                call("book_table", {"city": "Rome", "people": 2}, "8"),
            ],
        ),
    ]
    assert [s.line for s in samples] == [1, 3]
    assert where == []
    spec = (
        'case "oslo" {\n    expect get_weather(city="Oslo")\n}\ncase "rome" {\n    expect get_weather()\n}\n'
    )
    runs = [("oslo", ["get_weather", "send_email"]), ("rome", ["get_weather", "book_table"])]
    assert _paired(spec, log, PairingOptions()) == runs
    assert _paired(spec, log, PairingOptions(case_from="session")) == runs


def test_mcp_sessions_without_a_session_field_pair_by_the_fields_of_their_records() -> None:
    """Sessions told apart by ``initialize`` (bare JSON-RPC lines made by the ``mcp`` SDK) give
    pairing the fields of their records: ``--case-from params.clientInfo.name`` names the case
    from each session's ``initialize``."""
    spec = 'case "travel-agent" {\n    expect get_weather()\n}\ncase "other" {\n    expect get_weather()\n}\n'
    log = FIXTURES / "mcp" / "two_sessions.jsonl"
    assert _paired(spec, log, PairingOptions(case_from="params.clientInfo.name")) == [
        ("travel-agent", ["get_weather", "send_email"]),
        ("travel-agent", ["get_weather"]),
    ]


# --- OpenAI Responses built-in tools ----------------------------------------------------


def _response_with_builtin_calls(number: int, sources: list[str]) -> str:
    """A Responses API response whose output holds a built-in call of each kind with what came
    back (search sources, file results, interpreter outputs, an image, an MCP output), made by
    the OpenAI SDK's types and saved with ``to_json(indent=None)``."""
    from openai.types.responses import Response

    output = [
        {
            "type": "web_search_call",
            "id": f"ws_{number}",
            "status": "completed",
            "action": {
                "type": "search",
                "query": "weather Berlin",
                "queries": ["weather Berlin"],
                "sources": [{"type": "url", "url": url} for url in sources],
            },
        },
        {
            "type": "web_search_call",
            "id": f"ws_{number}b",
            "status": "completed",
            "action": {"type": "open_page", "url": "https://example.com/berlin"},
        },
        {
            "type": "file_search_call",
            "id": f"fs_{number}",
            "status": "completed",
            "queries": ["refund policy"],
            "results": [{"file_id": "file-1", "filename": "policy.pdf", "score": 0.9, "text": "30 days"}],
        },
        {
            "type": "code_interpreter_call",
            "id": f"ci_{number}",
            "status": "completed",
            "code": "print(2**10)",
            "container_id": f"cntr_{number}",
            "outputs": [{"type": "logs", "logs": "1024"}],
        },
        {
            "type": "image_generation_call",
            "id": f"ig_{number}",
            "status": "completed",
            "result": "iVBORw0KGgo=",
            "revised_prompt": "a lighthouse",
        },
        {
            "type": "computer_call",
            "id": f"cu_{number}",
            "call_id": f"call_cu{number}",
            "status": "completed",
            "pending_safety_checks": [],
            "action": {"type": "click", "button": "left", "x": 10, "y": 20},
        },
        {
            "type": "mcp_call",
            "id": f"mcp_{number}",
            "server_label": "deepwiki",
            "name": "ask_question",
            "arguments": '{"question": "what is MCP?"}',
            "output": "MCP is a protocol",
        },
        {
            "type": "shell_call",
            "id": f"sh_{number}",
            "call_id": f"call_sh{number}",
            "status": "completed",
            "action": {"commands": ["ls -la"], "timeout_ms": 1000},
        },
        {
            "type": "apply_patch_call",
            "id": f"ap_{number}",
            "call_id": f"call_ap{number}",
            "status": "completed",
            "operation": {"type": "delete_file", "path": "old.txt"},
        },
    ]
    response = Response.model_validate(
        {
            "id": f"resp_{number}",
            "object": "response",
            "created_at": 1764720000,
            "model": "gpt-5",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    )
    return response.to_json(indent=None)


def test_responses_builtin_calls_hold_what_the_model_asked_not_what_came_back(tmp_path: Path) -> None:
    """Built-in calls' arguments leave out the results (search ``sources``, file ``results``,
    interpreter ``outputs`` and container, image ``result``, MCP ``output``): two runs that
    found other sources read the same; ``shell_call`` and ``apply_patch_call`` are calls too."""
    log = tmp_path / "responses.jsonl"
    first = _response_with_builtin_calls(1, ["https://example.com/a"])
    second = _response_with_builtin_calls(2, ["https://example.com/b", "https://example.com/c"])
    log.write_text(first + "\n" + second + "\n", encoding="utf-8")
    fmt, samples, where = _read(log)
    assert fmt == "openai-responses"
    question = '{"question": "what is MCP?"}'

    def calls(n: int) -> list[dict[str, Any]]:
        return [
            call(
                "web_search",
                {"type": "search", "query": "weather Berlin", "queries": ["weather Berlin"]},
                f"ws_{n}",
                "web_search_call",
            ),
            call(
                "web_search",
                {"type": "open_page", "url": "https://example.com/berlin"},
                f"ws_{n}b",
                "web_search_call",
            ),
            call("file_search", {"queries": ["refund policy"]}, f"fs_{n}", "file_search_call"),
            call("code_interpreter", {"code": "print(2**10)"}, f"ci_{n}", "code_interpreter_call"),
            call("image_generation", {}, f"ig_{n}", "image_generation_call"),
            call(
                "computer",
                {"type": "click", "button": "left", "x": 10, "y": 20},
                f"call_cu{n}",
                "computer_call",
            ),
            call("ask_question", {"question": "what is MCP?"}, f"mcp_{n}", "mcp_call", raw=question),
            call("shell", {"commands": ["ls -la"], "timeout_ms": 1000}, f"call_sh{n}", "shell_call"),
            call(
                "apply_patch", {"type": "delete_file", "path": "old.txt"}, f"call_ap{n}", "apply_patch_call"
            ),
        ]

    assert summary(samples) == [("resp_1", calls(1)), ("resp_2", calls(2))]
    assert where == []
    strip = [[(c.name, dict(c.arguments)) for c in s.calls] for s in samples]
    assert strip[0] == strip[1]


# --- any-agent traces -------------------------------------------------------------------

_AA_TRACE = 83409795388837040911688674412546976639
"""The trace id of the any-agent fixture, an integer as ``AgentSpan.context`` holds it."""


def _aa_context(span_id: int | None, trace_id: int | None = _AA_TRACE) -> dict[str, Any]:
    return {
        "trace_id": trace_id,
        "span_id": span_id,
        "is_remote": False,
        "trace_flags": {"value": 0},
        "trace_state": {"entries": {}},
    }


def _aa_span(span_id: int, start: int, name: str, attributes: dict[str, Any]) -> dict[str, Any]:
    """One ``AgentSpan`` as ``AgentTrace.model_dump_json()`` writes it."""
    return {
        "name": name,
        "kind": "internal",
        "parent": _aa_context(13733079846304084776),
        "start_time": 1751897278395131000 + start,
        "end_time": 1751897278395131000 + start + 1000,
        "status": {"status_code": "ok", "description": None},
        "context": _aa_context(span_id),
        "attributes": attributes,
        "links": [],
        "events": [],
        "resource": {
            "attributes": {
                "telemetry.sdk.language": "python",
                "telemetry.sdk.name": "opentelemetry",
                "telemetry.sdk.version": "1.34.1",
                "service.name": "unknown_service",
            },
            "schema_url": "",
        },
    }


QUESTION = "Find what year it is in the America/New_York timezone and write the value to a file."


def _any_agent_trace() -> dict[str, Any]:
    """An any-agent run (OpenAI Agents framework) as ``AgentTrace.model_dump_json()`` exports it:
    ``call_llm`` spans name the first call of each response in ``gen_ai.output``; ``execute_tool``
    spans hold each run tool's ``gen_ai.tool.args`` (JSON text, or as early releases wrote it the
    JSON text of that text) and, in later releases, ``gen_ai.tool.call.id``; the tool span of
    ``write_file`` is exported twice, as in any-agent's own sample trace."""
    messages = [
        {"role": "system", "content": "Use the available tools."},
        {"role": "user", "content": QUESTION},
    ]
    first_output = [{"tool.name": "get_current_time", "tool.args": '{"timezone": "America/New_York"}'}]
    second_output = [{"tool.name": "write_file", "tool.args": '{"text": "2025"}'}]
    write_file = _aa_span(
        1560612094546778166,
        5000,
        "execute_tool write_file",
        {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "write_file",
            "gen_ai.tool.args": json.dumps('{"text": "2025"}'),
            "gen_ai.output": "{}",
            "gen_ai.output.type": "json",
        },
    )
    spans = [
        _aa_span(
            6659225515768990951,
            1000,
            "call_llm gpt-4.1-mini",
            {
                "gen_ai.operation.name": "call_llm",
                "gen_ai.request.model": "gpt-4.1-mini",
                "gen_ai.input.messages": json.dumps(messages),
                "gen_ai.output": json.dumps(first_output),
                "gen_ai.output.type": "json",
                "gen_ai.usage.input_tokens": 447,
                "gen_ai.usage.output_tokens": 16,
            },
        ),
        _aa_span(
            17968941564450522395,
            2000,
            "execute_tool get_current_time",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "get_current_time",
                "gen_ai.tool.description": "Get current time in a specific timezone",
                "gen_ai.tool.args": '{"timezone": "America/New_York"}',
                "gen_ai.tool.call.id": "call_aa1",
                "gen_ai.output": '{"datetime": "2025-07-07T10:07:59-04:00"}',
                "gen_ai.output.type": "json",
            },
        ),
        _aa_span(
            17655220999432259729,
            3000,
            "call_llm gpt-4.1-mini",
            {
                "gen_ai.operation.name": "call_llm",
                "gen_ai.request.model": "gpt-4.1-mini",
                "gen_ai.output": json.dumps(second_output),
                "gen_ai.output.type": "json",
            },
        ),
        write_file,
        write_file,
        _aa_span(
            1560612094546778167,
            6000,
            "execute_tool notify",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "notify",
                "gen_ai.tool.args": '{"channel": "ops"}',
                "gen_ai.tool.call.id": "call_aa3",
            },
        ),
        _aa_span(
            1894162987164776394,
            7000,
            "call_llm gpt-4.1-mini",
            {
                "gen_ai.operation.name": "call_llm",
                "gen_ai.request.model": "gpt-4.1-mini",
                "gen_ai.output": "The year is 2025; it is written to a file.",
                "gen_ai.output.type": "text",
            },
        ),
    ]
    agent = _aa_span(
        13733079846304084776,
        0,
        "invoke_agent [any_agent]",
        {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "any_agent",
            "gen_ai.request.model": "gpt-4.1-mini",
        },
    )
    agent["parent"] = _aa_context(None, None)
    return {"spans": [*spans, agent], "final_output": "The year is 2025; it is written to a file."}


def test_any_agent_trace_export_reads_each_call_with_its_arguments(tmp_path: Path) -> None:
    """``AgentTrace.model_dump_json()`` (``{"spans", "final_output"}``) is one run of its trace:
    the model spans' calls with the tool spans' arguments and ids, each call once (a span exported
    twice is read once, with an R410 note), a tool run that no model span names kept; the trace id
    in hex is the run's id, and the question of its first model span pairs it."""
    trace = _any_agent_trace()
    expected = [
        (
            format(_AA_TRACE, "032x"),
            [
                call(
                    "get_current_time",
                    {"timezone": "America/New_York"},
                    "call_aa1",
                    raw='{"timezone": "America/New_York"}',
                ),
                call("write_file", {"text": "2025"}, raw='{"text": "2025"}'),
                call("notify", {"channel": "ops"}, "call_aa3", raw='{"channel": "ops"}'),
            ],
        )
    ]
    spec = f'case "year" {{\n    question "{QUESTION}"\n    expect get_current_time()\n}}\n'
    for name, text in (
        ("trace.json", json.dumps(trace)),
        ("spans.json", json.dumps(trace["spans"], indent=2)),
    ):
        log = tmp_path / name
        log.write_text(text, encoding="utf-8")
        fmt, samples, where = _read(log)
        assert (name, fmt, summary(samples)) == (name, "otel", expected)
        assert where == [("R410", 1)]
        assert _paired(spec, log, PairingOptions("question")) == [
            ("year", ["get_current_time", "write_file", "notify"])
        ]
