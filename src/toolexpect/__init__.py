"""toolexpect: say which tool calls your LLM application must make, and score recorded runs.

The names below are imported on first use, so that the command line (``toolexpect lint`` runs
on every commit) loads only what it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolexpect._lazy import exports
from toolexpect._version import __version__ as __version__

if TYPE_CHECKING:
    from toolexpect.api import (
        Evaluation,
        Sample,
        SpecError,
        ToolCallAccuracyEvaluator,
        ToolCallAssertionError,
        assert_tool_calls,
        calls_from,
        load_spec,
        parse_spec,
        score,
    )
    from toolexpect.api.fluent import given
    from toolexpect.api.recording import Recording, record, tool
    from toolexpect.calls import RecordedSample, ToolCall
    from toolexpect.diagnostics import Diagnostic
    from toolexpect.errors import ToolexpectError

__all__ = [
    "Diagnostic",
    "Evaluation",
    "RecordedSample",
    "Recording",
    "Sample",
    "SpecError",
    "ToolCall",
    "ToolCallAccuracyEvaluator",
    "ToolCallAssertionError",
    "ToolexpectError",
    "assert_tool_calls",
    "calls_from",
    "given",
    "load_spec",
    "parse_spec",
    "record",
    "score",
    "tool",
]

_HOMES = {
    "Diagnostic": "toolexpect.diagnostics",
    "Evaluation": "toolexpect.api",
    "RecordedSample": "toolexpect.calls",
    "Recording": "toolexpect.api.recording",
    "Sample": "toolexpect.api",
    "SpecError": "toolexpect.api",
    "ToolCall": "toolexpect.calls",
    "ToolCallAccuracyEvaluator": "toolexpect.api",
    "ToolCallAssertionError": "toolexpect.api",
    "ToolexpectError": "toolexpect.errors",
    "assert_tool_calls": "toolexpect.api",
    "calls_from": "toolexpect.api",
    "given": "toolexpect.api.fluent",
    "load_spec": "toolexpect.api",
    "parse_spec": "toolexpect.api",
    "record": "toolexpect.api.recording",
    "score": "toolexpect.api",
    "tool": "toolexpect.api.recording",
}


__getattr__, __dir__ = exports(__name__, _HOMES)
