"""Allowed calls in every report format: counted per run, never listed as unexpected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from report_support import call, record, run_cli, write_log

from toolexpect.baseline.load import parse_report
from toolexpect.calls import ToolCall
from toolexpect.matching import compile_case, evaluate
from toolexpect.report.explain import explain_run
from toolexpect.specfiles.stages import parse_spec_source

ROOT = Path(__file__).resolve().parents[2]
Capsys = pytest.CaptureFixture[str]

SPEC = """\
case "research" {
    expect search(query ~ "toolexpect")
    allow think(mode="fast")
    require no unexpected calls
}

case "plain" {
    expect search
}
"""
RESEARCH = [call("think", mode="fast"), call("search", query="toolexpect"), call("think", mode="slow")]
UNEXPECTED = "unexpected call #3 think: no expectation is paired with it and no allow matches it"


def _score(tmp_path: Path, capsys: Capsys, *argv: str) -> str:
    spec = tmp_path / "s.expect"
    spec.write_text(SPEC, encoding="utf-8")
    lines = [record("research", *RESEARCH), record("plain", call("search", q="a"), call("think"))]
    log = write_log(tmp_path, "log.jsonl", lines)
    code, out, err = run_cli(capsys, "score", str(spec), "--log", str(log), *argv)
    assert code == 1, err
    return out


def test_the_json_report_counts_allowed_calls_only_for_a_case_with_allow(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A case with allow says how many calls they let pass (allowed_calls), its precision
    leaves them out; a case without allow has no such key; the report meets its schema."""
    document = parse_report(_score(tmp_path, capsys, "--format", "json"))
    research, plain = document["cases"]
    assert research["allowed_calls"] == 1
    assert research["precision"] == 0.5  # 1 paired of the 2 calls that were not allowed
    assert [f["message"] for f in research["failures"]] == [UNEXPECTED]
    assert research["failures"][0]["details"]["calls"] == [2]
    assert "allowed_calls" not in plain
    assert plain["precision"] == 0.5
    schema = json.loads(ROOT.joinpath("src/toolexpect/schema/report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(document)
    assert "allowed_calls" in schema["$defs"]["figures"]["properties"]


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "junit", "html"])
def test_no_report_lists_an_allowed_call_as_unexpected(tmp_path: Path, capsys: Capsys, fmt: str) -> None:
    """Every report format names the call no allow matches as unexpected, and not the allowed one."""
    out = _score(tmp_path, capsys, "--format", fmt)
    assert "unexpected call #3 think" in out
    assert "unexpected call #1" not in out


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_the_text_and_markdown_reports_count_the_allowed_calls(
    tmp_path: Path, capsys: Capsys, fmt: str
) -> None:
    """Beside a case's score, the text and Markdown reports say how many calls were allowed."""
    out = _score(tmp_path, capsys, "--format", fmt)
    assert "1.00  (1/1 expected calls, 1 allowed)" in out
    assert "1.00  (1/1 expected calls)" in out  # the case without allow, as before


def test_the_explanation_counts_allowed_calls_and_lists_only_the_unexpected_one() -> None:
    """The plain-text explanation says how many calls were allowed and lists as unexpected only
    the call no allow matches."""
    spec = parse_spec_source(SPEC, path="s.expect").spec
    assert spec is not None
    case = spec.cases[0]
    calls = [ToolCall("think", {"mode": "fast"}), ToolCall("search", {"query": "toolexpect"})]
    calls.append(ToolCall("think", {"mode": "slow"}))
    lines = explain_run(case, evaluate(case, calls), calls, path="s.expect").splitlines()
    assert lines[0] == (
        'case "research" failed: accuracy 1.00 (1 of 1 expected calls matched, 3 calls recorded, 1 allowed)'
    )
    assert lines[1] == (
        '  - unexpected call #3 think(mode="slow"): no expectation is paired with it and no allow matches it'
    )
    assert lines[2] == "recorded calls (3):"


def test_match_leaves_allowed_calls_out_of_precision() -> None:
    """The accuracy of a run without requirements (CompiledCase.match) also leaves allowed calls
    out of precision and F1, and names them."""
    spec = parse_spec_source(SPEC).spec
    assert spec is not None
    calls = [ToolCall("think", {"mode": "fast"}), ToolCall("search", {"query": "toolexpect"})]
    result = compile_case(spec.cases[0]).match(calls)
    assert (result.score, result.precision, result.f1) == (1.0, 1.0, 1.0)
    assert result.allowed_calls == (0,)
    assert result.unpaired_calls == (0,)


def test_a_large_report_counts_the_allowed_calls_of_every_run(tmp_path: Path, capsys: Capsys) -> None:
    """Past 1,000 runs, written a case per line, each run of a case with allow still says how
    many of its calls were allowed (runs of equal figures but other allowed counts differ), and
    a case without allow has none; the report meets its schema."""
    spec = tmp_path / "s.expect"
    spec.write_text(
        'case "a" {\n    expect f\n    allow think\n}\n\ncase "b" {\n    expect f\n}\n', encoding="utf-8"
    )
    runs = [record("a", call("f"), *[call("think")] * (n % 3)) for n in range(1_200)]
    runs += [record("b", call("f")), record("b", call("f"))]
    log = write_log(tmp_path, "log.jsonl", runs)
    code, out, err = run_cli(capsys, "score", str(spec), "--log", str(log), "--format", "json")
    assert code == 0, err
    document = parse_report(out)
    first, second = document["cases"]
    assert [run["allowed_calls"] for run in first["runs"]] == [n % 3 for n in range(1_200)]
    assert all(run["precision"] == 1.0 for run in first["runs"])
    assert all("allowed_calls" not in run for run in second["runs"])
    schema = json.loads(ROOT.joinpath("src/toolexpect/schema/report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(document)
