"""Properties of the score: bounds, replay, permutation invariance, brute-force maximum."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolexpect.calls import ToolCall
from toolexpect.matching import evaluate, expectation_matches, tool_call_accuracy
from toolexpect.model import ArgMatcher, Case, Expectation, Op

TOOLS = ["a", "b"]
NAMES = ["x", "y"]
VALUES: list[Any] = [1, 1.0, 2, "s", "t", "sun", "été", True, None, [1], [1.0], {"k": 1}, {"k": [True]}]
PATTERNS = ["^s", "t$", "u", "^é"]  # several per argument: the pairing's RE2 set of patterns

_values = st.sampled_from(VALUES)
_matchers = st.one_of(
    st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v), st.sampled_from(NAMES), _values),
    st.builds(lambda n: ArgMatcher(n, Op.ANY), st.sampled_from(NAMES)),
    st.builds(lambda n: ArgMatcher(n, Op.ABSENT), st.sampled_from(NAMES)),
    st.builds(
        lambda n, vs: ArgMatcher(n, Op.IN, values=tuple(vs)),
        st.sampled_from(NAMES),
        st.lists(_values, min_size=1, max_size=2),
    ),
    st.builds(lambda n: ArgMatcher(n, Op.GE, value=1.5), st.sampled_from(NAMES)),
    st.builds(
        lambda n, p: ArgMatcher(n, Op.REGEX, pattern=p), st.sampled_from(NAMES), st.sampled_from(PATTERNS)
    ),
    st.builds(lambda n, v: ArgMatcher(n, Op.EQ, value=v, optional=True), st.sampled_from(NAMES), _values),
)


def _distinct_names(matchers: list[ArgMatcher]) -> tuple[ArgMatcher, ...]:
    seen: dict[str, ArgMatcher] = {}
    for matcher in matchers:
        seen.setdefault(matcher.name, matcher)
    return tuple(seen.values())


_expectations = st.builds(
    lambda tool, matchers: Expectation(tool, _distinct_names(matchers)),
    st.sampled_from(TOOLS),
    st.lists(_matchers, max_size=2),
)
_calls = st.builds(
    lambda tool, args, valid: ToolCall(tool, args if valid else {}, valid_json=valid),
    st.sampled_from(TOOLS),
    st.dictionaries(st.sampled_from(NAMES), _values, max_size=2),
    st.booleans() | st.just(True),
)


def _brute_force(expectations: list[Expectation], calls: list[ToolCall]) -> int:
    """The largest number of expectations paired with distinct matching calls, by trying all."""
    fits = [[expectation_matches(e, c) for c in calls] for e in expectations]
    slots = list(range(len(calls))) + [None] * len(expectations)
    best = 0
    for choice in itertools.permutations(slots, len(expectations)):
        count = sum(1 for e, c in enumerate(choice) if c is not None and fits[e][c])
        best = max(best, count)
    return best


@settings(max_examples=150, deadline=None)
@given(st.lists(_expectations, min_size=1, max_size=4), st.lists(_calls, max_size=5))
def test_score_equals_brute_force_maximum(expectations: list[Expectation], calls: list[ToolCall]) -> None:
    """The matched count equals the best over all pairings, and the score lies in [0, 1]."""
    result = tool_call_accuracy(expectations, calls)
    assert 0.0 <= result.score <= 1.0
    assert result.matched == _brute_force(expectations, calls)
    used = [c for _, c in result.pairs]
    assert len(used) == len(set(used))
    for e, c in result.pairs:
        assert expectation_matches(expectations[e], calls[c])


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_expectations, min_size=1, max_size=6),
    st.lists(_calls, max_size=8),
    st.randoms(use_true_random=False),
)
def test_permutations_never_change_the_score(
    expectations: list[Expectation], calls: list[ToolCall], rng: Any
) -> None:
    """Shuffling the calls or the expectations leaves the score unchanged."""
    score = tool_call_accuracy(expectations, calls).score
    shuffled_calls = list(calls)
    rng.shuffle(shuffled_calls)
    shuffled_expectations = list(expectations)
    rng.shuffle(shuffled_expectations)
    assert tool_call_accuracy(expectations, shuffled_calls).score == score
    assert tool_call_accuracy(shuffled_expectations, calls).score == score
    assert tool_call_accuracy(shuffled_expectations, shuffled_calls).score == score


def _replay(expectation: Expectation) -> ToolCall:
    """A call written to satisfy ``expectation`` (every matcher's simplest witness)."""
    arguments: dict[str, Any] = {}
    for matcher in expectation.args:
        if matcher.op is Op.EQ:
            arguments[matcher.name] = matcher.value
        elif matcher.op is Op.ANY:
            arguments[matcher.name] = None
        elif matcher.op is Op.IN:
            arguments[matcher.name] = matcher.values[0]
        elif matcher.op is Op.GE:
            arguments[matcher.name] = 2
        elif matcher.op is Op.REGEX:
            arguments[matcher.name] = {"^s": "sun", "t$": "test", "u": "sun", "^é": "été"}[matcher.pattern]
    return ToolCall(expectation.tool, arguments)


@settings(max_examples=150, deadline=None)
@given(st.lists(_expectations, min_size=1, max_size=6), st.lists(_calls, max_size=4), st.randoms())
def test_a_log_replaying_the_expectations_scores_one(
    expectations: list[Expectation], noise: list[ToolCall], rng: Any
) -> None:
    """A log holding a satisfying call per expectation, mixed with noise, scores 1.0 and passes."""
    calls = [_replay(e) for e in expectations] + noise
    rng.shuffle(calls)
    result = evaluate(Case("replay", tuple(expectations)), calls)
    assert result.score == 1.0
    assert result.status == "pass"


@settings(max_examples=60, deadline=None)
@given(st.lists(_expectations, min_size=1, max_size=30), st.lists(_calls, max_size=40))
def test_large_inputs_agree_with_the_small_path(
    expectations: list[Expectation], calls: list[ToolCall]
) -> None:
    """Buckets big enough for the index score the same as matching one tool at a time by hand."""
    result = tool_call_accuracy(expectations, calls)
    total = 0
    for tool in TOOLS:
        mine = [e for e in expectations if e.tool == tool]
        theirs = [c for c in calls if c.name == tool]
        if mine:
            total += _greedy_augmenting_reference(mine, theirs)
    assert result.matched == total


def _greedy_augmenting_reference(expectations: list[Expectation], calls: list[ToolCall]) -> int:
    """A textbook recursive Kuhn matching, as an independent reference."""
    fits = [[c for c, call in enumerate(calls) if expectation_matches(e, call)] for e in expectations]
    owner: dict[int, int] = {}

    def try_assign(e: int, seen: set[int]) -> bool:
        for c in fits[e]:
            if c in seen:
                continue
            seen.add(c)
            if c not in owner or try_assign(owner[c], seen):
                owner[c] = e
                return True
        return False

    return sum(1 for e in range(len(expectations)) if try_assign(e, set()))


_plain = st.sampled_from([1, 2.0, "s", "sun", [1], {"k": 1}, True])
_indexed_expectations = st.builds(
    lambda tool, equal, searched: Expectation(
        tool,
        tuple(ArgMatcher(n, Op.EQ, value=v) for n, v in equal.items())
        + tuple(ArgMatcher(n, Op.REGEX, pattern=p) for n, p in searched.items() if n not in equal),
    ),
    st.sampled_from(TOOLS),
    st.dictionaries(st.sampled_from(["x", "y", "z"]), _plain, max_size=3),
    st.dictionaries(st.sampled_from(["q", "x"]), st.sampled_from(PATTERNS), max_size=2),
)
_indexed_calls = st.builds(
    ToolCall,
    st.sampled_from(TOOLS),
    st.dictionaries(
        st.sampled_from(["x", "y", "z", "q"]), _plain | st.sampled_from(["test", "été"]), max_size=4
    ),
)


_WITNESS = {"^s": "sun", "t$": "test", "u": "sun", "^é": "été"}


def _near(expectation: Expectation, changed: str | None) -> ToolCall:
    """A call that satisfies ``expectation``, but for the argument ``changed`` (if any)."""
    arguments: dict[str, Any] = {}
    for matcher in expectation.args:
        value = matcher.value if matcher.op is Op.EQ else _WITNESS[matcher.pattern]
        arguments[matcher.name] = "other" if matcher.name == changed else value
    return ToolCall(expectation.tool, arguments)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_indexed_expectations, min_size=1, max_size=25), st.lists(_indexed_calls, max_size=10), st.data()
)
def test_the_index_finds_every_call_an_expectation_matches(
    expectations: list[Expectation], noise: list[ToolCall], data: st.DataObject
) -> None:
    """Expectations with several equalities on plain values (filed under all of them at once)
    and expectations that only search arguments with regular expressions (filed in an RE2 set
    of their tool's patterns) are paired as matching each expectation against every call by
    hand would pair them, with calls that satisfy them, calls that miss by one argument, and
    others."""
    calls = list(noise)
    for expectation in expectations:
        names = [m.name for m in expectation.args]
        changed = data.draw(st.sampled_from([None, *names]))
        calls.append(_near(expectation, changed))
    calls = data.draw(st.permutations(calls))
    result = tool_call_accuracy(expectations, calls)
    total = 0
    for tool in TOOLS:
        mine = [e for e in expectations if e.tool == tool]
        theirs = [c for c in calls if c.name == tool]
        if mine:
            total += _greedy_augmenting_reference(mine, theirs)
    assert result.matched == total
    for e, c in result.pairs:
        assert expectation_matches(expectations[e], calls[c])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from([[1], [1.0], [2], {"k": 1}, {"k": 1.0}, [], {}, [[1]]]), min_size=9, max_size=30
    ),
    st.lists(st.sampled_from([[1], [1.0], [2], {"k": 1}, {"k": True}, [], {}, [[1]], "s", 1]), max_size=30),
)
def test_crowded_groups_are_found_by_their_lists_and_objects(wanted: list[Any], recorded: list[Any]) -> None:
    """Many groups that want the same scalars and differ in a list or an object (filed under
    those too) are paired as matching each expectation against every call by hand pairs them:
    nested values strictly, type included."""
    expectations = [
        Expectation("a", (ArgMatcher("x", Op.EQ, value="s"), ArgMatcher("y", Op.EQ, value=value), *extra))
        for number, value in enumerate(wanted)
        for extra in [(ArgMatcher(f"n{number % 10}", Op.ABSENT),)]
    ]
    calls = [ToolCall("a", {"x": "s", "y": value}) for value in recorded]
    result = tool_call_accuracy(expectations, calls)
    assert result.matched == _greedy_augmenting_reference(expectations, calls)
    for e, c in result.pairs:
        assert expectation_matches(expectations[e], calls[c])
