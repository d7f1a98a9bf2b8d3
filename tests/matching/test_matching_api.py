"""The matcher's Python API: matchers, pairing, results, failures and repeated runs."""

from __future__ import annotations

import math
from typing import Any

import pytest
from matching_support import case_of

from toolexpect import matching
from toolexpect.calls import ToolCall
from toolexpect.matching import (
    CaseAccumulator,
    NearMiss,
    aggregate,
    arg_matches,
    compile_case,
    evaluate,
    expectation_matches,
    matchers,
    tool_call_accuracy,
)
from toolexpect.model import ArgMatcher, Case, Expectation, Op, PartialObject

NAN = float("nan")
INF = float("inf")


def call(name: str, **arguments: Any) -> ToolCall:
    """A valid call of ``name`` with keyword arguments."""
    return ToolCall(name, arguments)


@pytest.mark.parametrize(
    ("matcher", "arguments", "result"),
    [
        (ArgMatcher("x", Op.EQ, value=5), {"x": 5.0}, True),
        (ArgMatcher("x", Op.EQ, value="a"), {}, False),
        (ArgMatcher("x", Op.PARTIAL, value=PartialObject({"a": 1})), {"x": {"a": 1, "b": 2}}, True),
        (ArgMatcher("x", Op.ANY), {"x": None}, True),
        (ArgMatcher("x", Op.ANY), {}, False),
        (ArgMatcher("x", Op.IN, values=(1, "a")), {"x": 1.0}, True),
        (ArgMatcher("x", Op.IN, values=(1, "a")), {"x": True}, False),
        (ArgMatcher("x", Op.REGEX, pattern="b+"), {"x": "abbc"}, True),
        (ArgMatcher("x", Op.REGEX, pattern="^b"), {"x": "abbc"}, False),
        (ArgMatcher("x", Op.REGEX, pattern="b"), {"x": ["b"]}, False),
        (ArgMatcher("x", Op.LT, value=2), {"x": 1.999}, True),
        (ArgMatcher("x", Op.LE, value=2), {"x": 2.0}, True),
        (ArgMatcher("x", Op.GT, value=2), {"x": 2}, False),
        (ArgMatcher("x", Op.GE, value=2e23), {"x": 200000000000000000000000}, True),
        (ArgMatcher("x", Op.GE, value=0), {"x": False}, False),
        (ArgMatcher("x", Op.APPROX, value=20.5, tolerance=0.1), {"x": 20.6}, True),
        (ArgMatcher("x", Op.APPROX, value=20.5, tolerance=0.1), {"x": 20.4}, True),
        (ArgMatcher("x", Op.APPROX, value=20.5, tolerance=0.1), {"x": 20.600000000000001}, True),
        (ArgMatcher("x", Op.APPROX, value=20.5, tolerance=0.1), {"x": 20.60000000000001}, False),
        (ArgMatcher("x", Op.APPROX, value=1, tolerance=0), {"x": 1.0}, True),
        (ArgMatcher("x", Op.ABSENT), {}, True),
        (ArgMatcher("x", Op.ABSENT), {"x": None}, False),
        (ArgMatcher("x", Op.ABSENT, optional=True), {"x": 1}, True),
        (ArgMatcher("x", Op.EQ, value=1, optional=True), {}, True),
        (ArgMatcher("x", Op.EQ, value=1, optional=True), {"x": 2}, False),
        (ArgMatcher("x", Op.GE, value=1, optional=True), {"x": 2}, True),
    ],
    ids=lambda v: repr(v)[:40] if not isinstance(v, bool) else str(v),
)
def test_arg_matches(matcher: ArgMatcher, arguments: dict[str, Any], result: bool) -> None:
    """Each matcher form holds exactly as LANGUAGE.md's table says."""
    assert arg_matches(matcher, arguments) is result


@pytest.mark.parametrize("value", [NAN, INF, -INF])
@pytest.mark.parametrize(
    "matcher",
    [
        ArgMatcher("x", Op.EQ, value=1.5),
        ArgMatcher("x", Op.IN, values=(1.5,)),
        ArgMatcher("x", Op.LT, value=1),
        ArgMatcher("x", Op.GE, value=1),
        ArgMatcher("x", Op.APPROX, value=1, tolerance=1),
        ArgMatcher("x", Op.EQ, value=[1.5]),
    ],
    ids=lambda m: m.op.value,
)
def test_non_finite_actual_never_crashes(matcher: ArgMatcher, value: float) -> None:
    """NaN and infinities are compared without raising; NaN and approx never match them."""
    result = arg_matches(matcher, {"x": value})
    if math.isnan(value) or matcher.op is Op.APPROX:
        assert result is False
    elif matcher.op is Op.LT:
        assert result is (value < 0)
    elif matcher.op is Op.GE:
        assert result is (value > 0)


