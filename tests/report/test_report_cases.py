"""Golden score reports: each case of tests/cases/reports/ is a spec, a log and the text and JSON
reports ``toolexpect score`` writes for them, with its exit code.

Regenerate the goldens on purpose with ``TOOLEXPECT_UPDATE_GOLDEN=1 pytest
tests/report/test_report_cases.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from report_support import run_cli

CASES = Path(__file__).resolve().parents[1] / "cases" / "reports"
UPDATE = os.environ.get("TOOLEXPECT_UPDATE_GOLDEN") == "1"


def _load() -> list[Any]:
    return [
        pytest.param(path, index, id=f"{path.stem}: {item['description']}")
        for path in sorted(CASES.glob("*.json"))
        for index, item in enumerate(json.loads(path.read_text(encoding="utf-8")))
    ]


@pytest.mark.parametrize(("path", "index"), _load())
def test_the_reports_are_the_golden_ones(
    path: Path,
    index: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``score`` of the case's log against its spec exits as recorded and writes the recorded
    text report and the recorded cases of the JSON report."""
    items = json.loads(path.read_text(encoding="utf-8"))
    item = items[index]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    Path("s.expect").write_text(item["spec"], encoding="utf-8")
    Path("log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in item["log"]), encoding="utf-8")
    code, text, err = run_cli(capsys, "score", "s.expect", "--log", "log.jsonl")
    json_code, out, _ = run_cli(capsys, "score", "s.expect", "--log", "log.jsonl", "--format", "json")
    assert json_code == code, err
    found = {"exit": code, "text": text.splitlines(), "json": json.loads(out)["cases"]}
    if UPDATE:
        item["expected"] = found
        path.write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    assert found == item["expected"]
