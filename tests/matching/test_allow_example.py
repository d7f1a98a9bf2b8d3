"""docs/matching.md's worked example of precision and F1 with allowed calls computes as written."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from matching_support import case_of

from toolexpect.calls import ToolCall
from toolexpect.matching import evaluate

DOC = Path(__file__).resolve().parents[2] / "docs" / "matching.md"


def _example() -> tuple[str, list[ToolCall]]:
    """The example's spec and the recorded calls of its table."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index('id="precision-and-f1"') :]
    spec = section.split("```", 2)[1]
    calls = []
    for number, tool, arguments in re.findall(r"^\| (\d) \| `(\w+)\(([^)]*)\)` \|", section, re.MULTILINE):
        name, _, value = arguments.partition("=")
        calls.append(ToolCall(tool, {name: json.loads(value)}))
        assert len(calls) == int(number)
    return spec, calls


def test_the_worked_example_scores_as_the_documentation_says() -> None:
    """Score 0.50, three calls allowed, precision and F1 0.50 (0.20 and 0.29 without the allows)."""
    spec, calls = _example()
    case = case_of(spec)
    assert len(calls) == 5 and len(case.allows) == 2
    result = evaluate(case, calls)
    assert (result.score, result.allowed, result.precision, result.f1) == (0.5, 3, 0.5, 0.5)
    bare = evaluate(replace(case, allows=()), calls)
    assert bare.score == 0.5
    assert bare.precision == pytest.approx(0.2)
    assert round(bare.f1 or 0, 2) == 0.29


def test_with_no_unexpected_calls_only_the_extra_call_is_listed() -> None:
    """Under require no unexpected calls the run fails on call #4 alone, with the documented words."""
    spec, calls = _example()
    case = replace(case_of(spec), no_unexpected_calls=True)
    unexpected = [f.message for f in evaluate(case, calls).failures if f.kind == "unexpected"]
    assert unexpected == [
        "unexpected call #4 list_files: no expectation is paired with it and no allow matches it"
    ]
    assert "`" + unexpected[0].replace("\n", " ") + "`" in DOC.read_text(encoding="utf-8").replace("\n", " ")
