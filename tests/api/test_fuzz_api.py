"""Any value given to the Python API: a score, or a TypeError/ValueError; never another exception.

The normal run tries a few dozen values per test; a longer run by hand takes the
``long`` hypothesis profile (``HYPOTHESIS_PROFILE=long``).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolexpect import Sample, ToolCall, ToolCallAccuracyEvaluator, score
from toolexpect.logs import LogError, samples_from_value

# 100 examples by default; the ``long`` profile (HYPOTHESIS_PROFILE=long) runs fifty times more.
SCALE = max(1, settings.default.max_examples // 100)
EXAMPLES = 60 * SCALE
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


class Text(str):
    """A str subclass."""


class Number(float):
    """A float subclass."""


def _extras() -> list[st.SearchStrategy[Any]]:
    try:
        import numpy as np
    except ImportError:
        return []
    return [
        st.floats().map(np.float64),
        st.integers(-(2**63), 2**63 - 1).map(np.int64),
        st.booleans().map(np.bool_),
        st.text(max_size=5).map(np.str_),
        st.lists(st.integers(-100, 100), max_size=4).map(np.array),
    ]


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.decimals(),
    st.fractions(),
    st.binary(max_size=4),
    st.complex_numbers(max_magnitude=10),
    st.builds(object),
    st.text(max_size=5).map(Text),
    st.floats().map(Number),
    *_extras(),
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=4), children, max_size=3),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=12,
)


def _check(run: Any) -> None:
    try:
        evaluation = run()
    except (TypeError, ValueError):
        return
    assert evaluation.value is None or 0.0 <= evaluation.value <= 1.0


@SETTINGS
@given(VALUES, VALUES)
def test_evaluator_takes_any_value_or_refuses_it(expected: Any, actual: Any) -> None:
    """Expected and recorded argument values: a score in [0, 1] or TypeError/ValueError."""
    _check(
        lambda: ToolCallAccuracyEvaluator().evaluate(
            Sample([ToolCall("t", {"x": expected})], [{"name": "t", "arguments": {"x": actual}}])
        )
    )
    _check(lambda: score("expect t(x >= 0.1)", [ToolCall("t", {"x": actual})]))


@SETTINGS
@given(VALUES, VALUES)
def test_tool_call_takes_anything_or_refuses_it(name: Any, arguments: Any) -> None:
    """ToolCall with any name and arguments: built, or TypeError/ValueError."""
    try:
        call = ToolCall(name, arguments)
    except (TypeError, ValueError):
        return
    _check(lambda: score("expect t", [call]))


@SETTINGS
@given(VALUES)
def test_samples_from_any_value(value: Any) -> None:
    """samples_from_value reads a value or raises LogError."""
    try:
        samples_from_value(value)
    except LogError:
        return


def test_known_hard_values() -> None:
    """A few values that used to escape: Decimal and Fraction are exact, bytes a TypeError."""
    assert score("expect t(x=1.5)", [ToolCall("t", {"x": Decimal("1.5")})]).value == 1.0
    assert score("expect t(x=0.25)", [ToolCall("t", {"x": Fraction(1, 4)})]).value == 1.0
    _check(lambda: score("expect t(x=1)", [ToolCall("t", {"x": b"1"})]))
