"""The quick validity check agrees with full validation against the published schema."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolexpect import schema

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


def _document(args: list[Any]) -> dict[str, Any]:
    return {
        "version": 1,
        "cases": [
            {
                "name": "c",
                "expect": [{"tool": "t", "args": args}],
                "forbid": [{"tool": "u", "args": args[:1]}],
            }
        ],
    }


@settings(max_examples=300, deadline=None)
@given(st.lists(_args, max_size=4))
def test_quick_check_agrees_with_the_full_validator(args: list[Any]) -> None:
    """A document passes the quick check exactly when the published schema accepts it."""
    document = _document(args)
    full = Draft202012Validator(schema.schema()).is_valid(document)
    assert schema._quickly_valid(document) == full
    assert (schema.validate(document) == []) == full
