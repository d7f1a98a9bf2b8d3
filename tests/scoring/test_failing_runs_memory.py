"""Scoring for the reports but JSON keeps each case's accumulators, never a record per run."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from toolexpect.api import parse_spec
from toolexpect.calls import LogRecords, RecordedSample, ToolCall
from toolexpect.cli import main
from toolexpect.matching import MAX_KEPT_RUNS
from toolexpect.report.score import MAX_RUNS_SHOWN, render
from toolexpect.scoring.partial import score
from toolexpect.specfiles.stages import load_spec_file

SPEC = 'case "c" {\n  expect t(x=1)\n}\n'


def _samples(runs: int) -> list[RecordedSample]:
    return [RecordedSample("c", (ToolCall("t", {"x": 2 + number % 3}),)) for number in range(runs)]


def test_the_reports_but_json_keep_no_run_beyond_the_accumulators(tmp_path: Path) -> None:
    """Scored for the reports but JSON, a case keeps no list of runs: its accumulators hold the
    counts, the figures, its first run and its first failing runs whole, and the reports are
    those of a full scoring."""
    (tmp_path / "c.expect").write_text(SPEC, encoding="utf-8")
    spec = load_spec_file(tmp_path / "c.expect").spec
    assert spec is not None
    report = score([spec], _samples(100), explained=MAX_RUNS_SHOWN)
    outcome = report.cases[0]
    assert outcome.runs == ()
    assert (outcome.result.runs, outcome.result.passed) == (100, 0)
    assert [number for number, _ in outcome.result.kept_runs] == list(range(MAX_KEPT_RUNS))
    assert all(run.failures for _, run in outcome.result.kept_runs)
    assert outcome.result.first_run == outcome.result.kept_runs[0][1]
    full = score([spec], _samples(100))
    assert len(full.cases[0].runs) == 100 and all(run.failures for run in full.cases[0].runs)
    assert outcome.result == full.cases[0].result
    for fmt in ("text", "junit", "github", "markdown"):
        assert render(report, fmt) == render(full, fmt)


def test_only_the_runs_a_report_shows_are_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scored for the reports but JSON, a failing run is explained only when a report reads its
    failures: the runs a case keeps, never the others; the JSON report's scoring explains every
    failing run. The reports are the same either way."""
    import toolexpect.matching.case as case_module

    explained: list[int] = []
    real = case_module.explain

    def counting(*args: object, **kwargs: object) -> object:
        explained.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(case_module, "explain", counting)
    spec = parse_spec(SPEC, "c")
    report = score([spec], _samples(100), explained=MAX_RUNS_SHOWN)
    assert len(explained) == 0  # nothing read yet
    text = render(report, "text")
    assert 0 < len(explained) <= MAX_KEPT_RUNS
    explained.clear()
    full = score([spec], _samples(100))
    assert len(explained) == 100
    assert render(full, "text") == text
    assert render(report, "junit") == render(full, "junit")


def test_precision_and_f1_come_from_the_accumulators() -> None:
    """A case's mean precision and F1 are the exact means over its runs (math.fsum of each run's
    figure over their number), whatever the order the runs came in."""
    spec = parse_spec(SPEC, "c")
    samples = [
        RecordedSample("c", tuple(ToolCall("t", {"x": 1 + (n % 2)}) for _ in range(1 + n % 7)))
        for n in range(50)
    ]
    runs = score([spec], samples).cases[0].runs
    result = score([spec], samples, explained=0).cases[0].result
    assert result.mean_precision == math.fsum(r.precision for r in runs if r.precision is not None) / 50
    assert result.mean_f1 == math.fsum(r.f1 for r in runs if r.f1 is not None) / 50
    again = score([spec], list(reversed(samples)), explained=0).cases[0].result
    assert (again.mean_precision, again.mean_f1) == (result.mean_precision, result.mean_f1)


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
    counted = LogRecords(str(tmp_path / "log.jsonl"), with_calls=40)
    assert out == render(replace(score([spec], samples), log_records=(counted,)), fmt)
