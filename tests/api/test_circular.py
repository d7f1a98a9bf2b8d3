"""Circular and very deep arguments are refused with a ValueError, never a hang or RecursionError."""

from __future__ import annotations

from typing import Any

import pytest

from toolexpect import Sample, ToolCall, ToolCallAccuracyEvaluator, given, score
from toolexpect.api.recording import record
from toolexpect.language.layout import MAX_DEPTH


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def _circular() -> dict[str, Any]:
    value: dict[str, Any] = {"a": 1}
    value["self"] = value
    return value


@pytest.mark.parametrize("value", [_circular(), _nested(100_000)], ids=["circular", "deep"])
def test_expected_and_actual_calls_refuse_such_values(value: Any) -> None:
    """As an expected call, an actual call or a fluent argument: a ValueError naming the argument."""
    with pytest.raises(ValueError, match="argument 'd'"):
        ToolCallAccuracyEvaluator().evaluate(Sample([ToolCall("t", {"d": value})], [ToolCall("t")]))
    with pytest.raises(ValueError, match="argument 'd'"):
        score("expect t", [ToolCall("t", {"d": value})])
    with pytest.raises(ValueError, match="argument 'd'"):
        given().expected_tool_call("t").with_argument("d", value)
    with pytest.raises(ValueError, match="argument 'd'"), record() as recording:
        recording.add("t", {"d": value})


def test_the_language_depth_is_allowed() -> None:
    """A value nested exactly as deep as the language allows is fine; one level more is not."""
    deepest = _nested(MAX_DEPTH)
    assert score("expect t", [ToolCall("t", {"d": deepest})]).value == 1.0
    with pytest.raises(ValueError, match=f"deeper than {MAX_DEPTH}"):
        score("expect t", [ToolCall("t", {"d": [deepest]})])


def test_shared_values_are_not_cycles() -> None:
    """A value that appears twice without containing itself is fine."""
    shared = [1, 2]
    assert score("expect t", [ToolCall("t", {"a": [shared, shared], "b": shared})]).value == 1.0