def test_nan_bounds_match_nothing() -> None:
    """A NaN written into a matcher (through the Python API) matches nothing."""
    for matcher in (
        ArgMatcher("x", Op.EQ, value=NAN),
        ArgMatcher("x", Op.GE, value=NAN),
        ArgMatcher("x", Op.APPROX, value=NAN, tolerance=1),
        ArgMatcher("x", Op.APPROX, value=1, tolerance=INF),
        ArgMatcher("x", Op.IN, values=(NAN,)),
    ):
        assert not arg_matches(matcher, {"x": NAN})
        assert not arg_matches(matcher, {"x": 1})


def test_regex_handles_lone_surrogates() -> None:
    """A string with a lone surrogate (valid in JSON) is searched, not an error."""
    matcher = ArgMatcher("x", Op.REGEX, pattern="b$")
    assert arg_matches(matcher, {"x": "a\ud800b"})
    assert not arg_matches(matcher, {"x": "\ud800"})


def test_regex_compiled_once_per_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring many runs compiles each pattern once."""
    compiled: list[str] = []
    real = matchers.re2.compile

    def counting(pattern: str) -> Any:
        compiled.append(pattern)
        return real(pattern)

    monkeypatch.setattr(matchers.re2, "compile", counting)
    matchers._regex.cache_clear()
    case = Case("c", (Expectation("f", (ArgMatcher("q", Op.REGEX, pattern="^w+$"),)),))
    compiled_case = compile_case(case)
    for text in ("ww", "x", "w"):
        compiled_case.evaluate([call("f", q=text)])
    assert compiled == ["^w+$"]
    matchers._regex.cache_clear()


def test_expectation_matches() -> None:
    """Names compare case-sensitively and extra actual arguments are fine."""
    expectation = Expectation("f", (ArgMatcher("a", Op.EQ, value=1),))
    assert expectation_matches(expectation, call("f", a=1, b=2))
    assert not expectation_matches(expectation, call("F", a=1))
    assert not expectation_matches(expectation, call("f", b=1))
    assert expectation_matches(Expectation("f"), ToolCall("f", {}, valid_json=False))
    invalid = ToolCall("f", {"a": 1}, raw_arguments="{a:1", valid_json=False)
    assert not expectation_matches(expectation, invalid)
    absent = Expectation("f", (ArgMatcher("a", Op.ABSENT),))
    assert expectation_matches(absent, invalid)


def test_pairs_prefer_earlier_calls_and_written_order() -> None:
    """Identical expectations take the earliest matching calls, in written order."""
    case = case_of("expect f(x=1)\nexpect f\nexpect f(x=1)")
    calls = [call("g"), call("f", x=1), call("f", x=2), call("f", x=1), call("f", x=1)]
    result = evaluate(case, calls)
    assert result.pairs == ((0, 1), (1, 2), (2, 3))
    assert evaluate(case, calls).pairs == result.pairs


def test_precision_and_f1() -> None:
    """Precision is paired calls over recorded calls; f1 their harmonic mean with the score."""
    case = case_of("expect a\nexpect b")
    result = evaluate(case, [call("a"), call("x"), call("y"), call("z")])
    assert result.score == 0.5
    assert result.precision == 0.25
    assert result.f1 == pytest.approx(2 * 0.5 * 0.25 / 0.75)
    empty = evaluate(case, [])
    assert (empty.score, empty.precision, empty.f1) == (0.0, 1.0, 0.0)
    only_forbid = evaluate(case_of("forbid d"), [call("a")])
    assert (only_forbid.score, only_forbid.precision, only_forbid.f1) == (None, 0.0, None)


def test_passing_run_has_no_failures() -> None:
    """A passing run carries no failure records."""
    result = evaluate(case_of("expect a(x=1)"), [call("a", x=1)])
    assert result.status == "pass" and result.passed and result.failures == ()
    assert result.unmatched == ()


def test_unmatched_failure_names_closest_call_and_argument() -> None:
    """An unmatched expectation reports the closest call and each argument's expected vs got."""
    case = case_of('expect get_weather(city="Berlin", unit="C")')
    calls = [
        call("get_weather", city="Paris"),
        call("get_weather", city="berlin", unit="C"),
        call("other"),
    ]
    result = evaluate(case, calls)
    assert result.status == "fail"
    threshold, unmatched = result.failures
    assert threshold.kind == "threshold" and "0/1" in threshold.message
    assert unmatched.kind == "unmatched"
    assert unmatched.span is not None and unmatched.span.line == 1
    assert "closest call #2" in unmatched.message
    assert 'city: expected "Berlin", got "berlin"' in unmatched.message
    closest = unmatched.details["closest"]
    assert isinstance(closest[0], NearMiss)
    assert [near.call for near in closest] == [1, 0]
    assert (closest[0].holds, closest[0].total) == (1, 2)
    by_name = {a.name: a for a in closest[1].args}
    assert by_name["unit"].message == "unit: missing"
    assert by_name["unit"].got is None and not by_name["unit"].holds
    assert by_name["city"].message == 'city: expected "Berlin", got "Paris"'


