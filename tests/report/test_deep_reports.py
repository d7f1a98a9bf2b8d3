"""A report nested too deep to read is refused as any other bad report: B600, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

SPEC = 'case "c" {\n    expect f(x=1)\n}\n'


def _run(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A spec, a log, a good report and two reports nested 100,000 deep (in and beside ``cases``)."""
    (tmp_path / "s.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "run.jsonl").write_text('{"id": "c", "tool_calls": [{"name": "f", "arguments": {"x": 1}}]}\n')
    assert (
        _run(
            tmp_path, "score", "s.expect", "--log", "run.jsonl", "--format", "json", "-o", "good.json"
        ).returncode
        == 0
    )
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "deep.json").write_text(f'{{"cases": {deep}, "summary": {{}}}}', encoding="utf-8")
    good = (tmp_path / "good.json").read_text(encoding="utf-8")
    (tmp_path / "deep-inside.json").write_text(good.replace('"cases": [', f'"x": {deep}, "cases": [', 1))
    return tmp_path


@pytest.mark.parametrize("name", ["deep.json", "deep-inside.json"])
def test_diff_refuses_a_report_nested_too_deep(folder: Path, name: str) -> None:
    """``diff`` of a report nested 100,000 deep says B600 and exits 2, without a traceback."""
    for argv in (("diff", name, "good.json"), ("diff", "good.json", name)):
        done = _run(folder, *argv)
        assert done.returncode == 2
        assert "Traceback" not in done.stderr
        assert "error[B600]: the report is nested too deep to read" in done.stderr
        assert f"--> {name}" in done.stderr


def test_a_baseline_nested_too_deep_is_refused(folder: Path) -> None:
    """``score --baseline`` of a report nested 100,000 deep says B600 and exits 2."""
    done = _run(folder, "score", "s.expect", "--log", "run.jsonl", "--baseline", "deep.json")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "error[B600]: the report is nested too deep to read" in done.stderr


def test_a_report_holding_a_lone_surrogate_is_read_back(folder: Path) -> None:
    """A report whose log held a lone surrogate (written as ``\\ud800``) is a valid baseline."""
    calls = '[{"name": "f", "arguments": {"x": 2}}, {"name": "g\\ud800", "arguments": {"\\ud800": 1}}]'
    (folder / "run.jsonl").write_text(f'{{"id": "c", "tool_calls": {calls}}}\n')
    assert (
        _run(
            folder, "score", "s.expect", "--log", "run.jsonl", "--format", "json", "-o", "odd.json"
        ).returncode
        == 1
    )
    done = _run(folder, "diff", "good.json", "odd.json")
    assert done.returncode == 1, done.stderr
    assert "newly failing" in done.stdout
