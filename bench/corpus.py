"""The benchmark corpus: seeded samples of expected and recorded tool calls, and the semantics cases.

A *sample* is one recorded run of an agent: the calls it was expected to make (``expected``) and
the calls it made (``actual``), each call ``{"name": str, "arguments": dict}``. Samples come in
*scenarios*: every run of a scenario shares the scenario's expected calls (as repeated runs of one
test case do), and the recorded calls of each run are drawn anew.

Shape (documented, and checked by ``tests/bench/test_corpus.py``):

* tools are drawn from a catalogue of 8 tools (:data:`CATALOGUE`);
* a scenario expects 4 to 6 calls (5 on average); about 10 % of them name no arguments, about
  a third name only some of the arguments the call will carry, and about 15 % of scenarios expect
  one call twice (a repeated call);
* a run records 8 calls on average (7 to 9): each expected call is made with probability 0.85,
  carrying extra arguments the expectation does not name; top-level integers become floats
  with probability 0.15 (``5`` -> ``5.0``, which Tool Call Accuracy accepts), nested integers with
  probability 0.1 (which it does not); the rest are extra calls from the catalogue; in 70 % of the
  runs the calls are shuffled (reordering).

The same module renders a corpus as a ``.expect`` spec (one case per scenario) and a canonical
JSONL log (one line per run), and holds :data:`SEMANTICS_CASES`, the named cases of the semantics
table with the value Tool Call Accuracy (``docs/matching.md``, Pairing) gives each.

This module uses only the standard library: the peers' harness imports it in their own venvs.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Call = dict[str, Any]

CITIES = ["Berlin", "Lisbon", "Rome", "Oslo", "Paris", "Madrid", "Vienna", "Prague"]
AIRPORTS = ["TXL", "LIS", "FCO", "OSL", "CDG", "MAD", "VIE", "PRG"]
PEOPLE = ["ops@example.com", "ana@example.com", "li@example.com", "sam@example.com"]
LABELS = ["bug", "docs", "perf", "ui", "api"]


def _weather(rng: random.Random) -> dict[str, Any]:
    return {"city": rng.choice(CITIES), "days": rng.randint(1, 7), "unit": rng.choice(["C", "F"])}


def _flights(rng: random.Random) -> dict[str, Any]:
    origin, destination = rng.sample(AIRPORTS, 2)
    return {
        "origin": origin,
        "destination": destination,
        "date": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "passengers": rng.randint(1, 4),
    }


def _hotel(rng: random.Random) -> dict[str, Any]:
    return {
        "city": rng.choice(CITIES),
        "nights": rng.randint(1, 10),
        "prefs": {"smoking": rng.random() < 0.2, "floor": rng.randint(0, 9)},
    }


def _email(rng: random.Random) -> dict[str, Any]:
    return {
        "to": rng.choice(PEOPLE),
        "subject": f"report {rng.randint(1, 99)}",
        "cc": rng.sample(PEOPLE, rng.randint(0, 2)),
    }


def _issue(rng: random.Random) -> dict[str, Any]:
    return {
        "repo": f"acme/{rng.choice(['web', 'api', 'cli'])}",
        "title": f"issue {rng.randint(1, 500)}",
        "labels": rng.sample(LABELS, rng.randint(1, 2)),
        "meta": {"priority": rng.randint(1, 3), "estimate": rng.choice([0.5, 1.5, 2.5])},
    }


def _currency(rng: random.Random) -> dict[str, Any]:
    return {"amount": rng.choice([10, 25, 99.5, 120, 1000]), "source": "EUR", "target": "USD"}


def _user(rng: random.Random) -> dict[str, Any]:
    return {"id": rng.randint(1, 50)}


def _thermostat(rng: random.Random) -> dict[str, Any]:
    return {"temperature": rng.choice([19, 20.5, 21, 22]), "zone": rng.choice(["living", "office"])}


CATALOGUE: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "get_weather": _weather,
    "search_flights": _flights,
    "book_hotel": _hotel,
    "send_email": _email,
    "create_issue": _issue,
    "convert_currency": _currency,
    "lookup_user": _user,
    "set_thermostat": _thermostat,
}
"""The tool catalogue: tool name -> generator of a full, plausible argument object."""

TOOLS = list(CATALOGUE)


def _random_call(rng: random.Random) -> Call:
    tool = rng.choice(TOOLS)
    return {"name": tool, "arguments": CATALOGUE[tool](rng)}


def _floats_top(arguments: dict[str, Any]) -> dict[str, Any]:
    """Top-level integers (not booleans) as floats: ``5`` -> ``5.0``."""
    return {k: float(v) if type(v) is int else v for k, v in arguments.items()}


def _floats_nested(arguments: dict[str, Any]) -> dict[str, Any]:
    """Integers inside the top-level objects as floats (the top level is left alone)."""
    out: dict[str, Any] = {}
    for key, value in arguments.items():
        if isinstance(value, dict):
            value = {k: float(v) if type(v) is int else v for k, v in value.items()}
        out[key] = value
    return out


def _scenario(rng: random.Random) -> list[tuple[Call, Call]]:
    """A scenario's expected calls, each with the full call it was written after."""
    count = rng.randint(4, 6)
    repeated = rng.random() < 0.15  # a repeated call: one expectation twice
    pairs: list[tuple[Call, Call]] = []
    for _ in range(count - 1 if repeated else count):
        full = _random_call(rng)
        roll = rng.random()
        if roll < 0.10:
            arguments: dict[str, Any] = {}
        elif roll < 0.43:
            keys = list(full["arguments"])
            kept = set(rng.sample(keys, rng.randint(1, max(1, len(keys) - 1))))
            arguments = {k: full["arguments"][k] for k in keys if k in kept}
        else:
            arguments = copy.deepcopy(full["arguments"])
        pairs.append(({"name": full["name"], "arguments": arguments}, full))
    if repeated:
        pairs.insert(rng.randrange(len(pairs) + 1), copy.deepcopy(rng.choice(pairs)))
    return pairs


