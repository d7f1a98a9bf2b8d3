"""The second benchmark corpus: BFCL's own single-turn questions and possible answers.

``bfcl-eval`` ships its data: for each test category a question file (``BFCL_v<N>_<category>.json``,
JSON Lines, each entry with the offered ``function`` descriptions) and a ``possible_answer`` file
(the same ids, each with a ``ground_truth`` list of calls that name, per argument, every accepted
value; an empty string among them means the argument may be left out). The AST categories used
here are ``simple`` (``simple_python`` in v4), ``multiple``, ``parallel`` and ``parallel_multiple``.

For every entry and run a *recorded* list of calls is made that equals one of the possible answers
(each argument takes one accepted value, an optional one is left out half the time, an integral
float is written as an integer a third of the time, parallel calls are shuffled), so the numbers of
expected and recorded calls match and BFCL's checker does its full work. About 45 % of the samples
are then broken in one way both metrics must reject: an argument gets a value no answer accepts,
a required argument is dropped, or a call names another tool. ``verdict`` is the generator's own
pass/fail for the sample.

Each entry also becomes a toolexpect case: every call of the ground truth is ``expect tool(...)``
with ``arg in [values]`` per argument, ``arg? in [values]`` where the empty string is accepted
and the function's description does not list the argument as required (BFCL's checker holds a
call to both), and ``not arg`` where only the empty string is, or where the function does not declare the
argument (BFCL then accepts no other value; an entry whose answer needs an undeclared
argument can never pass BFCL's checker, and is left out). An object
argument whose keys each list their accepted values becomes the list of every object those
choices make (at most :data:`MAX_CHOICES`; an entry needing more is left out and counted).

Where the two are known to differ, no sample goes: BFCL compares strings after dropping case,
spaces and ``,./-_*^``, and refuses arguments its possible answer does not list, toolexpect
compares strings exactly and accepts extra arguments. The recorded calls here only use values
written in the possible answers and add no argument, so both should agree on every sample.

Only the standard library is used: the peers' harness imports this module in their own venvs.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

Call = dict[str, Any]

CATEGORIES = {  # toolexpect's name of a category -> the file stems of bfcl-eval's releases
    "simple": ("simple_python", "simple"),
    "multiple": ("multiple",),
    "parallel": ("parallel",),
    "parallel_multiple": ("parallel_multiple",),
}
MAX_CHOICES = 64
"""The most objects one argument's accepted values may expand to."""
BROKEN_SHARE = 0.45


def find_files(data: Path) -> dict[str, tuple[Path, Path]]:
    """The question and possible-answer files of each category in bfcl-eval's ``data`` folder."""
    found: dict[str, tuple[Path, Path]] = {}
    for category, stems in CATEGORIES.items():
        for stem in stems:
            pattern = re.compile(rf"BFCL_v(\d+)_{stem}\.json")
            versions = sorted(
                (int(match[1]), path)
                for path in data.glob("BFCL_v*.json")
                if (match := pattern.fullmatch(path.name))
            )
            if versions:
                questions = versions[-1][1]
                answers = data / "possible_answer" / questions.name
                if answers.exists():
                    found[category] = (questions, answers)
                    break
    return found


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load(data: Path) -> list[dict[str, Any]]:
    """Every entry of the AST categories: id, category, offered functions, ground truth."""
    entries = []
    for category, (questions, answers) in find_files(data).items():
        truth = {a["id"]: a["ground_truth"] for a in _lines(answers)}
        for question in _lines(questions):
            if question["id"] in truth:
                entries.append(
                    {
                        "id": question["id"],
                        "category": category,
                        "functions": question["function"],
                        "ground_truth": truth[question["id"]],
                    }
                )
    return entries


# --- possible answers as toolexpect expectations -------------------------------------------------


class Unconvertible(ValueError):
    """An entry whose possible answers toolexpect's language cannot state in few enough values."""


