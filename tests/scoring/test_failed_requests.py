"""A batch request that failed is a run that never happened: the case it pairs with is an error
quoting the API's error, whatever it requires; ``calls`` shows it; ``snapshot`` leaves it out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from jsonschema import Draft202012Validator

from toolexpect.calls import RecordedSample, SampleFacts
from toolexpect.cli import main
from toolexpect.logs import open_log
from toolexpect.pairing.runs import Runs

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "fixtures" / "logs"
ANTHROPIC = LOGS / "anthropic" / "batch_failures.jsonl"
OPENAI = LOGS / "openai-batch" / "output_and_errors.jsonl"

ERRORED = "errored: invalid_request_error: messages.0.content: Input should be a valid list"

SPEC = """\
case "weather-berlin" {
    expect get_weather(city="Berlin")
}
case "weather-paris" {
    require no tool calls
}
case "weather-oslo" {
    expect get_weather(city="Oslo")
}
case "weather-rome" {
    forbid get_weather
}
"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _spec(tmp_path: Path, text: str = SPEC) -> Path:
    path = tmp_path / "weather.expect"
    path.write_text(text, encoding="utf-8")
    return path


def _json_report(capsys: pytest.CaptureFixture[str], spec: Path, *logs: Path) -> tuple[int, dict[str, Any]]:
    argv: list[str | Path] = ["score", spec, "--format", "json"]
    for log in logs:
        argv += ["--log", log]
    code, out, _ = _run(capsys, *argv)
    return code, json.loads(out)


def _oslo_succeeded(tmp_path: Path) -> Path:
    """A batch result in which the request that expired in ``ANTHROPIC`` succeeded."""
    message = {
        "id": "msg_01Oslo",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "tool_use", "id": "toolu_01Oslo", "name": "get_weather", "input": {"city": "Oslo"}}
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 40, "output_tokens": 30},
    }
    path = tmp_path / "again.jsonl"
    line = {"custom_id": "weather-oslo", "result": {"type": "succeeded", "message": message}}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return path


def test_anthropic_results_that_errored_expired_or_were_canceled_are_failed_samples() -> None:
    """``messages.batches.results()`` saved: each failed result is a sample without calls that
    carries its type and the API's message; the lines were read, so nothing is reported."""
    reader = open_log(ANTHROPIC)
    samples = list(reader)
    assert [(s.id, [c.name for c in s.calls], s.error, s.line) for s in samples] == [
        ("weather-berlin", ["get_weather"], None, 1),
        ("weather-paris", [], ERRORED, 2),
        ("weather-oslo", [], "expired", 3),
        ("weather-rome", [], "canceled", 4),
    ]
    assert reader.diagnostics == []


def test_openai_batch_error_and_status_400_lines_are_failed_samples() -> None:
    """A line with ``error`` (expired) and one whose response has status 400: failed samples
    with the API's code and message; the one that succeeded keeps its call."""
    reader = open_log(OPENAI)
    samples = list(reader)
    assert reader.format == "openai-batch"
    assert [(s.id, [c.name for c in s.calls]) for s in samples] == [
        ("weather-berlin", ["get_weather"]),
        ("weather-paris", []),
        ("weather-oslo", []),
    ]
    assert samples[0].error is None
    assert samples[1].error == (
        "HTTP 400: string_above_max_length: invalid_request_error: Invalid 'messages[0].content': "
        "string too long. Expected a string with maximum length 1048576, but got a string with "
        "length 2000000 instead."
    )
    assert samples[2].error == (
        "batch_expired: This request could not be executed before the completion window expired."
    )
    assert reader.diagnostics == []