def _run(rng: random.Random, pairs: list[tuple[Call, Call]], size: int) -> list[Call]:
    """The recorded calls of one run of a scenario: ``size`` calls, noise applied."""
    actual: list[Call] = []
    for _, full in pairs:
        if rng.random() >= 0.85:
            continue
        arguments = copy.deepcopy(full["arguments"])
        arguments["trace_id"] = f"t{rng.randrange(10**6)}"  # an extra argument no one expects
        if rng.random() < 0.15:
            arguments = _floats_top(arguments)
        if rng.random() < 0.10:
            arguments = _floats_nested(arguments)
        actual.append({"name": full["name"], "arguments": arguments})
    while len(actual) < size:
        actual.append(_random_call(rng))
    if rng.random() < 0.7:
        rng.shuffle(actual)
    return actual


def generate(seed: int = 7, scenarios: int = 200, runs: int = 50) -> dict[str, Any]:
    """The corpus of ``scenarios * runs`` samples for ``seed``: same seed, same corpus.

    Returns ``{"seed", "scenarios", "runs", "samples"}``; each sample is
    ``{"id": scenario id, "run": index, "expected": [calls], "actual": [calls]}``, ordered by run
    then scenario (as a log of repeated test-suite runs would be).
    """
    rng = random.Random(seed)
    expectations = [_scenario(rng) for _ in range(scenarios)]
    samples: list[dict[str, Any]] = []
    for run in range(runs):
        for index, pairs in enumerate(expectations):
            size = rng.randint(7, 9)
            samples.append(
                {
                    "id": f"s{index:05d}",
                    "run": run,
                    "expected": [copy.deepcopy(e) for e, _ in pairs],
                    "actual": _run(rng, pairs, max(size, len(pairs))),
                }
            )
    return {"seed": seed, "scenarios": scenarios, "runs": runs, "samples": samples}


def growth_sample(calls: int, seed: int = 11) -> tuple[list[Call], list[Call]]:
    """One large sample of ``calls`` recorded calls and about ``5/8 * calls`` expected calls.

    Drawn with the corpus' noise, so cost can be measured against sample size.
    """
    rng = random.Random(seed)
    wanted = max(1, round(calls * 5 / 8))
    pairs: list[tuple[Call, Call]] = []
    while len(pairs) < wanted:
        pairs.extend(_scenario(rng))
    pairs = pairs[:wanted]
    actual = _run(rng, pairs, calls)[:calls]
    return [e for e, _ in pairs], actual


# --- rendering for the CLI --------------------------------------------------------------------


