"""toolexpect: say which tool calls an LLM application must make, and score recorded runs."""

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.diagnostics import Diagnostic

__all__ = ["Diagnostic", "RecordedSample", "ToolCall"]
__version__ = "0.1.0"
