"""docs/snapshot.md shows what the command really does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from snapshot_support import run_cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "snapshot.md"


def _block(kind: str) -> str:
    return DOC.read_text(encoding="utf-8").split(f"```{kind}\n", 1)[1].split("```", 1)[0]


def test_the_first_example_is_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The doc's log, snapshot with --ignore-args request_id, gives the doc's spec."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("logs")
    Path("logs/good.jsonl").write_text(_block("jsonl"), encoding="utf-8")
    code, out, err = run_cli(capsys, "snapshot", "logs/good.jsonl", "--ignore-args", "request_id")
    assert code == 0, err
    assert out == _block("expect")


def test_the_update_example_is_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The doc's --update session prints the diff and summary shown, then writes with --force."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("logs")
    Path("logs/good.jsonl").write_text(_block("jsonl"), encoding="utf-8")
    assert (
        run_cli(capsys, "snapshot", "logs/good.jsonl", "--ignore-args", "request_id", "--out", "specs/")[0]
        == 0
    )
    today = [
        {
            "id": "berlin tomorrow",
            "tool_calls": [{"name": "get_weather", "arguments": {"city": "Berlin", "days": 3}}],
        },
        {"id": "small talk", "tool_calls": []},
    ]
    Path("logs/today.jsonl").write_text("".join(json.dumps(s) + "\n" for s in today), encoding="utf-8")
    session = _block("console").split("$ ")
    first = session[1].split("\n", 1)
    code, out, err = run_cli(capsys, *first[0].split()[1:])
    assert code == 1
    assert out + err == first[1]
    code, out, _ = run_cli(capsys, *session[2].strip().split()[1:])
    assert code == 0
    assert "days=3" in Path("specs/berlin_tomorrow.expect").read_text(encoding="utf-8")


def test_every_snapshot_code_is_documented() -> None:
    """Each S code of the code table has its row on the page."""
    from toolexpect.diagnostics import CODES

    text = DOC.read_text(encoding="utf-8")
    assert [code for code in CODES if code.startswith("S") and f"| `{code}`" not in text] == []


def test_the_python_example_prints_the_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's Python example prints the same spec as the command line."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("logs")
    Path("logs/good.jsonl").write_text(_block("jsonl"), encoding="utf-8")
    exec(compile(_block("python"), str(DOC), "exec"), {})
    assert capsys.readouterr().out == _block("expect")


def test_the_counts_example_is_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The doc's log, snapshot with --ignore-args request_id --counts, gives the spec of its
    Counts section."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("logs")
    Path("logs/good.jsonl").write_text(_block("jsonl"), encoding="utf-8")
    code, out, err = run_cli(capsys, "snapshot", "logs/good.jsonl", "--ignore-args", "request_id", "--counts")
    assert code == 0, err
    counts = DOC.read_text(encoding="utf-8").split("## Counts\n", 1)[1]
    assert out == counts.split("```expect\n", 1)[1].split("```", 1)[0]
