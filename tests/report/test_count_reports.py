"""A count requirement that a run does not meet, in the text and JSON reports and the explanation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from report_support import call, record, run_cli, write_log

from toolexpect.baseline.load import parse_report
from toolexpect.calls import ToolCall
from toolexpect.matching import evaluate
from toolexpect.report.explain import explain_run
from toolexpect.specfiles.stages import parse_spec_source

ROOT = Path(__file__).resolve().parents[2]
Capsys = pytest.CaptureFixture[str]

SPEC = (
    'case "research" {\n    expect search(query ~ "toolexpect")\n    require at most 3 calls of search\n}\n'
)
RUN = [call("search", query=f"toolexpect {n}") for n in range(5)]
MESSAGE = "search was called 5 times; at most 3 are allowed (calls #1, #2, #3, #4, #5)"


def _score(tmp_path: Path, capsys: Capsys, *argv: str) -> tuple[int, str]:
    spec = tmp_path / "s.expect"
    spec.write_text(SPEC, encoding="utf-8")
    log = write_log(tmp_path, "log.jsonl", [record("research", *RUN)])
    code, out, err = run_cli(capsys, "score", str(spec), "--log", str(log), *argv)
    assert code == 1, err
    return code, out


def test_the_text_report_says_how_often_and_where(tmp_path: Path, capsys: Capsys) -> None:
    """The text report fails the case at full accuracy with the count's message at its line."""
    _, out = _score(tmp_path, capsys)
    assert "1.00" in out
    assert f"{MESSAGE}  ({tmp_path / 's.expect'}:3)" in out


def test_the_json_report_holds_a_count_failure_and_meets_its_schema(tmp_path: Path, capsys: Capsys) -> None:
    """The JSON report's count failure has its kind, line, bounds and counted calls, and the
    report meets the published schema."""
    _, out = _score(tmp_path, capsys, "--format", "json")
    document = parse_report(out)
    (case,) = document["cases"]
    assert case["status"] == "fail"
    (failure,) = case["failures"]
    assert failure == {
        "kind": "count",
        "message": MESSAGE,
        "line": 3,
        "column": 5,
        "details": {
            "count": 0,
            "tool": "search",
            "at_least": None,
            "at_most": 3,
            "counted": 5,
            "calls": [0, 1, 2, 3, 4],
        },
    }
    schema = json.loads(ROOT.joinpath("src/toolexpect/schema/report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(document)
    assert "count (a count requirement not met" in json.dumps(schema)


def test_the_explanation_lists_the_calls_counted() -> None:
    """The plain-text explanation of a run gives the count's message and each counted call."""
    spec = parse_spec_source(SPEC, path="s.expect").spec
    assert spec is not None
    case = spec.cases[0]
    calls = [ToolCall("search", {"query": f"toolexpect {n}"}) for n in range(5)]
    text = explain_run(case, evaluate(case, calls), calls, path="s.expect")
    lines = text.splitlines()
    assert lines[1] == f"  - {MESSAGE} [s.expect:3:5]"
    assert lines[2:7] == [f'      counted #{n + 1} search(query="toolexpect {n}")' for n in range(5)]
