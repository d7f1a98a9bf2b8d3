"""The given / when / then API: name resolution, assertions and misuse."""

import functools
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

import toolexpect
from toolexpect import ToolCall, ToolCallAssertionError, given


def get_weather(city: str, unit: str = "celsius") -> str:
    """A plain tool function."""
    return f"sunny in {city}"


class WeatherService:
    """Tools as bound methods."""

    def forecast(self, city: str, days: int = 1) -> str:
        """A tool that is a method."""
        return f"{days} days of sun in {city}"


class FakeLangChainTool:
    """Stands in for a LangChain StructuredTool: a ``name`` and the wrapped ``func``."""

    def __init__(self, name: str, func: Callable[..., Any]) -> None:
        self.name = name
        self.func = func


class FakeAgentsTool:
    """Stands in for an OpenAI Agents SDK FunctionTool: ``name`` and ``params_json_schema``."""

    name = "lookup_order"
    params_json_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"order_id": {"type": "string"}},
    }


@toolexpect.tool(name="weather_now")
def decorated_weather(city: str) -> str:
    """A decorated tool whose name is overridden."""
    return city


def _then(tool: object, calls: list[ToolCall], **arguments: Any) -> toolexpect.api.fluent.Then:
    return (
        given()
        .question("q")
        .expected_tool_call(tool)
        .with_arguments(arguments)
        .when()
        .tool_calls(calls)
        .then()
    )


@pytest.mark.parametrize(
    ("tool", "name"),
    [
        (get_weather, "get_weather"),
        (WeatherService().forecast, "forecast"),
        (decorated_weather, "weather_now"),
        (FakeLangChainTool("search_web", get_weather), "search_web"),
        (FakeAgentsTool(), "lookup_order"),
        (functools.partial(get_weather, unit="kelvin"), "get_weather"),
        ("mcp__fs__read", "mcp__fs__read"),
    ],
    ids=[
        "function",
        "bound-method",
        "decorator-override",
        "langchain-like",
        "agents-like",
        "partial",
        "string",
    ],
)
def test_tool_name_resolution(tool: object, name: str) -> None:
    """The expected call takes the tool's name however the tool is given."""
    _then(tool, [ToolCall(name)]).assert_tool_call_accuracy(1.0)
    with pytest.raises(ToolCallAssertionError, match=f"{name} was never called"):
        _then(tool, [ToolCall("other")]).assert_tool_call_accuracy(1.0)


@pytest.mark.parametrize(
    ("tool", "known"),
    [
        (get_weather, "city, unit"),
        (WeatherService().forecast, "city, days"),
        (decorated_weather, "city"),
        (FakeLangChainTool("search_web", get_weather), "city, unit"),
        (FakeAgentsTool(), "order_id"),
    ],
    ids=["function", "bound-method", "decorated", "langchain-like", "agents-like"],
)
def test_unknown_parameter_is_value_error(tool: object, known: str) -> None:
    """with_argument with a name that is not a parameter names the parameters."""
    with pytest.raises(ValueError, match=f"has no parameter 'town'; its parameters: {known}"):
        given().expected_tool_call(tool).with_argument("town", "Berlin")


def test_string_tool_accepts_any_argument_name() -> None:
    """A tool given by name has no known signature: any argument name goes."""
    given().expected_tool_call("get_weather").with_argument("town", "Berlin")


def test_argument_before_expectation_is_type_error() -> None:
    """with_argument before expected_tool_call is misuse, not an assertion failure."""
    with pytest.raises(TypeError, match="needs an expected_tool_call"):
        given().question("q").with_argument("city", "Berlin")


def test_then_without_calls_is_type_error() -> None:
    """then() before the calls are known is misuse."""
    with pytest.raises(TypeError, match="then\\(\\) needs calls"):
        given().expected_tool_call("f").when().then()


def test_answer_from_without_question_is_type_error() -> None:
    """answer_from needs the question to put to the agent."""
    with pytest.raises(TypeError, match="needs a question"):
        given().expected_tool_call("f").when().answer_from(lambda q: [])


def test_accuracy_out_of_range_is_value_error() -> None:
    """An accuracy above 1 is a ValueError."""
    with pytest.raises(ValueError, match="from 0 to 1"):
        _then("f", [ToolCall("f")]).assert_tool_call_accuracy(2)


def test_accuracy_without_expectations_is_value_error() -> None:
    """Accuracy with no expected calls is a ValueError, not a score."""
    then = given().question("q").when().tool_calls([]).then()
    with pytest.raises(ValueError, match="no expected tool calls"):
        then.assert_tool_call_accuracy()


def test_accuracy_failure_explains_arguments() -> None:
    """A wrong argument fails the accuracy assertion with expected and got."""
    then = _then(get_weather, [{"name": "get_weather", "arguments": {"city": "Paris"}}], city="Berlin")
    assert then.tool_call_accuracy == 0.0
    with pytest.raises(ToolCallAssertionError) as info:
        then.assert_tool_call_accuracy(1.0)
    assert 'city: expected "Berlin", got "Paris"' in str(info.value)


