"""`toolexpect score`: pairing cases with samples, repeated runs, reports and exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from toolexpect.cli import main

ROOT = Path(__file__).resolve().parents[2]


def write_log(path: Path, samples: list[dict[str, Any]]) -> Path:
    """Write samples as canonical JSON Lines."""
    path.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
    return path


def sample(sample_id: str | None, *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A canonical sample."""
    record: dict[str, Any] = {"tool_calls": [{"name": n, "arguments": a} for n, a in calls]}
    if sample_id is not None:
        record["id"] = sample_id
    return record


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    """Run score with the json format; return the exit code and the report."""
    code = main(["score", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    """A spec with two cases."""
    path = tmp_path / "weather.expect"
    path.write_text(
        'case "berlin" {\n'
        '    expect get_weather(city="Berlin")\n'
        "}\n"
        'case "lisbon" {\n'
        '    expect get_weather(city="Lisbon", days >= 5)\n'
        "    require accuracy >= 1.0\n"
        "}\n",
        encoding="utf-8",
    )
    return path


def test_example_specs_score_as_documented(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's main command: the example log has passing and failing cases, exit 1."""
    code, report = run_json(capsys, str(ROOT / "specs"), "--log", str(ROOT / "specs/logs/run.jsonl"))
    assert code == 1
    status = {c["case"]: c["status"] for c in report["cases"]}
    assert status["berlin tomorrow"] == "pass"
    assert status["week in lisbon"] == "fail"
    assert status["triage open issues"] == "fail"
    assert status["greeting"] == "pass"
    assert status["flight and hotel"] == "pass"  # 4 of 5 runs pass, pass rate 0.8 required
    summary = report["summary"]
    assert {k: summary[k] for k in ("cases", "passed", "failed", "errors")} == {
        "cases": 11,
        "passed": 8,
        "failed": 3,
        "errors": 0,
    }
    # 9 cases have expectations: seven score 1, "two cities" 0.5, "week in lisbon" 0.
    assert summary["mean_accuracy"] == pytest.approx(7.5 / 9)
    assert summary["accuracy_cases"] == 9
    for case in report["cases"]:
        assert {
            "file",
            "case",
            "status",
            "score",
            "matched",
            "expected",
            "precision",
            "f1",
            "failures",
        } <= set(case)


def test_case_without_sample_is_an_error(
    tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A case left without a sample is an error with a message, never skipped; score is null."""
    log = write_log(tmp_path / "run.jsonl", [sample("berlin", ("get_weather", {"city": "Berlin"}))])
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 1
    lisbon = next(c for c in report["cases"] if c["case"] == "lisbon")
    assert lisbon["status"] == "error"
    assert lisbon["score"] is None
    assert 'no recorded sample for case "lisbon"' in lisbon["failures"][0]["message"]
    assert report["summary"]["errors"] == 1


def test_unclaimed_samples_are_listed(tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sample no case claims is listed as unused, with a count and its place."""
    log = write_log(
        tmp_path / "run.jsonl",
        [
            sample("berlin", ("get_weather", {"city": "Berlin"})),
            sample("lisbon", ("get_weather", {"city": "Lisbon", "days": 7})),
            sample("paris", ("get_weather", {"city": "Paris"})),
            sample("paris"),
            sample(None, ("get_weather", {})),
        ],
    )
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 0
    unused = {u["id"]: u for u in report["unused_samples"]}
    assert unused["paris"]["count"] == 2
    assert unused["paris"]["line"] == 3
    assert "exactly one case" in unused[None]["reason"]


def test_single_unnamed_sample_pairs_with_single_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log of one sample without an id pairs with a spec of exactly one case."""
    spec = tmp_path / "one.expect"
    spec.write_text('expect search(query ~ "^weather")\n', encoding="utf-8")
    log = tmp_path / "calls.json"
    log.write_text(json.dumps([{"name": "search", "arguments": {"query": "weather in Rome"}}]))
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 0
    assert report["cases"][0]["case"] == "one"
    assert report["cases"][0]["score"] == 1.0


def test_repeated_runs_report_mean_lowest_and_pass_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Several samples with one id are runs: mean, lowest, pass rate, and every run must pass."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "c" {\n    expect a\n    expect b\n}\n', encoding="utf-8")
    log = write_log(
        tmp_path / "run.jsonl",
        [sample("c", ("a", {}), ("b", {})), sample("c", ("a", {})), sample("c", ("a", {}), ("b", {}))],
    )
    code, report = run_json(capsys, str(spec), "--log", str(log))
    case = report["cases"][0]
    assert code == 1
    assert case["status"] == "fail"
    assert case["score"] == pytest.approx((1.0 + 0.5 + 1.0) / 3)
    assert case["lowest"] == 0.5
    assert case["pass_rate"] == pytest.approx(2 / 3)
    assert [r["score"] for r in case["runs"]] == [1.0, 0.5, 1.0]
    assert [r["status"] for r in case["runs"]] == ["pass", "fail", "pass"]


def test_required_pass_rate_lets_a_flaky_case_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`require pass rate >= X` passes a case when that fraction of its runs pass."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "c" {\n    expect a\n    require pass rate >= 0.5\n}\n', encoding="utf-8")
    log = write_log(tmp_path / "run.jsonl", [sample("c", ("a", {})), sample("c", ("b", {}))])
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 0
    assert report["cases"][0]["status"] == "pass"


def test_empty_recording_scores_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A recorded sample with no calls is an agent that called nothing: 0.0, not an error."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "c" { expect a }\n', encoding="utf-8")
    log = write_log(tmp_path / "run.jsonl", [sample("c")])
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 1
    assert report["cases"][0]["status"] == "fail"
    assert report["cases"][0]["score"] == 0.0


def test_threshold_failure_points_at_the_requirement(
    tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failed threshold points at its `require accuracy` line; an unmatched call at its own."""
    log = write_log(
        tmp_path / "run.jsonl",
        [
            sample("berlin", ("get_weather", {"city": "Berlin"})),
            sample("lisbon", ("get_weather", {"city": "lisbon", "days": 3})),
        ],
    )
    code, report = run_json(capsys, str(spec), "--log", str(log))
    failures = next(c for c in report["cases"] if c["case"] == "lisbon")["failures"]
    lines = {f["kind"]: f["line"] for f in failures}
    assert code == 1
    assert lines == {"threshold": 6, "unmatched": 5}
    unmatched = next(f for f in failures if f["kind"] == "unmatched")
    assert 'city: expected "Lisbon", got "lisbon"' in unmatched["message"]
    assert "days: expected >= 5, got 3" in unmatched["message"]


def test_text_report_explains_misses_without_colour(
    tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text report: a line per case, the closest call per argument beneath, a summary; no ANSI."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    log = write_log(
        tmp_path / "run.jsonl",
        [sample("berlin", ("get_weather", {"city": "Berlin"})), sample("lisbon", ("get_wether", {}))],
    )
    assert main(["score", str(spec), "--log", str(log)]) == 1
    out = capsys.readouterr().out
    assert "\x1b[" not in out
    assert re.search(r"✓ .*weather.expect :: berlin\s+1.00", out)
    assert re.search(r"✗ .*weather.expect :: lisbon\s+0.00", out)
    assert "get_weather was never called" in out
    assert "get_wether" in out  # the similarly spelled tool that was called
    summary = (
        "1 passed, 1 failed; mean accuracy 0.50 over 2 cases with expected calls, precision 0.50, F1 0.50"
    )
    assert out.rstrip().endswith(summary)


def test_junit_report(tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JUnit: one testcase per case, a failure element with the explanation for failing ones."""
    log = write_log(tmp_path / "run.jsonl", [sample("berlin", ("get_weather", {"city": "Berlin"}))])
    out = tmp_path / "junit.xml"
    assert main(["score", str(spec), "--log", str(log), "--format", "junit", "-o", str(out)]) == 1
    suite = ET.parse(out).getroot()
    assert suite.get("tests") == "2"
    assert suite.get("errors") == "1"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["berlin"].find("failure") is None
    error = cases["lisbon"].find("error")
    assert error is not None
    assert "no recorded sample" in (error.text or "")


def test_github_annotations_at_spec_lines(
    tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub: an error annotation at the spec line of each failing expectation."""
    log = write_log(
        tmp_path / "run.jsonl",
        [
            sample("berlin", ("get_weather", {"city": "Paris"})),
            sample("lisbon", ("get_weather", {"city": "Lisbon", "days": 9})),
        ],
    )
    assert main(["score", str(spec), "--log", str(log), "--format", "github"]) == 1
    out = capsys.readouterr().out
    annotations = [line for line in out.splitlines() if line.startswith("::error ")]
    assert any(f"file={spec}".replace(":", "%3A") in a and ",line=2," in a for a in annotations)
    assert out.splitlines()[-1].startswith("::notice title=toolexpect::1 passed, 1 failed")


def test_markdown_report(tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Markdown: a table row per case and the failures in a details block."""
    log = write_log(
        tmp_path / "run.jsonl",
        [sample("berlin", ("get_weather", {"city": "Berlin"})), sample("lisbon")],
    )
    assert main(["score", str(spec), "--log", str(log), "--format", "markdown"]) == 1
    out = capsys.readouterr().out
    assert "| ✅ |" in out and "| ❌ |" in out
    assert "<details><summary>Failures</summary>" in out


def test_invalid_spec_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An invalid spec is not scored: its diagnostics are shown and the exit code is 2."""
    bad = tmp_path / "bad.expect"
    bad.write_text("expect a(b=)\n", encoding="utf-8")
    log = write_log(tmp_path / "run.jsonl", [sample(None, ("a", {}))])
    assert main(["score", str(bad), "--log", str(log)]) == 2
    assert "error[P100]" in capsys.readouterr().err


def test_unreadable_log_exits_2(tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log that cannot be read, or fits no format, exits 2 with the reason."""
    assert main(["score", str(spec), "--log", str(tmp_path / "missing.jsonl")]) == 2
    assert "R400" in capsys.readouterr().err
    odd = tmp_path / "odd.json"
    odd.write_text('{"hello": "world"}', encoding="utf-8")
    assert main(["score", str(spec), "--log", str(odd)]) == 2
    assert "R402" in capsys.readouterr().err


def test_usage_error_exits_2(spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """score without --log is a usage error."""
    assert main(["score", str(spec)]) == 2
    assert "--log" in capsys.readouterr().err


def test_malformed_record_is_reported_and_fails_the_run(
    tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed line is reported with file and line; the rest is scored; exit is not 0."""
    log = tmp_path / "run.jsonl"
    log.write_text(
        json.dumps(sample("berlin", ("get_weather", {"city": "Berlin"})))
        + "\n{not json\n"
        + json.dumps(sample("lisbon", ("get_weather", {"city": "Lisbon", "days": 5})))
        + "\n",
        encoding="utf-8",
    )
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 1
    assert report["summary"]["passed"] == 2
    assert report["log_diagnostics"][0]["line"] == 2
    assert report["log_diagnostics"][0]["code"] == "R401"


def test_hostile_regex_input_finishes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pattern that backtracks exponentially in `re` runs in linear time under RE2."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "c" { expect a(q ~ "^(a+)+$") }\n', encoding="utf-8")
    log = write_log(tmp_path / "run.jsonl", [sample("c", ("a", {"q": "a" * 50_000 + "!"}))])
    code, report = run_json(capsys, str(spec), "--log", str(log))
    assert code == 1
    assert report["cases"][0]["score"] == 0.0


def test_tools_catalogue_flags_recorded_calls(
    tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --tools, recorded calls that break their tool's schema are listed apart from the score."""
    log = write_log(
        tmp_path / "run.jsonl",
        [
            sample("berlin", ("get_weather", {"city": "Berlin", "citty": "x"})),
            sample("lisbon", ("get_weather", {"city": "Lisbon", "days": 5})),
        ],
    )
    code, report = run_json(capsys, str(spec), "--log", str(log), "--tools", str(ROOT / "specs/tools.json"))
    assert report["summary"]["failed"] == 0
    findings = report["call_findings"]
    assert any(f["argument"] == "citty" and f["sample"] == "berlin" for f in findings)
    assert code == 0
