"""Reports on an output that is not UTF-8 (``PYTHONIOENCODING=cp1252``): ASCII marks, never an error."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolexpect.report.style import Style

SPEC = 'case "a" {\n  expect t(x=1)\n}\ncase "b" {\n  expect t\n}\n'
LOG = (
    '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 2}}]}\n'
    '{"id": "b", "tool_calls": [{"name": "t", "arguments": {"x": "\\u2603 \\ud83d\\ude00"}}]}\n'
)


def _run(tmp_path: Path, encoding: str, *argv: str) -> subprocess.CompletedProcess[bytes]:
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "log.jsonl").write_text(LOG, encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        check=False,
    )


def test_text_report_in_cp1252_uses_ascii_marks(tmp_path: Path) -> None:
    """The text report exits 1 for a failing case (not a crash) and marks cases with + and x."""
    done = _run(tmp_path, "cp1252", "score", "w.expect", "--log", "log.jsonl")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.decode("cp1252").splitlines()
    assert lines[0].startswith("x w.expect :: a")
    assert "    x t(x=1) not matched  (w.expect:2)" in lines
    assert any(line.startswith("+ w.expect :: b") for line in lines)


def test_json_report_in_ascii_stays_valid_json(tmp_path: Path) -> None:
    """Characters the encoding lacks are written as JSON escapes, so JSON output stays JSON."""
    done = _run(tmp_path, "ascii", "calls", "--format", "json", "log.jsonl")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout.decode("ascii"))
    assert document["samples"][1]["calls"][0]["arguments"] == {"x": "\u2603 \U0001f600"}


@pytest.mark.parametrize(
    "argv", [["calls", "log.jsonl"], ["score", "w.expect", "--log", "log.jsonl", "--format", "markdown"]]
)
def test_other_outputs_in_cp1252_never_fail(tmp_path: Path, argv: list[str]) -> None:
    """The calls table and the markdown report write what cp1252 lacks as escapes."""
    done = _run(tmp_path, "cp1252", *argv)
    assert done.returncode in (0, 1)
    assert b"Traceback" not in done.stderr


def test_style_of_a_stream_knows_its_marks() -> None:
    """A UTF-8 stream keeps the marks; a cp1252 one gets them in ASCII."""
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    cp1252 = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    assert Style.of(utf8).marks("✓ a → b …") == "✓ a → b …"
    assert Style.of(cp1252).marks("✓ a → b …") == "+ a -> b ..."