def _one_of_two() -> toolexpect.api.fluent.Then:
    """Two expected calls, ``a`` and ``b``, and a run that called ``a`` only."""
    return (
        given()
        .question("q")
        .expected_tool_call("a")
        .expected_tool_call("b")
        .when()
        .tool_calls([ToolCall("a")])
        .then()
    )


def test_accuracy_threshold_is_honoured() -> None:
    """One of two expected calls passes at 0.5 and fails at 0.6."""
    then = _one_of_two()
    then.assert_tool_call_accuracy(0.5)
    with pytest.raises(ToolCallAssertionError, match=r"below the threshold 0\.6"):
        then.assert_tool_call_accuracy(0.6)


def test_no_unexpected_tool_calls() -> None:
    """An extra call fails assert_no_unexpected_tool_calls and is named."""
    _then("a", [ToolCall("a")]).assert_no_unexpected_tool_calls()
    with pytest.raises(ToolCallAssertionError, match="unexpected call #2 b\\(\\)"):
        then = _then("a", [ToolCall("a"), ToolCall("b")]).assert_tool_call_accuracy()
        then.assert_no_unexpected_tool_calls()


def test_tool_call_order() -> None:
    """Expected calls in another order fail assert_tool_call_order but not the accuracy."""

    def then_for(calls: list[ToolCall]) -> toolexpect.api.fluent.Then:
        return (
            given()
            .question("q")
            .expected_tool_call("search")
            .expected_tool_call("book")
            .when()
            .tool_calls(calls)
            .then()
        )

    then_for([ToolCall("search"), ToolCall("book")]).assert_tool_call_order()
    reversed_run = then_for([ToolCall("book"), ToolCall("search")]).assert_tool_call_accuracy(1.0)
    with pytest.raises(ToolCallAssertionError, match="order broken"):
        reversed_run.assert_tool_call_order()


def test_no_tool_call() -> None:
    """assert_no_tool_call passes on an empty run; with a tool, only that tool is forbidden."""
    given().question("hi").when().tool_calls([]).then().assert_no_tool_call()
    with pytest.raises(ToolCallAssertionError, match="expected no tool calls, got 1"):
        given().question("hi").when().tool_calls([ToolCall("a")]).then().assert_no_tool_call()
    given().question("hi").when().tool_calls([ToolCall("a")]).then().assert_no_tool_call("b")
    with pytest.raises(ToolCallAssertionError, match="forbidden delete_user was called"):
        (
            given()
            .question("hi")
            .when()
            .tool_calls([ToolCall("a"), ToolCall("delete_user")])
            .then()
            .assert_no_tool_call("delete_user")
        )


def test_answer_from_takes_returned_calls() -> None:
    """An agent returning a list of dicts gives those calls; the question is passed in."""
    seen: list[str] = []

    def agent(question: str) -> list[dict[str, Any]]:
        seen.append(question)
        return [{"name": "get_weather", "arguments": {"city": "Berlin"}}]

    (
        given()
        .question("Weather in Berlin?")
        .expected_tool_call(get_weather)
        .with_argument("city", "Berlin")
        .when()
        .answer_from(agent)
        .then()
        .assert_tool_call_accuracy(1.0)
    )
    assert seen == ["Weather in Berlin?"]


def test_answer_from_takes_recorded_tool_calls() -> None:
    """An agent returning text gives the calls its @toolexpect.tool functions recorded."""

    def agent(question: str) -> str:
        return decorated_weather("Berlin")

    then = (
        given()
        .question("q")
        .expected_tool_call(decorated_weather)
        .with_argument("city", "Berlin")
        .when()
        .answer_from(agent)
        .then()
    )
    assert then.calls == [ToolCall("weather_now", {"city": "Berlin"})]
    assert then.answer == "Berlin"
    then.assert_tool_call_accuracy(1.0)


def test_answer_from_takes_recording_and_provider_format() -> None:
    """A Recording or an Anthropic message works as the agent's return value."""
    rec = toolexpect.record()
    rec.add("get_weather", {"city": "Berlin"})
    given().question("q").expected_tool_call("get_weather").when().answer_from(
        lambda q: rec
    ).then().assert_tool_call_accuracy()
    message = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Berlin"}}],
    }
    (
        given()
        .question("q")
        .expected_tool_call("get_weather")
        .with_argument("city", "Berlin")
        .when()
        .answer_from(lambda q: message)
        .then()
        .assert_tool_call_accuracy()
    )


def test_evaluation_is_the_plain_score() -> None:
    """then().evaluation() scores against threshold 1.0: a partial run does not pass."""
    then = _one_of_two()
    evaluation = then.evaluation()
    assert evaluation.value == 0.5
    assert not evaluation.passed
    assert then.tool_call_accuracy == 0.5


def test_answer_from_awaits_async_agents() -> None:
    """An async agent is run to completion; its decorated tools are recorded."""

    async def agent(question: str) -> str:
        return decorated_weather("Berlin")

    then = given().question("q").expected_tool_call(decorated_weather).when().answer_from(agent).then()
    assert then.answer == "Berlin"
    assert then.calls == [ToolCall("weather_now", {"city": "Berlin"})]
