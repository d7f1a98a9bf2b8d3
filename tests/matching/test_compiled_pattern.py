"""``compile_pattern`` decides exactly as ``matches_pattern`` does."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolexpect.matching.values import compile_pattern, matches_pattern
from toolexpect.model import PartialObject

_scalars = st.sampled_from(
    [0, 1, -1, 2, 0.0, -0.0, 1.0, 2.5, float("nan"), float("inf"), True, False, None, "", "a", "1"]
)
_keys = st.sampled_from(["a", "b", "c"])
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_keys, inner, max_size=3),
    ),
    max_leaves=12,
)
_patterns = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(_keys, inner, max_size=3),
        st.dictionaries(_keys, inner, max_size=3).map(PartialObject),
    ),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(_patterns, _values)
def test_compiled_pattern_agrees_with_matches_pattern(pattern: Any, actual: Any) -> None:
    """Random patterns against random values, and each pattern against itself."""
    test = compile_pattern(pattern)
    assert test(actual) == matches_pattern(pattern, actual)
    assert test(pattern) == matches_pattern(pattern, pattern)


def test_deep_patterns_fall_back_without_recursion() -> None:
    """A pattern nested far deeper than the compiled bound is still decided, iteratively."""
    pattern: Any = 1
    for _ in range(5000):
        pattern = [pattern]
    test = compile_pattern(pattern)
    assert test(pattern)
    assert not test([[1]])


def test_unknown_types_match_nothing() -> None:
    """A pattern value of no JSON type matches nothing, as in matches_pattern."""
    assert not compile_pattern({1, 2})({1, 2})
    assert not matches_pattern({1, 2}, {1, 2})
