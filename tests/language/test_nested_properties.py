"""Properties of matchers inside values and ``contains``: ``format`` of any spec holding them
is idempotent and parses back to the same document, and its JSON form builds the same model;
a plain nested value matches exactly as before."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from language_support import typed

from toolexpect.document import without_spans
from toolexpect.language.format import format_document
from toolexpect.language.parse import parse_text
from toolexpect.matching.values import compile_pattern, matches_pattern, nested_key
from toolexpect.model import PartialObject, from_document, pattern_from_json
from toolexpect.specfiles.stages import parse_spec_source

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MARKS = ("$partial", "$literal", "$match")

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-1000, 1000)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.sampled_from([0.0, -0.0, 5, 5.0])
    | st.text(max_size=5)
)
# "span" and "question_span" are left out: the document's own keys for places.
keys = st.text(max_size=6).filter(lambda k: k not in ("span", "question_span")) | st.sampled_from(
    ["not", "contains", "a-b", "$match", "in", "any"]
)
finite = st.integers(-100, 100) | st.floats(-1e6, 1e6, allow_nan=False)


def _plain(value: Any) -> Any:
    """A plain value in the document's form: an object spelt like a mark is taken literally."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        inner = {k: _plain(v) for k, v in value.items()}
        return {"$literal": inner} if len(inner) == 1 and next(iter(inner)) in MARKS else inner
    return value


plain_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=5,
)


def _matchers(draw: st.DrawFn, pattern: st.SearchStrategy[Any]) -> list[dict[str, Any]]:
    """The ``$match`` list of one key, as the parser writes it."""
    optional = {"optional": True} if draw(st.booleans()) else {}
    kind = draw(st.sampled_from(["conditions", "range", "any", "in", "approx", "absent", "eq"]))
    if kind == "any":
        return [{"op": "any", **optional}]
    if kind == "in":
        return [
            {"op": "in", "values": _plain(draw(st.lists(plain_values, min_size=1, max_size=2))), **optional}
        ]
    if kind == "approx":
        return [{"op": "approx", "value": draw(finite), "tolerance": abs(draw(finite)), **optional}]
    if kind == "absent":
        return [{"op": "absent"}]
    if kind == "eq":  # `key?: value`; without ? it is `key: value`, a plain entry
        value = draw(pattern)
        return [{"op": "partial" if _holds(value) else "eq", "value": value, "optional": True}]
    if kind == "range":
        low, high = sorted([draw(finite), draw(finite)])
        return [
            {"op": draw(st.sampled_from([">=", ">"])), "value": low, **optional},
            {"op": draw(st.sampled_from(["<=", "<"])), "value": high, **optional},
        ]
    found: list[dict[str, Any]] = []
    for op in draw(st.lists(st.sampled_from(["regex", "<", ">=", "ne", "contains"]), min_size=1, max_size=3)):
        if op == "regex":
            found.append(
                {"op": "regex", "pattern": draw(st.sampled_from(["^a", "\\d+", "x|y", ""])), **optional}
            )
        elif op in ("ne", "contains"):
            found.append({"op": op, "value": draw(pattern), **optional})
        else:
            found.append({"op": op, "value": draw(finite), **optional})
    return found


def _holds(value: Any) -> bool:
    """True when a document value holds a partial object or a key's matchers (not literally)."""
    if isinstance(value, list):
        return any(_holds(v) for v in value)
    if isinstance(value, dict):
        if len(value) == 1 and "$literal" in value:
            return False
        if len(value) == 1 and ("$partial" in value or isinstance(value.get("$match"), list)):
            return True
        return any(_holds(v) for v in value.values())
    return False


