"""The evaluator's cache of compiled cases and its explanations made on demand.

The cache gives the same compiled case for the same expectations only; a failing run's
failures, worked out when first read, are the ones worked out at once.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import operator
import pickle
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolexpect
from toolexpect import Sample, ToolCall, ToolCallAccuracyEvaluator, parse_spec
from toolexpect.api import as_calls, expectation_of
from toolexpect.api.recording import to_json
from toolexpect.matching import LaterFailures, RunResult, evaluate
from toolexpect.matching import case as compiled_case
from toolexpect.model import Case, Expectation
from toolexpect.report.explain import explain_run

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import corpus


def _typed(value: Any) -> Any:
    """A value with the type of every part spelled out, so that ``1``, ``1.0`` and ``True`` differ."""
    if isinstance(value, dict):
        return (type(value), [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value), [_typed(v) for v in value])
    return (type(value), repr(value))


def _reference_call(value: dict[str, Any]) -> ToolCall:
    """A call converted as the module docstring of ``recording`` says (the general path)."""
    raw = value.get("arguments", value.get("args", {})) or {}
    found = value.get("id")
    call_id = found if isinstance(found, str) else None
    return ToolCall(value["name"], {str(k): to_json(v) for k, v in raw.items()}, id=call_id)


def _reference(sample: Sample) -> tuple[Case, RunResult]:
    """The case and the eagerly explained result, built without the evaluator's cache."""
    case = Case(
        name=sample.question or "sample",
        expectations=tuple(expectation_of(e) for e in sample.expected_tool_calls),
        question=sample.question,
    )
    assert sample.tool_calls is not None
    return case, evaluate(case, as_calls(sample.tool_calls))


class Colour(enum.Enum):
    """An enum whose values a recorded call may carry."""

    RED = "red"


class Level(enum.IntEnum):
    """An integer enum: an ``int`` subclass."""

    ONE = 1


class Text(str):
    """A ``str`` subclass."""


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        ({"arguments": {}}, ValueError, "non-empty string 'name'"),
        ({"name": ""}, ValueError, "non-empty string 'name'"),
        ({"name": 5, "arguments": {}}, ValueError, "non-empty string 'name'"),
        ({"name": "f", "arguments": [1]}, ValueError, "arguments of tool call 'f' must be a dict"),
        ({"name": "f", "args": 3}, ValueError, "arguments of tool call 'f' must be a dict"),
        (["f", {}], TypeError, "a tool call is a ToolCall or a dict"),
    ],
)
def test_bad_calls_are_refused_on_both_sides(bad: Any, error: type[Exception], message: str) -> None:
    """A malformed call is refused with the same error as an expected and as a recorded call."""
    good = {"name": "f", "arguments": {}}
    evaluator = ToolCallAccuracyEvaluator()
    with pytest.raises(error, match=message):
        evaluator.evaluate(Sample([good], [bad]))
    with pytest.raises(error, match=message):
        evaluator.evaluate(Sample([bad], [good]))


def test_invalid_json_expected_is_refused_every_time() -> None:
    """Expected arguments that are not valid JSON are refused, however often they are given."""
    evaluator = ToolCallAccuracyEvaluator()
    for _ in range(2):
        with pytest.raises(ValueError, match="not valid JSON"):
            evaluator.evaluate(Sample([{"name": "f", "arguments": "{oops"}], []))


_lookalikes = st.sampled_from(
    [
        1,
        1.0,
        True,
        "1",
        "true",
        None,
        [1],
        [1.0],
        [True],
        (1,),
        {"n": 1},
        {"n": 1.0},
        {"n": True},
        Level.ONE,
        Text("1"),
        Colour.RED,
        "red",
    ]
)
_lookalike_keys = st.sampled_from(["x", "true", "True", "1"]) | st.sampled_from([True, 1])
_plain_dicts = st.builds(
    lambda name, arguments: {"name": name, "arguments": arguments},
    st.sampled_from(["t", "u"]),
    # names that become the same text (1 and "1") are refused, so none are drawn together
    st.dictionaries(_lookalike_keys, _lookalikes, max_size=2).filter(
        lambda d: len(set(map(str, d))) == len(d)
    ),
)
_expected_items = _plain_dicts | st.builds(  # a ToolCall's argument names are strings
    lambda d: ToolCall(d["name"], {str(k): v for k, v in d["arguments"].items()}), _plain_dicts
)


