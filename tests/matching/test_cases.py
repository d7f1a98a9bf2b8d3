"""Data-driven matcher cases: one JSON file per topic in tests/cases/matching/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from matching_support import calls_of, case_of

from toolexpect.matching import evaluate, tool_call_accuracy
from toolexpect.report.explain import explain_run

CASES = Path(__file__).parent.parent / "cases" / "matching"


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            params.append(pytest.param(item, id=f"{path.stem}: {item['description']}"))
    return params


@pytest.mark.parametrize("item", _load())
def test_case(item: dict[str, Any]) -> None:
    """The case scores, passes or errors as the data file says."""
    case = case_of(item["spec"])
    calls = calls_of(item["actual"])
    result = evaluate(case, calls)
    if "error" in item:
        assert result.status == "error"
        assert result.score is None
        assert item["error"] in result.failures[0].message
        return
    if item["score"] is None:
        assert result.score is None
    else:
        assert result.score == pytest.approx(item["score"])
    if "status" in item:
        assert result.status == item["status"], [f.message for f in result.failures]
    if "kinds" in item:
        assert [f.kind for f in result.failures] == item["kinds"]
    if "messages" in item:
        assert [f.message for f in result.failures] == item["messages"]
    for figure in ("precision", "f1", "allowed"):
        if figure in item:
            assert getattr(result, figure) == pytest.approx(item[figure]), figure
    if "explanation" in item:
        assert explain_run(case, result, calls).splitlines() == item["explanation"]
    if result.status == "pass":
        assert result.failures == ()
    if case.expectations and calls is not None:
        assert tool_call_accuracy(case.expectations, calls).score == result.score


def test_every_topic_has_cases() -> None:
    """Each topic file holds at least one case and every case has a description."""
    files = sorted(CASES.glob("*.json"))
    assert {p.stem for p in files} >= {
        "basics",
        "numbers",
        "structures",
        "matchers",
        "invalid_json",
        "requirements",
        "counts",
        "allow",
    }
    for path in files:
        items = json.loads(path.read_text(encoding="utf-8"))
        assert items and all(item["description"] for item in items)
