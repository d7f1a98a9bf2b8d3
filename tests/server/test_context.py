"""Where the cursor stands in unfinished text, for completion and hover (``|`` marks it)."""

from __future__ import annotations

import pytest

from toolexpect.server.context import Place, place_at

W = "get_weather"


def given(*names: str) -> frozenset[str]:
    return frozenset(names)


CASES = [
    ("|", Place("statement")),
    ("exp|", Place("statement", "exp")),
    ('case "c" {\n    |', Place("statement", in_case=True)),
    ('case "c" { expect a; |', Place("statement", in_case=True)),
    ('case "c" {\n}\n|', Place("statement")),
    ("require |", Place("after-require")),
    ("require acc|", Place("after-require", "acc")),
    ("require accuracy |", Place("after-require", written=("accuracy",))),
    ("require no un|", Place("after-require", "un", written=("no",))),
    ("require pass rate >|", Place("after-require", written=("pass", "rate", ">"))),
    ('case "c" {\n  require order;\n  require |', Place("after-require", in_case=True)),
    ("expect |", Place("tool")),
    ("forbid get_w|", Place("tool", "get_w")),
    ("expect github.|", Place("tool", "github.")),
    ("expect a(x=1) then |", Place("tool")),
    ("expect a(x=1) then\n       b|", Place("tool", "b")),
    ("expect get_weather(|", Place("argument", tool=W)),
    ('expect get_weather(city="Berlin", u|', Place("argument", "u", W, given=given("city"))),
    ("expect get_weather(\n    city=any,\n    |", Place("argument", tool=W, given=given("city"))),
    ("expect get_weather(not |", Place("argument", tool=W)),
    ("expect get_weather(not unit, |", Place("argument", tool=W, given=given("unit"))),
    ('expect "odd tool"(|', Place("argument", tool="odd tool")),
    ("expect get_weather(city |", Place("matcher", tool=W, argument="city", given=given("city"))),
    ("expect get_weather(city? |", Place("matcher", tool=W, argument="city", given=given("city"))),
    ("expect get_weather(unit=|", Place("value", tool=W, argument="unit", given=given("unit"))),
    ("expect get_weather(unit?=|", Place("value", tool=W, argument="unit", given=given("unit"))),
    ('expect get_weather(city="Ber|', Place("nowhere")),
    ("expect get_weather(meta={|", Place("nowhere")),
    ("expect get_weather(x=[1, |", Place("nowhere")),
    ("# expect |", Place("statement")),
    ('question "a (" \nexpect |', Place("tool")),
    ("expect a # (\nexpect |", Place("tool")),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[text for text, _ in CASES])
def test_the_place_of_the_cursor(text: str, expected: Place) -> None:
    """Brackets, strings and comments before the cursor are followed; names already typed are
    the prefix to complete."""
    assert place_at(text.replace("|", ""), text.index("|")) == expected
