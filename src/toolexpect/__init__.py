"""toolexpect: say which tool calls your LLM application must make, and score recorded runs."""

from toolexpect.api import (
    Evaluation,
    Sample,
    SpecError,
    ToolCallAccuracyEvaluator,
    ToolCallAssertionError,
    assert_tool_calls,
    load_spec,
    parse_spec,
    score,
)
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.diagnostics import Diagnostic
from toolexpect.fluent import given
from toolexpect.recording import Recording, record, tool

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
    "assert_tool_calls",
    "given",
    "load_spec",
    "parse_spec",
    "record",
    "score",
    "tool",
]
__version__ = "0.1.0"
