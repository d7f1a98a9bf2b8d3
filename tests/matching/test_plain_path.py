"""Runs scored straight from canonical call dicts equal runs scored from ToolCall objects."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matching_support import NAMES, TOOLS, case_of, cases, matchers

from toolexpect import matching
from toolexpect.calls import ToolCall
from toolexpect.matching import CompiledCase
from toolexpect.model import ArgMatcher, Case, Expectation, Op, PartialObject

CASES = Path(__file__).parent.parent / "cases" / "matching"

SCALARS: list[Any] = [1, 1.0, 2, 0, -0.0, 2.5, 1e23, 10**23, True, False, None, "s", "t", ""]
NESTED: list[Any] = [[1], [1.0], [True], [-0.0], [0.0], {"k": 1}, {"k": 1.0}, {"k": [1, "s"]}, [], {}]
VALUES = SCALARS + NESTED

_scalars = st.sampled_from(SCALARS)
_values = st.sampled_from(VALUES)
_names = st.sampled_from(NAMES)
_matchers = matchers(SCALARS, VALUES)
# Two argument names keyed on the same names: the direct plan most of the time.
_keyed = st.builds(
    lambda tool, x, y: Expectation(tool, (ArgMatcher("x", Op.EQ, value=x), ArgMatcher("y", Op.EQ, value=y))),
    st.sampled_from(TOOLS),
    _scalars,
    _scalars,
)
_expectations = st.one_of(
    _keyed,
    _keyed,
    st.builds(
        lambda tool, ms: Expectation(tool, tuple(ms)), st.sampled_from(TOOLS), st.lists(_matchers, max_size=3)
    ),
)
_plain_calls = st.builds(
    lambda tool, args: {"name": tool, "arguments": args},
    st.sampled_from([*TOOLS, "d"]),
    st.dictionaries(_names, _values, max_size=3),
)


_cases = partial(cases, _expectations, "plain", no_tool_calls=True)


def _objects(calls: list[dict[str, Any]]) -> list[ToolCall]:
    return [ToolCall(c["name"], c["arguments"]) for c in calls]


def _check(case: Case, calls: list[dict[str, Any]]) -> matching.RunResult | None:
    """``evaluate_plain`` against ``evaluate``: equal when it answers, and it answers every
    passing run of a directly paired case."""
    compiled = CompiledCase(case)
    expected = compiled.evaluate(_objects(calls))
    plain = CompiledCase(case).evaluate_plain(calls)
    if plain is not None:
        assert plain == expected
        assert plain.status == "pass"
    elif expected.status == "pass" and compiled._direct is not None:
        pytest.fail("a passing run of a directly paired case was not scored from the dicts")
    return plain


@settings(max_examples=500, deadline=None)
@given(_cases(), st.lists(_plain_calls, max_size=8))
def test_plain_evaluate_equals_evaluate(case: Case, calls: list[dict[str, Any]]) -> None:
    """Same status, scores, pairs (and no failures) as the ToolCall path, or no answer."""
    _check(case, calls)


@settings(max_examples=200, deadline=None)
@given(st.lists(_keyed, min_size=1, max_size=5), st.data())
def test_replayed_plain_calls_pass_without_objects(expectations: list[Expectation], data: Any) -> None:
    """A log that replays a keyed case's expectations (in any order) is scored from the dicts."""
    case = Case("replay", expectations=tuple(expectations))
    calls = [
        {"name": e.tool, "arguments": {m.name: m.value for m in e.args}}
        for e in data.draw(st.permutations(expectations))
    ]
    compiled = CompiledCase(case)
    plain = compiled.evaluate_plain(calls)
    expected = compiled.evaluate(_objects(calls))
    assert expected.status == "pass"
    if compiled._direct is not None:
        assert plain == expected
        assert plain.score == 1.0


def _data_cases() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            actual = item.get("actual")
            if actual is None or "error" in item:
                continue
            params.append(pytest.param(item, id=f"{path.stem}: {item['description']}"))
    return params


@pytest.mark.parametrize("item", _data_cases())
def test_data_cases_score_the_same_from_dicts(item: dict[str, Any]) -> None:
    """Every matcher case of tests/cases/matching: the dict path agrees with the data."""
    case = case_of(item["spec"])
    compiled = CompiledCase(case)
    calls = item["actual"]
    plain_shaped = all(
        set(c) == {"name", "arguments"} and isinstance(c["arguments"], dict) and c["name"] for c in calls
    )
    plain = compiled.evaluate_plain(calls)
    if not plain_shaped:
        assert plain is None
        return
    expected = compiled.evaluate(_objects(calls))
    if plain is not None:
        assert plain == expected
    if item.get("status") == "pass" and compiled._direct is not None:
        assert plain is not None
        assert plain.score == pytest.approx(item["score"])


