"""The corpus of BFCL's data: possible answers become cases; toolexpect scores its runs as labelled."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from toolexpect import parse_spec, score

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bfcl_corpus


def _function(name: str, properties: dict[str, str], required: list[str]) -> dict[str, Any]:
    return {
        "name": name,
        "description": name,
        "parameters": {
            "type": "dict",
            "properties": {k: {"type": t} for k, t in properties.items()},
            "required": required,
        },
    }


QUESTIONS = {
    "simple_python": [
        {
            "id": "simple_python_0",
            "function": [
                _function("calc.area", {"base": "integer", "unit": "string", "scale": "float"}, ["base"])
            ],
        }
    ],
    "parallel": [
        {
            "id": "parallel_0",
            "function": [_function("weather", {"city": "string", "days": "integer"}, ["city", "days"])],
        }
    ],
    "multiple": [
        {
            "id": "multiple_0",
            "function": [
                _function("book", {"prefs": "dict"}, ["prefs"]),
                _function("cancel", {"id": "integer"}, ["id"]),
            ],
        }
    ],
}
ANSWERS = {
    "simple_python_0": [{"calc.area": {"base": [10], "unit": ["units", ""], "scale": [2.0, ""]}}],
    "parallel_0": [
        {"weather": {"city": ["Berlin"], "days": [3]}},
        {"weather": {"city": ["Paris", "Paris, France"], "days": [3, ""]}},
    ],
    "multiple_0": [{"book": {"prefs": [{"smoking": [False, ""], "floor": [1, 2]}]}}],
}


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """A data folder laid out as bfcl-eval's, with a few entries."""
    (tmp_path / "possible_answer").mkdir()
    for stem, entries in QUESTIONS.items():
        lines = [json.dumps({**e, "question": [[{"role": "user", "content": "?"}]]}) for e in entries]
        (tmp_path / f"BFCL_v4_{stem}.json").write_text("\n".join(lines) + "\n")
        answers = [json.dumps({"id": e["id"], "ground_truth": ANSWERS[e["id"]]}) for e in entries]
        (tmp_path / "possible_answer" / f"BFCL_v4_{stem}.json").write_text("\n".join(answers) + "\n")
    # A live category whose name ends like an AST one must not be taken for it.
    (tmp_path / "BFCL_v4_live_parallel.json").write_text("")
    return tmp_path


def test_files_are_found_by_exact_category(data: Path) -> None:
    """Each AST category takes its own file, not a live or parallel_* file ending the same way."""
    found = bfcl_corpus.find_files(data)
    assert {k: v[0].name for k, v in found.items()} == {
        "simple": "BFCL_v4_simple_python.json",
        "parallel": "BFCL_v4_parallel.json",
        "multiple": "BFCL_v4_multiple.json",
    }


def test_possible_answers_become_cases() -> None:
    """Accepted values become ``in``; an empty string makes an argument optional unless required."""
    entry = {"id": "simple_python_0", "functions": QUESTIONS["simple_python"][0]["function"]}
    entry["ground_truth"] = ANSWERS["simple_python_0"]
    assert bfcl_corpus.case_text(entry) == (
        'case "simple_python_0" {\n'
        '    expect calc.area("base" in [10], "unit"? in ["units"], "scale"? in [2.0])\n'
        "}\n"
    )
    objects = bfcl_corpus._accepted(ANSWERS["multiple_0"][0]["book"]["prefs"])
    assert objects == [
        {"smoking": False, "floor": 1},
        {"smoking": False, "floor": 2},
        {"floor": 1},
        {"floor": 2},
    ]


def test_toolexpect_scores_each_run_as_labelled(data: Path) -> None:
    """Runs equal to a possible answer pass, broken ones fail, through the public API."""
    corpus = bfcl_corpus.generate(data, seed=3, runs=40)
    assert corpus["categories"] == {"simple": 1, "multiple": 1, "parallel": 1}
    assert corpus["skipped"] == {}
    specs: dict[str, Any] = {}
    broken = set()
    for sample in corpus["samples"]:
        text = sample["expected"]["spec"]
        spec = specs.setdefault(text, parse_spec(text))
        assert score(spec, sample["actual"]).passed == (sample["verdict"] == 1.0), sample
        broken.add(sample["broken"])
    assert broken == {None, "value", "missing", "tool"}
    assert parse_spec(corpus["spec"]) is not None