def test_unmatched_failure_for_a_tool_never_called_names_similar_tools() -> None:
    """When the tool was never called, the message says so and names similar tools called."""
    result = evaluate(case_of("expect get_weather"), [call("get_wether"), call("send_email")])
    (_, unmatched) = result.failures
    assert unmatched.details["never_called"] is True
    assert unmatched.details["similar_tools"] == ("get_wether",)
    assert "get_weather was never called" in unmatched.message
    assert "get_wether" in unmatched.message
    empty = evaluate(case_of("expect get_weather"), [])
    assert "no tool calls were recorded" in empty.failures[1].message


def test_unmatched_failure_when_the_call_is_taken() -> None:
    """[a, a] against [a]: the second expectation says its call is paired with the first."""
    result = evaluate(case_of("expect a\nexpect a"), [call("a")])
    assert result.score == 0.5
    unmatched = result.failures[1]
    assert unmatched.details["expectation"] == 1
    assert "paired with another expectation" in unmatched.message
    assert unmatched.details["closest"][0].paired_with == 0


def test_unmatched_failure_renders_deep_values() -> None:
    """A recorded value nested 100,000 deep is rendered short, without recursion."""
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    result = evaluate(case_of("expect f(x=[1])"), [call("f", x=deep)])
    message = result.failures[1].message
    assert "x: expected [1], got [[[[" in message
    assert len(message) < 300


def test_forbid_failure_names_the_call() -> None:
    """A matched forbid points at the forbid and names the call (0-based data, #1-based text)."""
    case = case_of("expect a\nforbid delete_user(id=1)")
    result = evaluate(case, [call("a"), call("delete_user", id=2), call("delete_user", id=1)])
    (failure,) = result.failures
    assert failure.kind == "forbidden"
    assert failure.details == {"forbid": 0, "tool": "delete_user", "calls": (2,)}
    assert "call #3" in failure.message
    assert failure.span is not None and failure.span.line == 2


def test_unexpected_failures_list_unpaired_calls() -> None:
    """Each unpaired call gets an unexpected record; beyond the cap one record holds the rest."""
    case = case_of("expect a\nrequire no unexpected calls")
    result = evaluate(case, [call("b"), call("a"), call("c")])
    assert [f.details["calls"] for f in result.failures] == [(0,), (2,)]
    assert "call #1 b" in result.failures[0].message
    many = evaluate(case, [call("a")] + [call("x")] * (matching.MAX_LISTED + 5))
    assert len(many.failures) == matching.MAX_LISTED + 1
    assert len(many.failures[-1].details["calls"]) == 5


def test_no_tool_calls_failure() -> None:
    """require no tool calls with calls present names them."""
    result = evaluate(case_of("require no tool calls"), [call("a"), call("b")])
    (failure,) = result.failures
    assert failure.kind == "no_tool_calls"
    assert failure.details["calls"] == (0, 1)
    assert "#1 a" in failure.message


def test_order_failure_names_the_step() -> None:
    """A broken chain says which step has no matching call after the previous one."""
    case = case_of("expect a then b then c")
    result = evaluate(case, [call("a"), call("c"), call("b")])
    (failure,) = result.failures
    assert failure.kind == "order"
    assert failure.details["step"] == 2
    assert failure.details["expectation"] == 2
    assert failure.details["after_call"] == 2
    assert failure.details["matching_calls"] == (1,)
    assert failure.details["requirement"] == "then"
    assert "step 3 c" in failure.message and "call #3" in failure.message
    assert failure.span is not None and failure.span.column > 1


