"""Properties: values round-trip through the language, format is stable, forms agree."""

from __future__ import annotations

import json
import math
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from language_support import typed

from toolexpect.document import without_spans
from toolexpect.language.format import format_document, format_value
from toolexpect.language.parse import parse_text
from toolexpect.model import from_document
from toolexpect.specfiles.stages import parse_spec_source

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


_strip = without_spans


def _doc(value: Any) -> Any:
    """A plain JSON value in the document's form: an object spelt like a wrapper is escaped."""
    if isinstance(value, list):
        return [_doc(v) for v in value]
    if isinstance(value, dict):
        inner = {k: _doc(v) for k, v in value.items()}
        if len(value) == 1 and next(iter(value)) in ("$partial", "$literal"):
            return {"$literal": inner}
        return inner
    return value


def _unwrap_literal(node: Any) -> Any:
    if isinstance(node, dict):
        if len(node) == 1 and "$literal" in node and isinstance(node["$literal"], dict):
            return {k: _unwrap_literal(v) for k, v in node["$literal"].items()}
        return {k: _unwrap_literal(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_unwrap_literal(v) for v in node]
    return node


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([0.0, -0.0, 1e308, -1e-308, 5e-324, 1e16, 1.5e300])
    | st.text()
    | st.sampled_from(['"', "\\", "'", "\x00\x1f\x7f", "\u2028", "\ud7ff\ue000", "#", "\n\r\t"])
)
keys = st.text(max_size=8) | st.sampled_from(["$partial", "$literal", "not", "a-b", "..."])
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=12,
)


@SETTINGS
@given(json_values)
def test_json_value_round_trips_as_literal(value: Any) -> None:
    """format_value writes any JSON value so that parsing gives it back, types included."""
    result = parse_text(f"expect t(x={format_value(_doc(value))})", "s")
    assert result.diagnostics == []
    assert result.document is not None
    (arg,) = result.document["cases"][0]["expect"][0]["args"]
    assert arg["op"] == "eq"
    assert typed(_unwrap_literal(arg["value"])) == typed(value)


small_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=4,
)
DOCUMENT_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True) | st.sampled_from(
    [
        "github.create_issue",
        "mcp__fs__read",
        "a/b:c-d",
        "order",
        "in",
        "not",
        "any",
        "then",
        "weird name",
        "é",
    ]
)
finite = st.integers(-1000, 1000) | st.floats(-1e6, 1e6, allow_nan=False)
fraction = st.sampled_from([0, 1, 0.5, 0.75, 0.0, 1.0])


@st.composite
def args(draw: st.DrawFn) -> dict[str, Any]:
    name = draw(names)
    kind = draw(st.sampled_from(["eq", "ne", "any", "in", "regex", "cmp", "approx", "absent", "partial"]))
    arg: dict[str, Any] = {"name": name}
    if kind in ("eq", "ne"):
        arg |= {"op": kind, "value": _doc(draw(small_values))}
    elif kind == "any":
        arg |= {"op": "any"}
    elif kind == "in":
        arg |= {"op": "in", "values": _doc(draw(st.lists(small_values, min_size=1, max_size=2)))}
    elif kind == "regex":
        arg |= {"op": "regex", "pattern": draw(st.sampled_from(["^a", "(?i)x|y", "\\d+", ""]))}
    elif kind == "cmp":
        arg |= {"op": draw(st.sampled_from(["<", "<=", ">", ">="])), "value": draw(finite)}
    elif kind == "approx":
        arg |= {"op": "approx", "value": draw(finite), "tolerance": abs(draw(finite))}
    elif kind == "absent":
        return {"name": name, "op": "absent"}
    else:
        inner = draw(
            st.dictionaries(
                keys.filter(lambda k: k not in ("$partial", "$literal")), small_values, max_size=2
            )
        )
        arg |= {"op": "partial", "value": {"$partial": _doc(inner)}}
    if draw(st.booleans()):
        arg["optional"] = True
    return arg


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    call: dict[str, Any] = {"tool": draw(names)}
    found = draw(st.lists(args(), max_size=3, unique_by=lambda a: a["name"]))
    if found:
        call["args"] = found
    return call


@st.composite
def cases(draw: st.DrawFn, name: str) -> dict[str, Any]:
    case: dict[str, Any] = {"name": name}
    if draw(st.booleans()):
        case["question"] = draw(st.text(max_size=20))
    expect = draw(st.lists(calls(), max_size=4))
    if expect:
        case["expect"] = expect
        if len(expect) >= 2 and draw(st.booleans()):
            case["chains"] = [[0, 1]]
    forbid = draw(st.lists(calls(), max_size=2))
    if forbid:
        case["forbid"] = forbid
    kinds = draw(
        st.lists(st.sampled_from(["accuracy", "pass_rate", "no_unexpected_calls", "order"]), unique=True)
    )
    require = [
        {"kind": k, "threshold": draw(fraction)} if k in ("accuracy", "pass_rate") else {"kind": k}
        for k in kinds
    ]
    for req in require:
        if "threshold" in req and draw(st.booleans()):
            req["op"] = ">"
    if not expect and not forbid:
        require.append({"kind": "no_tool_calls"})
    if require:
        case["require"] = require
    return case


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    names_ = draw(st.lists(st.text(min_size=1, max_size=10), max_size=3, unique=True))
    return {"version": 1, "cases": [draw(cases(n)) for n in names_]}


@DOCUMENT_SETTINGS
@given(documents())
def test_format_round_trips_and_is_idempotent(document: dict[str, Any]) -> None:
    """Formatting a document gives text that parses back to it; formatting that again changes nothing."""
    text = format_document(document)
    parsed = parse_text(text, "s")
    assert parsed.diagnostics == []
    assert parsed.document is not None
    assert typed(_strip(parsed.document)) == typed(document)
    assert format_document(parsed.document, parsed.comments) == text


@DOCUMENT_SETTINGS
@given(documents())
def test_text_json_and_yaml_forms_give_the_same_model(document: dict[str, Any]) -> None:
    """A spec as text, as JSON and as YAML builds one and the same model."""
    text = format_document(document)
    from_text = parse_spec_source(text, "text", name="s")
    from_json = parse_spec_source(json.dumps(document), "json", name="s")
    from_yaml = parse_spec_source(yaml.safe_dump(document), "yaml", name="s")
    assert from_text.document is not None, from_text.diagnostics
    assert from_json.document is not None, from_json.diagnostics
    assert from_yaml.document is not None, from_yaml.diagnostics
    model = from_document(from_text.document)
    assert from_document(from_json.document) == model
    assert from_document(from_yaml.document) == model
    assert from_json.spec == model or not from_json.ok


@SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_literal_keeps_its_value(number: float) -> None:
    """Any finite float is written so that it parses back bit for bit, as a float."""
    result = parse_text(f"expect t(x={format_value(number)})", "s")
    assert result.document is not None
    value = result.document["cases"][0]["expect"][0]["args"][0]["value"]
    assert isinstance(value, float)
    assert math.copysign(1.0, value) == math.copysign(1.0, number)
    assert value == number
