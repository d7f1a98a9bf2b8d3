"""Validation reports problems exactly for the documents the published schema rejects."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolexpect import schema
from toolexpect.document import without_spans

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.sampled_from(["", "x", "eq", "in", "regex", "<", ">=", "approx", "absent", "partial", "any"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["a", "$partial"]), inner, max_size=2)
    ),
    max_leaves=4,
)
_keys = st.sampled_from(
    ["name", "op", "value", "values", "pattern", "tolerance", "optional", "span", "other"]
)
_args = st.dictionaries(_keys, _values, max_size=6) | st.fixed_dictionaries(
    {
        "name": st.sampled_from(["city", ""]),
        "op": st.sampled_from(["eq", "in", "regex", "approx", "absent", "any", "<"]),
    },
    optional={
        "value": _values,
        "values": _values,
        "pattern": _values,
        "tolerance": _values,
        "optional": _values,
    },
)


_requirements = st.dictionaries(
    st.sampled_from(["kind", "threshold", "span", "other"]),
    st.sampled_from(["accuracy", "order", "pass_rate", "no_tool_calls", "x"]) | _values,
    max_size=3,
) | st.fixed_dictionaries(
    {"kind": st.sampled_from(["accuracy", "pass_rate", "order", "no_unexpected_calls"])},
    optional={"threshold": st.sampled_from([0, 0.5, 1, 1.5, -1, "x", True])},
)


def _document(args: list[Any], requirements: list[Any] | None = None) -> dict[str, Any]:
    case: dict[str, Any] = {
        "name": "c",
        "expect": [{"tool": "t", "args": args}],
        "forbid": [{"tool": "u", "args": args[:1]}],
    }
    if requirements:
        case["require"] = requirements
    return {"version": 1, "cases": [case]}


@settings(max_examples=300, deadline=None)
@given(st.lists(_args, max_size=4), st.lists(_requirements, max_size=3))
def test_validation_agrees_with_the_published_schema(args: list[Any], requirements: list[Any]) -> None:
    """A document passes validation exactly when the published schema accepts it.

    With ``trusted_spans`` (spans the parser wrote) the spans are not what the user wrote, so a
    document is judged by the rest.
    """
    document = _document(args, requirements)
    published = Draft202012Validator(schema.schema())
    full = published.is_valid(document)
    without_spans_valid = published.is_valid(without_spans(document))
    assert schema.is_valid(document) == full
    assert (schema.validate(document) == []) == full
    assert (schema.validate(document, trusted_spans=True) == []) == without_spans_valid


def test_a_call_with_an_unknown_key_is_reported_after_a_valid_one() -> None:
    """Calls that share a tool but differ in their own keys are each checked."""
    good = {"version": 1, "cases": [{"name": "c", "expect": [{"tool": "t", "args": []}]}]}
    bad = {"version": 1, "cases": [{"name": "c", "expect": [{"tool": "t", "args": [], "x": 1}]}]}
    assert schema.validate(good) == []
    assert [d.code for d in schema.validate(bad)] == ["V201"]


def test_data_that_is_not_json_is_reported_not_raised() -> None:
    """A value JSON cannot hold (a YAML date, a huge integer) gives diagnostics, not an exception."""
    import datetime

    for value in (datetime.date(2026, 1, 1), 10**40):
        document = {"version": 1, "cases": [{"name": value, "expect": [{"tool": "t", "args": []}]}]}
        assert schema.validate(document) != []
