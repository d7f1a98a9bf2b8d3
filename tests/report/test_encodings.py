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


LONE = '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": "cut \\ud83d"}}]}\n'
LONE_ID = '{"id": "\\udc00b", "tool_calls": [{"name": "t\\ud800", "arguments": {}}]}\n'


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "github", "markdown", "html"])
def test_a_lone_surrogate_in_a_log_is_written_as_an_escape(tmp_path: Path, fmt: str) -> None:
    """A recorded value, id or tool name holding half of a surrogate pair (a stream cut in the
    middle of an emoji) is written as ``\\udXXX`` to standard output and to files, in every
    format: never a UnicodeEncodeError; the JSON report stays JSON that reads back the value."""
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "lone.jsonl").write_text(LONE + LONE_ID, encoding="utf-8")
    argv = ["score", "w.expect", "--log", "lone.jsonl", "--format", fmt]
    shown = _run(tmp_path, "utf-8", *argv)
    written = _run(tmp_path, "utf-8", *argv, "-o", f"report.{fmt}")
    for done in (shown, written):
        assert done.returncode == 1, done.stderr.decode()
        assert b"Traceback" not in done.stderr
    text = shown.stdout.decode("utf-8")
    assert text == (tmp_path / f"report.{fmt}").read_text(encoding="utf-8")
    assert "\\ud83d" in text
    if fmt == "json":
        report = json.loads(text)
        (unmatched,) = [f for f in report["cases"][0]["failures"] if f["kind"] == "unmatched"]
        assert unmatched["message"].endswith('got "cut \ud83d"')
        assert [sample["id"] for sample in report["unused_samples"]] == ["\udc00b"]


def test_diff_of_reports_holding_a_lone_surrogate(tmp_path: Path) -> None:
    """``diff`` reads such a JSON report back and writes its comparison without an error."""
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "lone.jsonl").write_text(LONE, encoding="utf-8")
    (tmp_path / "log.jsonl").write_text(LOG, encoding="utf-8")
    _run(tmp_path, "utf-8", "score", "w.expect", "--log", "log.jsonl", "--format", "json", "-o", "old.json")
    _run(tmp_path, "utf-8", "score", "w.expect", "--log", "lone.jsonl", "--format", "json", "-o", "new.json")
    for fmt in ("text", "markdown", "json", "github"):
        done = _run(tmp_path, "utf-8", "diff", "old.json", "new.json", "--format", fmt)
        assert b"Traceback" not in done.stderr, done.stderr.decode()
        assert done.returncode in (0, 1)