@settings(max_examples=400, deadline=None)
@given(
    expected=st.lists(_expected_items, min_size=1, max_size=3),
    actual=st.lists(_plain_dicts, max_size=3),
    question=st.sampled_from([None, "q", ""]),
)
def test_evaluator_agrees_with_uncached_scoring(
    expected: list[Any], actual: list[dict[str, Any]], question: str | None
) -> None:
    """Whatever the evaluator has cached, a sample gets the case and result scoring it anew gives.

    The values are lookalikes (``1``, ``1.0``, ``true``, ``"1"``, enums, ``True`` as a key)
    drawn from a small pool, so that many samples share, or nearly share, expectations.
    """
    sample = Sample(expected_tool_calls=expected, tool_calls=actual, question=question)
    evaluation = ToolCallAccuracyEvaluator().evaluate(sample)
    case, result = _reference(sample)
    assert evaluation.case == case
    assert [_typed([a.value for a in e.args]) for e in evaluation.case.expectations] == [
        _typed([a.value for a in e.args]) for e in case.expectations
    ]
    assert evaluation.value == result.score
    assert evaluation.result == result
    assert evaluation.explanation == explain_run(case, result, tuple(as_calls(actual)))


def test_expectations_written_at_other_places_keep_their_spans() -> None:
    """Equal expectations from different lines of a spec report their own line when unmatched."""
    first = parse_spec("expect f(a=1)\n").cases[0].expectations
    second = parse_spec("\n\n\nexpect f(a=1)\n").cases[0].expectations
    evaluator = ToolCallAccuracyEvaluator()
    lines = []
    for expectations in (first, second, first):
        result = evaluator.evaluate(Sample(list(expectations), [{"name": "f", "arguments": {"a": 2}}])).result
        spans = [f.span for f in result.failures if f.kind == "unmatched"]
        assert spans and spans[0] is not None
        lines.append(spans[0].line)
    assert lines == [1, 4, 1]


@pytest.fixture(scope="module")
def samples() -> list[dict[str, Any]]:
    """400 samples of the benchmark corpus (most of them failing)."""
    return list(corpus.generate(seed=5, scenarios=40, runs=10)["samples"])


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One item for each time a run's failures are worked out (``matching.explain.explain``)."""
    count: list[int] = []
    original = compiled_case.explain

    def counted(*args: Any) -> Any:
        count.append(1)
        return original(*args)

    monkeypatch.setattr(compiled_case, "explain", counted)
    return count


def test_value_alone_does_not_explain(made: list[int], samples: list[dict[str, Any]]) -> None:
    """Reading value and passed works out no failure; the first read of failures does, once."""
    evaluator = ToolCallAccuracyEvaluator()
    failing = []
    for sample in samples:
        evaluation = evaluator.evaluate(Sample(sample["expected"], sample["actual"]))
        assert evaluation.value is not None
        if not evaluation.passed:
            failing.append(evaluation)
    assert failing
    assert made == []
    first = failing[0].result.failures
    assert first and len(made) == 1
    assert failing[0].result.failures is first
    assert failing[0].explanation
    assert len(made) == 1


def test_late_explanations_equal_eager_ones(samples: list[dict[str, Any]]) -> None:
    """Failures and explanation asked for after value are complete and equal to the eager ones."""
    evaluator = ToolCallAccuracyEvaluator()
    compared = 0
    for sample in samples:
        plain = Sample(sample["expected"], sample["actual"])
        evaluation = evaluator.evaluate(plain)
        _ = evaluation.value
        case, eager = _reference(plain)
        if eager.passed:
            assert evaluation.result == eager
            continue
        compared += 1
        assert eager.failures
        assert evaluation.result.failures == eager.failures
        assert evaluation.result == eager
        assert evaluation.explanation == explain_run(case, eager, tuple(as_calls(sample["actual"])))
    assert compared > len(samples) // 2


