import toolexpect
from toolexpect import given


@toolexpect.tool
def get_weather(city: str, unit: str = "celsius") -> str:
    return f"Sunny in {city}"


def agent(question: str) -> str:  # stands in for your LLM application
    return get_weather("Berlin") if "Berlin" in question else "I cannot tell."


def test_agent_asks_for_the_weather_in_berlin() -> None:
    """The agent looks up the weather in the city it was asked about."""
    (
        given()
        .question("What is the weather in Berlin?")
        .expected_tool_call(get_weather)
        .with_argument("city", "Berlin")
        .when()
        .answer_from(agent)
        .then()
        .assert_tool_call_accuracy(1.0)
        .assert_no_unexpected_tool_calls()
    )
