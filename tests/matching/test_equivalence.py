"""Value semantics: top-level and nested equivalence, partial patterns and keys."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolexpect.matching.values import (
    equivalent,
    is_number,
    matches_pattern,
    nested_key,
    number_value,
    pattern_key,
    strict_equal,
    value_key,
)
from toolexpect.model import PartialObject

NAN = float("nan")
INF = float("inf")


def _deep(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _deep_object(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        (5, 5.0, True),
        (5.0, 5, True),
        (1.50, 1.5, True),
        (1e2, 100, True),
        (2e23, 200000000000000000000000, True),
        (2e23, 199999999999999983222784, False),
        (0.1, 0.1000000000000001, False),
        (0, -0.0, True),
        (INF, INF, True),
        (INF, -INF, False),
        (NAN, NAN, False),
        (True, 1, False),
        (1, True, False),
        (False, 0, False),
        (None, None, True),
        (None, 0, False),
        ("5", 5, False),
        ("a", "a", True),
        ([5], [5.0], False),
        ([-0.0], [0.0], False),
        ([1.5], [1.50], True),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
        ([1, 2], [2, 1], False),
        ([NAN], [NAN], False),
        ({"a": [True]}, {"a": [1]}, False),
    ],
)
def test_equivalent(expected: Any, actual: Any, result: bool) -> None:
    """Top-level equivalence follows LANGUAGE.md section 1."""
    assert equivalent(expected, actual) is result


def test_number_value_is_exact_decimal_of_shortest_repr() -> None:
    """Floats become the decimal of their repr, ints stay ints, NaN and bools are not numbers."""
    assert number_value(0.1) == Decimal("0.1")
    assert number_value(7) == 7
    assert number_value(NAN) is None
    assert number_value(True) is None
    assert number_value("1") is None
    assert is_number(1.0) and is_number(3) and not is_number(False)


def test_nested_rules_are_strict() -> None:
    """Nested values compare with types: 5 is not 5.0, -0.0 is not 0.0, true is not 1."""
    assert not strict_equal(5, 5.0)
    assert not strict_equal(-0.0, 0.0)
    assert strict_equal(-0.0, -0.0)
    assert not strict_equal(True, 1)
    assert not strict_equal(NAN, NAN)
    assert strict_equal({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert not strict_equal({"a": 1}, {"a": 1, "b": 2})


def test_partial_objects_at_any_depth() -> None:
    """A partial object needs at least its keys, recursively, with nested rules for values."""
    pattern = PartialObject({"f": PartialObject({"limit": 5}), "l": [PartialObject({"id": 1})]})
    assert matches_pattern(pattern, {"f": {"limit": 5, "x": 1}, "l": [{"id": 1, "y": 2}], "z": 0})
    assert not matches_pattern(pattern, {"f": {"limit": 5.0}, "l": [{"id": 1}]})
    assert not matches_pattern(pattern, {"f": {"limit": 5}, "l": [{"id": 1}, {"id": 2}]})
    assert not matches_pattern(pattern, {"f": {"limit": 5}})
    assert not matches_pattern(pattern, [1])


def test_deep_values_do_not_recurse() -> None:
    """Values nested 100,000 deep compare, key and render without RecursionError."""
    depth = 100_000
    first = _deep(depth, 1)
    second = _deep(depth, 1)
    other = _deep(depth, 1.0)
    assert matches_pattern(first, second)
    assert not matches_pattern(first, other)
    assert equivalent(first, second)
    assert nested_key(first) == nested_key(second)
    assert nested_key(first) != nested_key(other)
    assert value_key(first) == value_key(second)
    objects = _deep_object(depth, "x")
    assert equivalent(objects, _deep_object(depth, "x"))
    assert not equivalent(objects, _deep_object(depth, "y"))
    assert pattern_key(objects) == pattern_key(_deep_object(depth, "x"))
    hash(value_key(objects))


def test_keys_follow_top_level_equivalence() -> None:
    """Equivalent top-level values share a key (and hash); others do not."""
    assert value_key(5) == value_key(5.0) == value_key(5.00)
    assert hash(value_key(2e23)) == hash(value_key(200000000000000000000000))
    assert value_key(True) != value_key(1)
    assert value_key(None) != value_key(0)
    assert value_key("5") != value_key(5)
    assert value_key([5]) != value_key([5.0])
    assert value_key([-0.0]) != value_key([0.0])
    assert value_key(NAN) != value_key(NAN)
    assert value_key([NAN]) != value_key([NAN])
    assert value_key({"a": 1, "b": [2]}) == value_key({"b": [2], "a": 1})
    assert value_key(["ab", "c"]) != value_key(["a", "bc"])
    assert value_key({"a": "b"}) != value_key({"ab": ""})


def test_pattern_key_tells_partial_from_plain() -> None:
    """A partial object's signature differs from the plain object with the same entries."""
    assert pattern_key(PartialObject({"a": 1})) != pattern_key({"a": 1})
    assert pattern_key(PartialObject({"a": 1})) == pattern_key(PartialObject({"a": 1}))


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.sampled_from([0.0, -0.0, 1.0, 1.5, 2.0, 0.1, math.inf, 2e23]),
    st.sampled_from(["", "a", "1"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)
    ),
    max_leaves=6,
)


@given(_values, _values)
def test_value_key_agrees_with_equivalent(first: Any, second: Any) -> None:
    """Two values share a top-level key exactly when they are equivalent."""
    assert (value_key(first) == value_key(second)) is equivalent(first, second)
    assert (nested_key(first) == nested_key(second)) is strict_equal(first, second)


@given(_values)
def test_equivalence_is_reflexive_without_nan(value: Any) -> None:
    """Every value without NaN is equivalent and strictly equal to itself."""
    assert equivalent(value, value)
    assert strict_equal(value, value)
