"""Values given to the Python API enter the matcher in one form: numbers, text, lists, dicts."""

from __future__ import annotations

import enum
import os
import subprocess
import sys
from collections import UserDict, UserString
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from toolexpect import Sample, ToolCall, ToolCallAccuracyEvaluator, calls_from, given, score
from toolexpect.api.recording import record, to_json

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


def test_mappings_and_enums_are_converted() -> None:
    """A Mapping becomes a dict, an enum its value, a UserString its text."""
    assert to_json(UserDict({"a": Colour.RED, "b": UserString("c")}), strict=True) == {"a": "red", "b": "c"}


def _refusals(value: Any) -> list[Callable[[], object]]:
    """Every way the API takes an argument value: expected and recorded calls, fluent, record."""
    return [
        lambda: _value(value, 0),
        lambda: _value(0, value),
        lambda: score("expect t", [{"name": "t", "arguments": {"x": value}}]),
        lambda: given().expected_tool_call("t").with_argument("x", value),
    ]


@pytest.mark.parametrize("value", [{1, 2}, frozenset({"a", "b"}), {1, "a", 2.5}], ids=repr)
def test_sets_are_refused_for_they_have_no_order(value: Any) -> None:
    """A set or frozenset is a TypeError naming the argument: its list order would be the hash order."""
    for refused in _refusals(value):
        with pytest.raises(TypeError, match=rf"argument 'x': a {type(value).__name__} has no order"):
            refused()


def test_memoryview_is_refused_as_bytes_are() -> None:
    """A memoryview is a TypeError naming the argument, never the list of its bytes."""
    for refused in _refusals(memoryview(b"abc")):
        with pytest.raises(TypeError, match="argument 'x': a value of type memoryview has no JSON form"):
            refused()


@pytest.mark.parametrize("value", [Decimal("sNaN"), Decimal("-sNaN")], ids=repr)
def test_signaling_nan_is_refused_naming_the_argument(value: Any) -> None:
    """A signaling-NaN Decimal is a ValueError naming the argument, in record() too."""
    for refused in _refusals(value):
        with pytest.raises(ValueError, match=r"argument 'x': Decimal.*is a signaling NaN"):
            refused()
    with pytest.raises(ValueError, match=r"argument 'x'.*signaling NaN"), record() as recording:
        recording.add("t", {"x": value})


def test_keys_that_become_the_same_text_are_refused() -> None:
    """Mapping keys 1 and "1" both become "1": a ValueError naming both, never one value kept."""
    for refused in _refusals({1: "a", "1": "b"}):
        with pytest.raises(ValueError, match="argument 'x': keys 1 and '1' both become the key '1'"):
            refused()
    with pytest.raises(ValueError, match="keys 1 and '1'"), record() as recording:
        recording.add("t", {"x": {1: "a", "1": "b"}})


@pytest.mark.parametrize("arguments", [{1: "a", "1": "b"}, {"1": "a", 1: "b"}], ids=repr)
def test_argument_names_that_become_the_same_text_are_refused(arguments: dict[Any, Any]) -> None:
    """Argument names 1 and "1" of one call are a ValueError naming both, in record() too."""
    with pytest.raises(ValueError, match=r"argument names .* both become the argument name '1'"):
        score("expect t", [ToolCall("t", arguments)])
    with pytest.raises(ValueError, match="argument names"):
        _value_of_call({"name": "t", "arguments": arguments})
    with pytest.raises(ValueError, match="argument names"), record() as recording:
        recording.add("t", arguments)


def _value_of_call(call: Any) -> float | None:
    return ToolCallAccuracyEvaluator().evaluate(Sample([call], [ToolCall("t")])).value


def test_sdk_values_with_keys_that_become_the_same_text_are_refused() -> None:
    """A message read by calls_from whose arguments hold 1 and "1" is a ValueError naming the keys."""
    message = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "a", "name": "t", "input": {1: "a", "1": "b"}}],
    }
    with pytest.raises(ValueError, match="keys 1 and '1' both become the key '1'"):
        calls_from(message)


@pytest.mark.parametrize(
    ("value", "place", "error"),
    [
        ({"a": [0, {1: 2, "1": 3}]}, r'\["a"\]\[1\]', ValueError),
        ([{"k": memoryview(b"a")}], r'\[0\]\["k"\]', TypeError),
        ({"q": (1, Decimal("sNaN"))}, r'\["q"\]\[1\]', ValueError),
        ({"s": [{2, 1}]}, r'\["s"\]\[0\]', TypeError),
        ([b"x"], r"\[0\]", TypeError),
    ],
    ids=["keys", "memoryview", "snan", "set", "bytes"],
)
def test_refusals_name_the_place_inside_the_argument(value: Any, place: str, error: type[Exception]) -> None:
    """A refused value nested in an argument is named by the argument and the path to it."""
    with pytest.raises(error, match=rf"argument 'x' at {place}: "):
        score("expect t", [ToolCall("t", {"x": value})])


def test_recording_orders_sets_by_their_values() -> None:
    """record() keeps a set as a list in an order of its values alone, whatever the hash seed."""
    with record() as recording:
        recording.add("t", {"s": {"b", 3, None, 1.5, (1, 2), True, "a"}, "f": frozenset({"y", "x"})})
    assert recording.calls[0].arguments == {"s": [None, True, 1.5, 3, "a", "b", [1, 2]], "f": ["x", "y"]}


def test_recording_of_sets_does_not_depend_on_the_hash_seed() -> None:
    """The recorded list of a set of strings and mixed values is the same under two hash seeds."""
    code = (
        "from toolexpect.api.recording import to_json; "
        "print(to_json({'s': {'q', 'w', 'e', 'r', 't', 'y', 1, 2.5, None, ('a',)}}))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


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
    with record() as recording:
        recording.add("t", {"m": memoryview(b"abc")})
    assert recording.calls[0].arguments == {"m": "b'abc'"}
