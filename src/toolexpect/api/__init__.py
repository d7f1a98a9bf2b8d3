"""The Python API: evaluate samples, parse and load specs, score calls, assert on them.

Its exceptions, ``SpecError`` (a ``ValueError``) and ``ToolCallAssertionError`` (an
``AssertionError``), are drawn in :mod:`toolexpect.api.errors`. Wherever a
:class:`~toolexpect.calls.ToolCall` is taken, a plain dict ``{"name": ..., "arguments": {...}}``
is accepted too (``arguments`` may be a JSON string).

This package only re-exports. One module per job: ``calls`` (calls in, as the stages take
them), ``evaluator`` (a sample's Tool Call Accuracy) with ``cache`` (its compiled cases,
reused), ``specs`` (parse, load, score and assert) and ``errors``. The given/when/then API
is :mod:`toolexpect.api.fluent`, recording a Python agent's calls :mod:`toolexpect.api.recording`,
the pytest plugin :mod:`toolexpect.api.pytest_plugin`. The names are imported on first use, so
that pytest's start-up, which loads the plugin, loads no more than the plugin needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolexpect._lazy import exports

if TYPE_CHECKING:
    from toolexpect.api.calls import CallLike, as_call, as_calls, calls_from, expectation_of
    from toolexpect.api.errors import SpecError, ToolCallAssertionError
    from toolexpect.api.evaluator import Evaluation, Sample, ToolCallAccuracyEvaluator
    from toolexpect.api.specs import assert_tool_calls, load_spec, parse_spec, score

_HOMES = {
    "CallLike": "toolexpect.api.calls",
    "as_call": "toolexpect.api.calls",
    "as_calls": "toolexpect.api.calls",
    "calls_from": "toolexpect.api.calls",
    "expectation_of": "toolexpect.api.calls",
    "SpecError": "toolexpect.api.errors",
    "ToolCallAssertionError": "toolexpect.api.errors",
    "Evaluation": "toolexpect.api.evaluator",
    "Sample": "toolexpect.api.evaluator",
    "ToolCallAccuracyEvaluator": "toolexpect.api.evaluator",
    "assert_tool_calls": "toolexpect.api.specs",
    "load_spec": "toolexpect.api.specs",
    "parse_spec": "toolexpect.api.specs",
    "score": "toolexpect.api.specs",
}

__all__ = [
    "CallLike",
    "Evaluation",
    "Sample",
    "SpecError",
    "ToolCallAccuracyEvaluator",
    "ToolCallAssertionError",
    "as_call",
    "as_calls",
    "assert_tool_calls",
    "calls_from",
    "expectation_of",
    "load_spec",
    "parse_spec",
    "score",
]

__getattr__, __dir__ = exports(__name__, _HOMES)
