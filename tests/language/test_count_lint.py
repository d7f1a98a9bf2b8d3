"""Lint of count requirements: bounds no count meets (L312), a count that is a forbid (L313),
a count below the expectations it covers (L314), and the count's call checked as any call."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolexpect.diagnostics import CODES, Diagnostic, Severity
from toolexpect.specfiles.stages import parse_spec_source

TWO_SEARCHES = """\
    expect search(query="berlin")
    expect search(query="paris")
    require at most 1 call of search
"""


def _findings(body: str) -> list[Diagnostic]:
    return parse_spec_source('case "c" {\n' + body + "}\n").diagnostics


def _codes(body: str) -> list[str]:
    return [d.code for d in _findings(body)]


def test_reversed_bounds_are_l312_with_the_bounds_swapped_as_help() -> None:
    """``between 4 and 2`` can never hold; the help writes the bounds from low to high."""
    (found,) = _findings("    expect search\n    require between 4 and 2 calls of search\n")
    assert found.code == "L312" and found.severity is Severity.ERROR
    assert found.span is not None and found.span.line == 3
    assert found.help == "write the bounds from low to high: require between 2 and 4 calls of search"


@pytest.mark.parametrize(
    "counts",
    [
        "require at least 2 calls of f\n    require at most 1 call of f\n",
        "require at most 1 call of f\n    require exactly 3 calls of f\n",
        "require at least 12 calls of f(q=1)\n    require at most 10 calls\n",
        "require at most 1 call of f\n    require at least 2 calls of f(q=1)\n",
    ],
    ids=["same call", "exactly above at most", "every call", "a narrower call"],
)
def test_counts_of_covering_calls_that_leave_no_number_are_l312(counts: str) -> None:
    """An at least above the at most of a count that counts every call it counts is L312,
    reported at the later count and naming the earlier one's line."""
    (found,) = _findings("    expect f\n    " + counts)
    assert found.code == "L312"
    assert "at line 3" in found.message
    assert found.span is not None and found.span.line == 4


def test_counts_of_calls_that_may_differ_are_not_l312() -> None:
    """``at least 2 of f`` and ``at most 1 of f(q=any)``: calls of f without q meet both."""
    body = "    expect f\n    require at least 2 calls of f\n    require at most 1 call of f(q=any)\n"
    assert _codes(body) == []


@pytest.mark.parametrize(
    ("count", "same"),
    [
        ("require at most 0 calls of delete_file", "forbid delete_file"),
        ('require at most 0 calls of delete_file(path ~ "^/etc")', 'forbid delete_file(path ~ "^/etc")'),
        ("require exactly 0 calls", "require no tool calls"),
    ],
)
def test_at_most_zero_is_a_note_that_names_the_statement_it_repeats(count: str, same: str) -> None:
    """At most 0 calls of f says forbid f; of every call, require no tool calls (a note)."""
    (found,) = _findings(f"    {count}\n")
    assert found.code == "L313" and found.severity is Severity.NOTE
    assert found.message.endswith(f"says the same as {same}")
    assert found.help == f"write {same}"


def test_a_count_below_the_expectations_it_covers_is_l314() -> None:
    """Two expectations of search need two calls of search: at most 1 fails every run."""
    (found,) = _findings(TWO_SEARCHES)
    assert found.code == "L314" and found.severity is Severity.ERROR
    assert "2 expect statements" in found.message and "at line 2" in found.message
    assert found.help == "write require at most 2 calls of search, or remove the expectations it rules out"


def test_an_exact_count_below_the_expectations_suggests_the_exact_number() -> None:
    """``exactly 1 call`` with two expectations suggests exactly 2."""
    (found,) = _findings("    expect a\n    expect b\n    require exactly 1 call\n")
    assert found.code == "L314"
    assert found.help is not None and found.help.startswith("write require exactly 2 calls,")


def test_a_count_below_the_expectations_is_fine_where_the_threshold_allows_it() -> None:
    """With ``require accuracy >= 0.5`` one of two expectations may go unmet: no L314; with
    ``> 0.5`` it may not."""
    body = TWO_SEARCHES
    assert _codes(body + "    require accuracy >= 0.5\n") == []
    assert _codes(body + "    require accuracy > 0.5\n") == ["L314"]


def test_a_count_of_a_call_that_other_calls_may_meet_is_not_l314() -> None:
    """An expectation of search that search(query="x") does not cover needs no such call."""
    body = '    expect search\n    expect search\n    require at most 1 call of search(query="x")\n'
    assert _codes(body) == []


def test_the_call_of_a_count_is_checked_as_any_call() -> None:
    """A count's call gets the checks of every call: a pattern RE2 cannot compile is L302."""
    assert _codes('    expect f\n    require at most 1 call of f(x ~ "(a)\\\\1")\n') == ["L302"]


def test_the_count_codes_are_in_the_table() -> None:
    """L312, L313 and L314 are in the one table of codes, with their severities."""
    assert (CODES["L312"].severity, CODES["L313"].severity, CODES["L314"].severity) == (
        Severity.ERROR,
        Severity.NOTE,
        Severity.ERROR,
    )


def test_a_note_never_fails_lint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A spec whose only finding is a note (L313) lints with exit 0, and the summary counts it
    as a note, not as a warning."""
    from toolexpect.cli import main

    spec = tmp_path / "notes.expect"
    spec.write_text("expect a()\nrequire at most 0 calls of f\n", encoding="utf-8")
    assert main(["lint", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "note[L313]" in out
    assert out.rstrip().endswith("Found 0 errors and 0 warnings in 1 file (1 note).")
    spec.write_text(
        "expect a()\nrequire at most 0 calls of f\nrequire between 4 and 2 calls\n", encoding="utf-8"
    )
    assert main(["lint", str(spec)]) == 1
