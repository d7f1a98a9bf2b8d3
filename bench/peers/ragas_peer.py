"""Ragas' ``ToolCallAccuracy`` and ``ToolCallF1`` on ``MultiTurnSample`` with ``AIMessage(tool_calls=...)``.

``ToolCallAccuracy`` runs with ``strict_order=False`` (order-insensitive, the configuration
comparable to Tool Call Accuracy) and with its default ``strict_order=True``. Neither metric calls
a model. The async ``multi_turn_ascore`` is driven by one event loop reused for every sample.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from ragas.dataset_schema import MultiTurnSample
from ragas.messages import AIMessage, HumanMessage, ToolCall
from ragas.metrics import ToolCallAccuracy, ToolCallF1

Scorer = Callable[[list[dict[str, Any]], list[dict[str, Any]]], float]


def versions() -> dict[str, str]:
    """Versions of the packages this adapter uses."""
    return {"ragas": version("ragas"), "langchain-core": version("langchain-core")}


def _sample(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> MultiTurnSample:
    return MultiTurnSample(
        user_input=[
            HumanMessage(content="benchmark"),
            AIMessage(content="", tool_calls=[ToolCall(name=c["name"], args=c["arguments"]) for c in actual]),
        ],
        reference_tool_calls=[ToolCall(name=c["name"], args=c["arguments"]) for c in expected],
    )


def metrics() -> dict[str, Scorer]:
    """The metrics to score, by display name."""
    warnings.simplefilter("ignore")  # ragas warns on every length mismatch
    loop = asyncio.new_event_loop()

    def scorer(metric: Any) -> Scorer:
        def score(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> float:
            return float(loop.run_until_complete(metric.multi_turn_ascore(_sample(expected, actual))))

        return score

    return {
        "ToolCallAccuracy (strict_order=False)": scorer(ToolCallAccuracy(strict_order=False)),
        "ToolCallAccuracy (default, strict order)": scorer(ToolCallAccuracy()),
        "ToolCallF1": scorer(ToolCallF1()),
    }
