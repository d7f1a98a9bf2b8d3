"""BFCL's AST checker (``bfcl_eval``'s ``ast_checker``) in its ``parallel`` category.

The checker needs a function description per tool and a "possible answer" per expected call:
the description declares every argument seen in the sample for that tool, typed after the expected
values (after the recorded ones for arguments no expectation names; ``float`` when any is a float,
else the JSON type), with the expected call's arguments required; the possible answer lists each
expected argument with its one expected value (objects
as ``{key: [value]}``, as BFCL writes them). ``parallel`` pairs every expected call with one
recorded call, in any order, and needs as many recorded calls as expected ones. The checker gives
pass or fail: 1.0 or 0.0.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from bfcl_eval.constants.enums import Language
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker

Scorer = Callable[[Any, list[dict[str, Any]]], float]
MODEL = "gpt-4o-2024-11-20-FC"
NATIVE_MODEL = "gorilla-openfunctions-v2"
"""A model whose function names keep their dots (``math.factorial``), as BFCL's own data has them."""


def versions() -> dict[str, str]:
    """Versions of the packages this adapter uses."""
    return {"bfcl-eval": version("bfcl-eval")}


def _type(values: list[Any]) -> dict[str, Any]:
    kinds = {type(v) for v in values}
    if bool in kinds and len(kinds) == 1:
        return {"type": "boolean"}
    if float in kinds:
        return {"type": "float"}
    if int in kinds:
        return {"type": "integer"}
    if list in kinds:
        items = [x for v in values if isinstance(v, list) for x in v]
        return {"type": "array", "items": _type(items) if items else {"type": "string"}}
    if dict in kinds:
        return {"type": "dict", "properties": {}}
    return {"type": "string"}


def _descriptions(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, list[Any]]] = {}
    required: dict[str, set[str]] = {}
    for call in expected:
        params = seen.setdefault(call["name"], {})
        for key, value in call["arguments"].items():
            params.setdefault(key, []).append(value)
    for call in actual:
        params = seen.setdefault(call["name"], {})
        for key, value in call["arguments"].items():
            if key not in required.get(call["name"], ()) and not any(
                key in e["arguments"] for e in expected if e["name"] == call["name"]
            ):
                params.setdefault(key, []).append(value)
    for call in expected:
        required.setdefault(call["name"], set()).update(call["arguments"])
    return [
        {
            "name": name,
            "description": name,
            "parameters": {
                "type": "dict",
                "properties": {k: _type(v) for k, v in params.items()},
                "required": sorted(required.get(name, ())),
            },
        }
        for name, params in seen.items()
    ]


def _answer(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [{k: _answer(v) for k, v in value.items()}]
    return [value]


def metrics() -> dict[str, Scorer]:
    """The metrics to score, by display name."""

    def score(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> float:
        result = ast_checker(
            _descriptions(expected, actual),
            [{c["name"]: c["arguments"]} for c in actual],
            [{c["name"]: {k: _answer(v) for k, v in c["arguments"].items()}} for c in expected],
            Language.PYTHON,
            "parallel",
            MODEL,
        )
        return 1.0 if result["valid"] else 0.0

    return {"AST checker (parallel)": score}


def bfcl_metrics() -> dict[str, Scorer]:
    """The checker on BFCL's own data (``bench/bfcl_corpus.py``), in each entry's own category."""

    def score(expected: dict[str, Any], actual: list[dict[str, Any]]) -> float:
        result = ast_checker(
            expected["functions"],
            [{c["name"]: c["arguments"]} for c in actual],
            expected["ground_truth"],
            Language.PYTHON,
            expected["category"],
            NATIVE_MODEL,
        )
        return 1.0 if result["valid"] else 0.0

    return {"AST checker (own category)": score}
