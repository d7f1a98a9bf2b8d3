"""Diagnostics as data: one ``Diagnostic`` type and the one table of codes.

Every problem toolexpect finds in a spec file, a log file or a tool catalogue is a
``Diagnostic``. Nothing here formats text for people; ``toolexpect.report.diagnostics``
renders them. Codes are a letter for the phase and three digits, each with a kebab-case
name; numbers are never reused.

* ``P1xx`` reading and parsing (syntax, encoding, size, depth)
* ``V2xx`` schema validation of the canonical JSON document
* ``L3xx`` lint: semantic checks on a valid document
* ``R4xx`` recorded logs
* ``T5xx`` tool catalogues
* ``B6xx`` score reports read back (``diff``, ``score --baseline``)
* ``S7xx`` snapshots: recorded runs written as specs (``snapshot``)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

__all__ = ["CODES", "Code", "Diagnostic", "Severity", "Span", "make"]


class Severity(StrEnum):
    """How serious a diagnostic is: an error fails lint, a warning does too, a note never."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a source file: 1-based line and column, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict[str, int]:
        """The span as the canonical document writes it."""
        return {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }

    @classmethod
    def from_json(cls, data: dict[str, int]) -> Span:
        """Read a span written by :meth:`to_json`."""
        return cls(data["line"], data["column"], data["end_line"], data["end_column"])

    @classmethod
    def point(cls, line: int, column: int) -> Span:
        """A span of one character."""
        return cls(line, column, line, column + 1)


@dataclass(frozen=True, slots=True)
class Code:
    """One entry of the code table."""

    code: str
    name: str
    severity: Severity
    summary: str


