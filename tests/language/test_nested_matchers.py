"""Matchers inside values (``location={city ~ "^Ber", ...}``) and ``contains``: parse, document,
schema, model and format, through text, JSON and YAML specs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolexpect.document import without_spans
from toolexpect.language.format import format_document
from toolexpect.language.parse import parse_text
from toolexpect.model import ArgMatcher, KeyMatch, Op, PartialObject, pattern_to_json
from toolexpect.specfiles.stages import parse_spec_source

NESTED = Path(__file__).resolve().parents[1] / "cases" / "syntax" / "nested.json"


def _cases() -> list[Any]:
    return [pytest.param(c, id=c["description"]) for c in json.loads(NESTED.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("case", _cases())
def test_a_nested_matcher_formats_to_its_canonical_text(case: dict[str, Any]) -> None:
    """Each form formats to its golden canonical text, which formats to itself and parses back
    to the same document."""
    parsed = parse_text(case["spec"], "spec")
    assert parsed.document is not None and parsed.diagnostics == []
    text = format_document(parsed.document, parsed.comments)
    assert text == case["formatted"]
    again = parse_text(text, "spec")
    assert again.document is not None and again.diagnostics == []
    assert without_spans(again.document) == case["document"]
    assert format_document(again.document, again.comments) == text


@pytest.mark.parametrize("case", _cases())
def test_the_document_of_a_nested_matcher_builds_the_model_from_json(case: dict[str, Any]) -> None:
    """The canonical document, written as a JSON spec, validates and builds the model of the text."""
    from_text = parse_spec_source(case["spec"])
    from_json = parse_spec_source(json.dumps(case["document"]), "json")
    assert from_text.diagnostics == [] and from_json.diagnostics == []
    assert from_json.spec == from_text.spec


def test_the_model_holds_a_key_s_matchers_named_after_the_key() -> None:
    """``city ~ "^Ber"`` inside ``location=`` is a KeyMatch of an ArgMatcher named ``city``;
    a range is two; a plain key keeps its value."""
    spec = parse_spec_source('expect f(location={city ~ "^Ber", country: "DE", 1 <= n <= 5, ...})').spec
    assert spec is not None
    (arg,) = spec.cases[0].expectations[0].args
    assert arg.op is Op.PARTIAL
    assert arg.value == PartialObject(
        {
            "city": KeyMatch((ArgMatcher("city", Op.REGEX, pattern="^Ber"),)),
            "country": "DE",
            "n": KeyMatch((ArgMatcher("n", Op.GE, value=1), ArgMatcher("n", Op.LE, value=5))),
        }
    )
    assert pattern_to_json(arg.value) == {
        "$partial": {
            "city": {"$match": [{"op": "regex", "pattern": "^Ber"}]},
            "country": "DE",
            "n": {"$match": [{"op": ">=", "value": 1}, {"op": "<=", "value": 5}]},
        }
    }


def test_a_yaml_spec_writes_a_key_s_matchers() -> None:
    """A YAML spec may write ``$match`` under a key and ``contains`` on an argument; the
    matchers get their places in the YAML source."""
    text = (
        "cases:\n"
        "  - name: c\n"
        "    expect:\n"
        "      - tool: send_email\n"
        "        args:\n"
        "          - {name: to, op: contains, value: ops@example.com}\n"
        "          - name: meta\n"
        "            op: partial\n"
        "            value:\n"
        "              $partial:\n"
        "                priority:\n"
        "                  $match: [{op: '>=', value: 2}]\n"
    )
    result = parse_spec_source(text, "yaml", name="c")
    assert result.diagnostics == []
    assert (
        result.spec
        == parse_spec_source(
            'case "c" { expect send_email(to contains "ops@example.com", meta={priority >= 2, ...}) }'
        ).spec
    )
    assert result.spec is not None
    meta = result.spec.cases[0].expectations[0].args[1].value
    assert isinstance(meta, PartialObject)
    priority = meta.entries["priority"]
    assert isinstance(priority, KeyMatch)
    assert priority.matchers[0].span is not None and priority.matchers[0].span.line == 12


def test_a_json_spec_may_write_eq_for_a_value_with_matchers() -> None:
    """``"op": "eq"`` with a value holding ``$match`` is the same pattern as ``partial``."""
    document = {
        "cases": [
            {
                "name": "c",
                "expect": [
                    {
                        "tool": "f",
                        "args": [
                            {"name": "x", "op": "eq", "value": {"a": {"$match": [{"op": ">", "value": 1}]}}}
                        ],
                    }
                ],
            }
        ]
    }
    result = parse_spec_source(json.dumps(document), "json")
    assert result.diagnostics == []
    assert result.spec == parse_spec_source('case "c" { expect f(x={a > 1}) }').spec


@pytest.mark.parametrize(
    ("value", "code", "words"),
    [
        ({"a": {"$match": []}}, "V200", "should be non-empty"),
        ({"a": {"$match": [{"op": "regex"}]}}, "V203", 'is missing "pattern"'),
        ({"a": {"$match": [{"op": "sounds-like", "value": 1}]}}, "V200", "must be one of"),
        ({"a": {"$match": [{"op": ">", "value": "x"}]}}, "V202", "must be a number"),
        ({"$match": [{"op": "any"}]}, "V200", "stands only as the value of an object's key"),
        ({"a": {"$match": [{"op": "any", "name": "a"}]}}, "V201", '"name"'),
    ],
)
def test_a_malformed_match_list_is_a_schema_error(value: Any, code: str, words: str) -> None:
    """A ``$match`` list must hold matchers, each as an argument's without its name, and
    stand under a key."""
    document = {
        "cases": [
            {"name": "c", "expect": [{"tool": "f", "args": [{"name": "x", "op": "partial", "value": value}]}]}
        ]
    }
    problems = parse_spec_source(json.dumps(document, indent=1), "json").diagnostics
    assert problems, value
    assert problems[0].code == code, problems
    assert words in problems[0].message, problems[0].message
    assert problems[0].span is not None and problems[0].span.line > 1


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('expect f(x in [{a ~ "b"}])', "P100", 'can only stand after "=", "!=" or "contains"'),
        ("expect f(x={a: 1, a > 2})", "L309", 'key "a" is written twice'),
        ("expect f(x={a = any, a > 2})", "L309", 'key "a" is written twice'),
        ("expect f(x={a? > 1, a < 2})", "L309", 'key "a" is written twice'),
        ("expect f(x={5 < a < 3, ...})", "L307", 'key "x.a" can never match'),
        ('expect f(x={y={b ~ "(x"}})', "L302", 'of key "x.y.b" is not a valid RE2'),
        ("expect f(to contains 1, to contains 2, to=any)", "L301", 'argument "to" is given twice'),
    ],
)
def test_nested_matchers_that_cannot_be_meant_are_reported(text: str, code: str, words: str) -> None:
    """A matcher in a list of choices, a key given twice, a nested range no number meets, a bad
    nested pattern, and contains beside = on one argument are each reported at their place."""
    problems = parse_spec_source(text).diagnostics
    assert [p.code for p in problems][:1] == [code], problems
    assert words in problems[0].message
    assert problems[0].span is not None and problems[0].span.line == 1
    assert problems[0].help


def test_conditions_and_contains_on_one_key_are_no_repeat() -> None:
    """Conditions on one key join one list (``limit >= 1, limit != 7``), contains too, and no
    diagnostic is reported."""
    result = parse_spec_source('expect f(x={tags contains "a", tags contains "b", 1 <= n < 9, n != 3})')
    assert result.diagnostics == []
    assert result.spec is not None
    value = result.spec.cases[0].expectations[0].args[0].value
    assert isinstance(value, dict)
    assert [m.op for m in value["tags"].matchers] == [Op.CONTAINS, Op.CONTAINS]  # type: ignore[union-attr]
    assert [m.op for m in value["n"].matchers] == [Op.GE, Op.LT, Op.NE]  # type: ignore[union-attr]


def test_a_comment_inside_an_object_with_matchers_is_kept() -> None:
    """A comment written inside an object of matchers is kept by format, which is idempotent."""
    text = 'expect f(\n    x={a ~ "b",  # the pattern\n       n > 1},\n)\n'
    parsed = parse_text(text, "s")
    assert parsed.document is not None
    out = format_document(parsed.document, parsed.comments)
    assert "# the pattern" in out
    again = parse_text(out, "s")
    assert again.document is not None
    assert without_spans(again.document) == without_spans(parsed.document)
    assert format_document(again.document, again.comments) == out


def test_not_and_contains_stay_names_elsewhere() -> None:
    """``contains`` is a word only after an argument or key: a tool, argument or key may be
    called ``contains``; a key ``not`` written bare is still a key."""
    result = parse_spec_source("expect contains(contains=1, x={contains: 2, not: 3})")
    assert result.diagnostics == []
    assert result.spec is not None
    (expectation,) = result.spec.cases[0].expectations
    assert expectation.tool == "contains"
    assert expectation.args[1].value == {"contains": 2, "not": 3}


def test_a_match_error_is_reported_beside_other_schema_errors() -> None:
    """A ``$match`` list that breaks the schema is reported with the document's other schema
    errors (a threshold out of range), each at its place."""
    document = {
        "cases": [
            {
                "name": "c",
                "expect": [
                    {"tool": "f", "args": [{"name": "x", "op": "partial", "value": {"a": {"$match": []}}}]}
                ],
                "require": [{"kind": "accuracy", "threshold": 2}],
            }
        ]
    }
    problems = parse_spec_source(json.dumps(document, indent=1), "json").diagnostics
    assert sorted(p.code for p in problems) == ["V200", "V204"]


def test_a_long_plain_value_beside_a_schema_error_gives_only_that_error() -> None:
    """Only the threshold is wrong: that error is found and worded, and a long plain value in
    the same spec (which the check of values outside arguments' values leaves aside) raises
    nothing of its own."""
    values = ", ".join(f"{{a: {i}, b: [{i}]}}" for i in range(2000))
    problems = parse_spec_source(f"expect f(x=[{values}])\nrequire accuracy >= 2\n").diagnostics
    assert [p.code for p in problems] == ["V204"]
