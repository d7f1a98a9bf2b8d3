"""``allow CALL`` through parse, schema, model, format and lint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from language_support import documented_example

from toolexpect.document import without_spans
from toolexpect.language.format import format_document
from toolexpect.language.parse import parse_text
from toolexpect.model import ArgMatcher, Expectation, Op, expectation_to_json
from toolexpect.specfiles.stages import parse_spec_source

ALLOWS = Path(__file__).resolve().parents[1] / "cases" / "syntax" / "allow.json"


def _cases() -> list[Any]:
    return [pytest.param(c, id=c["description"]) for c in json.loads(ALLOWS.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("case", _cases())
def test_an_allow_formats_to_its_canonical_text(case: dict[str, Any]) -> None:
    """An allow formats to its golden canonical text, which formats to itself, keeps its
    comments and parses back to the same document."""
    parsed = parse_text(case["spec"], "spec")
    assert parsed.document is not None
    text = format_document(parsed.document, parsed.comments)
    assert text == case["formatted"]
    again = parse_text(text, "spec")
    assert again.document is not None and again.diagnostics == []
    assert without_spans(again.document) == case["document"]
    assert sorted(c.text for c in again.comments) == sorted(c.text for c in parsed.comments)
    assert format_document(again.document, again.comments) == text


def test_the_model_holds_each_allow_in_order() -> None:
    """Each allow becomes an Expectation of Case.allows, in the order written, apart from the
    expectations and forbids."""
    spec = parse_spec_source('expect search\nallow list_files\nallow think(mode="fast")\nforbid drop\n').spec
    assert spec is not None
    (case,) = spec.cases
    assert case.allows == (
        Expectation("list_files"),
        Expectation("think", (ArgMatcher("mode", Op.EQ, value="fast"),)),
    )
    assert case.expectations == (Expectation("search"),)
    assert case.forbids == (Expectation("drop"),)
    assert [expectation_to_json(a) for a in case.allows] == [
        {"tool": "list_files"},
        {"tool": "think", "args": [{"name": "mode", "op": "eq", "value": "fast"}]},
    ]


def test_a_case_without_allow_has_no_allow_key() -> None:
    """The document of a case without allow holds no ``allow`` key, as before allow existed."""
    parsed = parse_text("expect search\nforbid drop\n", "spec")
    assert parsed.document is not None
    assert "allow" not in parsed.document["cases"][0]


def test_a_json_spec_takes_allow_and_builds_the_model_of_its_text() -> None:
    """A JSON spec may hold ``allow``; it validates, its calls are placed in the JSON source, and
    it builds the same model as the text form."""
    document = {
        "cases": [
            {
                "name": "c",
                "expect": [{"tool": "search"}],
                "allow": [{"tool": "think", "args": [{"name": "mode", "op": "eq", "value": "fast"}]}],
            }
        ]
    }
    from_json = parse_spec_source(json.dumps(document, indent=2), "json", name="c")
    assert from_json.diagnostics == []
    from_text = parse_spec_source('case "c" {\n    expect search\n    allow think(mode="fast")\n}\n')
    assert from_json.spec == from_text.spec
    assert from_json.spec is not None
    (allowed,) = from_json.spec.cases[0].allows
    assert allowed.span is not None and allowed.span.line > 1
    assert allowed.args[0].span is not None


def test_a_yaml_spec_takes_allow() -> None:
    """A YAML spec may hold ``allow`` beside ``require no unexpected calls``."""
    text = (
        "cases:\n  - name: c\n    allow:\n      - tool: list_files\n"
        "    require:\n      - kind: no_unexpected_calls\n"
    )
    result = parse_spec_source(text, "yaml", name="c")
    assert result.diagnostics == []
    assert result.spec is not None
    assert result.spec.cases[0].allows == (Expectation("list_files"),)


def test_format_of_a_document_without_spans_writes_allow_after_forbid() -> None:
    """A document without spans is written expect, forbid, allow, then require."""
    document = {
        "cases": [
            {
                "name": "c",
                "require": [{"kind": "no_unexpected_calls"}],
                "allow": [{"tool": "think"}],
                "forbid": [{"tool": "drop"}],
                "expect": [{"tool": "search"}],
            }
        ]
    }
    text = format_document(document, [])
    assert text.splitlines() == [
        'case "c" {',
        "    expect search",
        "    forbid drop",
        "    allow think",
        "    require no unexpected calls",
        "}",
    ]


@pytest.mark.parametrize(
    ("node", "code", "words"),
    [
        ({"allow": [{"args": []}]}, "V203", '"tool"'),
        ({"allow": {"tool": "think"}}, "V202", "array"),
        ({"allow": [{"tool": "think", "op": "eq"}]}, "V201", '"op"'),
    ],
)
def test_a_malformed_json_allow_is_a_schema_error(node: dict[str, Any], code: str, words: str) -> None:
    """An allow that is not a list of calls is refused by the schema, with a code and a help."""
    document = {"cases": [{"name": "c", "expect": [{"tool": "search"}], **node}]}
    (problem,) = parse_spec_source(json.dumps(document), "json", name="c").diagnostics
    assert problem.code == code
    assert words in problem.message
    assert problem.help


def test_allow_without_a_call_names_what_it_expected() -> None:
    """``allow`` alone is a parse error that says a tool name must follow."""
    result = parse_text("allow\n")
    assert result.document is None
    (problem,) = result.diagnostics
    assert problem.code == "P100"
    assert problem.message == "expected a name or a string, found end of line"
    assert problem.span is not None and problem.span.column == 6


def test_a_keyword_glued_to_allow_is_an_error_with_a_suggestion() -> None:
    """``allowlist_files`` is no statement: a parse error suggesting ``allow list_files``."""
    (problem,) = parse_text("allowlist_files\n").diagnostics
    assert problem.code == "P100"
    assert problem.help == 'did you mean "allow list_files"?'


def test_the_arguments_of_an_allow_are_linted_as_any_call() -> None:
    """An allow's arguments get the checks of any call: a repeated argument, a bad pattern."""
    text = 'expect g\nallow think(a=1, a=2)\nallow f(q ~ "(")\n'
    codes = [d.code for d in parse_spec_source(text).diagnostics]
    assert codes == ["L301", "L302"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "expect read\nallow list_files\nforbid list_files\n",
            "allow list_files is also forbidden at line 3: forbid wins, so the allow lets no call pass",
        ),
        (
            'expect read\nallow think(mode="fast")\nforbid think\n',
            'forbid think at line 3 matches every call that allow think(mode="fast") matches: '
            "forbid wins, so the allow lets no call pass",
        ),
    ],
)
def test_an_allow_a_forbid_makes_void_is_l315(text: str, message: str) -> None:
    """An allow and a forbid of the same call, or a forbid covering the allow, is the error L315
    at the allow, with a help."""
    (problem,) = parse_spec_source(text).diagnostics
    assert (problem.code, problem.message) == ("L315", message)
    assert problem.span is not None and problem.span.line == 2
    assert problem.help


