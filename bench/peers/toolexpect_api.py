"""toolexpect through its Python API: ``ToolCallAccuracyEvaluator().evaluate(Sample(...)).value``.

Each sample is scored on its own, as a user of the evaluator would call it: its calls are converted
from the dicts every time, and its expectations are looked up by content in the evaluator's cache
of compiled cases (samples of one scenario share them). A failing sample's explanation is not
asked for, so it is not built. The CLI path, which compiles each case once, is timed by ``run.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from toolexpect import Sample, ToolCallAccuracyEvaluator

Scorer = Callable[[list[dict[str, Any]], list[dict[str, Any]]], float]


def versions() -> dict[str, str]:
    """Versions of the packages this adapter uses."""
    return {"toolexpect": version("toolexpect")}


def metrics() -> dict[str, Scorer]:
    """The metrics to score, by display name."""
    evaluator = ToolCallAccuracyEvaluator()

    def score(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> float:
        return evaluator.evaluate(Sample(expected_tool_calls=expected, tool_calls=actual)).value

    return {"Tool Call Accuracy (Python API)": score}
