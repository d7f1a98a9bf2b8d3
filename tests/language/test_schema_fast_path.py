"""The quick validity check agrees with full validation against the published schema."""

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
def test_quick_check_agrees_with_the_full_validator(args: list[Any], requirements: list[Any]) -> None:
    """A document passes the quick check exactly when the published schema accepts it.

    Both ways of the quick check: with ``jsonschema_rs`` when it is installed, and with the
    schema cut into document, call and argument checked with ``jsonschema`` alone.
    """
    document = _document(args, requirements)
    full = Draft202012Validator(schema.schema()).is_valid(document)
    without_spans_valid = Draft202012Validator(schema.schema()).is_valid(without_spans(document))
    for fast in (False, True):
        schema.FAST = fast
        try:
            assert schema._quickly_valid(document) == full
            assert (schema.validate(document) == []) == full
            assert schema._quickly_valid(document, trusted_spans=True) == without_spans_valid
            assert (schema.validate(document, trusted_spans=True) == []) == without_spans_valid
        finally:
            schema.FAST = True


def test_the_fast_extra_is_used_exactly_when_it_is_installed() -> None:
    """``jsonschema_rs`` checks valid documents when it can be imported, and only then."""
    try:
        import jsonschema_rs  # noqa: F401
    except ImportError:
        assert schema._native(False) is None
    else:
        assert schema._native(False) is not None
        assert schema._native(False).is_valid({"version": 1, "cases": []})


def test_a_cached_call_does_not_vouch_for_a_call_with_other_keys() -> None:
    """Calls that share a tool but differ in their own keys are each checked (pure path)."""
    schema.FAST = False
    try:
        good = {"version": 1, "cases": [{"name": "c", "expect": [{"tool": "t", "args": []}]}]}
        bad = {"version": 1, "cases": [{"name": "c", "expect": [{"tool": "t", "args": [], "x": 1}]}]}
        assert schema._quickly_valid(good)
        assert not schema._quickly_valid(bad)
        assert schema.validate(bad) != []
    finally:
        schema.FAST = True
