"""What the comparison of two reports calls a regression, on hand-made report documents."""

from __future__ import annotations

from typing import Any

import pytest

from toolexpect.baseline.compare import compare


def _report(*cases: dict[str, Any]) -> dict[str, Any]:
    return {"cases": list(cases), "summary": {"cases": len(cases), "passed": 0, "failed": 0, "errors": 0}}


def _case(status: str, score: float | None, **more: Any) -> dict[str, Any]:
    return {"file": "a.expect", "case": "c", "status": status, "score": score, "failures": [], **more}


@pytest.mark.parametrize(
    ("old", "new", "group", "regressed"),
    [
        (_case("fail", 0.5), _case("error", None), "worse", True),
        (_case("error", None), _case("fail", 0.5), "better", False),
        (_case("pass", 0.1 + 0.2), _case("pass", 0.3), None, False),
        (_case("pass", 1.0, pass_rate=0.9), _case("pass", 1.0, pass_rate=0.8), "worse", True),
        (_case("pass", 0.5, pass_rate=0.8), _case("pass", 0.4, pass_rate=0.9), "worse", True),
        (_case("fail", 0.5), _case("fail", 0.75), "better", False),
        (_case("pass", None), _case("pass", None), None, False),
    ],
    ids=["fail-to-error", "error-to-fail", "noise", "lower-pass-rate", "mixed", "higher-score", "no-score"],
)
def test_regression_by_status_score_and_pass_rate(
    old: dict[str, Any], new: dict[str, Any], group: str | None, regressed: bool
) -> None:
    """A worse status, a lower score or a lower pass rate is a regression; noise below 1e-9 is not."""
    comparison = compare(_report(old), _report(new))
    (change,) = comparison.cases
    assert change.group == group
    assert comparison.regressed is regressed


def test_changed_calls_without_changed_figures() -> None:
    """The same figures with another unexpected call is listed as "calls changed", not a regression."""

    def unexpected(tool: str) -> dict[str, Any]:
        message = f"unexpected call #2 {tool}: no expectation is paired with it"
        details = {"tools": [tool]}
        return {"kind": "unexpected", "message": message, "line": 3, "column": 5, "details": details}

    old = _case("fail", 1.0, failures=[unexpected("search")])
    new = _case("fail", 1.0, failures=[unexpected("delete")])
    comparison = compare(_report(old), _report(new))
    (change,) = comparison.changed
    assert change.group == "calls changed"
    assert (change.calls_appeared, change.calls_gone) == (("delete",), ("search",))
    assert comparison.regressed is False


def test_a_score_that_is_gone_is_shown_as_gone() -> None:
    """A case that could not be scored any more shows its score going to "-"."""
    from toolexpect.report.diff import render

    text = render(compare(_report(_case("fail", 0.5)), _report(_case("error", None))))
    assert "worse          a.expect :: c  fail → error, score 0.50 → -" in text