def _literal(value: Any) -> str:
    """A spec literal for a JSON value (JSON text is a valid spec value)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"no spec literal for {value!r}")
    return json.dumps(value, ensure_ascii=False)


def expectation_text(call: Call) -> str:
    """``expect``-statement text of a plain equality expectation."""
    arguments = call["arguments"]
    if not arguments:
        return call["name"]
    rendered = ", ".join(f"{json.dumps(k)}={_literal(v)}" for k, v in arguments.items())
    return f"{call['name']}({rendered})"


def spec_text(cases: Iterable[tuple[str, list[Call]]]) -> str:
    """A ``.expect`` spec with one case per ``(name, expected calls)``."""
    lines: list[str] = []
    for name, expected in cases:
        lines.append(f"case {json.dumps(name)} {{")
        lines.extend(f"    expect {expectation_text(call)}" for call in expected)
        lines.append("}")
    return "\n".join(lines) + "\n"


def write_spec_and_log(samples: list[dict[str, Any]], folder: Path) -> tuple[Path, Path]:
    """Write ``bench.expect`` (a case per distinct id) and ``bench.jsonl`` (a line per sample)."""
    seen: dict[str, list[Call]] = {}
    for sample in samples:
        seen.setdefault(sample["id"], sample["expected"])
    spec = folder / "bench.expect"
    spec.write_text(spec_text(seen.items()), encoding="utf-8")
    log = folder / "bench.jsonl"
    with log.open("w", encoding="utf-8") as out:
        for sample in samples:
            out.write(json.dumps({"id": sample["id"], "tool_calls": sample["actual"]}) + "\n")
    return spec, log


# --- the semantics cases ------------------------------------------------------------------------


def _c(name: str, **arguments: Any) -> Call:
    return {"name": name, "arguments": arguments}


@dataclass(frozen=True)
class SemanticsCase:
    """A named case of the semantics table and the score Tool Call Accuracy gives it."""

    key: str
    title: str
    expected: list[Call]
    actual: list[Call]
    definition: float
    why: str
    tags: list[str] = field(default_factory=list)


SEMANTICS_CASES: list[SemanticsCase] = [
    SemanticsCase(
        "exact",
        "exact match",
        [_c("get_weather", city="Berlin", days=2)],
        [_c("get_weather", city="Berlin", days=2)],
        1.0,
        "same tool, same arguments",
    ),
    SemanticsCase(
        "extra_argument",
        "extra argument",
        [_c("get_weather", city="Berlin")],
        [_c("get_weather", city="Berlin", unit="C")],
        1.0,
        "expected arguments are a subset of the actual ones",
    ),
    SemanticsCase(
        "argless_vs_specific",
        "argument-less expectation vs a specific one",
        [_c("get_weather"), _c("get_weather", city="Berlin")],
        [_c("get_weather", city="Berlin"), _c("get_weather", city="Paris")],
        1.0,
        "maximum matching: `get_weather` takes the Paris call, not the one Berlin needs",
    ),
    SemanticsCase(
        "int_float_top",
        "int vs float, top level",
        [_c("get_weather", city="Berlin", days=5)],
        [_c("get_weather", city="Berlin", days=5.0)],
        1.0,
        "top-level numbers compare by value",
    ),
    SemanticsCase(
        "int_float_nested",
        "int vs float, nested",
        [_c("book_hotel", prefs={"floor": 5})],
        [_c("book_hotel", prefs={"floor": 5.0})],
        0.0,
        "nested values compare strictly, type included",
    ),
    SemanticsCase(
        "reordering",
        "calls in another order",
        [_c("search_flights", origin="TXL"), _c("send_email", to="ops@example.com")],
        [_c("send_email", to="ops@example.com"), _c("search_flights", origin="TXL")],
        1.0,
        "accuracy ignores order (order is a separate `then` requirement)",
    ),
    SemanticsCase(
        "missing_duplicate",
        "expected twice, called once",
        [_c("lookup_user", id=7), _c("lookup_user", id=7)],
        [_c("lookup_user", id=7)],
        0.5,
        "each actual call satisfies at most one expectation",
    ),
    SemanticsCase(
        "extra_call",
        "an extra call",
        [_c("get_weather", city="Berlin")],
        [_c("get_weather", city="Berlin"), _c("delete_user", id=1)],
        1.0,
        "extra actual calls do not lower accuracy",
    ),
    SemanticsCase(
        "partial",
        "one of two expected calls made",
        [_c("get_weather", city="Berlin"), _c("send_email", to="ops@example.com")],
        [_c("get_weather", city="Berlin")],
        0.5,
        "score = matched / expected",
    ),
    SemanticsCase(
        "bool_vs_1",
        "true vs 1",
        [_c("book_hotel", smoking=True)],
        [_c("book_hotel", smoking=1)],
        0.0,
        "booleans are never numbers",
    ),
    SemanticsCase(
        "key_order",
        "object key order",
        [_c("create_issue", meta={"priority": 1, "estimate": 0.5})],
        [_c("create_issue", meta={"estimate": 0.5, "priority": 1})],
        1.0,
        "object key order never matters",
    ),
    SemanticsCase(
        "string_vs_number",
        'string "5" vs number 5',
        [_c("lookup_user", id="5")],
        [_c("lookup_user", id=5)],
        0.0,
        "strings are compared exactly; a string is not a number",
    ),
    SemanticsCase(
        "nested_negative_zero",
        "nested -0.0 vs 0.0",
        [_c("set_thermostat", offsets=[0.0, 1.5])],
        [_c("set_thermostat", offsets=[-0.0, 1.5])],
        0.0,
        "nested -0.0 is not nested 0.0",
    ),
    SemanticsCase(
        "list_order",
        "list order",
        [_c("create_issue", labels=["bug", "ui"])],
        [_c("create_issue", labels=["ui", "bug"])],
        0.0,
        "list order always matters",
    ),
    SemanticsCase(
        "tool_name_case",
        "tool name case",
        [_c("get_weather", city="Berlin")],
        [_c("Get_Weather", city="Berlin")],
        0.0,
        "tool names are case-sensitive",
    ),
    SemanticsCase(
        "nothing_called",
        "agent called nothing",
        [_c("get_weather", city="Berlin")],
        [],
        0.0,
        "a recorded run with no calls scores 0.0",
    ),
]
"""The semantics table's cases, in table order."""


def semantics_corpus() -> dict[str, Any]:
    """The semantics cases as a corpus (one sample per case, id = the case's key)."""
    return {
        "seed": None,
        "scenarios": len(SEMANTICS_CASES),
        "runs": 1,
        "samples": [
            {"id": case.key, "run": 0, "expected": case.expected, "actual": case.actual}
            for case in SEMANTICS_CASES
        ],
    }
