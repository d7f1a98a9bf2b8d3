"""Calls that appeared or vanished: the JSON report lists the tools each case called, and
``diff`` / ``score --baseline`` name the tools called now and not before, or no longer called."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_support import call, record, run_cli, score_to, write_log

from toolexpect.baseline.load import load_report

Capsys = pytest.CaptureFixture[str]

SPEC = 'case "c" { expect f(x="ok") }\n'
OLD = [record("c", call("f", x="ok"))]
NEW = [record("c", call("f", x="ok"), call("delete_all"))]


@pytest.fixture
def reports(tmp_path: Path, capsys: Capsys) -> tuple[Path, Path]:
    """The issue's example: the old run calls f, the new one f and then delete_all."""
    return score_to(capsys, tmp_path, OLD, "old", SPEC), score_to(capsys, tmp_path, NEW, "new", SPEC)


def test_the_json_report_lists_the_tools_each_case_called(tmp_path: Path, capsys: Capsys) -> None:
    """Per case, summed over its runs: each tool's calls and the runs that called it; a case of
    several runs also carries its mean precision."""
    runs = [record("c", call("f", x="ok"), call("f", x="no")), record("c", call("f", x="ok"), call("g"))]
    report = load_report(score_to(capsys, tmp_path, runs, "two", SPEC))
    case = report["cases"][0]
    assert case["tools"] == {"f": {"calls": 3, "runs": 2}, "g": {"calls": 1, "runs": 1}}
    assert case["mean_precision"] == 0.5
    assert "other_tool_calls" not in case


def test_a_case_calling_many_tools_lists_fifty(tmp_path: Path, capsys: Capsys) -> None:
    """At most 50 tools per case, the first by name; the calls of the others are counted."""
    names = [f"t{number:03d}" for number in range(60)]
    runs = [record("c", call("f", x="ok"), *(call(name) for name in names))] * 3
    case = load_report(score_to(capsys, tmp_path, runs, "many", SPEC))["cases"][0]
    assert list(case["tools"]) == ["f", *names[:49]]
    assert case["other_tool_calls"] == 11 * 3


def test_baseline_names_the_new_call_and_the_lower_precision(
    reports: tuple[Path, Path], tmp_path: Path, capsys: Capsys
) -> None:
    """The issue's example through ``score --baseline``: the case is worse (precision 1.00 → 0.50),
    delete_all is called now and not before, and the lower precision makes it exit 1."""
    old, _ = reports
    log = write_log(tmp_path, "again.jsonl", NEW)
    spec = str(tmp_path / "weather.expect")
    code, out, _ = run_cli(capsys, "score", spec, "--log", str(log), "--baseline", str(old))
    assert code == 1
    assert "precision 1.00 → 0.50 (-0.50)" in out
    assert "called now, not before: delete_all (1 call in 1 run)" in out
    assert out.rstrip().endswith("1 worse: regressed")


def test_diff_in_every_format_names_the_new_call(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """json, markdown and github say which tool appeared; json also the precision delta."""
    old, new = map(str, reports)
    code, out, _ = run_cli(capsys, "diff", old, new, "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["tools_compared"] is True
    (case,) = data["cases"]
    assert case["change"] == "worse"
    assert case["precision_delta"] == -0.5
    assert case["calls"]["tools_appeared"] == ["delete_all"]
    assert case["calls"]["tools_vanished"] == []
    _, out, _ = run_cli(capsys, "diff", old, new, "--format", "markdown")
    # Markdown escapes what comes from a log: the underscore shows as written, never as emphasis.
    assert "- called now, not before: delete\\_all (1 call in 1 run)" in out
    assert "- precision 1.00 → 0.50 (-0.50)" in out
    _, out, _ = run_cli(capsys, "diff", old, new, "--format", "github")
    assert out.startswith("::warning ")
    assert "called now, not before: delete_all" in out.splitlines()[0]


def test_a_call_that_vanished_is_named(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """The other way round: delete_all is no longer called, precision rose: better, exit 0."""
    old, new = map(str, reports)
    code, out, _ = run_cli(capsys, "diff", new, old)
    assert code == 0
    assert "no longer called: delete_all (was 1 call in 1 run)" in out
    assert "↑ better" in out


def test_a_new_call_alone_is_not_a_regression(tmp_path: Path, capsys: Capsys) -> None:
    """A tool called now and not before, with score and precision no lower, is listed under
    "calls changed" and exits 0; changed counts of a tool called in both are shown."""
    spec = 'case "c" {\n    expect f\n    expect g\n}\n'
    before = [record("c", call("f"), call("g"), call("g"))]
    after = [record("c", call("f"), call("g"), call("h"))]
    old = score_to(capsys, tmp_path, before, "old", spec)
    new = score_to(capsys, tmp_path, after, "new", spec)
    code, out, _ = run_cli(capsys, "diff", str(old), str(new))
    assert code == 0
    assert "~ calls changed" in out
    assert "called now, not before: h (1 call in 1 run)" in out
    assert "calls of g: 2 calls in 1 run → 1 call in 1 run" in out
    assert out.rstrip().endswith("1 calls changed: no regression")


def test_an_older_baseline_without_tools_is_read(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """A baseline written before reports listed tools is read, never refused; the comparison says
    it cannot tell which calls changed (precision is still compared)."""
    old, new = reports
    document = json.loads(old.read_text(encoding="utf-8"))
    for case in document["cases"]:
        del case["tools"]
    old.write_text(json.dumps(document), encoding="utf-8")
    code, out, _ = run_cli(capsys, "diff", str(old), str(new))
    assert code == 1
    assert "called now" not in out
    assert f"note: {old} does not list the tools each case called" in out
    assert "which calls appeared or vanished cannot be told" in out
    code, out, _ = run_cli(capsys, "diff", str(old), str(new), "--format", "json")
    data = json.loads(out)
    assert data["tools_compared"] is False
    assert data["cases"][0]["calls"]["tools_appeared"] == []
    _, out, _ = run_cli(capsys, "diff", str(old), str(new), "--format", "markdown")
    assert "> Note: " in out


def test_counts_are_compared_per_run_of_the_case(tmp_path: Path, capsys: Capsys) -> None:
    """4 calls in 4 runs of 4, then 5 in 5 runs of 5, is no change; a tool called in fewer of
    the case's runs is, and a tool no longer called is named."""
    spec = 'case "c" {\n    expect f\n    require pass rate >= 0.5\n}\n'
    before = [record("c", call("f"), call("g"))] * 4
    after = [record("c", call("f"), call("g"))] * 3 + [record("c", call("f"))] * 2
    old = score_to(capsys, tmp_path, before[:2] + [record("c", call("f"), call("h"))] * 2, "old", spec)
    new = score_to(capsys, tmp_path, [*before, record("c", call("f"), call("g"))], "new", spec)
    code, out, _ = run_cli(capsys, "diff", str(old), str(new), "--format", "json")
    assert code == 0
    (case,) = json.loads(out)["cases"]
    assert case["calls"]["tools_vanished"] == ["h"]
    assert case["calls"]["tools_recounted"] == [
        {"tool": "g", "old": {"calls": 2, "runs": 2}, "new": {"calls": 5, "runs": 5}}
    ]
    third = score_to(capsys, tmp_path, after, "third", spec)
    code, out, _ = run_cli(capsys, "diff", str(new), str(third))
    assert "calls of f" not in out
    assert "calls of g: 5 calls in 5 runs → 3 calls in 3 runs" in out
