"""The one-loop runner of lark's tables gives what lark gives, and leaves errors to lark."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from toolexpect import parse
from toolexpect._grammar import Unsure

ROOT = Path(__file__).resolve().parents[2]


def _sources() -> list[str]:
    texts = []
    for path in sorted([*ROOT.glob("specs/**/*.expect"), *ROOT.glob("tests/cases/**/*.expect")]):
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return texts


_PIECES = [*'()[]{},;="\'\\#\n ~?<>=+-.:x1', "then ", "expect ", "case ", "...", "\\q", "1e999", "\\ud800"]


def _mutants(texts: list[str], count: int) -> list[str]:
    """Texts cut short, or with one piece put in or one character taken out (seeded)."""
    chance = random.Random(11)
    out = []
    for _ in range(count):
        text = chance.choice(texts)
        if not text:
            continue
        at = chance.randrange(len(text))
        kind = chance.randrange(3)
        if kind == 0:
            out.append(text[:at])
        elif kind == 1:
            out.append(text[:at] + chance.choice(_PIECES) + text[at:])
        else:
            out.append(text[:at] + text[at + 1 :])
    return out


def _result(text: str, one_loop: bool) -> tuple[Any, ...]:
    parse.ONE_LOOP = one_loop
    try:
        result = parse.parse_text(text, "spec")
    finally:
        parse.ONE_LOOP = True
    return (result.document, result.diagnostics, result.comments)


def test_the_one_loop_gives_what_lark_gives() -> None:
    """Documents, diagnostics and comments are the same with and without the one loop."""
    texts = _sources()
    assert len(texts) > 20
    for text in [*texts, *_mutants(texts, 600)]:
        assert _result(text, True) == _result(text, False), text


def test_the_one_loop_takes_valid_specs_itself() -> None:
    """A spec that parses is parsed by the one loop, not handed back to lark."""
    loop = parse._one_loop()
    assert loop is not None
    text = (ROOT / "specs" / "weather.expect").read_text(encoding="utf-8")
    parse._BUILD.problems = []
    items = loop(text)
    assert any(isinstance(item, dict) for item in items)


@pytest.mark.parametrize(
    "text",
    ['expect t(x=1\nexpect u', "expect t(x=@)", "case {", "expect t(x=" + "[" * 70, "expect t x"],
)
def test_the_one_loop_leaves_errors_to_lark(text: str) -> None:
    """At a syntax error or too deep a value the one loop gives up, and lark reports it."""
    loop = parse._one_loop()
    assert loop is not None
    with pytest.raises(Unsure):
        loop(text)
    assert parse.parse_text(text).diagnostics
