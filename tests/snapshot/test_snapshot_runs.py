"""What a snapshot writes for the runs of a case: values, options, repeated runs."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.snapshot import CaseRuns, Options, group_runs, spec_text, take_snapshot


def _text(
    runs: list[list[ToolCall]], options: Options | None = None, name: str = "c"
) -> tuple[str, list[str]]:
    samples = tuple(RecordedSample(name, tuple(calls)) for calls in runs)
    snapshot = take_snapshot([CaseRuns(name, samples)], options or Options())
    return spec_text(snapshot.cases), [d.code for d in snapshot.diagnostics]


def call(name: str, **arguments: Any) -> ToolCall:
    """A recorded call."""
    return ToolCall(name, arguments)


def test_one_run_gives_one_expect_per_call_in_canonical_layout() -> None:
    """Each call is expected once, in order, with its arguments as recorded."""
    text, codes = _text([[call("get_weather", city="Berlin", days=2), call("get_time")]])
    assert text == 'case "c" {\n    expect get_weather(city="Berlin", days=2)\n    expect get_time\n}\n'
    assert codes == []


def test_a_run_without_calls_is_written_as_no_tool_calls() -> None:
    """A recorded run that called nothing says so."""
    assert _text([[]])[0] == 'case "c" {\n    require no tool calls\n}\n'


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (math.nan, "nan"),
        (math.inf, "inf"),
        ([1, {"x": -math.inf}], "inf"),
        (10**700, "more than 640 digits"),
        ("\ud800", "lone surrogate"),
        ({"\udfff": 1}, "lone surrogate"),
        (json.loads("[" * 65 + "1" + "]" * 65), "nested deeper"),
    ],
)
def test_a_value_a_spec_cannot_hold_is_written_any_with_a_warning(value: Any, problem: str) -> None:
    """NaN, infinities, over-long integers, invalid Unicode and over-deep values become =any."""
    samples = (RecordedSample("c", (call("t", x=value, y=1),)),)
    snapshot = take_snapshot([CaseRuns("c", samples)], Options())
    assert spec_text(snapshot.cases) == 'case "c" {\n    expect t(x=any, y=1)\n}\n'
    (found,) = snapshot.diagnostics
    assert found.code == "S700" and problem in found.message


def test_values_nested_to_the_limit_are_written() -> None:
    """A value nested 64 levels deep is the deepest the language holds, and is written."""
    value: Any = 1
    for _ in range(64):
        value = [value]
    text, codes = _text([[call("t", x=value)]])
    assert codes == [] and "x=any" not in text


def test_names_that_cannot_be_written_are_left_out_with_a_warning() -> None:
    """An argument or tool name holding a lone surrogate is left out, never a broken spec."""
    text, codes = _text([[call("t", **{"\ud800": 1, "ok": 2}), call("\udc00"), call("u")]])
    assert text == 'case "c" {\n    expect t(ok=2)\n    expect u\n}\n'
    assert codes == ["S701", "S701"]


@pytest.mark.parametrize(("name", "problem"), [("", "an empty name"), ("\ud800x", "lone surrogate")])
def test_a_case_whose_name_cannot_be_written_is_left_out_with_a_warning(name: str, problem: str) -> None:
    """A sample id that no spec can spell (empty, or a lone surrogate) is a warning on that
    case, never a fault of toolexpect nor a spec that cannot be written out."""
    bad = RecordedSample(name, (call("t"),), path="x.jsonl", line=2)
    good = RecordedSample("ok", (call("u"),))
    snapshot = take_snapshot([CaseRuns(name, (bad,)), CaseRuns("ok", (good,))], Options())
    assert spec_text(snapshot.cases) == 'case "ok" {\n    expect u\n}\n'
    (found,) = snapshot.diagnostics
    assert (found.code, found.path, found.line) == ("S701", "x.jsonl", 2)
    assert problem in found.message and "not written" in found.message


def test_arguments_that_were_not_json_are_written_without_arguments() -> None:
    """A call whose argument text did not decode can only be expected by its name."""
    broken = ToolCall("book", {}, raw_arguments='{"x": ', valid_json=False)
    text, codes = _text([[broken]])
    assert text == 'case "c" {\n    expect book\n}\n'
    assert codes == ["S702"]


def test_awkward_names_and_values_are_quoted_and_escaped() -> None:
    """Names that need quotes get them; strings keep quotes, backslashes and new lines."""
    text, _ = _text(
        [[call("weird tool!", **{"not": True, "a b": 'say "hi"\\\n', "$partial": {"$partial": 1}})]]
    )
    assert text == (
        'case "c" {\n'
        '    expect "weird tool!"("not"=true, "a b"="say \\"hi\\"\\\\\\n", "$partial"={"$partial": 1})\n'
        "}\n"
    )


def test_only_ignore_and_any_choose_what_is_written() -> None:
    """--only keeps the named arguments, --ignore-args leaves some out, --any-args writes =any."""
    runs = [[call("t", city="Berlin", request_id="r-1", ts=12, days=3)]]
    assert 'expect t(city="Berlin")' in _text(runs, Options(only=frozenset({"city"})))[0]
    ignored = _text(runs, Options(ignore=frozenset({"request_id", "ts"})))[0]
    assert 'expect t(city="Berlin", days=3)' in ignored
    anything = _text(runs, Options(any_args=frozenset({"request_id"})))[0]
    assert 'expect t(city="Berlin", request_id=any, ts=12, days=3)' in anything


def test_then_and_no_unexpected_close_the_case() -> None:
    """--then writes one chain in recorded order; --require no-unexpected closes the case."""
    text, _ = _text([[call("a", x=1), call("b"), call("a", x=2)]], Options(then=True, no_unexpected=True))
    assert text == ('case "c" {\n    expect a(x=1) then b then a(x=2)\n    require no unexpected calls\n}\n')


def test_repeated_runs_keep_what_every_run_agrees_on() -> None:
    """A call every run made is expected; arguments that differ become in [...]; an argument
    some runs left out and a call some runs did not make are not written."""
    runs = [
        [call("search", q="cats", page=1, lang="en"), call("open", id=4)],
        [call("search", q="cats", page=2)],
        [call("search", q="cats", page=1.0, lang="de")],
    ]
    assert _text(runs)[0] == 'case "c" {\n    expect search(q="cats", page in [1, 2])\n}\n'
    assert (
        _text(runs, Options(differing="any"))[0] == 'case "c" {\n    expect search(q="cats", page=any)\n}\n'
    )


def test_repeated_runs_line_calls_up_by_shared_values_not_position() -> None:
    """Runs that made the same calls in another order agree on every value."""
    runs = [
        [call("w", city="Berlin", unit="C"), call("w", city="Paris", unit="C")],
        [call("w", city="Paris", unit="C"), call("w", city="Berlin", unit="C")],
    ]
    text, _ = _text(runs)
    assert (
        text == 'case "c" {\n    expect w(city="Berlin", unit="C")\n    expect w(city="Paris", unit="C")\n}\n'
    )


def test_the_recorded_pass_rate_is_required_when_not_every_run_passes() -> None:
    """With no-unexpected, the runs with extra calls fail: the pass rate is the recorded
    one, rounded down to two decimals."""
    runs = [[call("a")], [call("a"), call("b")], [call("a")]]
    text, _ = _text(runs, Options(no_unexpected=True))
    assert text == (
        'case "c" {\n    expect a\n    require no unexpected calls\n    require pass rate >= 0.66\n}\n'
    )
    assert "pass rate" not in _text(runs)[0]


def test_runs_that_share_no_call_are_not_written_and_said_so() -> None:
    """A case whose runs have nothing in common gives a warning, not an empty case."""
    text, codes = _text([[call("a")], [call("b")]])
    assert (text, codes) == ("", ["S703"])


def test_samples_are_grouped_by_id_and_id_less_ones_form_the_only_case() -> None:
    """Samples sharing an id are runs of one case (first-seen order); samples without an id
    are one case when none has an id, and are reported when others have one."""
    a1, b, a2 = (RecordedSample(i, ()) for i in ("a", "b", "a"))
    groups, found = group_runs([a1, b, a2], "log")
    assert [(g.name, len(g.runs)) for g in groups] == [("a", 2), ("b", 1)] and found == []
    bare = RecordedSample(None, (), path="x.jsonl", line=3)
    groups, found = group_runs([bare, bare], "log")
    assert [(g.name, len(g.runs)) for g in groups] == [("log", 2)] and found == []
    groups, found = group_runs([a1, bare], "log")
    assert [g.name for g in groups] == ["a"]
    assert [(d.code, d.path, d.line) for d in found] == [("S704", "x.jsonl", 3)]


def test_a_question_is_written_when_the_runs_carry_one() -> None:
    """The question of a case goes first in its block."""
    snapshot = take_snapshot([CaseRuns("c", (RecordedSample("c", (call("a"),)),), "Wie wird's?")], Options())
    assert spec_text(snapshot.cases) == 'case "c" {\n    question "Wie wird\'s?"\n    expect a\n}\n'
