"""Options may stand between the paths of every command (``lint a.expect --format concise b.expect``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolexpect.cli import main

GOOD = 'case "alpha" {\n    expect get_weather(city="Berlin")\n}\n'
UNFORMATTED = 'case "beta" {\n  expect  send_email\n}\n'


def _files(tmp_path: Path) -> tuple[str, str, str, str]:
    first, second = tmp_path / "a.expect", tmp_path / "b.expect"
    first.write_text(GOOD, encoding="utf-8")
    second.write_text(UNFORMATTED, encoding="utf-8")
    log_a, log_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    called = {"name": "get_weather", "arguments": {"city": "Berlin"}}
    log_a.write_text(json.dumps({"id": "alpha", "tool_calls": [called]}) + "\n", encoding="utf-8")
    email = {"id": "beta", "tool_calls": [{"name": "send_email"}]}
    log_b.write_text(json.dumps(email) + "\n", encoding="utf-8")
    return str(first), str(second), str(log_a), str(log_b)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_lint_takes_an_option_between_its_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Both paths are linted, in the format given between them."""
    first, second, _, _ = _files(tmp_path)
    Path(second).write_text('case "beta" {\n    expect send_email(to=1, to=2)\n}\n', encoding="utf-8")
    code, out, err = _run(capsys, "lint", first, "--format", "concise", second)
    assert code == 1, err
    assert out.startswith(f"{second}:2:")  # concise: path:line:col: CODE message


def test_format_takes_options_between_its_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``format a --check b``: both files checked, the one that would change named."""
    first, second, _, _ = _files(tmp_path)
    code, out, err = _run(capsys, "format", first, "--check", second)
    assert code == 1
    assert f"would reformat {second}" in out + err
    assert f"would reformat {first}" not in out + err
    assert Path(second).read_text(encoding="utf-8") == UNFORMATTED


def test_score_takes_options_between_its_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``score a --log x --log y b --format json`` scores both specs against both logs."""
    first, second, log_a, log_b = _files(tmp_path)
    code, out, err = _run(capsys, "score", first, "--log", log_a, "--log", log_b, second, "--format", "json")
    assert code == 0, err
    assert [case["case"] for case in json.loads(out)["cases"]] == ["alpha", "beta"]
    code, out, err = _run(capsys, "score", first, second, "--log", log_a, "--log", log_b)
    assert code == 0, err
    assert "2 passed, 0 failed" in out


def test_calls_takes_an_option_between_its_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``calls a --format json b`` reads both logs into one JSON document."""
    _, _, log_a, log_b = _files(tmp_path)
    code, out, err = _run(capsys, "calls", log_a, "--format", "json", log_b)
    assert code == 0, err
    assert [s["id"] for s in json.loads(out)["samples"]] == ["alpha", "beta"]


def test_snapshot_takes_an_option_between_its_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``snapshot a --then b`` writes a case for each log's run."""
    _, _, log_a, log_b = _files(tmp_path)
    code, out, err = _run(capsys, "snapshot", log_a, "--then", log_b)
    assert code == 0, err
    assert 'case "alpha"' in out and 'case "beta"' in out


def test_help_and_paths_after_a_double_dash_still_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--help`` prints the command's usage; after ``--`` a name starting with ``-`` is a path."""
    code, out, _ = _run(capsys, "lint", "--help")
    assert code == 0 and out.startswith("usage: toolexpect lint")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-x.expect").write_text(GOOD, encoding="utf-8")
    code, _, err = _run(capsys, "lint", "--format", "concise", "--", "-x.expect")
    assert code == 0, err
    code, _, err = _run(capsys, "lint", "a.expect", "--bogus")
    assert code == 2
    assert "unrecognized arguments: --bogus" in err
