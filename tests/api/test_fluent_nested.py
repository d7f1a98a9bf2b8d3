"""The fluent API and matchers inside values: ``with_argument_matching`` takes an argument
matcher as a spec writes it, nested matchers and ``contains`` included; plain nested values of
``with_argument`` still match strictly."""

from __future__ import annotations

from typing import Any

import pytest

from toolexpect import ToolCall, ToolCallAssertionError, given


def send_email(to: list[str], meta: dict[str, Any]) -> None:
    """A tool whose arguments are a list and an object."""


def _then(calls: list[ToolCall], *matchers: str) -> Any:
    setup = given().expected_tool_call(send_email)
    for matcher in matchers:
        setup = setup.with_argument_matching(matcher)
    return setup.when().tool_calls(calls).then()


CALL = ToolCall(
    "send_email", {"to": ["dev@example.com", "ops@example.com"], "meta": {"priority": 3, "team": "ops"}}
)


def test_nested_matchers_and_contains_hold() -> None:
    """A nested comparison and contains hold on a call that meets them."""
    then = _then([CALL], 'to contains "ops@example.com"', 'meta={priority >= 2, team ~ "^op", ...}')
    assert then.tool_call_accuracy == 1.0
    then.assert_tool_call_accuracy()


def test_a_failing_nested_matcher_is_explained() -> None:
    """A nested key that fails names itself and why in the assertion's message."""
    then = _then([CALL], "meta={priority >= 5, ...}")
    with pytest.raises(ToolCallAssertionError) as raised:
        then.assert_tool_call_accuracy()
    assert "meta.priority: 3 is not >= 5" in str(raised.value)


def test_a_range_is_one_argument_with_two_matchers() -> None:
    """``1 <= x <= 9`` gives the argument both bounds; a later matcher of it replaces them."""
    setup = given().expected_tool_call("t").with_argument_matching("1 <= x <= 9")
    assert _accuracy(setup, {"x": 10}) == 0.0
    setup = setup.with_argument_matching("x > 9")
    assert _accuracy(setup, {"x": 10}) == 1.0


def _accuracy(setup: Any, arguments: dict[str, Any]) -> float:
    return float(setup.when().tool_calls([ToolCall("t", arguments)]).then().tool_call_accuracy)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("x ~", "is not one argument matcher: expected"),
        ("x=1, y=2", "it names 2 arguments"),
        ("x=1)\nexpect u(y=1", "is not one argument matcher"),
        ("x=1) forbid f(y=1", "is not one argument matcher"),
        ("x=1 # a comment", ""),
    ],
)
def test_what_is_not_one_matcher_is_a_value_error(text: str, words: str) -> None:
    """Text that does not parse, that names two arguments, or that closes the call and goes on
    is a ValueError; a comment after the matcher is fine."""
    setup = given().expected_tool_call("t")
    if not words:
        assert _accuracy(setup.with_argument_matching(text), {"x": 1}) == 1.0
        return
    with pytest.raises(ValueError, match="not one argument matcher") as raised:
        setup.with_argument_matching(text)
    assert words in str(raised.value)


def test_an_unknown_parameter_is_refused() -> None:
    """A matcher of a parameter the tool function does not take is a ValueError naming them."""
    with pytest.raises(ValueError, match="has no parameter 'cc'"):
        given().expected_tool_call(send_email).with_argument_matching('cc contains "x"')


def test_a_plain_nested_value_still_matches_strictly() -> None:
    """``with_argument`` with a nested value keeps the strict nested rule: 3 is not 3.0."""
    setup = given().expected_tool_call("t").with_argument("meta", {"priority": 3})
    assert _accuracy(setup, {"meta": {"priority": 3}}) == 1.0
    assert _accuracy(setup, {"meta": {"priority": 3.0}}) == 0.0
