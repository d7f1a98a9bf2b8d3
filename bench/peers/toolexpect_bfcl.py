"""toolexpect on BFCL's own data through its Python API: ``score(spec, calls).passed``.

Each sample carries its case's spec text (BFCL's possible answers written as ``arg in [...]``,
see ``bench/bfcl_corpus.py``). Two ways are timed: parsing the spec for every sample
(``parse_spec`` then ``score``), and scoring with the case's spec parsed the first time the case
is met (as a user loads a spec once and scores its runs; BFCL's checker likewise gets its possible
answers already decoded). The verdict is pass or fail, 1.0 or 0.0, as BFCL gives it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from toolexpect import parse_spec, score

Scorer = Callable[[dict[str, Any], list[dict[str, Any]]], float]


def versions() -> dict[str, str]:
    """Versions of the packages this adapter uses."""
    return {"toolexpect": version("toolexpect")}


def metrics() -> dict[str, Scorer]:
    """The metrics to score, by display name."""

    def parsed_every_time(expected: dict[str, Any], actual: list[dict[str, Any]]) -> float:
        return 1.0 if score(parse_spec(expected["spec"]), actual).passed else 0.0

    specs: dict[str, Any] = {}

    def parsed_once(expected: dict[str, Any], actual: list[dict[str, Any]]) -> float:
        text = expected["spec"]
        spec = specs.get(text)
        if spec is None:
            spec = specs[text] = parse_spec(text)
        return 1.0 if score(spec, actual).passed else 0.0

    return {
        "pass (Python API, spec parsed once per case)": parsed_once,
        "pass (Python API, spec parsed every sample)": parsed_every_time,
    }