@st.composite
def patterns(draw: st.DrawFn, depth: int = 0) -> Any:
    """A document value that may hold partial objects and keys' matchers (``$match``)."""
    if depth >= 2 or draw(st.integers(0, 3)) == 0:
        return _plain(draw(plain_values))
    inner = patterns(depth + 1)
    if draw(st.booleans()):
        return draw(st.lists(inner, max_size=2))
    entries: dict[str, Any] = {}
    for key in draw(st.lists(keys, max_size=3, unique=True)):
        entries[key] = {"$match": _matchers(draw, inner)} if draw(st.booleans()) else draw(inner)
    if draw(st.booleans()):
        return {"$partial": entries}
    if len(entries) == 1:
        ((key, entry),) = entries.items()
        matched = isinstance(entry, dict) and isinstance(entry.get("$match"), list)
        if key in ("$partial", "$literal") or (key == "$match" and not matched):
            return {"$literal": {key: _plain(draw(plain_values))}}
    return entries


@st.composite
def arguments(draw: st.DrawFn, name: str) -> dict[str, Any]:
    kind = draw(st.sampled_from(["value", "value", "contains", "ne"]))
    value = draw(patterns())
    if kind == "contains":
        arg: dict[str, Any] = {"name": name, "op": "contains", "value": value}
    elif kind == "ne":
        arg = {"name": name, "op": "ne", "value": value}
    else:
        arg = {"name": name, "op": "partial" if _holds(value) else "eq", "value": value}
    if draw(st.booleans()):
        arg["optional"] = True
    return arg


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(
        st.lists(st.sampled_from(["to", "meta", "filter", "tags"]), min_size=1, max_size=3, unique=True)
    )
    args = [draw(arguments(n)) for n in names]
    if draw(st.booleans()):  # several contains on one argument
        args.append({"name": names[0], "op": "contains", "value": draw(patterns())})
        args[0] = {"name": names[0], "op": "contains", "value": draw(patterns())}
    case: dict[str, Any] = {"name": "c", "expect": [{"tool": "t", "args": args}]}
    if draw(st.booleans()):
        case["forbid"] = [{"tool": "t", "args": [draw(arguments("x"))]}]
    return {"version": 1, "cases": [case]}


@SETTINGS
@given(documents())
def test_format_of_nested_matchers_round_trips_and_is_idempotent(document: dict[str, Any]) -> None:
    """The text ``format`` writes of a document with matchers inside values and contains parses
    back to that document; formatting it again changes nothing; its JSON form builds the model
    the text builds."""
    text = format_document(document)
    parsed = parse_text(text, "s")
    assert parsed.diagnostics == [], text
    assert parsed.document is not None
    assert typed(without_spans(parsed.document)) == typed(document)
    assert format_document(parsed.document, parsed.comments) == text
    from_text = parse_spec_source(text)
    from_json = parse_spec_source(json.dumps(document), "json")
    assert from_json.diagnostics == [] or {d.code for d in from_json.diagnostics} <= {"L307", "L301", "L302"}
    assert from_document(from_json.document or {}) == from_document(parsed.document)
    assert from_text.document is not None


@SETTINGS
@given(plain_values, plain_values)
def test_a_plain_nested_value_matches_exactly_as_before(expected: Any, actual: Any) -> None:
    """A plain value (no ``...``, no matcher) matches by the strict nested rule, whether tested
    by the compiled test, the stack walk, or as a partial object of the same keys: exactly when
    the two values are strictly equal, as their keys say."""
    pattern = pattern_from_json(_plain(expected))
    strict = nested_key(expected) == nested_key(actual)
    assert compile_pattern(pattern)(actual) is strict
    assert matches_pattern(pattern, actual) is strict
    assert compile_pattern(pattern)(expected) is (nested_key(expected) == nested_key(expected))
    if isinstance(expected, dict):
        partial = PartialObject({k: pattern_from_json(_plain(v)) for k, v in expected.items()})
        holds = isinstance(actual, dict) and all(
            k in actual and nested_key(v) == nested_key(actual[k]) for k, v in expected.items()
        )
        assert compile_pattern(partial)(actual) is holds
