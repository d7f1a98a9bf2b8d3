"""What ``score`` says when it cannot score, and how its text report sums up what it leaves out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolexpect.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_folder_without_specs_is_all_that_score_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No spec files and no spec errors: the one message says so, nothing about spec errors."""
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "score", "empty", "--log", "x.jsonl")
    assert (code, out) == (2, "")
    endings = "*.expect, *.expect.json, *.expect.yaml, *.expect.yml"
    assert err == f"toolexpect: no spec files ({endings}) in empty\n"


def test_spec_errors_beside_an_empty_folder_are_still_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a broken spec, the message asking to fix the spec errors stays."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad.expect").write_text('case "a" {\n    expect f(\n}\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "score", "empty", "bad.expect", "--log", "x.jsonl")
    assert code == 2
    assert "no spec files" in err
    assert err.endswith("toolexpect: fix the spec errors above before scoring\n")


def test_the_unused_samples_left_out_are_summed_up_as_the_docs_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The summing-up line has thousands separators and says "unused" once, as docs/cli.md shows."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    shape = re.compile(
        r"\.\.\. and [\d,]+ more unused samples \([\d,]+ runs\); the json report lists them all"
    )
    assert shape.search(" ".join(docs.split())) is not None
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.expect").write_text('case "a" {\n    expect t\n}\n', encoding="utf-8")
    lines = [json.dumps({"id": "a", "tool_calls": [{"name": "t"}]})]
    lines += [json.dumps({"id": f"s{i}", "tool_calls": []}) for i in range(1000) for _ in range(2)]
    (tmp_path / "run.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for fmt, prefix in (("text", ""), ("junit", ""), ("markdown", "- ")):
        _, out, _ = _run(capsys, "score", "w.expect", "--log", "run.jsonl", "--format", fmt)
        [rest] = [line for line in out.splitlines() if "more unused" in line]
        expected = "... and 980 more unused samples (1,960 runs); the json report lists them all"
        assert rest.strip() == prefix + expected
    capped = re.compile(
        r"\.\.\. unused samples of more than 1,000 ids, [\d,]+ runs in all; "
        r"the json report lists the first 1,000 ids"
    )
    assert capped.search(" ".join(docs.split())) is not None
    lines += [json.dumps({"id": f"t{i}", "tool_calls": []}) for i in range(500)]
    (tmp_path / "run.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, out, _ = _run(capsys, "score", "w.expect", "--log", "run.jsonl")
    [rest] = [line for line in out.splitlines() if line.startswith("...")]
    assert capped.fullmatch(rest) is not None
    assert "2,500 runs in all" in rest
