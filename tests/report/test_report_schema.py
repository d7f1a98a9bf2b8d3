"""The JSON report's published schema: printed by ``schema --report``, met by what ``score`` writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from report_support import call, record, run_cli, write_log

from toolexpect.baseline.load import REPORT_VERSION, ReportError, parse_report

ROOT = Path(__file__).resolve().parents[2]
Capsys = pytest.CaptureFixture[str]


def test_schema_report_prints_a_draft_2020_12_schema(capsys: Capsys) -> None:
    """``toolexpect schema --report`` prints the packaged schema, itself a valid 2020-12 schema."""
    code, out, _ = run_cli(capsys, "schema", "--report")
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert out == (ROOT / "src/toolexpect/schema/report.schema.json").read_text(encoding="utf-8")
    code, out, _ = run_cli(capsys, "schema")
    assert json.loads(out)["$id"] != schema["$id"]


def _report(capsys: Capsys, *argv: str) -> str:
    code, out, err = run_cli(capsys, "score", *argv, "--format", "json")
    assert code in (0, 1), err
    return out


def test_the_example_report_meets_the_schema(capsys: Capsys) -> None:
    """The example specs' report, with repeated runs, failures with explanations and schema
    findings of recorded calls, is read back without complaint."""
    text = _report(
        capsys,
        str(ROOT / "specs"),
        "--log",
        str(ROOT / "specs/logs/run.jsonl"),
        "--tools",
        str(ROOT / "specs/tools.json"),
    )
    document = parse_report(text)
    assert document["call_findings"]
    assert any("runs" in case for case in document["cases"])
    Draft202012Validator(
        json.loads(ROOT.joinpath("src/toolexpect/schema/report.schema.json").read_text())
    ).validate(document)


def test_reports_with_errors_unused_samples_and_log_problems_meet_the_schema(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A case without a sample (an error), a sample without a case and an unreadable log line."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "a" {\n    expect f(x=1)\n}\n\ncase "b" {\n    expect g()\n}\n', encoding="utf-8")
    log = write_log(tmp_path, "log.jsonl", [record("a", call("f", x=1)), "{not json", record("zzz")])
    document = parse_report(_report(capsys, str(spec), "--log", str(log)))
    assert [case["status"] for case in document["cases"]] == ["pass", "error"]
    assert document["unused_samples"] and document["log_diagnostics"]


def test_a_large_report_written_a_case_per_line_meets_the_schema(tmp_path: Path, capsys: Capsys) -> None:
    """Past 1,000 runs the report is written a case per line; it is read back the same way."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "a" {\n    expect f(x=1)\n    require pass rate >= 0.5\n}\n', encoding="utf-8")
    runs = [record("a", call("f", x=1 if n % 3 else 2)) for n in range(1_200)]
    document = parse_report(_report(capsys, str(spec), "--log", str(write_log(tmp_path, "log.jsonl", runs))))
    assert len(document["cases"][0]["runs"]) == 1_200


def test_version_one_may_be_written_out() -> None:
    """``"version": 1`` is the version a report without the key has; both are read."""
    empty = {
        "cases": [],
        "unused_samples": [],
        "call_findings": [],
        "log_diagnostics": [],
        "summary": {"cases": 0, "passed": 0, "failed": 0, "errors": 0},
    }
    assert parse_report(json.dumps(empty)) == empty
    assert parse_report(json.dumps({"version": REPORT_VERSION, **empty}))["version"] == 1
    with pytest.raises(ReportError) as raised:
        parse_report(json.dumps({"version": "1", **empty}), "old.json")
    assert raised.value.diagnostic.code == "B602"
    assert raised.value.diagnostic.path == "old.json"
