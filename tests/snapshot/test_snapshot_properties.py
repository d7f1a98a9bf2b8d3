"""Properties of snapshots on generated calls with awkward names and values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.language.format import format_document
from toolexpect.matching import aggregate, evaluate
from toolexpect.snapshot import CaseRuns, Options, spec_text, take_snapshot
from toolexpect.specfiles.stages import parse_spec_source

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

AWKWARD_TEXT = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from("\"\\'\n\r\t\x00\x7f\x85\u2028é€😀{}[]#;=,")),
    st.sampled_from(["", "not", "any", "in", "then", "$partial", "$literal", "a.b", "-x", "x-", "π"]),
)
NAMES = st.one_of(
    st.text(min_size=1),
    st.sampled_from(
        ["not", "any", "in", "expect", "order", "github.create_issue", "mcp__fs__read", "a/b:c-d"]
    ),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_.:/-]{0,12}", fullmatch=True),
)
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**300), max_value=10**300),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1e16, 5e-324, 1.7976931348623157e308, 2**64, -(2**63) - 1]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, AWKWARD_TEXT)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(AWKWARD_TEXT, st.sampled_from(["$partial", "$literal"])), inner, max_size=3
        ),
    ),
    max_leaves=12,
)
CALLS = st.builds(
    ToolCall,
    name=NAMES,
    arguments=st.dictionaries(NAMES, VALUES, max_size=4),
)


def typed(value: Any) -> Any:
    """``value`` with types part of equality: 1, 1.0 and true differ, so do 0.0 and -0.0."""
    if isinstance(value, dict):
        return ("object", {key: typed(member) for key, member in value.items()})
    if isinstance(value, list):
        return ("list", [typed(member) for member in value])
    if isinstance(value, float):
        return ("float", repr(value))
    return (type(value).__name__, value)


def _read_back(text: str) -> Any:
    loaded = parse_spec_source(text, "text", name="read back")
    assert loaded.diagnostics == [], [d.message for d in loaded.diagnostics]
    assert loaded.spec is not None
    return loaded.spec


@SETTINGS
@given(calls=st.lists(CALLS, max_size=5))
def test_one_run_is_written_exactly_as_recorded(calls: list[ToolCall]) -> None:
    """Each call becomes one expectation whose values read back equal to the recorded ones
    (types included), the text lints clean, and the run scores 1.0 against it."""
    run = RecordedSample("case", tuple(calls))
    snapshot = take_snapshot([CaseRuns("case", (run,))], Options())
    assert snapshot.diagnostics == ()
    spec = _read_back(spec_text(snapshot.cases))
    (case,) = spec.cases
    assert [e.tool for e in case.expectations] == [c.name for c in calls]
    for expectation, call in zip(case.expectations, calls, strict=True):
        assert {a.name: typed(a.value) for a in expectation.args} == {
            name: typed(value) for name, value in call.arguments.items()
        }
    result = evaluate(case, calls)
    assert result.status == "pass"
    assert result.score in (1.0, None)
    text = spec_text(snapshot.cases)
    loaded = parse_spec_source(text, "text")
    assert loaded.document is not None
    assert format_document(loaded.document, loaded.comments, blank_lines=True) == text


@SETTINGS
@given(calls=st.lists(CALLS, max_size=4), copies=st.integers(min_value=2, max_value=3))
def test_identical_runs_give_the_snapshot_of_one_run(calls: list[ToolCall], copies: int) -> None:
    """Runs that all agree are written as one run would be: no in [...], no pass rate."""
    run = RecordedSample("case", tuple(calls))
    one = take_snapshot([CaseRuns("case", (run,))], Options())
    many = take_snapshot([CaseRuns("case", (run,) * copies)], Options())
    assert spec_text(many.cases) == spec_text(one.cases)


@SETTINGS
@given(
    runs=st.lists(st.lists(CALLS, max_size=4), min_size=2, max_size=4),
    then=st.booleans(),
    no_unexpected=st.booleans(),
    differing=st.sampled_from(["in", "any"]),
)
def test_repeated_runs_all_score_one_and_meet_the_pass_rate(
    runs: list[list[ToolCall]], then: bool, no_unexpected: bool, differing: Any
) -> None:
    """Whatever the runs hold, each scores 1.0 against their snapshot and the case passes
    them (with the recorded pass rate where not every run passes)."""
    samples = tuple(RecordedSample("case", tuple(calls)) for calls in runs)
    options = Options(then=then, no_unexpected=no_unexpected, differing=differing)
    snapshot = take_snapshot([CaseRuns("case", samples)], options)
    assert not [d for d in snapshot.diagnostics if d.code == "S705"]
    if not snapshot.cases:
        assert [d.code for d in snapshot.diagnostics] == ["S703"]
        return
    (case,) = _read_back(spec_text(snapshot.cases)).cases
    results = [evaluate(case, sample.calls) for sample in samples]
    assert all(r.score in (1.0, None) for r in results)
    assert aggregate(case, results).status == "pass"
    if all(r.status == "pass" for r in results):
        assert case.pass_rate is None


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(calls=st.lists(CALLS, min_size=1, max_size=3))
def test_the_command_line_round_trip_through_a_json_log(calls: list[ToolCall], tmp_path: Path) -> None:
    """A canonical log of the calls, snapshot by the command line, scores 1.0 against it."""
    from toolexpect.cli import main

    log = tmp_path / "run.jsonl"
    record = {
        "id": "generated",
        "tool_calls": [{"name": c.name, "arguments": dict(c.arguments)} for c in calls],
    }
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    spec = tmp_path / "run.expect"
    assert main(["snapshot", str(log), "--out", str(spec), "--force"]) == 0
    report = tmp_path / "report.json"
    assert main(["score", str(spec), "--log", str(log), "--format", "json", "-o", str(report)]) == 0
    (case,) = json.loads(report.read_text(encoding="utf-8"))["cases"]
    assert (case["status"], case["score"]) == ("pass", 1.0)
