"""The small-run pairing path (key tables, greedy) agrees with the general path exactly."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matching_support import NAMES, TOOLS, cases, matchers

from toolexpect import matching
from toolexpect.calls import ToolCall
from toolexpect.matching import CompiledCase, RunResult
from toolexpect.model import ArgMatcher, Case, Expectation, Op

NAN = float("nan")
SCALARS: list[Any] = [
    1,
    1.0,
    -1,
    0,
    0.0,
    -0.0,
    2,
    2.5,
    1e23,
    10**23,
    NAN,
    float("inf"),
    True,
    False,
    None,
    "s",
    "t",
    "1",
    "",
]
NESTED: list[Any] = [
    [1],
    [1.0],
    [True],
    [-0.0],
    [0.0],
    [NAN],
    {"k": 1},
    {"k": 1.0},
    {"k": [1, "s"]},
    {"k": None, "j": "s"},
    [],
    {},
]
VALUES = SCALARS + NESTED

_values = st.sampled_from(VALUES)
_scalars = st.sampled_from(SCALARS)
_names = st.sampled_from(NAMES)
_matchers = matchers(SCALARS, VALUES, nested_partial=True)
_expectations = st.builds(
    lambda tool, matchers: Expectation(tool, tuple(matchers)),
    st.sampled_from(TOOLS),
    st.lists(_matchers, max_size=3),
)
_calls = st.builds(
    lambda tool, args, valid: ToolCall(tool, args if valid else {"x": 1}, valid_json=valid),
    st.sampled_from([*TOOLS, "d"]),
    st.dictionaries(_names, _values, max_size=3),
    st.booleans() | st.just(True) | st.just(True),
)


_cases = partial(cases, _expectations, "fast")


def _general(case: Case, calls: list[ToolCall]) -> RunResult:
    """The run scored with the small-run path switched off."""
    saved = matching._FAST_LIMIT
    matching._FAST_LIMIT = -1
    try:
        return CompiledCase(case).evaluate(calls)
    finally:
        matching._FAST_LIMIT = saved


@settings(max_examples=400, deadline=None)
@given(_cases(), st.lists(_calls, max_size=8))
def test_fast_pairing_equals_the_general_pairing(case: Case, calls: list[ToolCall]) -> None:
    """Whenever the fast path answers, it gives the very pairs and count of the general path."""
    compiled = CompiledCase(case)
    fast = compiled._pair_fast(calls)
    full = compiled._pair_full(calls)
    if fast is not None:
        assert fast[0] == full[0]
        assert fast[1] == full[1]
        if case.forbids or compiled._chains:
            assert fast[2] == full[2]
    assert compiled._pair(calls)[:2] == full[:2]


@settings(max_examples=300, deadline=None)
@given(_cases(), st.lists(_calls, max_size=8))
def test_fast_evaluate_equals_the_general_evaluate(case: Case, calls: list[ToolCall]) -> None:
    """Whole run results (status, scores, pairs, failures) are the same on both paths."""
    if not case.expectations and not (case.forbids or case.no_unexpected_calls):
        return
    assert CompiledCase(case).evaluate(calls) == _general(case, calls)


def test_a_short_group_whose_call_went_elsewhere_takes_the_full_path() -> None:
    """``f`` takes the only call ``f(x=1)`` fits first; the full path moves it."""
    case = Case(
        "swap",
        expectations=(
            Expectation("f", (ArgMatcher("y", Op.ANY),)),
            Expectation("f", (ArgMatcher("x", Op.EQ, value=1),)),
        ),
    )
    calls = [ToolCall("f", {"x": 1, "y": 2}), ToolCall("f", {"y": 3})]
    compiled = CompiledCase(case)
    assert compiled._pair_fast(calls) is None
    result = compiled.evaluate(calls)
    assert result.status == "pass"
    assert result.pairs == ((0, 1), (1, 0))


@pytest.mark.parametrize(
    ("expected", "got", "fits"),
    [
        (1, 1.0, True),
        (1, True, False),
        (True, 1, False),
        (0, -0.0, True),
        (10**23, 1e23, True),
        (1e23, 10**23, True),
        (NAN, NAN, False),
        (None, None, True),
        ("1", 1, False),
        ([1], [1.0], False),
        ([-0.0], [0.0], False),
        ({"k": 1}, {"k": 1}, True),
    ],
)
def test_keyed_equality_follows_the_value_rules(expected: Any, got: Any, fits: bool) -> None:
    """The table lookup keeps the top-level and nested value rules."""
    case = Case("eq", expectations=(Expectation("f", (ArgMatcher("x", Op.EQ, value=expected),)),))
    result = CompiledCase(case).evaluate([ToolCall("f", {"x": got})])
    assert result.matched == int(fits)


_direct_expectations = st.one_of(
    st.builds(
        lambda tool, x, y, rest: Expectation(
            tool,
            (ArgMatcher("x", Op.EQ, value=x), ArgMatcher("y", Op.EQ, value=y), *rest),
        ),
        st.sampled_from(["a", "b"]),
        _scalars,
        _scalars,
        st.lists(
            st.sampled_from(
                [
                    ArgMatcher("z", Op.EQ, value=[1]),
                    ArgMatcher("z", Op.ANY),
                    ArgMatcher("z", Op.ABSENT),
                    ArgMatcher("z", Op.REGEX, pattern="^s"),
                ]
            ),
            max_size=1,
        ),
    ),
    st.builds(lambda tool: Expectation(tool), st.sampled_from(["a", "b", "c"])),
)
_direct_calls = st.builds(
    lambda tool, args, valid: ToolCall(tool, args if valid else {}, valid_json=valid),
    st.sampled_from(["a", "b", "c", "d"]),
    st.fixed_dictionaries(
        {}, optional={"x": _scalars, "y": _scalars, "z": st.sampled_from([[1], [1.0], "s", "t"])}
    ),
    st.booleans() | st.just(True) | st.just(True),
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_direct_expectations, min_size=1, max_size=6),
    st.lists(_direct_calls, max_size=8),
    st.booleans(),
)
def test_direct_pairing_equals_the_general_pairing(
    expectations: list[Expectation], calls: list[ToolCall], forbid: bool
) -> None:
    """Cases whose groups never share a key pair directly, exactly as the general path."""
    case = Case(
        "direct",
        expectations=tuple(expectations),
        forbids=(Expectation("d"),) if forbid else (),
        threshold=0.5,
        no_unexpected_calls=True,
    )
    compiled = CompiledCase(case)
    paired = compiled._pair(calls)
    full = compiled._pair_full(calls)
    assert paired[:2] == full[:2]
    if forbid:
        assert paired[2] == full[2]
    assert compiled.evaluate(calls) == _general(case, calls)


def test_direct_pairing_is_used_when_keys_are_distinct() -> None:
    """Distinct keys on the same names give the direct plan; a shared key does not."""
    one = Expectation("f", (ArgMatcher("x", Op.EQ, value=1),))
    two = Expectation("f", (ArgMatcher("x", Op.EQ, value=2),))
    also_one = Expectation("f", (ArgMatcher("x", Op.EQ, value=1.0), ArgMatcher("y", Op.ANY)))
    distinct = CompiledCase(Case("d", expectations=(one, two, Expectation("f"))))
    shared = CompiledCase(Case("d", expectations=(one, also_one)))
    for compiled in (distinct, shared):
        compiled.evaluate([ToolCall("f", {"x": 1})])  # the tables are made on the first small run
    assert distinct._direct is not None
    assert shared._direct is None