def test_require_order_failure() -> None:
    """require order reports as its own requirement."""
    case = case_of("expect a\nexpect b\nrequire order")
    (failure,) = evaluate(case, [call("b"), call("a")]).failures
    assert failure.details["requirement"] == "require order"
    assert failure.details["chain"] is None


def test_errors_have_no_score() -> None:
    """No sample, or no expectations where accuracy is needed, is an error with a message."""
    missing = evaluate(case_of("expect a", "weather"), None)
    assert (missing.status, missing.score, missing.precision) == ("error", None, None)
    assert missing.failures[0].kind == "error"
    assert 'no recorded sample for case "weather"' in missing.failures[0].message
    nothing = evaluate(Case("empty"), [])
    assert nothing.status == "error" and "no expectations" in nothing.failures[0].message


def test_tool_call_accuracy_api() -> None:
    """tool_call_accuracy scores expectations; empty expectations or None calls raise."""
    expected = [Expectation("a"), Expectation("b", (ArgMatcher("x", Op.EQ, value=1),))]
    result = tool_call_accuracy(expected, [call("b", x=1.0), call("c")])
    assert (result.score, result.matched, result.expected) == (0.5, 1, 2)
    assert result.pairs == ((1, 0),)
    assert result.unmatched == (0,)
    assert result.unpaired_calls == (1,)
    with pytest.raises(ValueError, match="expected call"):
        tool_call_accuracy([], None)
    with pytest.raises(ValueError, match="None"):
        tool_call_accuracy(expected, None)
    assert tool_call_accuracy(expected, []).score == 0.0


def test_large_bucket_uses_index_and_stays_maximum() -> None:
    """A bucket large enough for the index still finds the maximum matching."""
    expectations = [Expectation("f")] * 5 + [
        Expectation("f", (ArgMatcher("k", Op.EQ, value=i % 7),)) for i in range(40)
    ]
    calls = [call("f", k=float(i % 7)) for i in range(30)] + [call("f", k="x")] * 10
    result = tool_call_accuracy(expectations, calls)
    # each k value appears 4 or 5 times among 30 calls; expectations want 5 or 6 of each.
    per_value = [sum(1 for i in range(30) if i % 7 == v) for v in range(7)]
    wanted = [sum(1 for i in range(40) if i % 7 == v) for v in range(7)]
    specific = sum(min(p, w) for p, w in zip(per_value, wanted, strict=True))
    assert result.matched == specific + 5


def test_aggregate_repeated_runs() -> None:
    """Repeated runs report mean, lowest and pass rate; all must pass unless a rate is set."""
    case = case_of("expect a\nexpect b")
    runs = [evaluate(case, calls) for calls in ([call("a"), call("b")], [call("a")], [call("b"), call("a")])]
    result = aggregate(case, runs)
    assert result.status == "fail"
    assert result.runs == 3 and result.passed == 2
    assert result.mean_score == pytest.approx(2.5 / 3)
    assert result.min_score == 0.5
    assert result.pass_rate == pytest.approx(2 / 3)
    assert [n for n, _ in result.kept_runs] == [1]
    assert result.failures[0].kind == "pass_rate"
    relaxed = case_of("expect a\nexpect b\nrequire pass rate >= 0.6")
    assert aggregate(relaxed, runs).status == "pass"
    strict = case_of("expect a\nexpect b\nrequire pass rate >= 0.7")
    failed = aggregate(strict, runs)
    assert failed.status == "fail" and "required pass rate 0.7" in failed.failures[0].message


def test_aggregate_exact_pass_rate_boundary() -> None:
    """A pass rate of exactly the required fraction passes (exact comparison)."""
    case = case_of("expect a\nrequire pass rate >= 0.8")
    good = evaluate(case, [call("a")])
    bad = evaluate(case, [])
    assert aggregate(case, [good] * 4 + [bad]).status == "pass"
    assert aggregate(case, [good] * 3 + [bad]).status == "fail"


def test_accumulator_streams_runs() -> None:
    """The accumulator gives the same verdict fed one run at a time; errors and no runs error."""
    case = case_of("expect a")
    accumulator = CaseAccumulator(case)
    assert accumulator.result().status == "error"
    for calls in ([call("a")], [call("a")]):
        accumulator.add(evaluate(case, calls))
    assert accumulator.result().status == "pass"
    assert accumulator.result().mean_score == 1.0
    accumulator.add(evaluate(case, None))
    after_error = accumulator.result()
    assert after_error.status == "error" and after_error.errors == 1
    assert after_error.mean_score == 1.0
