"""The overall figures of a score report: mean Tool Call Accuracy, precision and F1 over cases.

Every report format prints them in its summary, and ``score --fail-under`` compares the mean
accuracy with its threshold. A case counts once, whatever its number of runs:

* its accuracy is its score (the mean over its runs when it has several); a case with
  expectations but no recorded sample (status ``error``) counts as 0, so that a case that
  was not run never raises the figure; a case without expectations has no accuracy and is
  left out;
* its precision and F1 are the mean over its runs that have one (a run without calls has
  precision 1.0; a case with no recorded sample has neither), as the case's accumulators hold
  it (``CaseResult.mean_precision`` and ``mean_f1``: no loop over runs); the overall figure is
  the mean over the cases that have one, ``None`` for none.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import fmean

from toolexpect.scoring.partial import CaseOutcome, ScoreReport

__all__ = ["Overall", "overall", "overall_text"]


@dataclass(frozen=True, slots=True)
class Overall:
    """The mean accuracy over ``cases`` cases, and the mean precision and F1 where computed."""

    accuracy: float | None
    cases: int
    precision: float | None
    f1: float | None


def _accuracy(outcome: CaseOutcome) -> float | None:
    if not outcome.case.expectations:
        return None
    if outcome.result.status == "error" or outcome.result.mean_score is None:
        return 0.0
    return outcome.result.mean_score


def _mean(values: list[float]) -> float | None:
    return fmean(values) if values else None


def overall(report: ScoreReport) -> Overall:
    """The overall figures of ``report``."""
    accuracies = [a for a in map(_accuracy, report.cases) if a is not None]
    precisions = [o.result.mean_precision for o in report.cases if o.result.mean_precision is not None]
    f1s = [o.result.mean_f1 for o in report.cases if o.result.mean_f1 is not None]
    return Overall(_mean(accuracies), len(accuracies), _mean(precisions), _mean(f1s))


def overall_text(figures: Overall) -> str:
    """``mean accuracy 0.86 over 9 cases with expected calls, precision 0.95, F1 0.90`` (empty
    without accuracy): the mean is over the cases that have expectations, not all cases."""
    if figures.accuracy is None:
        return ""
    cases = f"{figures.cases} case{'s' * (figures.cases != 1)} with expected calls"
    parts = [f"mean accuracy {figures.accuracy:.2f} over {cases}"]
    if figures.precision is not None:
        parts.append(f"precision {figures.precision:.2f}")
    if figures.f1 is not None:
        parts.append(f"F1 {figures.f1:.2f}")
    return ", ".join(parts)
