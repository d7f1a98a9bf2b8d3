"""``toolexpect score`` on logs made by the real SDKs: the envelopes and layouts of issue 14."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main

LOGS = Path(__file__).resolve().parent.parent / "fixtures" / "logs"

TWO_CASES = """\
case "berlin tomorrow" {
    expect get_weather(city="Berlin", days=1)
}
case "paris then mail" {
    expect get_weather(city="Paris")
    expect send_email(to="ops@example.com")
    require order
}
"""


def score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, log: str
) -> tuple[int, dict[str, Any]]:
    """Exit code and JSON report of scoring ``log`` against the spec text."""
    path = tmp_path / "spec.expect"
    path.write_text(spec)
    code = main(["score", str(path), "--log", str(LOGS / log), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def statuses(report: dict[str, Any]) -> dict[str, str]:
    """Each case's status by name."""
    return {case["case"]: case["status"] for case in report["cases"]}


@pytest.mark.parametrize(
    "log",
    [
        "openai-chat/request_response.jsonl",
        "anthropic/request_response.jsonl",
        "openai-chat/wrapped.jsonl",
        "anthropic/wrapped.jsonl",
    ],
)
def test_request_response_and_wrapped_records_pair_by_their_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], log: str
) -> None:
    """Records name their case beside the response; history completes the ordered run."""
    code, report = score(tmp_path, capsys, TWO_CASES, log)
    expected = "pass" if "request_response" in log else "fail"  # wrapped: no history, no Paris call
    assert statuses(report) == {"berlin tomorrow": "pass", "paris then mail": expected}
    assert report["unused_samples"] == [] and report["log_diagnostics"] == []
    assert code == (0 if expected == "pass" else 1)


def test_anthropic_helper_stream_scores_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every case passes and nothing is reported: exit 0 (the helper events once gave R404, exit 1)."""
    code, report = score(
        tmp_path,
        capsys,
        'case "msg_01Stream" { expect get_weather(city="Berlin", days=1) }\n',
        "anthropic/helper_stream.jsonl",
    )
    assert code == 0
    assert report["log_diagnostics"] == [] and report["summary"]["passed"] == 1


def test_gemini_failed_batch_request_is_scored_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The failed request's case is an error that quotes the API's error (not a run without
    calls), and no record is said to be unreadable."""
    spec = (
        'case "berlin tomorrow" { expect get_weather(city="Berlin") }\n'
        'case "quota case" { expect get_weather }\n'
        'case "paris" { expect get_weather(city="Paris") }\n'
    )
    code, report = score(tmp_path, capsys, spec, "gemini/batch_output.jsonl")
    assert statuses(report) == {"berlin tomorrow": "pass", "quota case": "error", "paris": "pass"}
    [failed] = [case for case in report["cases"] if case["case"] == "quota case"]
    [failure] = failed["failures"]
    assert failure["kind"] == "request_failed"
    assert failure["details"]["error"] == "429: RESOURCE_EXHAUSTED: Resource has been exhausted"
    assert report["log_diagnostics"] == []
    assert code == 1


def test_content_less_trace_fails_with_the_capture_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A trace without content: the case fails on no calls, and R411 says how to record them."""
    trace = "000000000000000000000000000b2001"
    code, report = score(
        tmp_path, capsys, f'case "{trace}" {{ expect get_weather }}\n', "otel/no_content.json"
    )
    assert code == 1
    assert statuses(report) == {trace: "fail"}
    [warning] = report["log_diagnostics"]
    assert warning["code"] == "R411" and warning["severity"] == "warning"


def test_mcp_sessions_are_runs_of_the_one_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two sessions, two runs of a one-case spec; the note on the repeated request does not fail it."""
    code, report = score(tmp_path, capsys, "expect get_weather\n", "mcp/two_sessions.jsonl")
    assert code == 0
    [case] = report["cases"]
    assert [run["status"] for run in case["runs"]] == ["pass", "pass"]
    assert [d["code"] for d in report["log_diagnostics"]] == ["R410"]


def test_bfcl_prompting_results_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Prompting-mode text scored per BFCL id; the malformed output fails its case and is listed."""
    spec = (
        'case "simple_7" { expect get_weather(city="Berlin", days=1) }\n'
        'case "parallel_2" { expect get_weather(city="Berlin"); expect get_weather(city="Paris") }\n'
        'case "simple_9" { expect get_weather(city="Berlin") }\n'
        'case "irrelevance_3" { require no tool calls }\n'
        'case "simple_10" { expect convert(amount=10.5, unit="EUR") }\n'
    )
    code, report = score(tmp_path, capsys, spec, "bfcl/prompting_result.jsonl")
    assert statuses(report) == {
        "simple_7": "pass",
        "parallel_2": "pass",
        "simple_9": "fail",
        "irrelevance_3": "pass",
        "simple_10": "pass",
    }
    assert [(d["code"], d["line"]) for d in report["log_diagnostics"]] == [("R404", 3)]
    assert code == 1


def test_the_capture_hint_reaches_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``score`` prints log findings one concise line each, without their help: the R411 line
    itself names the setting that turns content capture on."""
    spec = tmp_path / "spec.expect"
    spec.write_text("expect get_weather\n", encoding="utf-8")
    assert main(["score", str(spec), "--log", str(LOGS / "otel/no_content.json")]) == 1
    [line] = [line for line in capsys.readouterr().err.splitlines() if "R411" in line]
    assert "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true" in line
