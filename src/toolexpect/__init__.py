"""toolexpect: say which tool calls your LLM application must make, and score recorded runs.

The names below are imported on first use, so that the command line (``toolexpect lint`` runs
on every commit) loads only what it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
    from toolexpect.calls import RecordedSample, ToolCall
    from toolexpect.diagnostics import Diagnostic
    from toolexpect.errors import ToolexpectError
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
    "Recording": "toolexpect.recording",
    "Sample": "toolexpect.api",
    "SpecError": "toolexpect.api",
    "ToolCall": "toolexpect.calls",
    "ToolCallAccuracyEvaluator": "toolexpect.api",
    "ToolCallAssertionError": "toolexpect.api",
    "ToolexpectError": "toolexpect.errors",
    "assert_tool_calls": "toolexpect.api",
    "calls_from": "toolexpect.api",
    "given": "toolexpect.fluent",
    "load_spec": "toolexpect.api",
    "parse_spec": "toolexpect.api",
    "record": "toolexpect.recording",
    "score": "toolexpect.api",
    "tool": "toolexpect.recording",
}


def __getattr__(name: str) -> Any:
    """Import a public name from the module it lives in, on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'toolexpect' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, for ``dir()`` and completion."""
    return sorted([*globals(), *__all__])
