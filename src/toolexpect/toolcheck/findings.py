"""What checking recorded calls against their tools' schemas finds, as data the reports render."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CallFinding", "SampleFinding"]


@dataclass(frozen=True, slots=True)
class CallFinding:
    """A recorded call that breaks its tool's schema: which call, tool and argument, and why
    (found by :func:`toolexpect.toolcheck.check_calls`)."""

    index: int
    tool: str
    argument: str | None
    message: str


@dataclass(frozen=True, slots=True)
class SampleFinding:
    """A recorded call that breaks its tool's schema, with the sample it was found in."""

    sample_id: str | None
    path: str | None
    line: int | None
    finding: CallFinding
