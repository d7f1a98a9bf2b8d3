"""Count requirements (``require at most 3 calls of search``) through parse, schema, model and format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from language_support import documented_example

from toolexpect.document import without_spans
from toolexpect.language.format import format_document
from toolexpect.language.parse import parse_text
from toolexpect.model import CountRequirement, Expectation, count_to_json
from toolexpect.specfiles.stages import parse_spec_source

COUNTS = Path(__file__).resolve().parents[1] / "cases" / "syntax" / "counts.json"


def _cases() -> list[Any]:
    return [pytest.param(c, id=c["description"]) for c in json.loads(COUNTS.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("case", _cases())
def test_a_count_formats_to_its_canonical_text(case: dict[str, Any]) -> None:
    """A count formats to its golden canonical text, which formats to itself and parses back
    to the same document."""
    parsed = parse_text(case["spec"], "spec")
    assert parsed.document is not None
    text = format_document(parsed.document, parsed.comments)
    assert text == case["formatted"]
    again = parse_text(text, "spec")
    assert again.document is not None and again.diagnostics == []
    assert without_spans(again.document) == case["document"]
    assert format_document(again.document, again.comments) == text


def test_the_model_holds_each_count_in_order() -> None:
    """Each count becomes a CountRequirement with its bounds and call; exactly n is both bounds."""
    spec = parse_spec_source(
        "require at most 3 calls of search\nrequire exactly 1 call of send_email\nrequire at most 10 calls\n"
    ).spec
    assert spec is not None
    (case,) = spec.cases
    assert case.counts == (
        CountRequirement(at_most=3, call=Expectation("search")),
        CountRequirement(at_least=1, at_most=1, call=Expectation("send_email")),
        CountRequirement(at_most=10),
    )
    assert [count_to_json(c) for c in case.counts] == [
        {"kind": "count", "at_most": 3, "call": {"tool": "search"}},
        {"kind": "count", "at_least": 1, "at_most": 1, "call": {"tool": "send_email"}},
        {"kind": "count", "at_most": 10},
    ]


def test_a_json_spec_takes_a_count_and_scores_as_its_text() -> None:
    """A JSON spec may hold a count; it validates and builds the same model as the text form."""
    document = {
        "cases": [
            {
                "name": "c",
                "require": [{"kind": "count", "at_least": 2, "at_most": 4, "call": {"tool": "search"}}],
            }
        ]
    }
    from_json = parse_spec_source(json.dumps(document), "json", name="c")
    assert from_json.diagnostics == []
    from_text = parse_spec_source('case "c" {\n    require between 2 and 4 calls of search\n}\n')
    assert from_json.spec == from_text.spec
    assert from_json.spec is not None
    assert from_json.spec.cases[0].counts[0].call is not None
    assert from_json.spec.cases[0].counts[0].call.span is not None  # placed in the JSON source


def test_a_yaml_spec_takes_a_count() -> None:
    """A YAML spec may hold a count of every call."""
    text = "cases:\n  - name: c\n    require:\n      - kind: count\n        at_most: 10\n"
    result = parse_spec_source(text, "yaml", name="c")
    assert result.diagnostics == []
    assert result.spec is not None
    assert result.spec.cases[0].counts == (CountRequirement(at_most=10),)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("require at most -1 calls\n", "V200", "must not be negative, got -1"),
        ("require at most 1.5 calls of a\n", "V202", "must be an integer"),
    ],
)
def test_a_count_that_is_no_whole_number_is_refused(text: str, code: str, words: str) -> None:
    """A negative or fractional count is a schema error at the statement."""
    result = parse_spec_source(text)
    (problem,) = result.diagnostics
    assert problem.code == code
    assert words in problem.message
    assert problem.span is not None and problem.span.line == 1


def test_a_json_count_without_bounds_is_refused() -> None:
    """A JSON count needs at_least or at_most; bounds belong to counts alone."""
    bare = {"cases": [{"name": "c", "require": [{"kind": "count"}]}]}
    (problem,) = parse_spec_source(json.dumps(bare), "json").diagnostics
    assert problem.code == "V203"
    assert "at_least" in problem.message
    wrong = {"cases": [{"name": "c", "require": [{"kind": "order", "at_most": 1}]}]}
    (problem,) = parse_spec_source(json.dumps(wrong), "json").diagnostics
    assert problem.code == "V201"
    assert '"at_most"' in problem.message


def test_a_misspelt_require_lists_the_count_forms() -> None:
    """The help of an unknown ``require`` form lists the count forms beside the others."""
    (problem,) = parse_text("require foo\n").diagnostics
    assert problem.help is not None
    assert "require at most 3 calls of TOOL" in problem.help
    assert "require between 2 and 4 calls of TOOL" in problem.help


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("require at most calls\n", "a number"),
        ("require at most 3 of search\n", '"call" or "calls"'),
        ("require between 1 2 calls\n", '"and"'),
    ],
)
def test_a_broken_count_names_what_it_expected(text: str, found: str) -> None:
    """A count missing a part is a parse error saying what was expected there."""
    result = parse_text(text)
    assert result.document is None
    (problem,) = result.diagnostics
    assert problem.code == "P100"
    assert f"expected {found}" in problem.message


def test_many_counts_in_a_case_are_not_repeats() -> None:
    """A case may hold many counts: they are not reported as a repeated requirement."""
    text = "require at most 3 calls of a\nrequire at most 3 calls of b\nrequire at most 9 calls\n"
    result = parse_spec_source(text)
    assert result.diagnostics == []


DOCS = Path(__file__).resolve().parents[2] / "docs" / "language.md"


def test_the_documented_count_forms_parse_lint_clean_and_build_the_model() -> None:
    """Every form in the documented example parses without a finding, one count each."""
    block = documented_example("### Counts and limits")
    result = parse_spec_source(block)
    assert result.diagnostics == []
    assert result.spec is not None
    assert len(result.spec.cases[0].counts) == len([line for line in block.splitlines() if line.strip()])


def test_the_documented_statement_table_forms_parse() -> None:
    """Each count form of the statement table parses with N, M and CALL filled in."""
    text = DOCS.read_text(encoding="utf-8")
    forms = [
        line.split("`")[1] for line in text.splitlines() if line.startswith("| `require ") and " N " in line
    ]
    assert len(forms) == 5
    for form in forms:
        statement = form.replace("N", "2").replace("M", "5").replace("CALL", "search(query=any)")
        parsed = parse_text(statement + "\n")
        assert parsed.diagnostics == [], statement


def test_a_count_written_with_a_fraction_of_zero_is_a_whole_number() -> None:
    """``at most 3.0 calls`` is a count of 3 (JSON Schema takes 3.0 for an integer)."""
    spec = parse_spec_source("require at most 3.0 calls of a\n").spec
    assert spec is not None
    (count,) = spec.cases[0].counts
    assert count.at_most == 3 and type(count.at_most) is int