@pytest.mark.parametrize(
    "text",
    [
        'expect read\nallow think\nforbid think(mode="slow")\n',  # allow all thinking but the slow
        "expect think\nallow think\n",  # one think expected, more allowed
        "expect read\nallow think\nforbid other\n",
    ],
)
def test_an_allow_a_forbid_leaves_room_for_is_clean(text: str) -> None:
    """An allow broader than a forbid of its tool, beside an expect of its tool, or beside a
    forbid of another tool is no finding."""
    assert parse_spec_source(text).diagnostics == []


def test_a_case_of_allows_alone_checks_nothing() -> None:
    """A case holding only allow statements checks nothing: L303, as a case without statements."""
    (problem,) = parse_spec_source('case "c" {\n    allow list_files\n}\n').diagnostics
    assert problem.code == "L303"


def test_the_documented_allow_example_parses_lint_clean_and_builds_the_model() -> None:
    """The example of the documentation's section on allow parses without a finding."""
    block = documented_example("### Allowed calls")
    result = parse_spec_source(block)
    assert result.diagnostics == []
    assert result.spec is not None
    assert any(case.allows for case in result.spec.cases)


def test_a_case_of_allows_alone_says_what_to_add() -> None:
    """The help of L303 for a case of allows says that an allow only lets calls pass."""
    (problem,) = parse_spec_source("allow list_files\nallow think\n").diagnostics
    assert problem.code == "L303"
    assert problem.help is not None and problem.help.startswith("an allow only lets calls pass")
