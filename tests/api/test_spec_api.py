"""parse_spec, load_spec, score and assert_tool_calls, with their failure messages."""

from pathlib import Path

import pytest

from toolexpect import (
    SpecError,
    ToolCall,
    ToolCallAssertionError,
    assert_tool_calls,
    load_spec,
    parse_spec,
    score,
)

SPEC = """
case "berlin" {
    expect get_weather(city="Berlin")
    expect send_email(to="ops@example.com")
    forbid delete_user
}

case "quiet" {
    require no tool calls
}
"""

GOOD = [ToolCall("get_weather", {"city": "Berlin"}), ToolCall("send_email", {"to": "ops@example.com"})]


def test_parse_spec_gives_cases() -> None:
    """Spec text becomes a Spec with its cases; the implicit case takes ``name``."""
    assert [c.name for c in parse_spec(SPEC).cases] == ["berlin", "quiet"]
    assert parse_spec("expect f", name="mine").cases[0].name == "mine"


def test_parse_spec_error_carries_rendered_diagnostics() -> None:
    """Invalid text raises SpecError, a ValueError whose message shows the source and caret."""
    with pytest.raises(SpecError) as info:
        parse_spec('expect get_weather(city="Berlin"\n')
    assert isinstance(info.value, ValueError)
    assert info.value.diagnostics[0].code == "P102"
    assert "error[P102]" in str(info.value)
    assert '1 | expect get_weather(city="Berlin"' in str(info.value)


def test_load_spec_reads_file_and_reports_missing(tmp_path: Path) -> None:
    """load_spec reads a file; a missing file is a SpecError."""
    path = tmp_path / "weather.expect"
    path.write_text('expect get_weather(city="Berlin")\n', encoding="utf-8")
    spec = load_spec(path)
    assert spec.cases[0].name == "weather"
    with pytest.raises(SpecError, match="cannot read spec file"):
        load_spec(tmp_path / "missing.expect")


def test_score_picks_the_named_case() -> None:
    """score() needs case= for a spec of several cases and scores that case."""
    spec = parse_spec(SPEC)
    assert score(spec, GOOD, case="berlin").value == 1.0
    assert score(spec.case("berlin"), GOOD[:1]).value == 0.5
    with pytest.raises(ValueError, match="say which with case="):
        score(spec, GOOD)
    with pytest.raises(ValueError, match="no case 'nope'"):
        score(spec, GOOD, case="nope")


def test_score_without_calls_is_an_error_result() -> None:
    """calls=None scores nothing: the result is an error that says no sample was recorded."""
    evaluation = score("expect f", None)
    assert evaluation.result.status == "error"
    assert evaluation.value is None
    assert "could not be scored" in evaluation.explanation


def test_assert_passes_and_returns_evaluation() -> None:
    """A passing run returns its evaluation."""
    assert assert_tool_calls(GOOD, parse_spec(SPEC), case="berlin").value == 1.0
    assert assert_tool_calls([], SPEC, case="quiet").passed


def test_assert_unmatched_shows_closest_call_and_arguments() -> None:
    """An unmatched expectation lists the closest call with expected and got per argument."""
    calls = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("send_email", {"to": "ops@example.com"})]
    with pytest.raises(ToolCallAssertionError) as info:
        assert_tool_calls(calls, SPEC, case="berlin")
    message = str(info.value)
    assert isinstance(info.value, AssertionError)
    assert 'case "berlin" failed: accuracy 0.50' in message
    assert 'expected get_weather(city="Berlin"): not matched [spec:3:12]' in message
    assert '#1 get_weather(city="Paris"): 0 of 1 arguments match' in message
    assert 'city: expected "Berlin", got "Paris"' in message


def test_assert_forbidden_shows_position() -> None:
    """A forbidden call is named with its position in the run."""
    with pytest.raises(ToolCallAssertionError) as info:
        assert_tool_calls([*GOOD, {"name": "delete_user", "arguments": {"id": 7}}], SPEC, case="berlin")
    assert "forbidden delete_user was called [spec:5:12]" in str(info.value)
    assert "at #3 delete_user(id=7)" in str(info.value)


def test_assert_unexpected_and_no_tool_calls() -> None:
    """Unexpected calls and calls where none are allowed are each listed."""
    with pytest.raises(ToolCallAssertionError) as info:
        assert_tool_calls(GOOD[:1], SPEC, case="quiet")
    assert "expected no tool calls, got 1" in str(info.value)
    with pytest.raises(ToolCallAssertionError) as unexpected:
        assert_tool_calls([*GOOD, ToolCall("ping", {})], "expect get_weather\nrequire no unexpected calls")
    assert "unexpected call #3 ping(): no expectation is paired with it" in str(unexpected.value)


def test_assert_order_broken() -> None:
    """A broken then chain says which step found no call after which."""
    spec = 'expect search(q="x") then book(id=1)'
    assert_tool_calls([ToolCall("search", {"q": "x"}), ToolCall("book", {"id": 1})], spec)
    with pytest.raises(ToolCallAssertionError) as info:
        assert_tool_calls([ToolCall("book", {"id": 1}), ToolCall("search", {"q": "x"})], spec)
    assert "order broken" in str(info.value)
    assert "step 2 book(id=1) has no matching call after call #2" in str(info.value)


def test_assert_threshold_allows_partial() -> None:
    """require accuracy lets a partial run pass and fails one below it."""
    spec = "expect a\nexpect b\nexpect c\nexpect d\nrequire accuracy >= 0.75"
    assert_tool_calls([ToolCall("a"), ToolCall("b"), ToolCall("c")], spec)
    with pytest.raises(ToolCallAssertionError, match=r"below the threshold 0\.75"):
        assert_tool_calls([ToolCall("a"), ToolCall("b")], spec)


def test_assert_helper_frames_are_hidden() -> None:
    """The assert helper marks its frame hidden so pytest shows the caller's line."""
    with pytest.raises(ToolCallAssertionError) as info:
        assert_tool_calls([], "expect f")
    hidden = [e for e in info.traceback if e.frame.f_locals.get("__tracebackhide__")]
    assert hidden and all("toolexpect" in str(e.path) for e in hidden)


def test_calls_from_provider_format() -> None:
    """An OpenAI chat message list counts as the calls of one run."""
    messages = [
        {"role": "user", "content": "Weather in Berlin?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Berlin"}'},
                }
            ],
        },
    ]
    assert assert_tool_calls(messages, 'expect get_weather(city="Berlin")').value == 1.0
    with pytest.raises(ValueError, match="cannot read tool calls"):
        score("expect f", {"something": "else"})
