"""The benchmark corpus: deterministic for a seed, of the documented shape; semantics cases agree."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

from toolexpect import Sample, ToolCallAccuracyEvaluator, parse_spec, score

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import corpus


@pytest.fixture(scope="module")
def generated() -> dict[str, Any]:
    """A corpus of 1,000 samples."""
    return corpus.generate(seed=3, scenarios=100, runs=10)


def test_same_seed_same_corpus(generated: dict[str, Any]) -> None:
    """Two corpora of one seed are equal byte for byte; another seed gives another corpus."""
    again = corpus.generate(seed=3, scenarios=100, runs=10)
    assert json.dumps(again) == json.dumps(generated)
    assert json.dumps(corpus.generate(seed=4, scenarios=100, runs=10)) != json.dumps(generated)


def test_documented_shape(generated: dict[str, Any]) -> None:
    """Sizes, tools and ids are as the module docstring says."""
    samples = generated["samples"]
    assert len(samples) == 1000
    assert {s["id"] for s in samples} == {f"s{i:05d}" for i in range(100)}
    expected = [len(s["expected"]) for s in samples]
    actual = [len(s["actual"]) for s in samples]
    assert min(expected) >= 4 and max(expected) <= 6
    assert 4.7 <= statistics.mean(expected) <= 5.3
    assert 7.6 <= statistics.mean(actual) <= 8.4
    for sample in samples:
        for call in sample["expected"] + sample["actual"]:
            assert call["name"] in corpus.CATALOGUE
            assert isinstance(call["arguments"], dict)
    # every run of a scenario shares its expectations
    first = {s["id"]: s["expected"] for s in samples if s["run"] == 0}
    assert all(s["expected"] == first[s["id"]] for s in samples)


def test_noise_is_present(generated: dict[str, Any]) -> None:
    """The corpus holds the kinds of noise it promises."""
    samples = generated["samples"]
    calls = [c for s in samples for c in s["actual"]]
    assert any("trace_id" in c["arguments"] for c in calls)  # extra arguments
    assert any(
        isinstance(v, float) and v.is_integer() and c["name"] == "lookup_user"
        for c in calls
        for v in c["arguments"].values()
    )  # top-level int -> float
    assert any(
        isinstance(v, dict)
        and any(type(x) is float and x.is_integer() for x in v.values())
        and c["name"] == "book_hotel"
        for c in calls
        for v in c["arguments"].values()
    )  # nested
    assert any(not c["arguments"] for s in samples for c in s["expected"])  # argument-less
    assert any(
        len({json.dumps(c, sort_keys=True) for c in s["expected"]}) < len(s["expected"]) for s in samples
    )  # repeated calls
    scores = {
        ToolCallAccuracyEvaluator().evaluate(Sample(s["expected"], s["actual"])).value for s in samples[:300]
    }
    assert 1.0 in scores and len(scores) >= 4  # not all perfect, not all alike


def test_growth_sample_sizes() -> None:
    """A growth sample has the asked number of calls and about 5/8 as many expectations."""
    expected, actual = corpus.growth_sample(800)
    assert len(actual) == 800 and len(expected) == 500
    assert corpus.growth_sample(800) == (expected, actual)


@pytest.mark.parametrize("case", corpus.SEMANTICS_CASES, ids=lambda c: c.key)
def test_semantics_case_agrees_with_toolexpect(case: corpus.SemanticsCase) -> None:
    """The definition's value of each semantics case is what toolexpect's API and spec text give."""
    api = ToolCallAccuracyEvaluator().evaluate(Sample(case.expected, case.actual)).value
    assert api == case.definition
    spec = parse_spec(corpus.spec_text([(case.key, case.expected)]), name="semantics")
    assert score(spec, case.actual).value == case.definition


def test_semantics_cases_cover_the_named_rules() -> None:
    """The table keeps the cases the comparison is about, with unique keys."""
    keys = [c.key for c in corpus.SEMANTICS_CASES]
    assert len(keys) == len(set(keys)) >= 12
    for key in (
        "extra_argument",
        "argless_vs_specific",
        "int_float_top",
        "int_float_nested",
        "reordering",
        "missing_duplicate",
        "extra_call",
        "bool_vs_1",
        "key_order",
        "string_vs_number",
        "nested_negative_zero",
    ):
        assert key in keys


def test_spec_and_log_render(tmp_path: Path) -> None:
    """The CLI inputs: a case per scenario and a log line per sample, readable by toolexpect."""
    samples = corpus.generate(seed=5, scenarios=3, runs=2)["samples"]
    spec, log = corpus.write_spec_and_log(samples, tmp_path)
    parsed = parse_spec(spec.read_text(encoding="utf-8"))
    assert [c.name for c in parsed.cases] == ["s00000", "s00001", "s00002"]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == [s["id"] for s in samples]
    assert corpus.expectation_text({"name": "f", "arguments": {}}) == "f"
    assert corpus.expectation_text({"name": "f", "arguments": {"x": -0.0}}) == 'f("x"=-0.0)'
