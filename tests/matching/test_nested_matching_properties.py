"""Properties of matchers inside values and ``contains`` in the matcher: the pairing stays a
maximum matching when values hold matchers beside plain (indexed) values, a key's ``eq``
matcher is its plain entry, and ``contains`` holds exactly when an element is strictly equal."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolexpect.calls import ToolCall
from toolexpect.matching import expectation_matches, tool_call_accuracy
from toolexpect.matching.matchers import pattern_test
from toolexpect.matching.values import nested_key
from toolexpect.model import ArgMatcher, Expectation, KeyMatch, Op, PartialObject

TOOLS = ["a", "b"]
NAMES = ["x", "y"]
LEAVES: list[Any] = [1, 1.0, 2, 7, "s", "berlin", True, None]
leaves = st.sampled_from(LEAVES)
nested = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["k", "j"]), children, max_size=2)
    ),
    max_leaves=4,
)

key_matchers = st.sampled_from(
    [
        KeyMatch((ArgMatcher("k", Op.GE, value=2),)),
        KeyMatch((ArgMatcher("k", Op.GE, value=1), ArgMatcher("k", Op.LT, value=7))),
        KeyMatch((ArgMatcher("k", Op.REGEX, pattern="^b"),)),
        KeyMatch((ArgMatcher("k", Op.ABSENT),)),
        KeyMatch((ArgMatcher("k", Op.CONTAINS, value=1),)),
        KeyMatch((ArgMatcher("k", Op.EQ, value="s", optional=True),)),
        KeyMatch((ArgMatcher("k", Op.IN, values=(1, "s")),)),
        KeyMatch((ArgMatcher("k", Op.APPROX, value=1, tolerance=0.5),)),
    ]
)
patterns = st.one_of(
    st.builds(lambda m: PartialObject({"k": m}), key_matchers),
    st.builds(lambda m, v: {"k": m, "j": v}, key_matchers, leaves),
    st.builds(lambda m: [PartialObject({"k": m})], key_matchers),
)
matchers = st.one_of(
    st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v), st.sampled_from(NAMES), leaves),  # indexed
    st.builds(lambda n, p: ArgMatcher(n, Op.PARTIAL, value=p), st.sampled_from(NAMES), patterns),
    st.builds(lambda n, v: ArgMatcher(n, Op.CONTAINS, value=v), st.sampled_from(NAMES), leaves),
    st.builds(lambda n, p: ArgMatcher(n, Op.NE, value=p), st.sampled_from(NAMES), patterns),
)


def _distinct(found: list[ArgMatcher]) -> tuple[ArgMatcher, ...]:
    seen: dict[str, ArgMatcher] = {}
    for matcher in found:
        seen.setdefault(matcher.name, matcher)
    return tuple(seen.values())


expectations = st.builds(
    lambda tool, found: Expectation(tool, _distinct(found)),
    st.sampled_from(TOOLS),
    st.lists(matchers, max_size=2),
)
calls = st.builds(
    ToolCall, st.sampled_from(TOOLS), st.dictionaries(st.sampled_from(NAMES), nested, max_size=2)
)


def _brute_force(expected: list[Expectation], made: list[ToolCall]) -> int:
    fits = [[expectation_matches(e, c) for c in made] for e in expected]
    slots = list(range(len(made))) + [None] * len(expected)
    return max(
        sum(1 for e, c in enumerate(choice) if c is not None and fits[e][c])
        for choice in itertools.permutations(slots, len(expected))
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(expectations, min_size=1, max_size=4), st.lists(calls, max_size=5))
def test_the_pairing_is_a_maximum_matching_with_nested_matchers(
    expected: list[Expectation], made: list[ToolCall]
) -> None:
    """With matchers inside values beside plain values the index keys, the matched count is
    the best over all pairings, each pair matching."""
    result = tool_call_accuracy(expected, made)
    assert result.matched == _brute_force(expected, made)
    for e, c in result.pairs:
        assert expectation_matches(expected[e], made[c])


@settings(max_examples=200, deadline=None)
@given(nested, st.dictionaries(st.sampled_from(["k", "j"]), nested, max_size=2))
def test_a_key_s_eq_matcher_is_its_plain_entry(value: Any, actual: dict[str, Any]) -> None:
    """``{k: v, ...}`` and a ``$match`` of one ``eq`` on ``k`` agree on every object; with
    ``?`` they agree wherever ``k`` is present, and hold wherever it is absent."""
    plain = pattern_test(PartialObject({"k": value}))
    matched = pattern_test(PartialObject({"k": KeyMatch((ArgMatcher("k", Op.EQ, value=value),))}))
    optional = pattern_test(
        PartialObject({"k": KeyMatch((ArgMatcher("k", Op.EQ, value=value, optional=True),))})
    )
    assert plain(actual) is matched(actual)
    assert optional(actual) is (plain(actual) if "k" in actual else True)


@settings(max_examples=200, deadline=None)
@given(nested, nested)
def test_contains_holds_exactly_when_an_element_is_strictly_equal(element: Any, actual: Any) -> None:
    """``x contains v`` holds of a list exactly when one element is strictly equal to ``v``,
    of a string exactly when ``v`` is a string inside it, and of nothing else."""
    matcher = ArgMatcher("x", Op.CONTAINS, value=element)
    holds = expectation_matches(Expectation("t", (matcher,)), ToolCall("t", {"x": actual}))
    if isinstance(actual, list):
        assert holds is any(nested_key(item) == nested_key(element) for item in actual)
    elif isinstance(actual, str):
        assert holds is (isinstance(element, str) and element in actual)
    else:
        assert holds is False