CASE = Case("one", expectations=(Expectation("f", (ArgMatcher("x", Op.EQ, value=1),)),))


@pytest.mark.parametrize(
    "odd",
    [
        {"name": "f", "arguments": {"x": 1}, "id": "c1"},
        {"name": "f", "arguments": {"x": 1}, "kind": "function"},
        {"name": "", "arguments": {}},
        {"name": "f", "arguments": '{"x": 1}'},
        {"name": "f", "arguments": None},
        {"name": 7, "arguments": {}},
        {"name": "f", "other": {}},
        {"name": "f"},
        ["f", {"x": 1}],
        "f",
        None,
    ],
)
def test_anything_but_a_plain_call_is_left_to_the_readers(odd: Any) -> None:
    """Ids, kinds, text arguments, empty names, other shapes: no answer (read as usual)."""
    compiled = CompiledCase(CASE)
    good = {"name": "f", "arguments": {"x": 1}}
    assert compiled.evaluate_plain([good]) is not None
    assert compiled.evaluate_plain([good, odd]) is None
    assert compiled.evaluate_plain([odd, good]) is None


def test_failing_runs_and_large_runs_are_left_to_evaluate() -> None:
    """Only evaluate explains failures; a run beyond the small-run bound takes the full path."""
    compiled = CompiledCase(CASE)
    assert compiled.evaluate_plain([{"name": "f", "arguments": {"x": 2}}]) is None
    assert compiled.evaluate_plain([]) is None
    many = [{"name": "g", "arguments": {}}] * matching._FAST_LIMIT + [{"name": "f", "arguments": {"x": 1}}]
    assert compiled.evaluate_plain(many) is None
    assert compiled.evaluate(_objects(many)).status == "pass"
    error = CompiledCase(Case("empty"))
    assert error.evaluate_plain([]) is None


_json_scalars = st.sampled_from(
    [0, 1, -1, 2, 0.0, -0.0, 1.0, 2.5, True, False, None, "a", "b", "", 10**23, 1e23]
)
_json = st.recursive(
    _json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["k", "j", "i"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=1000, deadline=None)
@given(_json, _json)
def test_json_equality_test_follows_the_nested_rules(pattern: Any, got: Any) -> None:
    """For decoded JSON, the ``==``-first test agrees with the general test of ``x=pattern``."""
    fast = matching._json_eq("x", pattern)
    general = matching._compile_arg(ArgMatcher("x", Op.EQ, value=pattern))
    if type(pattern) in (dict, list):
        assert fast is not None
    if fast is None:
        return
    for arguments in ({"x": got}, {"x": pattern}, {"y": pattern}, {}):
        assert fast(arguments) == general(arguments), arguments


@pytest.mark.parametrize(
    ("pattern", "got", "fits"),
    [
        ([1], [1.0], False),
        ([1], [True], False),
        ([True], [1], False),
        ([0.0], [-0.0], False),
        ([-0.0], [-0.0], True),
        ({"k": [1, "s"]}, {"k": [1, "s"]}, True),
        ({"k": 1}, {"k": 1, "j": 2}, False),
        ([None], [False], False),
        ([1.5], [1.5], True),
    ],
)
def test_json_equality_keeps_types_and_signs(pattern: Any, got: Any, fits: bool) -> None:
    """Nested numbers keep their type, booleans are not numbers, zeros keep their sign."""
    fast = matching._json_eq("x", pattern)
    assert fast is not None
    assert fast({"x": got}) is fits


def test_json_equality_leaves_other_patterns_to_the_general_test() -> None:
    """Tuples, partial objects, NaN and scalars have no ``==``-first test."""
    for pattern in ((1, 2), [PartialObject({"k": 1})], [float("nan")], "s", 1, None):
        assert matching._json_eq("x", pattern) is None


def test_an_empty_tool_name_is_left_to_the_readers_even_when_expected() -> None:
    """A call named "" is never scored from the dicts, whichever tools the case names."""
    for case in (CASE, Case("empty", expectations=(Expectation("", ()), Expectation("f", ())))):
        compiled = CompiledCase(case)
        assert compiled.evaluate_plain([{"name": "", "arguments": {}}]) is None
        assert compiled.score_plain([{"name": "f", "arguments": {}}, {"name": "", "arguments": {}}]) is None