def _objects(choices: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every object one value per key makes; a key whose values include ``""`` may be left out."""
    keys = list(choices)
    options = []
    for key in keys:
        values = [v for v in choices[key] if v != ""]
        options.append([*values, _ABSENT] if "" in choices[key] else values)
    count = 1
    for option in options:
        count *= len(option)
    if count > MAX_CHOICES:
        raise Unconvertible(f"{count} objects")
    return [
        {k: v for k, v in zip(keys, combination, strict=True) if v is not _ABSENT}
        for combination in itertools.product(*options)
    ]


_ABSENT = object()


def _accepted(values: list[Any]) -> list[Any]:
    """The accepted values of one argument as plain values (objects expanded), ``""`` left out."""
    out: list[Any] = []
    for value in values:
        if value == "":
            continue
        if isinstance(value, dict):
            out.extend(_objects(value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lists = [_objects(v) for v in value]
            count = 1
            for one in lists:
                count *= len(one)
            if count > MAX_CHOICES:
                raise Unconvertible(f"{count} lists of objects")
            out.extend(list(combination) for combination in itertools.product(*lists))
        else:
            out.append(value)
    return out


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _optional(values: list[Any], name: str, required: set[str]) -> bool:
    """Whether an argument may be left out: its answers accept ``""`` and its function does not
    require it (BFCL's checker holds a call to the function's ``required`` list as well)."""
    return "" in values and name not in required


def expectation(call: dict[str, dict[str, list[Any]]], entry: dict[str, Any]) -> str:
    """The ``expect`` statement of one ground-truth call of an entry."""
    ((tool, arguments),) = call.items()
    required = _required(entry, tool)
    declared = _declared(entry, tool)
    parts = []
    for name, values in arguments.items():
        key = _literal(name)
        accepted = _accepted(values)
        if name not in declared and "" not in values:
            raise Unconvertible(f"the answer needs {name!r}, which {tool} does not declare")
        if not accepted or name not in declared:
            parts.append(f"not {key}")
        else:
            optional = "?" if _optional(values, name, required) else ""
            parts.append(f"{key}{optional} in [{', '.join(_literal(v) for v in accepted)}]")
    return f"expect {tool}({', '.join(parts)})" if parts else f"expect {tool}"


def _required(entry: dict[str, Any], tool: str) -> set[str]:
    for function in entry["functions"]:
        if function["name"] == tool:
            return set(function["parameters"].get("required", ()))
    return set()


def case_text(entry: dict[str, Any]) -> str:
    """The toolexpect case of one entry, named by its id."""
    body = "".join(f"    {expectation(call, entry)}\n" for call in entry["ground_truth"])
    return f"case {_literal(entry['id'])} {{\n{body}}}\n"


# --- recorded calls --------------------------------------------------------------------------------


def _declared(entry: dict[str, Any], tool: str) -> dict[str, Any]:
    for function in entry["functions"]:
        if function["name"] == tool:
            properties: dict[str, Any] = function["parameters"].get("properties", {})
            return properties
    return {}


def _pick(rng: random.Random, values: list[Any], declared: dict[str, Any]) -> Any:
    """One accepted value; an integral float sometimes as an integer (top level only)."""
    value = copy.deepcopy(rng.choice(_accepted(values)))
    if (
        isinstance(value, float)
        and value.is_integer()
        and declared.get("type") == "float"
        and rng.random() < 1 / 3
    ):
        return int(value)
    return value


def _answer(rng: random.Random, entry: dict[str, Any]) -> list[tuple[Call, dict[str, list[Any]]]]:
    """Recorded calls equal to one possible answer, each with the ground-truth arguments it answers."""
    calls = []
    for call in entry["ground_truth"]:
        ((tool, arguments),) = call.items()
        declared = _declared(entry, tool)
        required = _required(entry, tool)
        recorded: dict[str, Any] = {}
        for name, values in arguments.items():
            if name not in declared or not _accepted(values):
                continue
            if _optional(values, name, required) and rng.random() < 0.5:
                continue
            recorded[name] = _pick(rng, values, declared.get(name, {}))
        calls.append(({"name": tool, "arguments": recorded}, arguments))
    if len(calls) > 1:
        rng.shuffle(calls)
    return calls


def _wrong_value(value: Any, accepted: list[Any]) -> Any:
    """A value of the same type that no answer accepts."""
    if isinstance(value, bool):
        return None if (not value) in accepted else (not value)
    if isinstance(value, int | float):
        return max((v for v in accepted if isinstance(v, int | float)), default=value) + 17
    if isinstance(value, str):
        return value + " zzz"
    if isinstance(value, list):
        return [*value, value[0] if value else 17]
    return None


def _break(
    rng: random.Random, entry: dict[str, Any], answered: list[tuple[Call, dict[str, Any]]]
) -> str | None:
    """Break the sample in one way both metrics must reject; the way, or ``None`` if none applies."""
    ways = ["value", "missing", "tool"]
    rng.shuffle(ways)
    call, truth = rng.choice(answered)
    calls = [c for c, _ in answered]
    for way in ways:
        if way == "value":
            names = [n for n, v in call["arguments"].items() if not isinstance(v, dict)]
            if names:
                name = rng.choice(names)
                wrong = _wrong_value(call["arguments"][name], _accepted(truth[name]))
                if wrong is not None and wrong not in _accepted(truth[name]):
                    call["arguments"][name] = wrong
                    return "value"
        elif way == "missing":
            needed = _required(entry, call["name"])
            required = [n for n in call["arguments"] if not _optional(truth[n], n, needed)]
            if required:
                del call["arguments"][rng.choice(required)]
                return "missing"
        else:
            others = [f["name"] for f in entry["functions"] if f["name"] != call["name"]]
            others = [o for o in others if all(o != c["name"] for c in calls)]
            call["name"] = rng.choice(others) if others else call["name"] + "_v2"
            return "tool"
    return None


def generate(data: Path, seed: int = 7, runs: int = 3) -> dict[str, Any]:
    """The corpus: ``runs`` samples per convertible entry, the spec text, and what was left out."""
    rng = random.Random(seed)
    samples = []
    cases = []
    skipped: dict[str, str] = {}
    categories: dict[str, int] = {}
    for entry in load(data):
        try:
            text = case_text(entry)
        except Unconvertible as why:
            skipped[entry["id"]] = str(why)
            continue
        cases.append(text)
        categories[entry["category"]] = categories.get(entry["category"], 0) + 1
        expected = {"category": entry["category"], "functions": entry["functions"]}
        expected["ground_truth"] = entry["ground_truth"]
        expected["spec"] = text
        for _ in range(runs):
            answered = _answer(rng, entry)
            broken = _break(rng, entry, answered) if rng.random() < BROKEN_SHARE else None
            actual = [call for call, _ in answered]
            samples.append(
                {
                    "id": entry["id"],
                    "expected": expected,
                    "actual": actual,
                    "verdict": 0.0 if broken else 1.0,
                    "broken": broken,
                }
            )
    return {
        "seed": seed,
        "runs": runs,
        "categories": categories,
        "skipped": skipped,
        "spec": "".join(cases),
        "samples": samples,
    }


def write_spec_and_log(corpus: dict[str, Any], folder: Path) -> tuple[Path, Path]:
    """Write ``bfcl.expect`` (a case per entry) and ``bfcl.jsonl`` (a line per sample)."""
    spec = folder / "bfcl.expect"
    spec.write_text(corpus["spec"], encoding="utf-8")
    log = folder / "bfcl.jsonl"
    with log.open("w", encoding="utf-8") as out:
        for sample in corpus["samples"]:
            out.write(json.dumps({"id": sample["id"], "tool_calls": sample["actual"]}) + "\n")
    return spec, log