_TABLE: tuple[Code, ...] = (
    # P: reading and parsing
    Code("P100", "unexpected-token", Severity.ERROR, "a token that the grammar does not allow here"),
    Code("P101", "unexpected-character", Severity.ERROR, "a character that starts no token"),
    Code("P102", "unexpected-end-of-input", Severity.ERROR, "the file ends inside a statement"),
    Code("P103", "invalid-string", Severity.ERROR, "a string literal with a bad escape"),
    Code("P104", "nesting-too-deep", Severity.ERROR, "values nested deeper than the limit"),
    Code("P105", "file-too-large", Severity.ERROR, "a spec file larger than the limit"),
    Code("P106", "not-utf8", Severity.ERROR, "a spec file that is not UTF-8 text"),
    Code("P107", "unreadable-file", Severity.ERROR, "a file that cannot be read"),
    Code("P108", "invalid-json", Severity.ERROR, "a JSON spec that is not valid JSON"),
    Code("P109", "invalid-yaml", Severity.ERROR, "a YAML spec that is not valid YAML"),
    Code("P110", "invalid-number", Severity.ERROR, "a number literal out of range or not finite"),
    # V: schema validation
    Code("V200", "schema-violation", Severity.ERROR, "the document breaks the published schema"),
    Code("V201", "unknown-key", Severity.ERROR, "a key the schema does not know"),
    Code("V202", "wrong-type", Severity.ERROR, "a value of the wrong JSON type"),
    Code("V203", "missing-key", Severity.ERROR, "a required key is absent"),
    Code("V204", "threshold-out-of-range", Severity.ERROR, "a threshold outside [0, 1]"),
    Code("V205", "negative-tolerance", Severity.ERROR, "a tolerance below zero"),
    Code("V206", "empty-choice-list", Severity.ERROR, "an `in []` that nothing can match"),
    Code("V207", "invalid-name", Severity.ERROR, "an empty tool, argument or case name"),
    # L: lint
    Code("L300", "duplicate-case", Severity.ERROR, "two cases of one file share a name"),
    Code("L301", "duplicate-argument", Severity.ERROR, "one argument given twice in a call"),
    Code("L302", "invalid-regex", Severity.ERROR, "a pattern RE2 cannot compile"),
    Code("L303", "nothing-to-check", Severity.ERROR, "a case with neither expectations nor requirements"),
    Code("L304", "forbid-equals-expect", Severity.ERROR, "a forbid identical to an expect of the case"),
    Code("L305", "contradictory-requirements", Severity.ERROR, "requirements no run can meet together"),
    Code("L306", "duplicate-requirement", Severity.WARNING, "one requirement written twice"),
    Code("L307", "empty-range", Severity.ERROR, "a matcher that no value can satisfy"),
    Code("L308", "repeated-statement", Severity.ERROR, "a statement a case holds once, written twice"),
    Code("L309", "duplicate-key", Severity.ERROR, "one key written twice in an object"),
    Code("L310", "no-cases", Severity.ERROR, "a spec without any case"),
    Code(
        "L311",
        "forbid-covers-expect",
        Severity.WARNING,
        "a forbid that matches every call an expect of the case matches",
    ),
    Code("L312", "impossible-count", Severity.ERROR, "count bounds that no number of calls meets"),
    Code("L313", "count-says-forbid", Severity.NOTE, "at most 0 calls: the same as a forbid"),
    Code(
        "L314",
        "count-below-expectations",
        Severity.ERROR,
        "a count that allows fewer calls than the expectations it covers need",
    ),
    Code(
        "L315",
        "allow-and-forbid",
        Severity.ERROR,
        "an allow whose every call a forbid of the case matches: forbid wins, the allow lets none pass",
    ),
    # R: recorded logs
    Code("R400", "unreadable-log", Severity.ERROR, "a log file that cannot be read"),
    Code("R401", "malformed-record", Severity.ERROR, "a log line or record that is not valid JSON"),
    Code("R402", "unknown-log-format", Severity.ERROR, "a log that fits no known format"),
    Code("R403", "invalid-arguments", Severity.WARNING, "call arguments that are not valid JSON"),
    Code("R404", "invalid-record", Severity.ERROR, "a record of the right format with a wrong shape"),
    Code("R405", "log-too-large", Severity.ERROR, "a log line or document beyond the size limit"),
    Code("R406", "log-shrank", Severity.ERROR, "a log that grew shorter while it was read"),
    Code("R410", "duplicate-call", Severity.NOTE, "a call logged twice, counted once"),
    Code("R411", "no-call-content", Severity.WARNING, "a trace whose spans do not record call content"),
    Code("R420", "unpaired-runs", Severity.WARNING, "recorded runs and cases that did not pair"),
    Code("R421", "ambiguous-question", Severity.WARNING, "a question that several cases ask"),
    Code("R422", "no-question", Severity.WARNING, "runs named by question that hold none"),
    Code("R423", "split-run", Severity.NOTE, "responses of one run that may each be scored as a run"),
    # T: tool catalogues
    Code("T500", "unknown-tool", Severity.ERROR, "a tool the catalogue does not declare"),
    Code("T501", "unknown-argument", Severity.ERROR, "an argument the tool does not take"),
    Code("T502", "value-breaks-schema", Severity.ERROR, "a literal the parameter's schema rejects"),
    Code("T503", "matcher-type-mismatch", Severity.ERROR, "a matcher that cannot match the parameter type"),
    Code("T504", "forbid-unknown-tool", Severity.WARNING, "a forbid of a tool the catalogue lacks"),
    Code("T505", "invalid-catalogue", Severity.ERROR, "a tool catalogue that cannot be read"),
    # B: score reports read back
    Code("B600", "unreadable-report", Severity.ERROR, "a report file that cannot be read as JSON"),
    Code("B601", "not-a-report", Severity.ERROR, "JSON that is not a toolexpect score report"),
    Code("B602", "unknown-report-version", Severity.ERROR, "a report of a version not read here"),
    # S: snapshots
    Code("S700", "value-not-writable", Severity.WARNING, "a recorded value a spec cannot hold, written =any"),
    Code("S701", "name-not-writable", Severity.WARNING, "a recorded name a spec cannot hold, left out"),
    Code("S702", "arguments-not-json", Severity.WARNING, "a call whose arguments were not JSON"),
    Code("S703", "nothing-to-snapshot", Severity.WARNING, "a case whose runs share no call"),
    Code("S704", "sample-without-case", Severity.WARNING, "a sample without an id among samples with ids"),
    Code("S705", "snapshot-fault", Severity.ERROR, "a case that would not read back or pass its runs"),
    Code("S706", "case-not-rewritable", Severity.WARNING, "a failing case --update cannot rewrite in place"),
    Code("S707", "failed-request", Severity.NOTE, "a run whose request failed, left out of the snapshot"),
    Code("S708", "cases-named-by-made-up-ids", Severity.WARNING, "cases named after ids a provider made up"),
)

CODES: dict[str, Code] = {entry.code: entry for entry in _TABLE}
"""Every diagnostic code, by code."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: where it is, what it is, and what to do about it."""

    code: str
    message: str
    path: str | None = None
    span: Span | None = None
    help: str | None = None
    severity: Severity = Severity.ERROR
    notes: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        """The kebab-case name of the code."""
        return CODES[self.code].name

    @property
    def line(self) -> int | None:
        """The 1-based line, when the diagnostic has a place."""
        return self.span.line if self.span else None

    @property
    def column(self) -> int | None:
        """The 1-based column, when the diagnostic has a place."""
        return self.span.column if self.span else None

    def with_path(self, path: str) -> Diagnostic:
        """The same diagnostic, placed in ``path``."""
        return replace(self, path=path)

    def to_json(self) -> dict[str, object]:
        """The diagnostic as a JSON object (the ``json`` lint format)."""
        span = self.span
        return {
            "path": self.path,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
            "help": self.help,
        }


def make(
    code: str,
    message: str,
    span: Span | None = None,
    *,
    help: str | None = None,
    path: str | None = None,
) -> Diagnostic:
    """Build a diagnostic with the severity its code has in the table."""
    return Diagnostic(
        code=code,
        message=message,
        path=path,
        span=span,
        help=help,
        severity=CODES[code].severity,
    )
