"""`lint --tools` and the matchers inside values: ``contains`` on a parameter that is neither a
list nor a string, a nested key the schema does not have, a comparison or pattern on a nested
key of the wrong type, each at the place of the matcher, with its code and a help."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolexpect.catalogue import catalogue_from_data
from toolexpect.cli import main
from toolexpect.toolcheck import check_spec

from .tools_support import spec_of

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
                        "additionalProperties": False,
                    },
                    "days": {"type": "integer", "minimum": 1, "maximum": 14},
                },
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search",
            "parameters": {
                "type": "object",
                "properties": {
                    "filter": {
                        "type": "object",
                        "properties": {
                            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                            "owner": {
                                "type": "object",
                                "properties": {"team": {"type": "string"}},
                                "additionalProperties": False,
                            },
                        },
                        "additionalProperties": False,
                    },
                    "tags": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                        },
                    },
                    "to": {"type": "array", "items": {"type": "string"}},
                    "query": {"type": "string"},
                },
                "additionalProperties": False,
            },
        },
    },
]

CASES = [
    ('expect get_weather(location={city ~ "^Ber", country: "DE", ...})', []),
    ("expect search(filter={1 <= limit <= 50, owner={team: any, ...}, ...})", []),
    ('expect search(to contains "ops@example.com", tags contains {id: 3, name ~ "^a", ...})', []),
    ('expect search(query contains "weather")', []),
    ("expect get_weather(location={not zip, ...})", []),
    ('expect get_weather(location={town ~ "^Ber", ...})', [("T501", 30, "has no key 'town'")]),
    (
        'expect search(filter={owner={team: "ops", lead ~ "x", ...}, ...})',
        [("T501", 43, "has no key 'lead'")],
    ),
    ('expect search(filter={limit ~ "^1", ...})', [("T503", 23, "`~` matches only strings")]),
    ("expect search(filter={limit >= 200, ...})", [("T502", 23, "maximum is 100")]),
    ("expect get_weather(location={city > 3, ...})", [("T503", 30, "`>` matches only numbers")]),
    ("expect get_weather(days contains 3)", [("T503", 20, "`contains` matches only lists and strings")]),
    (
        'expect get_weather(location contains "Berlin")',
        [("T503", 20, "`contains` matches only lists and strings")],
    ),
    ("expect search(query contains 3)", [("T503", 15, "is no string")]),
    ("expect search(to contains 3)", [("T502", 15, "an item of argument 'to'")]),
    ('expect search(tags contains {id: "3", ...})', [("T502", 15, "key 'id' of an item of argument 'tags'")]),
    ('expect search(filter={tags contains "x", ...})', [("T501", 23, "has no key 'tags'")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[text for text, _ in CASES])
def test_nested_matchers_are_checked_against_the_tool_schema(text: str, expected: list[Any]) -> None:
    """Each nested matcher or contains that no allowed call meets is reported at its column,
    with its code, a message naming the key, and a help; the others are not."""
    found = check_spec(spec_of(text), catalogue_from_data(TOOLS))
    assert [(d.code, d.span.column if d.span else 0) for d in found] == [(c, col) for c, col, _ in expected]
    for diagnostic, (_, _, words) in zip(found, expected, strict=True):
        assert words in diagnostic.message
        assert diagnostic.help


def test_lint_tools_reports_a_nested_key_the_schema_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the CLI: ``lint --tools`` exits 1 with the finding at the nested key's line and column."""
    catalogue = tmp_path / "tools.json"
    catalogue.write_text(json.dumps(TOOLS), encoding="utf-8")
    spec = tmp_path / "w.expect"
    spec.write_text(
        'case "c" {\n    expect get_weather(location={town ~ "^Ber", ...})\n}\n', encoding="utf-8"
    )
    assert main(["lint", "--tools", str(catalogue), "--format", "json", str(spec)]) == 1
    (finding,) = json.loads(capsys.readouterr().out)
    assert (finding["code"], finding["line"], finding["column"]) == ("T501", 2, 34)
    assert "city" in finding["help"]
