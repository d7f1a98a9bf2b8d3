"""ToolCallAccuracyEvaluator and Sample: scores, dict inputs and the ValueError cases."""

import pytest

from toolexpect import Evaluation, Sample, ToolCall, ToolCallAccuracyEvaluator


def test_full_match_scores_one() -> None:
    """Every expected call made gives 1.0 and the evaluator's name."""
    sample = Sample(
        expected_tool_calls=[ToolCall("get_weather", {"city": "Berlin"})],
        tool_calls=[ToolCall("get_weather", {"city": "Berlin", "unit": "C"})],
    )
    evaluation = ToolCallAccuracyEvaluator().evaluate(sample)
    assert isinstance(evaluation, Evaluation)
    assert evaluation.name == "Tool Call Accuracy"
    assert evaluation.value == 1.0
    assert evaluation.passed
    assert evaluation.result.pairs == ((0, 0),)


def test_partial_match_scores_fraction_and_explains() -> None:
    """One of two expected calls made gives 0.5, and the explanation names the argument."""
    sample = Sample(
        expected_tool_calls=[
            ToolCall("get_weather", {"city": "Berlin"}),
            ToolCall("send_email", {"to": "ops@example.com"}),
        ],
        tool_calls=[ToolCall("get_weather", {"city": "Berlin"}), ToolCall("send_email", {"to": "dev@x"})],
    )
    evaluation = ToolCallAccuracyEvaluator().evaluate(sample)
    assert evaluation.value == 0.5
    assert not evaluation.passed
    assert 'to: expected "ops@example.com", got "dev@x"' in evaluation.explanation
    assert [f.kind for f in evaluation.result.failures] == ["threshold", "unmatched"]


def test_dicts_are_accepted_for_both_sides() -> None:
    """Plain dicts stand for calls; a JSON string of arguments is decoded."""
    sample = Sample(
        expected_tool_calls=[{"name": "get_weather", "arguments": {"city": "Berlin", "days": 2}}],
        tool_calls=[{"name": "get_weather", "arguments": '{"city": "Berlin", "days": 2.0}'}],
    )
    assert ToolCallAccuracyEvaluator().evaluate(sample).value == 1.0


def test_top_level_numbers_by_value_nested_strictly() -> None:
    """Expected calls given as ToolCall compare top-level numbers by value, nested ones by type."""
    expected = [ToolCall("f", {"n": 5, "meta": {"n": 5}})]
    same = ToolCallAccuracyEvaluator().evaluate(
        Sample(expected, [ToolCall("f", {"n": 5.0, "meta": {"n": 5}})])
    )
    nested_float = ToolCallAccuracyEvaluator().evaluate(
        Sample(expected, [ToolCall("f", {"n": 5, "meta": {"n": 5.0}})])
    )
    assert same.value == 1.0
    assert nested_float.value == 0.0


def test_empty_calls_score_zero() -> None:
    """A run that called nothing scores 0.0, not an error."""
    sample = Sample(expected_tool_calls=[ToolCall("get_weather", {})], tool_calls=[])
    evaluation = ToolCallAccuracyEvaluator().evaluate(sample)
    assert evaluation.value == 0.0
    assert "get_weather was never called" in evaluation.explanation
    assert "recorded calls: none" in evaluation.explanation


def test_no_expected_calls_is_value_error_checked_first() -> None:
    """No expected calls is a ValueError, reported even when tool_calls is also None."""
    with pytest.raises(ValueError, match="at least one expected tool call"):
        ToolCallAccuracyEvaluator().evaluate(Sample(expected_tool_calls=[], tool_calls=None))


def test_none_expected_calls_is_the_value_error_of_no_expected_calls() -> None:
    """expected_tool_calls=None is the ValueError of a sample without expected calls, as [] is."""
    with pytest.raises(ValueError, match=r"at least one expected tool call.*expected_tool_calls=None"):
        ToolCallAccuracyEvaluator().evaluate(Sample(expected_tool_calls=None, tool_calls=[]))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one expected tool call"):
        ToolCallAccuracyEvaluator().evaluate(Sample(expected_tool_calls=None, tool_calls=None))  # type: ignore[arg-type]


def test_none_tool_calls_is_value_error() -> None:
    """tool_calls=None (nothing recorded) is a ValueError, never a score."""
    with pytest.raises(ValueError, match="tool_calls=None"):
        ToolCallAccuracyEvaluator().evaluate(Sample([ToolCall("get_weather", {})], None))


def test_bad_dict_is_rejected() -> None:
    """A dict without a name is not a call."""
    with pytest.raises(ValueError, match="non-empty string 'name'"):
        ToolCallAccuracyEvaluator().evaluate(Sample([{"arguments": {}}], []))


def test_cached_compilation_keeps_types_apart() -> None:
    """Two samples whose expectations differ only in 5 vs 5.0 nested, or true vs 1, score apart."""
    evaluator = ToolCallAccuracyEvaluator()
    call = {"name": "t", "arguments": {"x": {"n": 5}, "b": True}}
    assert evaluator.evaluate(Sample([call], [call])).value == 1.0
    other = {"name": "t", "arguments": {"x": {"n": 5.0}, "b": True}}
    assert evaluator.evaluate(Sample([other], [call])).value == 0.0
    flag = {"name": "t", "arguments": {"b": 1}}
    assert evaluator.evaluate(Sample([flag], [call])).value == 0.0
