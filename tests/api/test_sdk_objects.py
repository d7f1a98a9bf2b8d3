"""The Python API takes what the SDKs return, without the user dumping it.

The objects are the SDKs' own pydantic models (openai, anthropic, google-genai, mcp) and
LangChain messages, built from the SDK-made fixtures under ``tests/fixtures/logs/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic.types
import mcp.types
import openai.types.chat
import openai.types.responses
import pytest
from google.genai import types as genai
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from toolexpect import Sample, ToolCall, ToolCallAccuracyEvaluator, given
from toolexpect.api import calls_from

LOGS = Path(__file__).resolve().parent.parent / "fixtures" / "logs"


def record(path: str, index: int = 0) -> dict[str, Any]:
    """One record of a JSON Lines fixture."""
    lines = (LOGS / path).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[index])  # type: ignore[no-any-return]


def named(calls: list[ToolCall]) -> list[tuple[str, dict[str, Any], str | None]]:
    """Calls as (name, arguments, id)."""
    return [(c.name, dict(c.arguments), c.id) for c in calls]


COMPLETION = openai.types.chat.ChatCompletion.model_validate(
    record("openai-chat/request_response.jsonl", 1)["response"]
)
RESPONSE = openai.types.responses.Response.model_validate(
    record("openai-responses/request_response.jsonl")["response"]
)
MESSAGE = anthropic.types.Message.model_validate(record("anthropic/request_response.jsonl")["response"])
MAIL = [("send_email", {"to": "ops@example.com"}, "call_p2")]
BERLIN = [("get_weather", {"city": "Berlin", "days": 1}, "toolu_b1")]


def gemini_response() -> genai.GenerateContentResponse:
    """A response whose call part carries a ``thought_signature`` (bytes)."""
    part = genai.Part(
        function_call=genai.FunctionCall(name="get_weather", args={"city": "Berlin"}, id="fc1"),
        thought_signature=b"\x0a\x24\xff",
    )
    content = genai.Content(role="model", parts=[part])
    return genai.GenerateContentResponse(response_id="g1", candidates=[genai.Candidate(content=content)])


LANGCHAIN_AI = AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Oslo"}, "id": "c1"}])
GEMINI = [("get_weather", {"city": "Berlin"}, "fc1")]
OSLO = [("get_weather", {"city": "Oslo"}, "c1")]
REQUEST = mcp.types.CallToolRequest(
    params=mcp.types.CallToolRequestParams(name="get_weather", arguments={"city": "Berlin"})
)
MCP = [("get_weather", {"city": "Berlin"}, None)]

CASES: list[tuple[str, Any, list[tuple[str, dict[str, Any], str | None]]]] = [
    ("openai completion", COMPLETION, MAIL),
    ("openai choices[0].message", COMPLETION.choices[0].message, MAIL),
    ("openai message.tool_calls", COMPLETION.choices[0].message.tool_calls, MAIL),
    ("openai message dumped", COMPLETION.choices[0].message.model_dump(), MAIL),
    (
        "bare assistant dict",
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call_p2",
                    "type": "function",
                    "function": {"name": "send_email", "arguments": '{"to": "ops@example.com"}'},
                }
            ],
        },
        MAIL,
    ),
    ("openai responses Response", RESPONSE, [("send_email", {"to": "ops@example.com"}, "call_r2")]),
    ("anthropic message", MESSAGE, BERLIN),
    ("anthropic content", MESSAGE.content, BERLIN),
    ("anthropic tool_use block", MESSAGE.content[0], BERLIN),
    ("gemini response with bytes", gemini_response(), GEMINI),
    ("gemini function_calls", gemini_response().function_calls, GEMINI),
    ("gemini content", gemini_response().candidates[0].content, GEMINI),  # type: ignore[index]
    ("langchain AIMessage", LANGCHAIN_AI, OSLO),
    ("langchain tool_calls", LANGCHAIN_AI.tool_calls, OSLO),
    ("langchain thread", [HumanMessage("Oslo?"), LANGCHAIN_AI, ToolMessage("cold", tool_call_id="c1")], OSLO),
    ("mcp CallToolRequest", REQUEST, MCP),
    ("mcp CallToolRequestParams", REQUEST.params, MCP),
]


@pytest.mark.parametrize(("value", "expected"), [(v, e) for _, v, e in CASES], ids=[n for n, _, _ in CASES])
def test_calls_from_sdk_objects(value: Any, expected: list[tuple[str, dict[str, Any], str | None]]) -> None:
    """``calls_from`` reads each SDK object (and the parts users pass) into its calls."""
    assert named(calls_from(value)) == expected


@pytest.mark.parametrize(("value", "expected"), [(v, e) for _, v, e in CASES], ids=[n for n, _, _ in CASES])
def test_sample_tool_calls_take_sdk_objects(
    value: Any, expected: list[tuple[str, dict[str, Any], str | None]]
) -> None:
    """``Sample(tool_calls=...)`` scores what the SDK returned."""
    wanted = [{"name": name, "arguments": arguments} for name, arguments, _ in expected]
    result = ToolCallAccuracyEvaluator().evaluate(Sample(expected_tool_calls=wanted, tool_calls=value))
    assert result.value == 1.0
    assert named(list(result.calls or ())) == expected


def test_answer_from_an_agent_returning_a_completion() -> None:
    """``answer_from(fn)`` takes the calls from the SDK response the agent returns."""

    def agent(question: str) -> Any:
        return COMPLETION

    then = (
        given()
        .question("Mail ops")
        .expected_tool_call("send_email")
        .with_argument("to", "ops@example.com")
        .when()
        .answer_from(agent)
        .then()
    )
    then.assert_tool_call_accuracy(1.0)
    assert named(then.calls) == MAIL


def test_fluent_tool_calls_take_a_gemini_response_with_bytes() -> None:
    """``tool_calls(response)`` reads a Gemini response whose part holds bytes."""
    then = (
        given()
        .question("Berlin?")
        .expected_tool_call("get_weather")
        .when()
        .tool_calls(gemini_response())
        .then()
    )
    assert named(then.calls) == GEMINI


def test_plain_call_dicts_keep_their_errors() -> None:
    """A list of dicts that are neither calls nor a known form keeps the call-dict error."""
    with pytest.raises(ValueError, match="non-empty string 'name'"):
        ToolCallAccuracyEvaluator().evaluate(
            Sample(expected_tool_calls=[{"name": "f"}], tool_calls=[{"nme": "f"}])
        )


def test_calls_from_is_a_name_of_the_package() -> None:
    """``toolexpect.calls_from``, as the README writes it, reads an SDK response."""
    import toolexpect

    assert named(toolexpect.calls_from(COMPLETION)) == named(calls_from(COMPLETION))
    assert "calls_from" in toolexpect.__all__
