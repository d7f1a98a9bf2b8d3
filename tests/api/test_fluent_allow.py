"""The fluent API's allowed calls mean what ``allow`` means in a spec, and the pytest plugin
scores specs holding ``allow``."""

from __future__ import annotations

import pytest

import toolexpect
from toolexpect import ToolCall, ToolCallAssertionError, given
from toolexpect.api.fluent import Then

pytest_plugins = ["pytester"]

CALLS = [
    ToolCall("think", {"mode": "fast"}),
    ToolCall("search", {"query": "toolexpect"}),
    ToolCall("list_files", {"dir": "/"}),
    ToolCall("think", {"mode": "fast"}),
]


def think(mode: str) -> str:
    """A tool function: allowed by its name, its arguments checked against its parameters."""
    return mode


def _then(*allowed: tuple[object, dict[str, object]]) -> Then:
    setup = given().question("research").expected_tool_call("search")
    for tool, arguments in allowed:
        setup = setup.allowed_tool_call(tool, **arguments)
    return setup.when().tool_calls(CALLS).then()


def _holds(allows: str) -> bool:
    """Whether the language form passes on the calls: the same expectation and allows, with
    ``require no unexpected calls``."""
    return toolexpect.score(f"expect search\n{allows}require no unexpected calls\n", CALLS).passed


@pytest.mark.parametrize(
    ("allowed", "statements"),
    [
        ((), ""),
        ((("think", {}),), "allow think\n"),
        ((("think", {}), ("list_files", {})), "allow think\nallow list_files\n"),
        ((("think", {"mode": "fast"}), ("list_files", {})), 'allow think(mode="fast")\nallow list_files\n'),
        ((("think", {"mode": "slow"}), ("list_files", {})), 'allow think(mode="slow")\nallow list_files\n'),
        (((think, {}), ("list_files", {"dir": "/"})), 'allow think\nallow list_files(dir="/")\n'),
    ],
)
def test_allowed_tool_call_means_what_allow_means(
    allowed: tuple[tuple[object, dict[str, object]], ...], statements: str
) -> None:
    """``assert_no_unexpected_tool_calls`` after ``allowed_tool_call(...)`` passes exactly when
    the case with the same ``allow`` statements and ``require no unexpected calls`` passes."""
    if _holds(statements):
        _then(*allowed).assert_no_unexpected_tool_calls()
    else:
        with pytest.raises(ToolCallAssertionError):
            _then(*allowed).assert_no_unexpected_tool_calls()


def test_allowed_calls_are_left_out_of_precision_and_never_change_the_accuracy() -> None:
    """Allowed calls do not count against precision and F1; the accuracy stays what it was."""
    bare = _then().evaluation().result
    allowed = _then(("think", {}), ("list_files", {})).evaluation().result
    assert bare.score == allowed.score == 1.0
    assert (bare.precision, allowed.precision) == (0.25, 1.0)
    assert allowed.allowed == 3
    assert _then(("think", {})).assert_tool_call_accuracy(1.0).tool_call_accuracy == 1.0


def test_with_argument_narrows_the_last_allowed_call() -> None:
    """``with_argument`` after ``allowed_tool_call`` narrows that allowed call, not the expected one."""
    then = (
        given()
        .question("research")
        .expected_tool_call("search")
        .allowed_tool_call("think")
        .with_argument("mode", "slow")
        .allowed_tool_call("list_files")
        .when()
        .tool_calls(CALLS)
        .then()
    )
    with pytest.raises(ToolCallAssertionError) as failure:
        then.assert_no_unexpected_tool_calls()
    message = str(failure.value)
    assert (
        'unexpected call #1 think(mode="fast"): no expectation is paired with it and no allow matches it'
        in message
    )
    assert "unexpected call #3" not in message
    assert "1 allowed" in message


def test_allow_tool_call_is_the_same_as_allowed_tool_call() -> None:
    """``allow_tool_call`` is another name of ``allowed_tool_call``."""
    then = (
        given()
        .question("q")
        .expected_tool_call("search")
        .allow_tool_call("think")
        .allow_tool_call("list_files")
    )
    then.when().tool_calls(CALLS).then().assert_no_unexpected_tool_calls()


def test_an_argument_a_tool_function_lacks_is_refused_at_once() -> None:
    """An allowed call of a tool function takes only its parameters, as an expected call does."""
    with pytest.raises(ValueError, match="think has no parameter 'speed'; its parameters: mode"):
        given().allowed_tool_call(think, speed="fast")


def test_with_argument_needs_a_call_before_it() -> None:
    """``with_argument`` before any expected or allowed call is a TypeError naming both."""
    with pytest.raises(TypeError, match=r"expected_tool_call\(\) or allowed_tool_call\(\)"):
        given().with_argument("mode", "fast")


SPEC = """\
case "helpers" {
    expect search
    allow think
    require no unexpected calls
}

case "stray" {
    expect search
    allow think(mode="fast")
    require no unexpected calls
}
"""
LOG = "\n".join(
    [
        '{"id": "helpers", "tool_calls": [{"name": "think", "arguments": {}},'
        ' {"name": "search", "arguments": {"q": "a"}}, {"name": "think", "arguments": {}}]}',
        '{"id": "stray", "tool_calls": [{"name": "think", "arguments": {"mode": "fast"}},'
        ' {"name": "search", "arguments": {"q": "a"}}, {"name": "think", "arguments": {"mode": "slow"}}]}',
    ]
)


def test_the_plugin_scores_specs_holding_allow(pytester: pytest.Pytester) -> None:
    """A case whose extra calls are all allowed passes as a pytest item; one with a call no allow
    matches fails naming that call alone as unexpected."""
    pytester.makefile(".expect", research=SPEC)
    pytester.makefile(".jsonl", runs=LOG)
    result = pytester.runpytest(
        "--toolexpect-specs", "research.expect", "--toolexpect-log", "runs.jsonl", "-v"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*research.expect::helpers PASSED*",
            "*research.expect::stray FAILED*",
            '*unexpected call #3 think(mode="slow"): no expectation is paired with it'
            " and no allow matches it*",
        ]
    )
    result.stdout.no_fnmatch_line("*unexpected call #1*")
