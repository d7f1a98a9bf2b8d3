"""DeepEval's ``ToolCorrectnessMetric`` on ``LLMTestCase(tools_called=..., expected_tools=...)``.

Two configurations: DeepEval's default (tool names only) and with
``evaluation_params=[ToolCallParams.INPUT_PARAMETERS]`` (names and arguments, the configuration
comparable to Tool Call Accuracy). Neither calls a model: no ``available_tools`` are given.
One metric object serves every sample.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from deepeval.metrics import ToolCorrectnessMetric
from deepeval.test_case import LLMTestCase, ToolCall, ToolCallParams

Scorer = Callable[[list[dict[str, Any]], list[dict[str, Any]]], float]


def versions() -> dict[str, str]:
    """Versions of the packages this adapter uses."""
    return {"deepeval": version("deepeval")}


def _scorer(params: list[Any]) -> Scorer:
    metric = ToolCorrectnessMetric(evaluation_params=params, async_mode=False)

    def score(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> float:
        case = LLMTestCase(
            input="benchmark",
            actual_output="",
            tools_called=[ToolCall(name=c["name"], input_parameters=c["arguments"]) for c in actual],
            expected_tools=[ToolCall(name=c["name"], input_parameters=c["arguments"]) for c in expected],
        )
        return float(metric.measure(case, _show_indicator=False))

    return score


def metrics() -> dict[str, Scorer]:
    """The metrics to score, by display name."""
    return {
        "ToolCorrectness (+input_parameters)": _scorer([ToolCallParams.INPUT_PARAMETERS]),
        "ToolCorrectness (names only, default)": _scorer([]),
    }
