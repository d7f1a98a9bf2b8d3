"""Read a score report back (``toolexpect diff``, ``score --baseline``): JSON, version, schema.

Exception tree (the whole tree is drawn in :mod:`toolexpect.errors`)::

    ToolexpectError
     └── ReportError      a file that is not a score report this toolexpect reads; ``.diagnostic``

A report without a ``"version"`` key is version 1 (every report written so far); a later,
incompatible version will carry ``"version": 2`` or more and is refused here (B602), as is
JSON that does not satisfy ``report.schema.json`` (B601) and a file that is not JSON (B600),
or JSON nested too deep to read (B600: a report toolexpect writes is a few levels deep, and
arrays or objects nested thousands of levels deep would exhaust Python's recursion limit).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.errors import ToolexpectError
from toolexpect.schema import report_problem

__all__ = ["REPORT_VERSION", "ReportError", "load_report", "parse_report", "report_version"]

REPORT_VERSION = 1
"""The version of the score report this toolexpect writes and reads."""

_MAKE_ONE = "write one with: toolexpect score SPECS --log LOG --format json -o FILE"


class ReportError(ToolexpectError):
    """A file that is not a score report this toolexpect reads; ``diagnostic`` says why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def report_version(document: dict[str, Any]) -> Any:
    """The version a report declares: its ``"version"`` value, or 1 when it has none."""
    return document.get("version", REPORT_VERSION)


def parse_report(text: str, path: str = "<report>") -> dict[str, Any]:
    """The score report in ``text`` (read from ``path``), checked against the report schema."""
    try:
        document = json.loads(text)
    except RecursionError:
        raise _too_deep(path) from None
    except ValueError as error:
        place = error if isinstance(error, json.JSONDecodeError) else None
        raise ReportError(
            make(
                "B600",
                f"not a JSON file: {place.msg if place is not None else error}",
                Span.point(place.lineno, place.colno) if place is not None else None,
                path=path,
                help=f"pass the output of 'toolexpect score --format json'; {_MAKE_ONE}",
            )
        ) from None
    if not isinstance(document, dict) or "cases" not in document or "summary" not in document:
        raise ReportError(
            make(
                "B601",
                'this JSON is not a toolexpect score report (it has no "cases" and "summary")',
                path=path,
                help=_MAKE_ONE,
            )
        )
    version = report_version(document)
    if version != REPORT_VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > REPORT_VERSION
        raise ReportError(
            make(
                "B602",
                f"report version {json.dumps(version)} is not one this toolexpect reads "
                f"(it reads version {REPORT_VERSION})",
                path=path,
                help=(
                    "the report was written by a newer toolexpect: upgrade toolexpect, or score the "
                    "baseline again with this one"
                    if newer
                    else f"score the baseline again with this toolexpect; {_MAKE_ONE}"
                ),
            )
        )
    try:
        problem = report_problem(document)
    except RecursionError:
        raise _too_deep(path) from None
    if problem is not None:
        raise ReportError(
            make(
                "B601",
                f"not a valid toolexpect score report: {problem}",
                path=path,
                help=f"see 'toolexpect schema --report'; {_MAKE_ONE}",
            )
        )
    return document


def _too_deep(path: str) -> ReportError:
    return ReportError(
        make(
            "B600",
            "the report is nested too deep to read (arrays or objects inside one another "
            "thousands of levels deep)",
            path=path,
            help=f"pass the output of 'toolexpect score --format json'; {_MAKE_ONE}",
        )
    )


def load_report(path: str | Path) -> dict[str, Any]:
    """The score report in the file at ``path`` (see :func:`parse_report`)."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ReportError(
            make("B600", f"cannot read the report: {error.strerror or error}", path=name, help=_MAKE_ONE)
        ) from None
    except UnicodeDecodeError:
        raise ReportError(make("B600", "the report is not UTF-8 text", path=name, help=_MAKE_ONE)) from None
    return parse_report(text, name)
