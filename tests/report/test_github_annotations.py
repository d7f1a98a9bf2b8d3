"""GitHub Actions annotations: every `github` format escapes messages and properties alike."""

from __future__ import annotations

from toolexpect.diagnostics import Span, make
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.github import annotation


def test_message_and_properties_are_escaped_as_the_runner_reads_them() -> None:
    """Percent signs and new lines in the message, and ':' and ',' in property values, are
    escaped, so a path with a comma cannot end the property list early."""
    line = annotation("error", "50% of\nruns", file="specs/a,b.expect", line=3, title="toolexpect: x:y")
    assert line == "::error file=specs/a%2Cb.expect,line=3,title=toolexpect%3A x%3Ay::50%25 of%0Aruns"


def test_properties_given_as_none_are_left_out() -> None:
    """A property without a value is not written; without any, the command has none."""
    assert annotation("notice", "done", file=None, line=None) == "::notice::done"


def test_lint_annotations_escape_a_path_with_a_comma() -> None:
    """The github format of lint goes through the same escaping."""
    diagnostic = make("P100", "unexpected input", Span.point(2, 5), path="a,b.expect")
    text = diagnostic_report.render([diagnostic], "github")
    assert text.startswith("::error file=a%2Cb.expect,line=2,col=5,")
