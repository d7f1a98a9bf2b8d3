"""Properties of ``allow``: it never changes a score, never makes a passing case fail, and lets
pass exactly the unpaired calls that match it and no ``forbid``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_count_properties import _counts
from test_matching_properties import _calls, _expectations

from toolexpect.calls import ToolCall
from toolexpect.matching import evaluate, expectation_matches
from toolexpect.model import Case, CountRequirement, Expectation

_cases = st.builds(
    lambda expectations, forbids, counts, flags, threshold: Case(
        "c",
        expectations=tuple(expectations),
        forbids=tuple(forbids),
        counts=tuple(counts),
        no_unexpected_calls=flags[0],
        no_tool_calls=flags[1] and not expectations,
        ordered=flags[2],
        threshold=threshold,
    ),
    st.lists(_expectations, max_size=3),
    st.lists(_expectations, max_size=1),
    st.lists(_counts, max_size=1),
    st.tuples(st.booleans(), st.booleans(), st.booleans()),
    st.sampled_from([1.0, 0.5]),
)


def _with_allows(case: Case, allows: list[Expectation]) -> Case:
    return Case(
        case.name,
        expectations=case.expectations,
        forbids=case.forbids,
        counts=case.counts,
        no_unexpected_calls=case.no_unexpected_calls,
        no_tool_calls=case.no_tool_calls,
        ordered=case.ordered,
        threshold=case.threshold,
        allows=tuple(allows),
    )


@settings(max_examples=300, deadline=None)
@given(_cases, st.lists(_expectations, min_size=1, max_size=3), st.lists(_calls, max_size=6))
def test_adding_allow_never_lowers_the_score_nor_fails_a_passing_case(
    case: Case, allows: list[Expectation], calls: list[ToolCall]
) -> None:
    """With ``allow`` statements added a case scores the same, pairs the same calls, passes
    whenever it passed without them, and its precision is never lower."""
    bare = evaluate(case, calls)
    allowed = evaluate(_with_allows(case, allows), calls)
    assert (allowed.score, allowed.matched, allowed.pairs) == (bare.score, bare.matched, bare.pairs)
    assert bare.status != "pass" or allowed.status == "pass"
    assert (allowed.status == "error") == (bare.status == "error")
    if bare.precision is not None and allowed.precision is not None:
        assert allowed.precision >= bare.precision
    kinds = sorted(f.kind for f in allowed.failures if f.kind != "unexpected")
    assert kinds == sorted(f.kind for f in bare.failures if f.kind != "unexpected")


@settings(max_examples=300, deadline=None)
@given(_cases, st.lists(_expectations, max_size=3), st.lists(_calls, max_size=6))
def test_the_allowed_calls_are_the_unpaired_ones_an_allow_and_no_forbid_matches(
    case: Case, allows: list[Expectation], calls: list[ToolCall]
) -> None:
    """A run's allowed calls are its unpaired calls that match an allow and no forbid; they are
    never listed as unexpected, and precision is matched / (calls - allowed)."""
    case = _with_allows(case, allows)
    result = evaluate(case, calls)
    if result.status == "error":
        return
    paired = {c for _, c in result.pairs}
    expected_allowed = {
        p
        for p, call in enumerate(calls)
        if p not in paired
        and any(expectation_matches(a, call) for a in case.allows)
        and not any(expectation_matches(f, call) for f in case.forbids)
    }
    assert result.allowed == len(expected_allowed)
    listed = {p for f in result.failures if f.kind == "unexpected" for p in f.details["calls"]}
    assert not listed & expected_allowed
    if case.no_unexpected_calls:
        assert listed == set(range(len(calls))) - paired - expected_allowed
    rest = len(calls) - len(expected_allowed)
    assert result.precision == (result.matched / rest if rest else 1.0)


@settings(max_examples=100, deadline=None)
@given(st.lists(_expectations, min_size=1, max_size=3), st.lists(_calls, max_size=6))
def test_a_case_without_allow_scores_as_before(
    expectations: list[Expectation], calls: list[ToolCall]
) -> None:
    """Without ``allow`` no call is allowed and precision is matched / calls, as it always was."""
    result = evaluate(
        Case("c", expectations=tuple(expectations), counts=(CountRequirement(at_most=9),)), calls
    )
    assert result.allowed == 0
    assert result.precision == (result.matched / len(calls) if calls else 1.0)