def test_a_case_whose_request_failed_is_an_error_whatever_it_requires(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``require no tool calls``, ``forbid``, an expectation: each case whose request failed
    is an error saying so, with the error quoted and the log record; exit 1, and no word of
    records that could not be read."""
    code, out, err = _run(capsys, "score", _spec(tmp_path), "--log", ANTHROPIC)
    assert code == 1
    assert f'the recorded request failed, so the run was not scored: "{ERRORED}" ({ANTHROPIC}:2)' in out
    assert f'not scored: "expired" ({ANTHROPIC}:3)' in out
    assert f'not scored: "canceled" ({ANTHROPIC}:4)' in out
    assert "could not be read" not in out + err
    assert "1 passed, 0 failed, 3 errors" in out


def test_the_json_report_gives_the_failed_request_as_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each failed case is ``error`` with a ``request_failed`` failure: the API's words and
    the log record in its details; the report meets its schema and lists no log finding."""
    code, report = _json_report(capsys, _spec(tmp_path), OPENAI)
    assert code == 1
    schema = json.loads((ROOT / "src/toolexpect/schema/report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(report)
    cases = {case["case"]: case for case in report["cases"]}
    assert {name: case["status"] for name, case in cases.items()} == {
        "weather-berlin": "pass",
        "weather-paris": "error",
        "weather-oslo": "error",
        "weather-rome": "error",
    }
    [failure] = cases["weather-oslo"]["failures"]
    assert failure["kind"] == "request_failed"
    assert failure["details"] == {
        "error": "batch_expired: This request could not be executed before the completion window expired.",
        "path": str(OPENAI),
        "line": 3,
    }
    assert report["log_diagnostics"] == []
    assert report["unused_samples"] == []


def test_junit_gives_a_failed_request_as_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JUnit: the case of a failed request is an ``<error>`` (not a ``<failure>``, not a pass)."""
    code, out, _ = _run(capsys, "score", _spec(tmp_path), "--log", ANTHROPIC, "--format", "junit")
    assert code == 1
    suite = ET.fromstring(out)
    assert (suite.get("errors"), suite.get("failures")) == ("3", "0")
    [paris] = [case for case in suite.iter("testcase") if case.get("name") == "weather-paris"]
    [error] = list(paris)
    assert error.tag == "error"
    assert ERRORED in (error.get("message") or "")


def test_a_failed_request_among_runs_that_pass_makes_the_case_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same request in a batch that succeeded and in one where it expired: two runs, one
    never happened, so the case is an error, not a pass and not a run without calls."""
    again = _oslo_succeeded(tmp_path)
    spec = _spec(tmp_path, 'case "weather-oslo" { expect get_weather(city="Oslo") }\n')
    code, report = _json_report(capsys, spec, again, ANTHROPIC)
    [oslo] = [case for case in report["cases"] if case["case"] == "weather-oslo"]
    assert oslo["status"] == "error"
    assert [run["status"] for run in oslo["runs"]] == ["pass", "error"]
    assert code == 1


def test_an_error_from_the_log_reaches_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error message holding a terminal escape and a line break is quoted as JSON text in
    the text report and in ``calls``: no control character of the log is printed."""
    log = tmp_path / "batch.jsonl"
    hostile = "\x1b[2J\x1b[32mall green\x1b[0m\nok"
    log.write_text(
        json.dumps(
            {
                "custom_id": "weather-paris",
                "result": {
                    "type": "errored",
                    "error": {"type": "error", "error": {"type": "api_error", "message": hostile}},
                },
            }
        )
        + "\n",
        encoding="utf-8",
    )
    spec = _spec(tmp_path, 'case "weather-paris" { require no tool calls }\n')
    code, out, err = _run(capsys, "score", spec, "--log", log)
    assert code == 1
    assert "\x1b" not in out + err
    assert '"errored: api_error: \\u001b[2J\\u001b[32mall green\\u001b[0m\\nok"' in out
    code, out, err = _run(capsys, "calls", log)
    assert "\x1b" not in out + err
    assert "the request failed" in out


def test_calls_shows_a_failed_request_in_the_table_and_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``calls``: the failed request's sample says the request failed and why, not "0 calls";
    its JSON form carries ``error``."""
    code, out, _ = _run(capsys, "calls", ANTHROPIC)
    assert code == 0
    assert "sample 3 'weather-oslo': the request failed: \"expired\"" in out
    code, out, _ = _run(capsys, "calls", "--format", "json", OPENAI)
    samples = json.loads(out)["samples"]
    assert [sample.get("error", "").split(":")[0] for sample in samples] == ["", "HTTP 400", "batch_expired"]


def test_snapshot_leaves_out_runs_whose_request_failed_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``snapshot`` writes the case of the request that succeeded, no ``require no tool calls``
    for the others, and a note (S707) at each failed request's line."""
    out_spec = tmp_path / "snap.expect"
    code, _, err = _run(capsys, "snapshot", ANTHROPIC, "--out", out_spec)
    assert code == 0, err
    written = out_spec.read_text(encoding="utf-8")
    assert 'case "weather-berlin"' in written
    assert "weather-paris" not in written and "no tool calls" not in written
    for line in (2, 3, 4):
        assert f"{ANTHROPIC}:{line}:1: S707 " in err
    assert "the run never happened and is left out" in err


def test_snapshot_writes_a_case_from_its_runs_that_happened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A case with one run that succeeded and one whose request failed is written from the
    one that succeeded."""
    code, _, err = _run(
        capsys, "snapshot", _oslo_succeeded(tmp_path), ANTHROPIC, "--out", tmp_path / "snap.expect"
    )
    assert code == 0, err
    written = (tmp_path / "snap.expect").read_text(encoding="utf-8")
    assert 'case "weather-oslo" {\n    expect get_weather(city="Oslo")\n}' in written
    assert "pass rate" not in written and "no tool calls" not in written
    assert f"{ANTHROPIC}:3:1: S707 " in err


def test_a_run_joined_from_records_one_of_which_failed_is_an_error() -> None:
    """Records joined into one run (by a pairing key) keep the failure of any of them."""
    runs = Runs(by_key=True)
    facts = SampleFacts()
    assert runs.add(RecordedSample("a", (), facts=facts), "k") is None
    assert runs.add(RecordedSample("a", (), facts=facts, error="expired"), "k") is None
    [(_, joined)] = list(runs.held())
    assert joined.error == "expired"


def test_the_python_api_refuses_the_calls_of_a_request_that_failed() -> None:
    """``calls_from`` of an SDK batch result that errored: a ValueError saying the request
    failed (quoting the error), not an empty list of calls to score."""
    from anthropic.types import ErrorResponse, OverloadedError
    from anthropic.types.messages import MessageBatchErroredResult, MessageBatchIndividualResponse

    from toolexpect import calls_from

    result = MessageBatchIndividualResponse(
        custom_id="weather-paris",
        result=MessageBatchErroredResult(
            type="errored",
            error=ErrorResponse(
                type="error",
                error=OverloadedError(type="overloaded_error", message="Overloaded"),
                request_id=None,
            ),
        ),
    )
    with pytest.raises(ValueError, match=r'request failed \("errored: overloaded_error: Overloaded"\)'):
        calls_from(result)
