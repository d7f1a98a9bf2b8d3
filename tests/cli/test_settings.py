"""[tool.toolexpect] in pyproject.toml: defaults for every command, the command line wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolexpect.baseline.load import load_report
from toolexpect.cli import main

SPEC = 'case "a" {\n    expect t(x=1)\n}\n'
UGLY = 'case "a" {\n  expect   t( x=1)\n}\n'
LOG = '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
MISS = '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 2}}]}\n'


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project: specs/a.expect, runs/pass.jsonl, runs/miss.jsonl, run from its sub-folder ``work``."""
    for name, text in {
        "specs/a.expect": SPEC,
        "runs/pass.jsonl": LOG,
        "runs/miss.jsonl": MISS,
        "elsewhere/ugly.expect": UGLY,
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path


def _settings(project: Path, text: str) -> None:
    (project / "pyproject.toml").write_text("[tool.toolexpect]\n" + text, encoding="utf-8")


def test_score_takes_specs_logs_outputs_and_fail_under(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no argument, score reads specs, logs, score-format, outputs, fail-under and fail-on,
    each path relative to pyproject.toml."""
    _settings(
        project,
        'specs = "specs"\nlogs = ["runs/miss.jsonl"]\nscore-format = "markdown"\n'
        'outputs = ["json=out/r.json"]\nfail-under = 0.5\nfail-on = "mean-only"\n',
    )
    (project / "out").mkdir()
    code, out, err = _run(capsys, "score")
    assert code == 3, err
    assert out.startswith("### toolexpect")
    assert load_report(project / "out" / "r.json")["summary"]["mean_accuracy"] == 0.0
    # The command line wins: another log, another format, another gate, and no configured output.
    (project / "out" / "r.json").unlink()
    code, out, _ = _run(
        capsys, "score", "--log", "../runs/pass.jsonl", "--format", "text", "--junit", "j.xml"
    )
    assert code == 0
    assert out.startswith("✓ ../specs/a.expect :: a")
    assert not (project / "out" / "r.json").exists() and (project / "work" / "j.xml").exists()


def test_lint_format_and_calls_take_their_settings(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """lint and format take specs, lint-format and line-length; calls takes logs."""
    _settings(
        project, 'specs = ["elsewhere"]\nlint-format = "json"\nlogs = "runs/pass.jsonl"\nline-length = 10\n'
    )
    code, out, _ = _run(capsys, "lint")
    assert (code, out.strip()) == (0, "[]")
    code, _, err = _run(capsys, "format", "--check")
    assert code == 1 and "would reformat ../elsewhere/ugly.expect" in err
    code, out, _ = _run(capsys, "calls")
    assert code == 0 and out.startswith("log ../runs/pass.jsonl: canonical\n\nsample 1 'a': 1 call")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fail-under = 90\n", "[tool.toolexpect] fail-under must be a number from 0 to 1, not 90"),
        ("specs = 3\n", "[tool.toolexpect] specs must be a path or a list of paths, not 3"),
        ('score-format = "pdf"\n', "score-format must be one of text, json, junit, github, markdown, html"),
        ('outputs = ["report.xml"]\n', "outputs: 'report.xml' is not FORMAT=FILE"),
        ("line-length = 0\n", "line-length must be a whole number of at least 1, not 0"),
        ("specs = [\n", "not valid TOML"),
    ],
)
def test_a_setting_of_the_wrong_type_stops_with_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    """A wrong setting is never ignored: exit 2 and a message naming the file and the key."""
    _settings(project, text)
    argv = ["format"] if "line-length" in text else ["score", "--log", "../runs/pass.jsonl"]
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert str(project / "pyproject.toml") in err and message in err
