"""A float literal that is not zero but would be read as 0 (``1e-400``) is P110 at its place, as
``1e400`` is, in text, JSON and YAML specs alike; zero and the smallest 64-bit floats are kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from language_support import run_cli

from toolexpect import SpecError, parse_spec
from toolexpect.specfiles.stages import kind_of, parse_spec_source


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


def _texts(number: str) -> dict[str, str]:
    """One spec with ``number`` as an argument value, in each of the three forms."""
    return {
        "t.expect": f"expect t(x={number})\n",
        "t.expect.json": '{"cases": [{"name": "a", "expect": [{"tool": "t", "args": '
        f'[{{"name": "x", "op": "eq", "value": {number}}}]}}]}}]}}',
        "t.expect.yaml": "cases:\n  - name: a\n    expect:\n      - tool: t\n"
        f"        args:\n          - {{name: x, op: eq, value: {number}}}\n",
    }


# Every literal has a dot and a signed exponent, so that YAML reads it as a float too.
TINY = ["1.0e-400", "-1.0e-400", "2.0e-324", "0.0001e-320", "9.99e-999"]
KEPT = ["0.0e-400", "0.000e+5", "-0.0", "5.0e-324", "3.0e-324", "1.0e-320", "2.2250738585072014e-308"]


@pytest.mark.parametrize("literal", TINY)
@pytest.mark.parametrize("name", ["t.expect", "t.expect.json", "t.expect.yaml"])
def test_a_nonzero_literal_read_as_zero_is_p110_at_its_place(name: str, literal: str) -> None:
    """1e-400 and its like are P110 "too small to represent" at their line and column."""
    text = _texts(literal)[name]
    loaded = parse_spec_source(text, kind_of(name))
    assert [d.code for d in loaded.diagnostics] == ["P110"]
    diagnostic = loaded.diagnostics[0]
    assert diagnostic.message == f"number {literal} is too small to represent: it would be read as 0"
    assert diagnostic.span is not None
    line = text.splitlines()[diagnostic.span.line - 1]
    assert line[diagnostic.span.column - 1 :].startswith(literal)
    assert loaded.spec is None


@pytest.mark.parametrize("literal", KEPT)
@pytest.mark.parametrize("name", ["t.expect", "t.expect.json", "t.expect.yaml"])
def test_zero_and_the_smallest_floats_are_kept(name: str, literal: str) -> None:
    """A zero written with an exponent, -0.0 and subnormal floats read as their float value."""
    loaded = parse_spec_source(_texts(literal)[name], kind_of(name))
    assert loaded.ok, loaded.diagnostics
    assert loaded.document is not None
    value = loaded.document["cases"][0]["expect"][0]["args"][0]["value"]
    assert value == float(literal) and str(value) == str(float(literal))


def test_a_tolerance_and_a_threshold_that_read_as_zero_are_refused() -> None:
    """An underflowing tolerance or threshold is P110 too: it cannot turn into 0 in silence."""
    for text in ("expect t(x = 1 +- 1e-400)\n", "expect t\nrequire accuracy >= 1e-400\n"):
        with pytest.raises(SpecError, match="P110"):
            parse_spec(text)


def test_score_refuses_the_spec_rather_than_passing_a_logged_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """expect t(x=1e-400) against a logged x=0 is exit 2 with P110, never a pass."""
    spec = tmp_path / "t.expect"
    spec.write_text("expect t(x=1e-400)\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    log.write_text('{"tool_calls": [{"name": "t", "arguments": {"x": 0}}]}\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "score", str(spec), "--log", str(log))
    assert code == 2
    assert "P110" in err and "too small to represent" in err
    code, out, err = run_cli(capsys, "lint", str(spec))
    assert code == 1 and "P110" in out + err
