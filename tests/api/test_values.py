"""Values given to the Python API enter the matcher in one form: numbers, text, lists, dicts."""

from __future__ import annotations

import enum
from collections import UserDict
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from toolexpect import Sample, ToolCall, ToolCallAccuracyEvaluator, given, score
from toolexpect.recording import record, to_json

np = pytest.importorskip("numpy")


class Text(str):
    """A user subclass of str."""


class Count(int):
    """A user subclass of int."""


class Ratio(float):
    """A user subclass of float."""


class Colour(enum.Enum):
    RED = "red"


def _value(expected: Any, actual: Any) -> float | None:
    sample = Sample(
        expected_tool_calls=[ToolCall("t", {"x": expected})], tool_calls=[ToolCall("t", {"x": actual})]
    )
    return ToolCallAccuracyEvaluator().evaluate(sample).value


@pytest.mark.parametrize(
    ("actual", "expected"),
    [
        (np.float64(0.5), 0.5),
        (np.float32(0.5), 0.5),
        (np.int64(3), 3),
        (np.int8(3), 3.0),
        (np.str_("Berlin"), "Berlin"),
        (np.bool_(True), True),
        (np.array([1, 2, 3]), [1, 2, 3]),
        (Text("Berlin"), "Berlin"),
        (Count(3), 3),
        (Ratio(0.5), 0.5),
        ({"k": np.float64(0.5)}, {"k": 0.5}),
        ((1, 2), [1, 2]),
    ],
    ids=repr,
)
def test_actual_values_of_other_types_match_their_plain_value(actual: Any, expected: Any) -> None:
    """numpy scalars and arrays, and subclasses of str/int/float match the plain expected value."""
    assert _value(expected, actual) == 1.0


def test_numpy_bool_is_never_a_number() -> None:
    """A numpy boolean is a boolean: it does not match 1."""
    assert _value(1, np.bool_(True)) == 0.0


def test_comparison_with_a_numpy_float() -> None:
    """``x >= 0.1`` against an np.float64 compares the number, never raising InvalidOperation."""
    assert score("expect t(x >= 0.1)", [ToolCall("t", {"x": np.float64(0.5)})]).value == 1.0


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (Decimal("1.5"), 1.5),
        (Decimal("2"), 2),
        (Fraction(1, 4), 0.25),
        (Decimal("0.1"), 0.1),
        (np.float64(2.5), 2.5),
    ],
    ids=repr,
)
def test_exact_expected_numbers(expected: Any, actual: Any) -> None:
    """Decimal and Fraction are numbers of exactly their value, never their repr."""
    assert _value(expected, actual) == 1.0
    assert _value(expected, repr(expected)) == 0.0


@pytest.mark.parametrize("value", [Fraction(1, 3), Decimal("0.10000000000000000001")], ids=repr)
def test_numbers_no_json_number_holds_are_refused(value: Any) -> None:
    """A Decimal or Fraction that no int or float holds exactly is a ValueError naming the argument."""
    with pytest.raises(ValueError, match="argument 'x'"):
        _value(value, 0)


@pytest.mark.parametrize(
    "value", [b"abc", 1 + 2j, object(), {1, 2}.__iter__()], ids=["bytes", "complex", "object", "iterator"]
)
def test_values_without_a_json_form_are_refused(value: Any) -> None:
    """bytes, complex and other objects are a TypeError naming the argument and the type."""
    with pytest.raises(TypeError, match=rf"argument 'x'.*{type(value).__name__}"):
        _value(value, 0)
    with pytest.raises(TypeError, match="argument 'x'"):
        given().expected_tool_call("t").with_argument("x", value)


def test_mappings_enums_and_sets_are_converted() -> None:
    """A Mapping becomes a dict, an enum its value, a set a sorted list."""
    assert to_json(UserDict({"a": Colour.RED, "b": {3, 1, 2}}), strict=True) == {"a": "red", "b": [1, 2, 3]}


def test_plain_values_are_not_copied() -> None:
    """Plain JSON values pass through as they are."""
    value = {"a": [1, {"b": "c"}], "d": None}
    assert to_json(value, strict=True) is value
    call = ToolCall("t", {"x": value})
    assert score("expect t", [call]).result.status == "pass"


def test_recording_keeps_reprs_of_other_objects() -> None:
    """A recorded call still records an object it cannot convert, as its repr."""
    with record() as recording:
        recording.add("t", {"x": b"abc", "y": np.float64(0.5)})
    assert recording.calls[0].arguments == {"x": "b'abc'", "y": 0.5}
