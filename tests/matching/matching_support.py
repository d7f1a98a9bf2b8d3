"""Helpers for the matcher tests: cases from spec text, calls from JSON, hypothesis strategies."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from toolexpect.calls import ToolCall
from toolexpect.language.parse import parse_text
from toolexpect.model import ArgMatcher, Case, Expectation, Op, PartialObject, from_document


def case_of(text: str, name: str = "spec") -> Case:
    """The first case of a spec text (fails the test on a parse error)."""
    result = parse_text(text, name)
    assert result.document is not None, result.diagnostics
    return from_document(result.document).cases[0]


def calls_of(raw: list[dict[str, Any]] | None) -> list[ToolCall] | None:
    """Tool calls from their canonical JSON form (``None`` stays ``None``)."""
    if raw is None:
        return None
    return [
        ToolCall(
            name=item["name"],
            arguments=item.get("arguments", {}),
            raw_arguments=item.get("raw_arguments"),
            valid_json=item.get("valid_json", True),
        )
        for item in raw
    ]


TOOLS = ["a", "b", "c"]
NAMES = ["x", "y", "z"]


def matchers(
    scalars: list[Any], values: list[Any], *, nested_partial: bool = False
) -> st.SearchStrategy[ArgMatcher]:
    """Matchers of every kind on ``NAMES``, equality on scalars most of the time (the keyed
    paths); with ``nested_partial`` also an equality whose value holds a partial object."""
    names = st.sampled_from(NAMES)
    scalar = st.sampled_from(scalars)
    value = st.sampled_from(values)
    kinds = [
        st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v), names, scalar),
        st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v), names, scalar),
        st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v), names, value),
        st.builds(lambda n: ArgMatcher(n, Op.PARTIAL, value=PartialObject({"k": 1})), names),
        st.builds(lambda n: ArgMatcher(n, Op.ANY), names),
        st.builds(lambda n: ArgMatcher(n, Op.ABSENT), names),
        st.builds(
            lambda n, vs: ArgMatcher(n, Op.IN, values=tuple(vs)),
            names,
            st.lists(value, min_size=1, max_size=2),
        ),
        st.builds(lambda n: ArgMatcher(n, Op.GE, value=1.5), names),
        st.builds(lambda n: ArgMatcher(n, Op.REGEX, pattern="^s"), names),
        st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v, optional=True), names, value),
        st.builds(lambda n, v: ArgMatcher(n, Op.NE, value=v), names, scalar),
    ]
    if nested_partial:
        kinds.append(st.builds(lambda n: ArgMatcher(n, Op.EQ, value={"k": PartialObject({"j": "s"})}), names))
    return st.one_of(*kinds)


def cases(
    expectations: st.SearchStrategy[Expectation], name: str, *, no_tool_calls: bool = False
) -> st.SearchStrategy[Case]:
    """Cases of up to six expectations and two forbids, with random requirements and chains;
    ``no_tool_calls`` also draws that requirement for cases without expectations."""

    @st.composite
    def draw_case(draw: Any) -> Case:
        expected = tuple(draw(st.lists(expectations, max_size=6)))
        forbids = tuple(draw(st.lists(expectations, max_size=2)))
        chains: tuple[tuple[int, ...], ...] = ()
        if len(expected) >= 2 and draw(st.booleans()):
            chains = (tuple(draw(st.permutations(range(len(expected))))[:2]),)
        return Case(
            name,
            expectations=expected,
            forbids=forbids,
            threshold=draw(st.sampled_from([1.0, 0.5, 0.0])),
            no_unexpected_calls=draw(st.booleans()),
            no_tool_calls=no_tool_calls and draw(st.booleans()) and not expected,
            ordered=draw(st.booleans()),
            chains=chains,
        )

    return draw_case()
