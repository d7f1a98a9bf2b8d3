"""Scoring from many threads at once gives exactly what one thread gives.

The Python API is used from threads (a test runner, a web service). Specs are parsed once in
the main thread here; each thread then scores its own mix of cases and calls through the
public entry points, in its own order, while the others do the same.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import toolexpect
from toolexpect import Sample, ToolCallAccuracyEvaluator
from toolexpect.api import as_calls, expectation_of
from toolexpect.calls import RecordedSample
from toolexpect.matching import evaluate
from toolexpect.model import Case, Spec
from toolexpect.report import score as score_report
from toolexpect.scoring.partial import score

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import corpus

THREADS = 8


@pytest.fixture(scope="module")
def samples() -> list[dict[str, Any]]:
    """300 samples of 60 scenarios of the benchmark corpus (many of them failing)."""
    return list(corpus.generate(seed=13, scenarios=60, runs=5)["samples"])


def _case(number: int, sample: dict[str, Any]) -> Case:
    return Case(name=f"case {number}", expectations=tuple(expectation_of(e) for e in sample["expected"]))


def _one_sample(sample: dict[str, Any]) -> tuple[Any, ...]:
    """Everything the evaluator, ``toolexpect.score`` and ``evaluate`` say about one sample."""
    evaluation = ToolCallAccuracyEvaluator().evaluate(Sample(sample["expected"], sample["actual"]))
    case = _case(0, sample)
    scored = toolexpect.score(case, sample["actual"])
    run = evaluate(case, as_calls(sample["actual"]))
    return (
        evaluation.value,
        evaluation.passed,
        evaluation.explanation,
        scored.result,
        scored.explanation,
        run,
    )


def _whole_log(samples: list[dict[str, Any]]) -> str:
    """The JSON report of scoring every sample against a spec of one case per scenario."""
    cases = {}
    for sample in samples:
        cases.setdefault(sample["id"], sample)
    spec = Spec(tuple(_case(n, s) for n, s in enumerate(cases.values())), path="threads.expect")
    names = {key: f"case {n}" for n, key in enumerate(cases)}
    recorded = [
        RecordedSample(names[s["id"]], tuple(as_calls(s["actual"])), "log.jsonl", n)
        for n, s in enumerate(samples, 1)
    ]
    return score_report.render(score([spec], recorded), "json")


def _in_threads(work: Callable[[int], Any]) -> list[Any]:
    results: list[Any] = [None] * THREADS
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(number: int) -> None:
        try:
            start.wait()
            results[number] = work(number)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return results


def test_threads_scoring_samples_get_the_results_of_one_thread(samples: list[dict[str, Any]]) -> None:
    """Threads scoring different samples at once, each in its own order, get the one-thread results."""
    alone = [_one_sample(s) for s in samples]

    def work(number: int) -> list[tuple[int, tuple[Any, ...]]]:
        order = list(range(len(samples)))
        random.Random(number).shuffle(order)
        return [(i, _one_sample(samples[i])) for i in order]

    for found in _in_threads(work):
        assert sorted(found, key=lambda pair: pair[0]) == list(enumerate(alone))


def test_threads_scoring_logs_get_the_report_of_one_thread(samples: list[dict[str, Any]]) -> None:
    """Threads scoring different logs against different specs at once report what one thread does."""
    parts = [samples[n::THREADS] for n in range(THREADS)]
    alone = [_whole_log(part) for part in parts]
    assert _in_threads(lambda number: _whole_log(parts[number])) == alone
