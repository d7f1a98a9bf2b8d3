"""``snapshot --counts``: how often each tool was called, written as count requirements that lint
clean and pass on the runs they came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from snapshot_support import write_log
from test_snapshot_properties import CALLS, SETTINGS, _read_back

import toolexpect
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.matching import evaluate
from toolexpect.snapshot import CaseRuns, Options, spec_text, take_snapshot
from toolexpect.snapshot.values import unwritable_name

SRC = Path(toolexpect.__file__).resolve().parents[1]


def _call(tool: str, **arguments: object) -> dict[str, object]:
    return {"name": tool, "arguments": arguments}


RUNS = [
    {
        "id": "berlin",
        "tool_calls": [_call("search", q="a"), _call("search", q="b"), _call("get_weather", city="B")],
    },
    {
        "id": "berlin",
        "tool_calls": [_call("search", q="a"), _call("get_weather", city="B"), _call("get_time")],
    },
    {"id": "berlin", "tool_calls": [_call("search", q="c")] * 3 + [_call("get_weather", city="B")]},
    {"id": "one", "tool_calls": [_call("lookup", id=1)]},
    {"id": "quiet", "tool_calls": []},
]
WRITTEN = """\
case "berlin" {
    expect search(q in ["a", "c"])
    expect get_weather(city="B")
    require between 1 and 3 calls of search
    require exactly 1 call of get_weather
    require at most 1 call of get_time
}

case "one" {
    expect lookup(id=1)
    require exactly 1 call of lookup
}

case "quiet" {
    require no tool calls
}
"""


def _toolexpect(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m toolexpect ARGV`` in ``cwd``."""
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": path},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_counts_bound_each_tool_by_its_runs_and_the_spec_lints_clean_and_passes(tmp_path: Path) -> None:
    """Each tool gets ``between MIN and MAX`` calls over the runs of its case, ``exactly N``
    when every run made N, ``at most MAX`` when a run made none; ``lint`` finds nothing in the
    written spec and ``score`` passes every case on the log it came from."""
    write_log(tmp_path / "good.jsonl", RUNS)
    done = _toolexpect(tmp_path, "snapshot", "good.jsonl", "--counts", "--out", "good.expect")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "good.expect").read_text(encoding="utf-8") == WRITTEN
    lint = _toolexpect(tmp_path, "lint", "good.expect")
    assert (lint.returncode, lint.stdout, lint.stderr) == (0, "", "1 file, no findings\n")
    score = _toolexpect(tmp_path, "score", "good.expect", "--log", "good.jsonl", "--format", "json")
    assert score.returncode == 0, score.stdout + score.stderr
    assert [case["status"] for case in json.loads(score.stdout)["cases"]] == ["pass"] * 3


def test_without_counts_nothing_is_counted(tmp_path: Path) -> None:
    """Counts are written only on request: without ``--counts`` the spec has no count."""
    write_log(tmp_path / "good.jsonl", RUNS)
    done = _toolexpect(tmp_path, "snapshot", "good.jsonl")
    assert done.returncode == 0, done.stderr
    assert " calls of " not in done.stdout and " call of " not in done.stdout


def test_update_rewrites_a_case_whose_new_runs_break_its_count(tmp_path: Path) -> None:
    """With ``--update --counts``, a new run that calls a tool more often than the spec allows
    fails the case, which is rewritten with the new bounds."""
    write_log(tmp_path / "good.jsonl", RUNS[3:4])
    assert _toolexpect(tmp_path, "snapshot", "good.jsonl", "--counts", "--out", "s.expect").returncode == 0
    write_log(tmp_path / "new.jsonl", [{"id": "one", "tool_calls": [_call("lookup", id=1)] * 2}])
    done = _toolexpect(
        tmp_path, "snapshot", "new.jsonl", "--counts", "--out", "s.expect", "--update", "--force"
    )
    assert done.returncode == 0, done.stderr
    assert "require exactly 2 calls of lookup" in (tmp_path / "s.expect").read_text(encoding="utf-8")


_TOOLS = st.one_of(st.sampled_from(["search", "lookup", "at", "calls", "of"]), CALLS.map(lambda c: c.name))


@SETTINGS
@given(
    runs=st.lists(
        st.lists(st.builds(ToolCall, name=_TOOLS, arguments=st.just({})), max_size=5), min_size=1, max_size=4
    ),
    then=st.booleans(),
    no_unexpected=st.booleans(),
)
def test_counts_read_back_clean_and_hold_on_every_run(
    runs: list[list[ToolCall]], then: bool, no_unexpected: bool
) -> None:
    """Whatever the runs, the counts written read back without a diagnostic (parse, schema,
    lint), bound each tool by the fewest and the most calls one run made, and hold on every run."""
    samples = tuple(RecordedSample("case", tuple(calls)) for calls in runs)
    snapshot = take_snapshot(
        [CaseRuns("case", samples)], Options(then=then, no_unexpected=no_unexpected, counts=True)
    )
    assert not [d for d in snapshot.diagnostics if d.code == "S705"]
    if not snapshot.cases:
        return
    (case,) = _read_back(spec_text(snapshot.cases)).cases
    for sample in samples:
        assert not [f for f in evaluate(case, sample.calls).failures if f.kind == "count"]
    if case.no_tool_calls:
        return
    tallies = {count.call.tool: (count.at_least or 0, count.at_most) for count in case.counts if count.call}
    for tool, bounds in tallies.items():
        made = [sum(call.name == tool for call in sample.calls) for sample in samples]
        assert bounds == (min(made), max(made))
    called = {call.name for sample in samples for call in sample.calls}
    assert set(tallies) == {tool for tool in called if unwritable_name(tool) is None}
