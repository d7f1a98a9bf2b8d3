"""Count assertions of the fluent API (``assert_tool_called``, ``assert_tool_call_count``) mean
what ``require ... calls`` means in a spec, and the pytest plugin scores specs holding counts."""

from __future__ import annotations

from typing import Any

import pytest

import toolexpect
from toolexpect import ToolCall, ToolCallAssertionError, given
from toolexpect.api.fluent import Then

pytest_plugins = ["pytester"]

CALLS = [ToolCall("search", {"query": str(n)}) for n in range(3)] + [ToolCall("summarize", {})]


def _then(calls: list[ToolCall] = CALLS) -> Then:
    return given().question("research").when().tool_calls(calls).then()


def _holds(calls: list[ToolCall], spec: str) -> bool:
    """Whether the spec's case passes on the calls (the language form)."""
    return toolexpect.score(spec, calls).passed


def search(query: str) -> str:
    """A tool function: counted by its name."""
    return query


@pytest.mark.parametrize(
    ("bounds", "statement"),
    [
        ({"at_most": 3}, "at most 3 calls"),
        ({"at_most": 2}, "at most 2 calls"),
        ({"at_least": 3}, "at least 3 calls"),
        ({"at_least": 4}, "at least 4 calls"),
        ({"exactly": 3}, "exactly 3 calls"),
        ({"exactly": 0}, "exactly 0 calls"),
        ({"at_least": 1, "at_most": 2}, "between 1 and 2 calls"),
        ({"at_least": 3, "at_most": 5}, "between 3 and 5 calls"),
    ],
)
@pytest.mark.parametrize("tool", ["search", "lookup"])
def test_assert_tool_called_means_what_the_language_means(
    bounds: dict[str, int], statement: str, tool: str
) -> None:
    """``assert_tool_called(tool, **bounds)`` passes exactly when ``require BOUNDS calls of tool``
    passes on the same calls."""
    expected = _holds(CALLS, f"require {statement} of {tool}")
    if expected:
        _then().assert_tool_called(tool, **bounds)
    else:
        with pytest.raises(ToolCallAssertionError):
            _then().assert_tool_called(tool, **bounds)


@pytest.mark.parametrize(
    ("bounds", "statement"),
    [
        ({"at_most": 4}, "at most 4 calls"),
        ({"at_most": 3}, "at most 3 calls"),
        ({"exactly": 4}, "exactly 4 calls"),
    ],
)
def test_assert_tool_call_count_counts_every_call(bounds: dict[str, int], statement: str) -> None:
    """``assert_tool_call_count(**bounds)`` counts every call, as ``require BOUNDS calls`` does."""
    if _holds(CALLS, f"require {statement}"):
        _then().assert_tool_call_count(**bounds)
    else:
        with pytest.raises(ToolCallAssertionError):
            _then().assert_tool_call_count(**bounds)


def test_the_failure_says_how_often_and_what_is_allowed() -> None:
    """A count not met raises the explanation the reports give: how often, what is allowed and
    the calls counted; the assertions chain."""
    then = _then().assert_tool_called(search, at_least=1).assert_tool_call_count(at_most=10)
    with pytest.raises(ToolCallAssertionError) as raised:
        then.assert_tool_called(search, at_most=2)
    message = str(raised.value)
    assert "search was called 3 times; at most 2 are allowed (calls #1, #2, #3)" in message
    assert '      counted #1 search(query="0")' in message.splitlines()
    with pytest.raises(ToolCallAssertionError, match="lookup was never called; at least 1 is required"):
        then.assert_tool_called("lookup")


@pytest.mark.parametrize(
    ("bounds", "error", "message"),
    [
        ({"at_most": -1}, ValueError, "at_most= must not be negative; got -1"),
        ({"at_least": 2.5}, TypeError, "at_least= must be a whole number of calls; got 2.5"),
        ({"exactly": True}, TypeError, "exactly= must be a whole number of calls; got True"),
        ({"at_most": "3"}, TypeError, "at_most= must be a whole number of calls; got '3'"),
        ({"exactly": 2, "at_most": 3}, TypeError, "exactly= cannot be given with at_least= or at_most="),
        ({"at_least": 5, "at_most": 3}, ValueError, "at_least=5 is above at_most=3: no number of calls"),
    ],
)
def test_bad_bounds_are_refused_at_once(bounds: dict[str, Any], error: type[Exception], message: str) -> None:
    """A bound that is not a whole number from 0, exactly with another bound, or bounds no number
    of calls meets raise ``TypeError`` or ``ValueError`` (never an assertion failure)."""
    with pytest.raises(error) as raised:
        _then().assert_tool_called("search", **bounds)
    assert not isinstance(raised.value, AssertionError)
    assert message in str(raised.value)
    with pytest.raises(error):
        _then().assert_tool_call_count(**bounds)


def test_a_count_of_every_call_needs_a_bound() -> None:
    """``assert_tool_call_count()`` without a bound is a ``TypeError`` naming the bounds."""
    with pytest.raises(TypeError, match="needs at_least=, at_most= or exactly="):
        _then().assert_tool_call_count()


SPEC = """\
case "bounded" {
    expect search
    require at most 3 calls of search
}

case "greedy" {
    expect search
    require between 1 and 2 calls
}
"""
LOG = "\n".join(
    [
        '{"id": "bounded", "tool_calls": [{"name": "search", "arguments": {"q": "a"}}]}',
        '{"id": "greedy", "tool_calls": [{"name": "search", "arguments": {"q": "a"}},'
        ' {"name": "search", "arguments": {"q": "b"}}, {"name": "search", "arguments": {"q": "c"}}]}',
    ]
)


def test_the_plugin_scores_specs_holding_counts(pytester: pytest.Pytester) -> None:
    """A case whose count holds passes as a pytest item; one that breaks its count fails with the
    count's message at its line and the calls it counted."""
    pytester.makefile(".expect", research=SPEC)
    pytester.makefile(".jsonl", runs=LOG)
    result = pytester.runpytest(
        "--toolexpect-specs", "research.expect", "--toolexpect-log", "runs.jsonl", "-v"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*research.expect::bounded PASSED*",
            "*research.expect::greedy FAILED*",
            "*the run made 3 calls; between 1 and 2 are required (calls #1 search, #2 search, #3 search)"
            " [[]research.expect:8:5]*",
            '*counted #3 search(q="c")*',
        ]
    )
