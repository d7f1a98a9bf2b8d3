"""The evaluator: Tool Call Accuracy of a sample (expected calls and the calls an agent made),
and the evaluation that :func:`~toolexpect.api.score` returns too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from toolexpect.api.cache import compiled_sample
from toolexpect.api.calls import CallLike, recorded_calls
from toolexpect.calls import ToolCall
from toolexpect.matching import RunResult
from toolexpect.matching.collector import collector_paused
from toolexpect.model import Case, Expectation
from toolexpect.report.explain import explain_run

__all__ = ["Evaluation", "Sample", "ToolCallAccuracyEvaluator"]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of evaluating one run: a named score and the matcher's verdict.

    ``value`` is the accuracy (``None`` only for a case without expectations);
    ``result`` the matcher's ``RunResult`` (failures, pairs, precision, f1). Evaluations
    made by the evaluator and :func:`score` work out a failing run's ``result.failures``
    (and so ``explanation``) when first asked for: reading ``value`` or ``passed`` does not
    pay for them, and they are the same as when made at once.
    """

    name: str
    value: float | None
    result: RunResult
    case: Case
    calls: tuple[ToolCall, ...] | None
    path: str | None = field(default=None, compare=False)

    @property
    def passed(self) -> bool:
        """True when the run meets every requirement of its case."""
        return self.result.status == "pass"

    @property
    def explanation(self) -> str:
        """Plain text saying why the run failed (or that it passed)."""
        return explain_run(self.case, self.result, self.calls, path=self.path)


@dataclass(frozen=True, slots=True)
class Sample:
    """What an evaluator looks at: the expected calls and the calls an agent made.

    ``tool_calls`` is ``None`` when nothing was recorded (an error to evaluate); an empty
    list is a run that called no tools (it scores 0.0).
    """

    expected_tool_calls: Sequence[CallLike | Expectation]
    tool_calls: Sequence[CallLike] | None
    question: str | None = None


class ToolCallAccuracyEvaluator:
    """Tool Call Accuracy: the share of expected calls the recorded calls match."""

    name = "Tool Call Accuracy"

    def evaluate(self, sample: Sample) -> Evaluation:
        """Score ``sample``; ``ValueError`` without expected calls or without recorded calls.

        A failing sample's explanation (``result.failures``, ``explanation``) is worked out
        when first asked for, so that reading ``value`` alone does not pay for it.
        """
        expected = sample.expected_tool_calls
        if expected is None:
            raise ValueError(
                "Tool Call Accuracy needs at least one expected tool call; the sample has "
                "expected_tool_calls=None"
            )
        if type(expected) is not list and type(expected) is not tuple:
            if isinstance(expected, str | bytes | Mapping | ToolCall | Expectation):
                raise TypeError(
                    "expected_tool_calls must be a list of expected calls; "
                    f"got a single {type(expected).__name__}"
                )
            try:
                expected = tuple(expected)  # any iterable, read once
            except TypeError:
                raise TypeError(
                    f"expected_tool_calls must be a list of expected calls; got {type(expected).__name__}"
                ) from None
        if not expected:
            raise ValueError("Tool Call Accuracy needs at least one expected tool call; the sample has none")
        recorded = sample.tool_calls
        if recorded is None:
            raise ValueError(
                "Tool Call Accuracy needs the recorded tool calls; the sample has tool_calls=None "
                "(nothing was recorded). Pass an empty list for a run that called no tools"
            )
        with collector_paused():
            compiled = compiled_sample(sample.question, expected)
            calls = recorded_calls(recorded)
            result = compiled.evaluate(calls, explain_later=True)
        return Evaluation(self.name, result.score, result, compiled.case, calls)
