"""Scoring keeps the failures the reports show, not those of every failing run."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.cli import main
from toolexpect.report.score import MAX_RUNS_SHOWN, render
from toolexpect.scoring import score
from toolexpect.specfile import load_spec_file

SPEC = 'case "c" {\n  expect t(x=1)\n}\n'


def _samples(runs: int) -> list[RecordedSample]:
    return [RecordedSample("c", (ToolCall("t", {"x": 2 + number % 3}),)) for number in range(runs)]


def test_later_failing_runs_keep_figures_only(tmp_path: Path) -> None:
    """Beyond the runs the reports explain, failing runs keep no failures and share one record."""
    (tmp_path / "c.expect").write_text(SPEC, encoding="utf-8")
    spec = load_spec_file(tmp_path / "c.expect").spec
    assert spec is not None
    report = score([spec], _samples(100), explained=MAX_RUNS_SHOWN)
    runs = report.cases[0].runs
    assert len(runs) == 100
    assert all(run.failures for run in runs[:MAX_RUNS_SHOWN])
    assert not any(run.failures for run in runs[MAX_RUNS_SHOWN:])
    assert len({id(run) for run in runs[MAX_RUNS_SHOWN:]}) == 1
    assert report.cases[0].result.runs == 100 and report.cases[0].result.passed == 0
    full = score([spec], _samples(100))
    assert all(run.failures for run in full.cases[0].runs)
    for fmt in ("text", "junit", "github", "markdown"):
        assert render(report, fmt) == render(full, fmt)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_reports_are_the_same_whatever_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """The command line's reports of many failing runs are those of a full scoring."""
    (tmp_path / "c.expect").write_text(SPEC, encoding="utf-8")
    lines = [
        f'{{"id": "c", "tool_calls": [{{"name": "t", "arguments": {{"x": {2 + n % 3}}}}}]}}'
        for n in range(40)
    ]
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert (
        main(["score", str(tmp_path / "c.expect"), "--log", str(tmp_path / "log.jsonl"), "--format", fmt])
        == 1
    )
    out = capsys.readouterr().out
    spec = load_spec_file(tmp_path / "c.expect").spec
    assert spec is not None
    samples = [RecordedSample("c", (ToolCall("t", {"x": 2 + n % 3}),)) for n in range(40)]
    assert out == render(score([spec], samples), fmt)
