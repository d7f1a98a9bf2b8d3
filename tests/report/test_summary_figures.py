"""The overall figures in the JSON report: in the published schema, optional, and old reports
without them still read back (diff, --baseline, the HTML page)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from toolexpect.baseline.load import REPORT_VERSION, load_report
from toolexpect.cli import main
from toolexpect.report.html import render_html
from toolexpect.schema import report_schema_text

SPEC = (
    'case "a" {\n    expect t(x=1)\n}\n\n'
    'case "b" {\n    expect t(x=1)\n    expect u\n}\n\n'
    'case "c" {\n    expect v\n}\n'
)
LOG = (
    '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
    '{"id": "b", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
)
FIGURES = ("mean_accuracy", "accuracy_cases", "mean_precision", "mean_f1")


@pytest.fixture
def reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """new.json written now; old.json the same report as written before the figures existed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "run.jsonl").write_text(LOG, encoding="utf-8")
    main(["score", "w.expect", "--log", "run.jsonl", "--json", "new.json", "-q"])
    capsys.readouterr()
    old = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
    for key in FIGURES:
        del old["summary"][key]
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    return tmp_path


def test_the_figures_are_optional_keys_of_the_version_1_schema() -> None:
    """The schema names the four figures under summary without requiring them; still version 1."""
    schema = json.loads(report_schema_text())
    summary = schema["properties"]["summary"]
    assert set(FIGURES) <= set(summary["properties"])
    assert not set(FIGURES) & set(summary["required"])
    assert REPORT_VERSION == 1 and schema["$id"].endswith("report-1.json")


def test_a_new_report_meets_the_schema_with_its_figures(reports: Path) -> None:
    """ "c" has no sample and counts 0: mean accuracy (1 + 0.5 + 0) / 3; precision over a and b only."""
    document = load_report(reports / "new.json")
    Draft202012Validator(json.loads(report_schema_text())).validate(document)
    summary = document["summary"]
    assert summary["mean_accuracy"] == pytest.approx(0.5)
    assert summary["accuracy_cases"] == 3
    assert summary["mean_precision"] == 1.0
    assert summary["mean_f1"] == pytest.approx((1 + 2 / 3) / 2)


def test_an_old_report_without_figures_still_reads_back(
    reports: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """diff and score --baseline read a report written before the figures; the page of an old
    report computes its mean accuracy from the cases, as it did."""
    assert main(["diff", "old.json", "new.json"]) == 0
    assert main(["score", "w.expect", "--log", "run.jsonl", "--baseline", "old.json"]) == 0
    assert "no regression" in capsys.readouterr().out.lower()
    page = render_html(load_report(reports / "old.json"))
    assert '<span class="value">0.75</span><span class="label">mean accuracy</span>' in page
    page = render_html(load_report(reports / "new.json"))
    assert '<span class="value">0.50</span><span class="label">mean accuracy</span>' in page
    assert '<span class="label">mean F1</span>' in page