def _late(samples: list[dict[str, Any]]) -> tuple[RunResult, RunResult]:
    """A failing result not explained yet, and the same result explained at once."""
    for sample in samples:
        plain = Sample(sample["expected"], sample["actual"])
        late = ToolCallAccuracyEvaluator().evaluate(plain).result
        if not late.passed:
            return late, _reference(plain)[1]
    raise AssertionError("no failing sample")


def test_a_late_result_behaves_as_a_run_result(samples: list[dict[str, Any]]) -> None:
    """Before its failures are read, a result compares, prints, copies and pickles as the eager one."""
    for compare in (
        lambda late, eager: late == eager,
        lambda late, eager: eager == late,
        lambda late, eager: operator.ne(late, eager) is False,
        lambda late, eager: operator.ne(eager, late) is False,
    ):
        late, eager = _late(samples)
        assert isinstance(late.failures, LaterFailures)  # not explained yet
        assert compare(late, eager)

    late, _ = _late(samples)
    assert repr(late) == repr(eager)
    other, _ = _late(samples)
    assert other == late
    for make in (
        lambda r: pickle.loads(pickle.dumps(r)),
        copy.copy,
        copy.deepcopy,
        lambda r: dataclasses.replace(r, case=eager.case),
    ):
        fresh, _ = _late(samples)
        made = make(fresh)
        assert type(made) is RunResult
        assert made == eager
    # A plain slotted dataclass: fields assign, no field can be added, and it is not hashable.
    fresh.status = "pass"
    assert fresh.passed
    with pytest.raises(AttributeError):
        fresh.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="unhashable"):
        hash(fresh)


def test_equal_evaluations_compare_equal(samples: list[dict[str, Any]]) -> None:
    """Two evaluations of one sample are equal, explained or not, and print alike."""
    evaluator = ToolCallAccuracyEvaluator()
    sample = next(s for s in samples if evaluator.evaluate(Sample(s["expected"], s["actual"])).value != 1.0)
    one = evaluator.evaluate(Sample(sample["expected"], sample["actual"]))
    two = evaluator.evaluate(Sample(sample["expected"], sample["actual"]))
    assert one == two
    assert repr(one) == repr(two)
    assert one.explanation == two.explanation


def test_dict_and_ordered_dict_expectations_give_one_case() -> None:
    """An expected call given as an OrderedDict (a Mapping, not a plain dict) is compiled the same."""
    evaluator = ToolCallAccuracyEvaluator()
    recorded = [{"name": "f", "arguments": {"a": 1.0}}]
    plain = evaluator.evaluate(Sample([{"name": "f", "arguments": {"a": 1}}], recorded))
    ordered = evaluator.evaluate(Sample([OrderedDict(name="f", arguments=OrderedDict(a=1))], recorded))
    assert plain == ordered
    assert plain.value == 1.0
    assert ordered.case.expectations == (Expectation("f", plain.case.expectations[0].args),)


def test_score_explains_on_demand_what_it_would_have_at_once(made: list[int]) -> None:
    """score() explains a failure only when asked, as it would at once, even after the list changed."""
    spec = parse_spec('expect get_weather(city="Berlin")\nexpect send_email\n')
    recorded = [{"name": "get_weather", "arguments": {"city": "Rome"}}]
    evaluation = toolexpect.score(spec, recorded)
    assert evaluation.value == 0.0 and not evaluation.passed
    assert made == []
    recorded.append({"name": "send_email", "arguments": {}})
    eager = evaluate(spec.cases[0], as_calls(recorded[:1]))
    assert evaluation.result == eager
    assert evaluation.explanation == explain_run(spec.cases[0], eager, as_calls(recorded[:1]))
    assert "get_weather" in evaluation.explanation and "Rome" in evaluation.explanation


