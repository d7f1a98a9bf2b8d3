"""toolexpect's diagnostics as LSP diagnostics: the same code, message and place as ``lint``.

The ``help`` of a diagnostic follows its message on a line of its own, as ``lint`` shows it.
"""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.server.positions import Positions

__all__ = ["lsp_diagnostic", "lsp_diagnostics"]

_SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTE: types.DiagnosticSeverity.Information,
}


def lsp_diagnostic(diagnostic: Diagnostic, positions: Positions) -> types.Diagnostic:
    """One diagnostic, placed in the document ``positions`` describes."""
    message = diagnostic.message + (f"\nhelp: {diagnostic.help}" if diagnostic.help else "")
    return types.Diagnostic(
        range=positions.range(diagnostic.span),
        message=message,
        severity=_SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        source="toolexpect",
    )


def lsp_diagnostics(diagnostics: Iterable[Diagnostic], positions: Positions) -> list[types.Diagnostic]:
    """Each of ``diagnostics`` as an LSP diagnostic."""
    return [lsp_diagnostic(d, positions) for d in diagnostics]
