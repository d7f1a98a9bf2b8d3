"""What the docs promise about the command line holds (issue 15, bug 13)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolexpect.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", [["lint"], ["format"], ["score", "--log", "x.jsonl"]])
def test_no_spec_files_names_every_ending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """The "no spec files" message of lint, format and score names all four endings, .expect.yml too."""
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, *command, "empty")
    assert code == 2
    assert "no spec files (*.expect, *.expect.json, *.expect.yaml, *.expect.yml) in empty" in err


def test_the_conversation_form_of_docs_logs_reads_as_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The {"id", "messages"} example of docs/logs.md: one sample per line, named by its id."""
    text = (ROOT / "docs" / "logs.md").read_text(encoding="utf-8")
    section = text.split('### A conversation per line: `{"id", "messages"}`', 1)[1]
    example = re.search(r"```jsonl\n(.*?)```", section, flags=re.DOTALL)
    assert example is not None
    log = tmp_path / "conversations.jsonl"
    log.write_text(example.group(1), encoding="utf-8")
    code, out, err = _run(capsys, "calls", str(log), "--format", "json")
    assert (code, err) == (0, "")
    samples = json.loads(out)["samples"]
    assert [s["id"] for s in samples] == ["berlin tomorrow", "small talk"]
    assert [[c["name"] for c in s["calls"]] for s in samples] == [["get_weather"], []]


def test_threshold_failures_point_at_the_require_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As docs/matching.md says: a failed `require accuracy` points at its line, the implicit
    threshold at the case."""
    spec = tmp_path / "w.expect"
    spec.write_text(
        'case "a" {\n    expect t(x=1)\n    expect u\n    require accuracy >= 0.9\n}\n\n'
        'case "b" {\n    expect t(x=2)\n}\n',
        encoding="utf-8",
    )
    log = tmp_path / "run.jsonl"
    log.write_text(
        '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
        '{"id": "b", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n',
        encoding="utf-8",
    )
    _, out, _ = _run(capsys, "score", str(spec), "--log", str(log), "--format", "json")
    failures = {
        c["case"]: [f["line"] for f in c["failures"] if f["kind"] == "threshold"]
        for c in json.loads(out)["cases"]
    }
    assert failures == {"a": [4], "b": [7]}
    assert "style guide" not in (ROOT / "docs" / "matching.md").read_text(encoding="utf-8")


def test_docs_cite_nothing_missing_and_pin_no_missing_tag() -> None:
    """docs/tools.md cites no style guide the repository lacks; no hook example pins the tag
    v0.1.0, which does not exist."""
    assert "style guide" not in (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    for path in [ROOT / ".pre-commit-hooks.yaml", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "rev: v0.1.0" not in path.read_text(encoding="utf-8"), path


def test_a_second_log_after_one_log_flag_is_named_as_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``score --log a.jsonl b.jsonl`` reads ``b.jsonl`` as a spec path, which cannot parse:
    the command says that it looks like a log and that --log is given once per log."""
    log = tmp_path / "b.jsonl"
    log.write_text(json.dumps({"id": "c", "tool_calls": []}) + "\n", encoding="utf-8")
    code, _, err = _run(capsys, "score", "--log", str(log), str(log))
    assert code == 2
    assert (
        f"toolexpect: {log} looks like a log, not a spec: give --log once per log "
        "(--log a.jsonl --log b.jsonl)"
    ) in err
