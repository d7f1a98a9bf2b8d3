"""Helpers shared by the snapshot tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """Run ``toolexpect`` with ``argv`` in this process: its exit code, stdout and stderr."""
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_log(path: Path, samples: list[dict[str, Any]]) -> Path:
    """A canonical JSON Lines log of ``samples`` ({"id", "tool_calls"} objects)."""
    path.write_text("".join(json.dumps(sample) + "\n" for sample in samples), encoding="utf-8")
    return path


def scored(capsys: pytest.CaptureFixture[str], spec: Path, *logs: Path) -> dict[str, Any]:
    """The JSON score report of ``logs`` against ``spec``."""
    argv: list[str | Path] = ["score", spec, "--format", "json"]
    for log in logs:
        argv += ["--log", log]
    code, out, err = run_cli(capsys, *argv)
    report: dict[str, Any] = json.loads(out)
    report["exit_code"] = code
    report["stderr"] = err
    return report
