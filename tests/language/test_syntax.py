"""Every syntax form of the language parses to the documented canonical document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolexpect.document import without_spans
from toolexpect.language.parse import parse_text

CASES = Path(__file__).resolve().parents[1] / "cases" / "syntax"


_strip = without_spans


def _typed(node: Any) -> Any:
    """A form of ``node`` in which 1, 1.0 and True are all different."""
    if isinstance(node, dict):
        return {k: _typed(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_typed(v) for v in node]
    return (type(node).__name__, node)


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            params.append(pytest.param(case, id=f"{path.stem}: {case['description']}"))
    return params


@pytest.mark.parametrize("case", _load())
def test_syntax_case(case: dict[str, Any]) -> None:
    """The spec of a syntax case parses, without diagnostics, to its documented document."""
    result = parse_text(case["spec"], "spec")
    assert result.diagnostics == []
    assert result.document is not None
    assert _typed(_strip(result.document)) == _typed(case["document"])


def test_case_files_cover_every_form() -> None:
    """The case files hold every statement and matcher of the contract at least once."""
    text = "".join(p.read_text(encoding="utf-8") for p in CASES.glob("*.json"))
    for needle in (
        '"kind": "accuracy"',
        '"kind": "pass_rate"',
        '"kind": "order"',
        '"kind": "no_tool_calls"',
        '"kind": "no_unexpected_calls"',
        '"kind": "count"',
        '"chains"',
        '"question"',
        '"forbid"',
        '"implicit": true',
        '"$match"',
    ):
        assert needle in text, needle
    for op in (
        "eq",
        "ne",
        "any",
        "in",
        "regex",
        "<",
        "<=",
        ">",
        ">=",
        "approx",
        "absent",
        "partial",
        "contains",
    ):
        assert f'"op": "{op}"' in text, op


def test_implicit_case_takes_the_given_name() -> None:
    """Statements outside any block form one case named after the file stem."""
    result = parse_text("expect a\nexpect b\n", "weather")
    assert result.document is not None
    (case,) = result.document["cases"]
    assert case["name"] == "weather"
    assert case["implicit"] is True


def test_then_at_start_of_next_line_is_an_error() -> None:
    """A chain continues after a line break that follows `then`, not before it."""
    result = parse_text("expect a\nthen b\n", "s")
    assert result.document is None
    assert [d.code for d in result.diagnostics] == ["P100"]
    assert result.diagnostics[0].span is not None
    assert (result.diagnostics[0].span.line, result.diagnostics[0].span.column) == (2, 1)


def test_number_types() -> None:
    """An integer literal is an int; 5.0 and 1e3 are floats; true is a bool, not an int."""
    result = parse_text("expect t(a=5, b=5.0, c=1e3, d=true)", "s")
    assert result.document is not None
    values = [arg["value"] for arg in result.document["cases"][0]["expect"][0]["args"]]
    assert [type(v) for v in values] == [int, float, float, bool]
    assert values == [5, 5.0, 1000.0, True]


def test_lone_surrogate_escape_is_an_error() -> None:
    """A \\uD83D escape without its low half is reported: it encodes no character."""
    result = parse_text('expect t(s="ab\\ud83d")', "s")
    assert result.document is None
    (problem,) = result.diagnostics
    assert problem.code == "P103"
    assert problem.span is not None
    assert (problem.span.column, problem.span.end_column) == (15, 21)


@pytest.mark.parametrize(
    "quoted", ['"ab\ud83d"', "'ab\udc00'", 'r"ab\ud83d"'], ids=["double", "single", "raw"]
)
def test_a_raw_lone_surrogate_in_a_string_is_p103_as_its_escape(quoted: str) -> None:
    """A text given as a string (an editor's buffer, the API) may hold a lone surrogate itself:
    P103 at that character, as for its escape."""
    result = parse_text(f"expect t(s={quoted})", "s")
    assert result.document is None
    (problem,) = result.diagnostics
    assert problem.code == "P103"
    assert problem.span is not None
    column = 12 + len(quoted) - 2  # the string starts at column 12; the surrogate ends it
    assert (problem.span.line, problem.span.column, problem.span.end_column) == (1, column, column + 1)


SPANNED = (
    'case "c" {\n'
    '    question "q"\n'
    "    expect t(a=1,\n"
    "        b in [2])\n"
    "    require order\n"
    "}\n"
    "expect u then\n"
    "  v\n"
)


def test_spans_of_case_statements_and_arguments() -> None:
    """Spans are 1-based, end exclusive, and cover the written node exactly."""
    result = parse_text(SPANNED, "s")
    assert result.document is not None
    implicit, case = result.document["cases"]
    assert case["span"] == {"line": 1, "column": 1, "end_line": 6, "end_column": 2}
    assert case["question_span"] == {"line": 2, "column": 5, "end_line": 2, "end_column": 17}
    call = case["expect"][0]
    assert call["span"] == {"line": 3, "column": 12, "end_line": 4, "end_column": 18}
    assert call["args"][0]["span"] == {"line": 3, "column": 14, "end_line": 3, "end_column": 17}
    assert call["args"][1]["span"] == {"line": 4, "column": 9, "end_line": 4, "end_column": 17}
    assert case["require"][0]["span"] == {"line": 5, "column": 5, "end_line": 5, "end_column": 18}
    assert implicit["expect"][1]["span"] == {"line": 8, "column": 3, "end_line": 8, "end_column": 4}
    assert implicit["span"] == {"line": 7, "column": 1, "end_line": 8, "end_column": 4}


def test_spans_ignore_bom_and_count_characters_with_crlf() -> None:
    """A BOM takes no column, CRLF ends a line, and columns count characters, not bytes."""
    result = parse_text('\ufeffexpect t(a=1)\r\nexpect "é"(x="ü")\r\n', "s")
    assert result.document is not None
    first, second = result.document["cases"][0]["expect"]
    assert first["span"] == {"line": 1, "column": 8, "end_line": 1, "end_column": 14}
    assert second["args"][0]["span"] == {"line": 2, "column": 12, "end_line": 2, "end_column": 17}


def test_comments_are_returned_beside_the_document() -> None:
    """Comments are collected with their text and place, without the line ending."""
    result = parse_text("# one\r\nexpect a  # two\r\n", "s")
    assert [(c.text, c.line, c.column) for c in result.comments] == [("# one", 1, 1), ("# two", 2, 11)]
