"""Benchmark of the matcher: run ``python bench/bench_matching.py`` and read the figures.

1. One large sample: 10,000 expectations against 100,000 recorded calls of 50 tools
   (fixed seed; equality arguments, argument-less expectations, regex / comparison / ``in``
   / approx / optional / absent matchers). Target: scored in under 2 seconds.
2. Many small samples: 5 expectations against 8 recorded calls, scored with a compiled case
   reused across runs (the CLI's path). Target: well above 50,000 samples per second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from toolexpect.calls import ToolCall
from toolexpect.matching import compile_case, evaluate, tool_call_accuracy
from toolexpect.model import ArgMatcher, Case, Expectation, Op

SEED = 20240611
TOOLS = [f"tool_{n:02d}" for n in range(50)]
CITIES = [f"city-{n}" for n in range(400)]
UNITS = ["celsius", "fahrenheit", "kelvin"]


def _arguments(rng: random.Random) -> dict[str, Any]:
    """Arguments of one recorded call: strings, ints, floats, a list and an object."""
    args: dict[str, Any] = {
        "city": rng.choice(CITIES),
        "day": rng.randrange(30),
        "unit": rng.choice(UNITS),
        "query": f"weather in {rng.choice(CITIES)} on day {rng.randrange(30)}",
        "temp": round(rng.uniform(-10, 35), 1),
    }
    if rng.random() < 0.3:
        args["tags"] = [rng.choice(UNITS), rng.randrange(3)]
    if rng.random() < 0.3:
        args["filter"] = {"limit": rng.randrange(10), "sort": rng.choice(["asc", "desc"])}
    return args


def _expectation(rng: random.Random, call: ToolCall) -> Expectation:
    """An expectation written after a recorded call, with a realistic mix of matchers."""
    args = call.arguments
    roll = rng.random()
    if roll < 0.05:
        return Expectation(call.name)
    matchers = [ArgMatcher("city", Op.EQ, value=args["city"])]
    if roll < 0.5:
        matchers.append(ArgMatcher("day", Op.EQ, value=float(args["day"])))
    elif roll < 0.6:
        matchers.append(ArgMatcher("query", Op.REGEX, pattern=r"^weather in city-\d+"))
    elif roll < 0.7:
        matchers.append(ArgMatcher("day", Op.GE, value=args["day"]))
    elif roll < 0.8:
        matchers.append(ArgMatcher("unit", Op.IN, values=tuple(UNITS[:2])))
    elif roll < 0.9:
        matchers.append(ArgMatcher("temp", Op.APPROX, value=args["temp"], tolerance=0.5))
    else:
        matchers.append(ArgMatcher("units", Op.ABSENT))
        matchers.append(ArgMatcher("unit", Op.EQ, value=args["unit"], optional=True))
    if rng.random() < 0.02:  # no equality argument at all: must be tested against every call
        day = args["query"].rsplit(" ", 1)[1]
        matchers = [ArgMatcher("query", Op.REGEX, pattern=rf"day {day}$")]
    return Expectation(call.name, tuple(matchers))


def large_sample(rng: random.Random) -> tuple[Case, list[ToolCall]]:
    """A case of 10,000 expectations and a sample of 100,000 calls of 50 tools."""
    calls = [ToolCall(rng.choice(TOOLS), _arguments(rng)) for _ in range(100_000)]
    expectations = [_expectation(rng, call) for call in rng.sample(calls, 9_500)]
    # 500 expectations that match nothing: a misspelled city or a tool never called.
    for _ in range(500):
        expectations.append(Expectation(rng.choice(TOOLS), (ArgMatcher("city", Op.EQ, value="Berlinn"),)))
    rng.shuffle(expectations)
    return Case("large", tuple(expectations), threshold=0.9), calls


def small_samples(rng: random.Random, count: int, *, failing: bool) -> tuple[Case, list[list[ToolCall]]]:
    """One case of 5 expectations and ``count`` samples of 8 calls that pass (or fail)."""
    case = Case(
        "small",
        (
            Expectation("get_weather", (ArgMatcher("city", Op.EQ, value="Berlin"),)),
            Expectation("get_weather", (ArgMatcher("city", Op.EQ, value="Paris"),)),
            Expectation("get_weather"),
            Expectation(
                "search",
                (
                    ArgMatcher("query", Op.REGEX, pattern="^weather"),
                    ArgMatcher("limit", Op.GE, value=5),
                ),
            ),
            Expectation("send_email", (ArgMatcher("to", Op.EQ, value="ops@example.com"),)),
        ),
        forbids=(Expectation("delete_user"),),
    )
    samples = []
    for _ in range(count):
        calls = [
            ToolCall("get_weather", {"city": "Paris", "unit": "celsius"}),
            ToolCall("get_weather", {"city": "Berlin", "unit": "celsius"}),
            ToolCall("get_weather", {"city": rng.choice(CITIES)}),
            ToolCall("search", {"query": "weather tomorrow", "limit": 3 if failing else 10}),
            ToolCall("get_time", {"tz": "Europe/Berlin"}),
            ToolCall("send_email", {"to": "ops@example.com", "body": "hi"}),
            ToolCall("lookup", {"id": rng.randrange(1000)}),
            ToolCall("search", {"query": "news", "limit": 10}),
        ]
        rng.shuffle(calls)
        samples.append(calls)
    return case, samples


def _timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def main() -> int:
    """Print the figures; exit 1 when a target is missed."""
    rng = random.Random(SEED)
    ok = True

    case, calls = large_sample(rng)
    seconds, run = _timed(lambda: evaluate(case, calls))
    print(
        f"large sample: {len(case.expectations):,} expectations x {len(calls):,} calls "
        f"of {len(TOOLS)} tools: evaluate {seconds:.2f} s (target < 2 s); "
        f"score {run.score:.4f}, status {run.status}, {len(run.failures)} failure records"
    )
    ok &= seconds < 2.0
    seconds, result = _timed(lambda: tool_call_accuracy(case.expectations, calls))
    print(f"large sample: tool_call_accuracy {seconds:.2f} s; score {result.score:.4f}")

    small, samples = small_samples(rng, 50_000, failing=False)
    _, failing = small_samples(rng, 10_000, failing=True)
    compiled = compile_case(small)
    assert all(compiled.evaluate(sample).passed for sample in samples[:100])
    assert not any(compiled.evaluate(sample).passed for sample in failing[:100])
    for name, action, runs in (
        ("CompiledCase.evaluate, passing runs", compiled.evaluate, samples),
        ("evaluate(case, calls), passing runs", lambda s: evaluate(small, s), samples),
        ("CompiledCase.evaluate, failing runs (with explanations)", compiled.evaluate, failing),
    ):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for sample in runs:
                action(sample)
            best = min(best, time.perf_counter() - start)
        rate = len(runs) / best
        print(
            f"small samples (5 expected / 8 recorded): {name}: {rate:,.0f} samples/s "
            f"({best / len(runs) * 1e6:.1f} us each)"
        )
        if "passing" in name:
            ok &= rate > 50_000
    print("targets: large sample < 2 s; passing small samples well above 50,000/s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
