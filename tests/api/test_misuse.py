"""Misuse of the Python API is refused at the boundary with a TypeError or ValueError."""

from __future__ import annotations

from typing import Any

import pytest

from toolexpect import (
    Sample,
    ToolCall,
    ToolCallAccuracyEvaluator,
    assert_tool_calls,
    given,
    parse_spec,
    score,
)


@pytest.mark.parametrize("arguments", [[1, 2], "x=1", 5, None], ids=["list", "text", "int", "none"])
def test_tool_call_arguments_must_be_a_mapping(arguments: Any) -> None:
    """ToolCall arguments that are not a mapping raise a TypeError naming the arguments."""
    with pytest.raises(TypeError, match="arguments"):
        ToolCall("t", arguments)


@pytest.mark.parametrize("name", [None, 123, b"t"], ids=["none", "int", "bytes"])
def test_tool_call_name_must_be_text(name: Any) -> None:
    """A ToolCall name that is not a string raises a TypeError naming the name."""
    with pytest.raises(TypeError, match="name"):
        ToolCall(name)


def test_tool_call_name_must_not_be_empty() -> None:
    """An empty ToolCall name raises a ValueError."""
    with pytest.raises(ValueError, match="name"):
        ToolCall("")


def test_parse_spec_needs_text() -> None:
    """parse_spec(None) raises a TypeError, not an AttributeError."""
    with pytest.raises(TypeError, match="spec text"):
        parse_spec(None)  # type: ignore[arg-type]


def test_score_needs_a_spec() -> None:
    """score(None, []) raises a TypeError naming spec_or_case."""
    with pytest.raises(TypeError, match="spec_or_case"):
        score(None, [])  # type: ignore[arg-type]


def test_assert_tool_calls_needs_calls() -> None:
    """assert_tool_calls(None, ...) is a TypeError, not an assertion failure."""
    with pytest.raises(TypeError, match="recorded calls"):
        assert_tool_calls(None, "expect t")


def test_empty_generator_of_expected_calls_is_refused() -> None:
    """An empty generator as expected_tool_calls is the ValueError for no expected calls."""
    sample = Sample(expected_tool_calls=(c for c in []), tool_calls=[])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one expected tool call"):
        ToolCallAccuracyEvaluator().evaluate(sample)


def test_generator_of_expected_calls_is_read() -> None:
    """A non-empty generator of expected calls is read once and scored."""
    sample = Sample(expected_tool_calls=(c for c in [ToolCall("t")]), tool_calls=[ToolCall("t")])  # type: ignore[arg-type]
    assert ToolCallAccuracyEvaluator().evaluate(sample).value == 1.0


def test_single_expected_call_instead_of_a_list_is_refused() -> None:
    """One ToolCall given as expected_tool_calls raises a TypeError naming the field."""
    sample = Sample(expected_tool_calls=ToolCall("t"), tool_calls=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected_tool_calls"):
        ToolCallAccuracyEvaluator().evaluate(sample)


def test_fluent_empty_tool_name_is_refused() -> None:
    """given().expected_tool_call("") raises a ValueError."""
    with pytest.raises(ValueError, match="tool name"):
        given().expected_tool_call("")
