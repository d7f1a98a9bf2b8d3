"""The exceptions of the Python API (the whole tree is drawn in :mod:`toolexpect.errors`)::

    ToolexpectError, ValueError
     └── SpecError                 an invalid spec; carries the diagnostics
    ToolexpectError, AssertionError
     └── ToolCallAssertionError    a failed ``assert_*``; the message is the explanation

Both are shown under their public home, ``toolexpect.api`` (as pytest names a failure).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolexpect.diagnostics import Diagnostic
from toolexpect.errors import ToolexpectError
from toolexpect.report.diagnostics import render

__all__ = ["SpecError", "ToolCallAssertionError"]


class SpecError(ToolexpectError, ValueError):
    """A spec that does not parse, validate or lint; ``diagnostics`` says why."""

    def __init__(
        self,
        diagnostics: Sequence[Diagnostic],
        text: str | None = None,
        *,
        sources: Mapping[str, str] | None = None,
    ) -> None:
        """Build the message from the diagnostics, with source excerpts when ``text`` (the one
        source) or ``sources`` (the text of each file, by path) is known."""
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        if sources is None:
            super().__init__(render(self.diagnostics, "full", sources=lambda _path: text))
        else:
            super().__init__(
                render(
                    self.diagnostics, "full", sources=lambda path: None if path is None else sources.get(path)
                )
            )


class ToolCallAssertionError(ToolexpectError, AssertionError):
    """A failed assertion on tool calls; the message explains what was expected and got."""


SpecError.__module__ = ToolCallAssertionError.__module__ = "toolexpect.api"
