"""agentevals' ``create_trajectory_match_evaluator`` on OpenAI-style message lists.

Mode ``superset`` (the recorded trajectory must hold every reference call, extra calls allowed)
with ``tool_args_match_mode="superset"`` (recorded arguments may hold more keys): the closest
configuration to Tool Call Accuracy. The evaluator's score is a boolean (1.0 or 0.0).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from agentevals.trajectory.match import create_trajectory_match_evaluator

Scorer = Callable[[list[dict[str, Any]], list[dict[str, Any]]], float]


def versions() -> dict[str, str]:
    """Versions of the packages this adapter uses."""
    return {"agentevals": version("agentevals"), "langchain-core": version("langchain-core")}


def _messages(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "benchmark"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": f"call_{i}",
                    "type": "function",
                    "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
                }
                for i, c in enumerate(calls)
            ],
        },
    ]


def metrics() -> dict[str, Scorer]:
    """The metrics to score, by display name."""
    evaluator = create_trajectory_match_evaluator(
        trajectory_match_mode="superset", tool_args_match_mode="superset"
    )

    def score(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> float:
        result = evaluator(outputs=_messages(actual), reference_outputs=_messages(expected))
        return float(result["score"])

    return {"trajectory match (superset, args superset)": score}
