"""The parser's tables: read off lark, cached as plain data, and enough to parse without lark."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolexpect import _tables, parse
from toolexpect._grammar import COMMENTS, OneLoop, Unsure, grammar_text

ROOT = Path(__file__).resolve().parents[2]
WEATHER = (ROOT / "specs" / "weather.expect").read_text(encoding="utf-8")


def _fresh() -> _tables.Tables:
    return _tables.extract(parse._parser(), COMMENTS)


def _run(loop: OneLoop, text: str) -> object:
    parse._BUILD.problems = []
    COMMENTS.target = []
    try:
        return loop(text)
    finally:
        COMMENTS.target = None


def test_tables_survive_the_cache_unchanged(tmp_path: Path) -> None:
    """Saved and loaded again, the tables parse every example spec to the same items."""
    tables = _fresh()
    path = str(tmp_path / "tables.marshal")
    _tables.save(path, grammar_text(), tables)
    loaded = _tables.load(path, grammar_text())
    assert loaded is not None
    assert loaded.to_data() == tables.to_data()
    fresh = OneLoop(tables, parse._TRANSFORMER, COMMENTS)
    again = OneLoop(loaded, parse._TRANSFORMER, COMMENTS)
    for spec in sorted(ROOT.glob("specs/**/*.expect")):
        text = spec.read_text(encoding="utf-8")
        assert repr(_run(fresh, text)) == repr(_run(again, text))


def test_tables_of_another_grammar_are_not_used(tmp_path: Path) -> None:
    """A cache made from a different grammar text is ignored."""
    path = str(tmp_path / "tables.marshal")
    _tables.save(path, grammar_text(), _fresh())
    assert _tables.load(path, grammar_text() + "\n// changed\n") is None


def test_tables_made_by_other_code_are_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache written by another version of the code that reads lark's tables is ignored."""
    path = str(tmp_path / "tables.marshal")
    _tables.save(path, grammar_text(), _fresh())
    assert _tables.load(path, grammar_text()) is not None
    monkeypatch.setattr(_tables, "_made_by", lambda: "another")
    assert _tables.load(path, grammar_text()) is None


@pytest.mark.parametrize("content", [b"", b"\x00garbage", b"\xe9\x01\x00\x00\x00"])
def test_a_damaged_cache_is_ignored(tmp_path: Path, content: bytes) -> None:
    """A truncated or foreign cache file is no error: the tables are made afresh."""
    path = tmp_path / "tables.marshal"
    path.write_bytes(content)
    assert _tables.load(str(path), grammar_text()) is None


def test_tables_of_the_wrong_shape_are_refused() -> None:
    """Plain data that is not the tables' layout is refused before use."""
    data = list(_fresh().to_data())
    data[2] = {0: {"X": (1, "x", 10_000)}}  # a reduction by a rule that does not exist
    with pytest.raises(TypeError):
        _tables.Tables.from_data(tuple(data))
    with pytest.raises((TypeError, ValueError)):
        _tables.Tables.from_data((1, 2, 3))


def test_only_the_universal_scanner_is_compiled_where_it_serves(tmp_path: Path) -> None:
    """Most states share the one scanner of every terminal; its first match stands for theirs."""
    tables = _fresh()
    assert len(tables.shares_universal) > len(tables.state_lexer) // 2
    loop = OneLoop(tables, parse._TRANSFORMER, COMMENTS)
    _run(loop, WEATHER)
    compiled = loop._scanners._compiled
    assert tables.universal in compiled
    assert len(compiled) < len(set(tables.state_lexer.values())) // 2


_PROBE = """
import sys
from toolexpect.specfile import parse_spec_source
result = parse_spec_source(sys.stdin.read(), "text", name="spec")
print("lark" in sys.modules, [d.code for d in result.diagnostics])
"""


def _probe(text: str, cache: Path) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("TOOLEXPECT_NO_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], input=text, capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def test_a_valid_spec_parses_without_importing_lark(tmp_path: Path) -> None:
    """Once the tables are cached, a valid spec is parsed and checked without lark; an invalid
    one imports lark, which reports the error as always."""
    assert _probe(WEATHER, tmp_path) == "True []"  # the first run makes the tables
    assert any(tmp_path.glob("toolexpect/tables-*.marshal"))
    assert _probe(WEATHER, tmp_path) == "False []"
    assert _probe('expect get_weather(city="Berlin"\n', tmp_path) == "True ['P102']"


def test_what_a_pattern_can_start_with_and_hold() -> None:
    """The regular-expression facts the tables rest on, read off Python's parse of a pattern."""
    assert _tables.first_chars(r"-?(?:0|[1-9][0-9]*)") == set("-0123456789")
    assert _tables.first_chars(r"(\r?\n)+") == {"\r", "\n"}
    assert _tables.first_chars(r"(?i:abc)") is None  # flags: unknown, so never relied on
    assert _tables.first_chars(r"[^a]") is None
    assert not _tables.may_hold(r'"(?:[^"\\\n\r]|\\[^\n\r])*"', "\n")
    assert not _tables.may_hold(r"#[^\n]*", "\n")
    assert _tables.may_hold(r"(\r?\n)+", "\n")
    assert _tables.may_hold(r".*", "\n")  # unsure: assumed
    assert _tables._run_class(r"[ \t\f\r]+") == {" ", "\t", "\f", "\r"}
    assert _tables._run_class(r"[a-z]*") is None


def test_spaces_after_a_token_are_taken_with_it() -> None:
    """The universal scanner takes the spaces, tabs and form feeds after a token at once: only
    the ignored whitespace terminal can start with them. A carriage return, which may start a
    new line, is not among them."""
    suffix = _fresh().universal_suffix
    assert suffix
    import re

    taken = re.compile(suffix)
    assert all(taken.fullmatch(char) for char in " \t\f")
    assert not taken.fullmatch("\r") and not taken.fullmatch("\n")


_SPACES = [" ", "\t", "\f", " \t ", "\r", " \r"]


def _blanks_varied(text: str, chance: Any) -> str:
    """``text`` with some blanks and line ends between tokens (not in strings) of other kinds."""
    out = []
    quote = ""
    for index, char in enumerate(text):
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == " " and chance.random() < 0.3:
            char = chance.choice(_SPACES)
        elif char == "\n" and chance.random() < 0.3:
            char = chance.choice(["\r\n", " \n", "\t\r\n", "\n\f"])
        elif char == "\n":
            quote = ""
        out.append(char)
    return "".join(out) + chance.choice(["", " ", "\t", " \r", "\r\n  "])


def test_whitespace_of_every_kind_parses_as_lark_parses_it() -> None:
    """Tabs, form feeds, carriage returns, CRLF line ends and trailing blanks give the same
    documents, diagnostics and comments with the tables as with lark."""
    import random

    chance = random.Random(5)
    texts = [
        _blanks_varied(spec.read_text(encoding="utf-8"), chance)
        for spec in sorted(ROOT.glob("specs/**/*.expect"))
        for _ in range(6)
    ]
    loop = parse._one_loop()
    assert loop is not None
    taken = 0
    for text in texts:
        try:
            _run(loop, text)
            taken += 1
        except Unsure:
            pass
        parse.ONE_LOOP = True
        fast = parse.parse_text(text, "spec")
        parse.ONE_LOOP = False
        try:
            slow = parse.parse_text(text, "spec")
        finally:
            parse.ONE_LOOP = True
        assert (fast.document, fast.diagnostics, fast.comments) == (
            slow.document,
            slow.diagnostics,
            slow.comments,
        ), repr(text)
    assert taken > len(texts) * 0.8  # most of them parse, and so are read by the tables
