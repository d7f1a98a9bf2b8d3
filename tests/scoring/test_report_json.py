"""The ``json`` report of a large score: the fast text equals the dump of ``to_json``."""

from __future__ import annotations

import json
import random

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.model import ArgMatcher, Case, Expectation, Op, Spec
from toolexpect.report import score as report
from toolexpect.report.score_json import json_text
from toolexpect.scoring.partial import score


def _spec() -> Spec:
    cases = (
        Case(
            "many",
            expectations=(
                Expectation("f", (ArgMatcher("x", Op.EQ, value=1),)),
                Expectation("g"),
            ),
            threshold=0.5,
        ),
        Case("strict", expectations=(Expectation("f", (ArgMatcher("x", Op.EQ, value="ü"),)),)),
        Case("once", expectations=(Expectation("f"),)),
        Case("never", expectations=(Expectation("h"),)),
        Case("quiet", no_tool_calls=True),
    )
    return Spec(path="big.expect", cases=cases)


def _samples(runs: int) -> list[RecordedSample]:
    rng = random.Random(5)
    samples: list[RecordedSample] = []
    for _ in range(runs):
        for name in ("many", "strict"):
            calls = tuple(
                ToolCall(rng.choice("fg"), {"x": rng.choice([1, 1.0, 2, "ü", True])})
                for _ in range(rng.randrange(4))
            )
            samples.append(RecordedSample(name, calls))
    samples.append(RecordedSample("once", (ToolCall("f"),)))
    samples.append(RecordedSample("quiet", (ToolCall("f"),)))
    samples.append(RecordedSample("nobody", ()))
    return samples


def test_large_json_report_is_the_dump_of_to_json() -> None:
    """Cached run texts and the case-per-line layout give exactly the plain dump."""
    result = score([_spec()], _samples(700))
    text = report.render(result, "json")
    assert text == json_text(report.to_json(result))
    data = json.loads(text)
    assert len(data["cases"][0]["runs"]) == 700
    assert data["summary"]["cases"] == 5


def test_small_json_report_is_indented() -> None:
    """A report with few runs keeps the indented layout."""
    result = score([_spec()], _samples(3))
    text = report.render(result, "json")
    assert text == json.dumps(report.to_json(result), indent=2, ensure_ascii=False) + "\n"


def test_chunks_join_to_the_rendered_report() -> None:
    """Writing the pieces gives exactly the rendered text, in every format."""
    for runs in (3, 700):
        result = score([_spec()], _samples(runs))
        for fmt in report.FORMATS:
            assert "".join(report.render_chunks(result, fmt)) == report.render(result, fmt)