def test_fluent_evaluation_explains_as_the_matcher_does() -> None:
    """given()...then().evaluation() of a failing run has the failures the matcher gives at once."""
    then = (
        toolexpect.given()
        .expected_tool_call("get_weather")
        .with_argument("city", "Berlin")
        .when()
        .tool_calls([{"name": "get_weather", "arguments": {"city": "Rome"}}])
        .then()
    )
    evaluation = then.evaluation()
    assert evaluation.value == 0.0
    eager = evaluate(evaluation.case, then.calls)
    assert evaluation.result == eager
    assert [f.kind for f in evaluation.result.failures] == ["threshold", "unmatched"]


def test_expected_and_recorded_calls_may_be_any_iterable() -> None:
    """Expected and recorded calls given as generators score as the same lists do."""
    expected = [{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {}}]
    recorded = [{"name": "f", "arguments": {"a": 1.0}}]
    evaluator = ToolCallAccuracyEvaluator()
    from_lists = evaluator.evaluate(Sample(expected, recorded))
    from_generators = evaluator.evaluate(Sample((e for e in expected), (c for c in recorded)))
    assert from_lists.value == 0.5
    assert from_generators == from_lists


def test_threads_share_one_evaluator(samples: list[dict[str, Any]]) -> None:
    """Threads scoring at once through one evaluator get the results scored alone."""
    import threading

    evaluator = ToolCallAccuracyEvaluator()
    chosen = samples[:60]
    alone = [_reference(Sample(s["expected"], s["actual"]))[1].score for s in chosen]
    found: dict[int, list[float | None]] = {}

    def work(number: int) -> None:
        found[number] = [
            evaluator.evaluate(Sample(s["expected"], s["actual"])).value for _ in range(5) for s in chosen
        ]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(found) == [0, 1, 2, 3]
    for values in found.values():
        assert values == alone * 5


def test_cache_keys_refuse_what_they_cannot_tell_apart() -> None:
    """Only values of exact builtin types get a key; equal keys mean identical values."""
    import pickle as pickle_module

    from toolexpect.api.cache import _key

    odd_ones: list[Any] = [Level.ONE, Text("x"), Colour.RED, OrderedDict(a=1), ToolCall("f"), int]
    odd_ones += [pickle_module.PickleBuffer(b"x"), bytearray(b"x")]
    for odd in odd_ones:
        assert _key([odd]) is None, odd
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    assert _key(cyclic) is None
    values: list[Any] = [1, 1.0, True, "1", b"1", (1,), [1], {"1": 1}, {1: 1}, {True: 1}, {1}, frozenset({1})]
    values += [-0.0, 0.0, None]
    keys = [_key(v) for v in values]
    assert None not in keys
    assert len(set(keys)) == len(values)
    assert _key({"a": [1, {"b": 2.5}]}) == _key({"a": [1, {"b": 2.5}]})
    shared = {"k": 1}
    assert _key([shared, shared]) == _key([{"k": 1}, {"k": 1}])


def test_tool_call_argument_names_that_are_not_text_are_read_as_text() -> None:
    """A ``ToolCall`` with an int argument name is read as a dict call is: the name as text."""
    evaluator = ToolCallAccuracyEvaluator()
    expected = ToolCall("f", {1: "a"})  # type: ignore[dict-item]
    recorded = [ToolCall("f", {"1": "b"})]
    failing = evaluator.evaluate(Sample(expected_tool_calls=[expected], tool_calls=recorded))
    assert failing.value == 0.0
    assert '1: expected "a", got "b"' in failing.explanation
    plain = [{"name": "f", "arguments": {1: "a"}}]
    passing = evaluator.evaluate(Sample(expected_tool_calls=[expected], tool_calls=plain))
    assert passing.value == 1.0
