"""Properties of count requirements: they depend on which calls a run made, never their order,
and never change the score."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_matching_properties import _calls, _expectations

from toolexpect.calls import ToolCall
from toolexpect.matching import evaluate
from toolexpect.model import Case, CountRequirement, Expectation

_bounds = st.tuples(st.none() | st.integers(0, 4), st.none() | st.integers(0, 4)).filter(
    lambda bounds: bounds != (None, None)
)
_counts = st.builds(
    lambda bounds, call: CountRequirement(at_least=bounds[0], at_most=bounds[1], call=call),
    _bounds,
    st.none() | _expectations,
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_expectations, max_size=3),
    st.lists(_counts, min_size=1, max_size=3),
    st.lists(_calls, max_size=6),
    st.randoms(use_true_random=False),
)
def test_a_count_that_holds_holds_after_any_reordering(
    expectations: list[Expectation],
    counts: list[CountRequirement],
    calls: list[ToolCall],
    shuffler: random.Random,
) -> None:
    """Whether each count holds is the same for every order of the run's calls."""
    case = Case("c", expectations=tuple(expectations), counts=tuple(counts))
    shuffled = list(calls)
    shuffler.shuffle(shuffled)
    before = {f.details["count"] for f in evaluate(case, calls).failures if f.kind == "count"}
    after = {f.details["count"] for f in evaluate(case, shuffled).failures if f.kind == "count"}
    assert before == after


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_expectations, min_size=1, max_size=3),
    st.lists(_counts, max_size=3),
    st.lists(_calls, max_size=6),
)
def test_counts_never_change_the_score(
    expectations: list[Expectation], counts: list[CountRequirement], calls: list[ToolCall]
) -> None:
    """A case scores the same with its counts as without them; it passes with them only when
    it passes without them and every count holds."""
    bare = evaluate(Case("c", expectations=tuple(expectations)), calls)
    counted = evaluate(Case("c", expectations=tuple(expectations), counts=tuple(counts)), calls)
    assert counted.score == bare.score
    assert (counted.matched, counted.precision, counted.f1) == (bare.matched, bare.precision, bare.f1)
    broken = [f for f in counted.failures if f.kind == "count"]
    assert (counted.status == "pass") == (bare.status == "pass" and not broken)
    for failure in broken:
        count = counts[failure.details["count"]]
        assert not count.holds(failure.details["counted"])
