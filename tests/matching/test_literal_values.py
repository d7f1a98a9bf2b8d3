"""An object written to mean itself ({"$partial": 1} in a value) matches itself when recorded."""

from __future__ import annotations

import json

import pytest

from toolexpect.api import parse_spec, score

VALUES = [
    '{"$partial": 1}',
    '{"$literal": {"a": 1}}',
    '[{"$partial": {"$partial": 1}}]',
    '{"a": {"$literal": 2}}',
    '{"$literal": {"$literal": 1}}',
]


def _score(written: str, recorded: object) -> float | None:
    return score(parse_spec(f"expect t({written})"), [{"name": "t", "arguments": {"x": recorded}}]).value


@pytest.mark.parametrize("value", VALUES)
def test_an_equal_value_with_only_a_dollar_key_means_itself(value: str) -> None:
    """x={"$partial": 1} matches the recorded object {"$partial": 1}, at any depth."""
    assert _score(f"x={value}", json.loads(value)) == 1.0
    assert _score(f"x={value}", {"other": 1}) == 0.0


@pytest.mark.parametrize("value", VALUES)
def test_a_listed_value_with_only_a_dollar_key_means_itself(value: str) -> None:
    """x in [{"$partial": 1}] matches the recorded object {"$partial": 1}."""
    assert _score(f"x in [0, {value}]", json.loads(value)) == 1.0


@pytest.mark.parametrize("value", VALUES)
def test_a_member_of_a_partial_object_means_itself(value: str) -> None:
    """x={"v": {"$partial": 1}, ...} matches an object holding that member and more."""
    assert _score(f'x={{"v": {value}, ...}}', {"v": json.loads(value), "extra": 1}) == 1.0
