"""Hostile spec input: no traceback, no unbounded read, no wrong place, no lost statement.

Each test names the point of issue 13 it guards.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from language_support import run_cli

from toolexpect.cli import main
from toolexpect.language.strings import MAX_INT_DIGITS
from toolexpect.specfiles import stages as specfile
from toolexpect.specfiles.stages import MAX_SPEC_BYTES, load_spec_file, parse_spec_source

HUGE = "1" + "0" * 4300
"""More digits than Python converts by default (4300), far over toolexpect's limit."""

LONG = "9" * (MAX_INT_DIGITS + 1)
"""One digit over the limit, within what Python converts."""


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


_run = run_cli


def _spec_texts(number: str) -> dict[str, str]:
    """One spec with ``number`` as an argument value, in each of the three forms."""
    return {
        "t.expect": f"expect t(x={number})\n",
        "t.expect.json": '{"cases": [{"name": "a", "expect": [{"tool": "t", "args": '
        f'[{{"name": "x", "op": "eq", "value": {number}}}]}}]}}]}}',
        "t.expect.yaml": "cases:\n  - name: a\n    expect:\n      - tool: t\n"
        f"        args:\n          - {{name: x, op: eq, value: {number}}}\n",
    }


# -- 1: integer literals have at most MAX_INT_DIGITS digits ---------------------------


@pytest.mark.parametrize("number", [HUGE, LONG, "-" + LONG], ids=["4301-digits", "641-digits", "negative"])
@pytest.mark.parametrize("name", ["t.expect", "t.expect.json", "t.expect.yaml"])
@pytest.mark.parametrize("command", ["lint", "compile", "format"])
def test_too_many_digits_is_a_positioned_p110(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str, name: str, command: str
) -> None:
    """An integer longer than the limit is P110 at its place, never a traceback, in every form."""
    path = tmp_path / name
    path.write_text(_spec_texts(number)[name], encoding="utf-8")
    code, out, err = (
        _run(capsys, command, str(path))
        if command != "lint"
        else _run(capsys, "lint", "--format", "concise", str(path))
    )
    shown = out + err
    assert code in (1, 2)
    assert "Traceback" not in shown
    assert "P110" in shown and f"the limit is {MAX_INT_DIGITS}" in shown
    line = 1 if name == "t.expect" else (6 if name.endswith("yaml") else 1)
    assert f"{name}:{line}:" in shown


def test_score_refuses_a_spec_with_too_many_digits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """score stops at the spec's P110 (exit 2) rather than crashing on the number."""
    spec = tmp_path / "t.expect"
    spec.write_text(f"expect t(x={HUGE})\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    log.write_text('{"name": "t", "arguments": {"x": 1}}\n', encoding="utf-8")
    code, out, err = _run(capsys, "score", str(spec), "--log", str(log))
    assert code == 2
    assert "P110" in err and "Traceback" not in out + err


def test_integers_at_the_limit_are_kept_exactly() -> None:
    """An integer of exactly MAX_INT_DIGITS digits reads back as that integer in every form."""
    number = "8" * MAX_INT_DIGITS
    for name, text in _spec_texts(number).items():
        loaded = parse_spec_source(text, specfile.kind_of(name), name="t")
        assert loaded.ok, (name, loaded.diagnostics)
        assert loaded.document is not None
        assert loaded.document["cases"][0]["expect"][0]["args"][0]["value"] == int(number)


def test_yaml_integers_in_other_bases_are_bounded_by_value() -> None:
    """A YAML hexadecimal integer as large as 641 decimal digits is P110, not a crash later."""
    text = _spec_texts("0x" + "f" * 540)["t.expect.yaml"]
    loaded = parse_spec_source(text, "yaml")
    assert [d.code for d in loaded.diagnostics] == ["P110"]
    assert loaded.diagnostics[0].line == 6


# -- 2: NaN and infinities in YAML specs ---------------------------------------------------


@pytest.mark.parametrize(
    ("field", "literal"),
    [("value", ".nan"), ("value", "-.inf"), ("value", ".Inf"), ("value", "1.0e+400")],
)
def test_yaml_nan_and_infinity_are_refused_where_written(field: str, literal: str) -> None:
    """NaN, ±infinity and floats beyond 64 bits in a YAML spec are P110 at their line and column."""
    text = _spec_texts(literal)["t.expect.yaml"]
    loaded = parse_spec_source(text, "yaml")
    assert [d.code for d in loaded.diagnostics] == ["P110"]
    span = loaded.diagnostics[0].span
    assert span is not None
    assert (span.line, span.column) == (6, 38)


@pytest.mark.parametrize("literal", [".nan", ".inf", "-.inf"])
def test_yaml_nan_threshold_and_tolerance_are_refused(literal: str) -> None:
    """A NaN threshold or tolerance can no longer pass a case: the spec is refused."""
    threshold = (
        "cases:\n  - name: a\n    expect: [{tool: t}]\n    require:\n"
        f"      - {{kind: accuracy, threshold: {literal}}}\n"
    )
    tolerance = (
        "cases:\n  - name: a\n    expect:\n      - tool: t\n        args:\n"
        f"          - {{name: x, op: approx, value: 1, tolerance: {literal}}}\n"
    )
    for text in (threshold, tolerance):
        loaded = parse_spec_source(text, "yaml")
        assert [d.code for d in loaded.diagnostics] == ["P110"], text
        assert loaded.spec is None


def test_json_float_beyond_64_bits_is_refused() -> None:
    """1e400 in a JSON spec is P110 at its place, not an infinity in the document."""
    loaded = parse_spec_source(_spec_texts("1e400")["t.expect.json"], "json")
    assert [d.code for d in loaded.diagnostics] == ["P110"]
    assert loaded.diagnostics[0].span is not None


@pytest.mark.parametrize("literal", [".nan", "-.inf", "1.0e+400"])
def test_compile_and_format_of_a_yaml_nan_give_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], literal: str
) -> None:
    """compile never prints NaN and format never crashes: both refuse the spec with exit 2."""
    path = tmp_path / "t.expect.yaml"
    path.write_text(_spec_texts(literal)["t.expect.yaml"], encoding="utf-8")
    for command in ("compile", "format"):
        code, out, err = _run(capsys, command, str(path))
        assert code == 2
        assert out == ""
        assert "P110" in err


# -- 3: what is read from a spec file is bounded ---------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_after_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """lint /dev/zero reads at most the limit + 1 bytes, then reports P105 and exits 2."""
    code, out, _ = _run(capsys, "lint", "--format", "concise", "/dev/zero")
    assert code == 2
    assert out.strip() == (
        f"/dev/zero: P105 spec file holds more than {MAX_SPEC_BYTES:,} bytes; the limit is {MAX_SPEC_BYTES:,}"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_that_never_ends_is_refused(tmp_path: Path) -> None:
    """A FIFO fed without end is read up to the limit + 1 bytes and refused."""
    fifo = tmp_path / "endless.expect"
    os.mkfifo(fifo)
    stop = threading.Event()

    def feed() -> None:
        try:
            with open(fifo, "wb") as stream:
                while not stop.is_set():
                    stream.write(b"expect t\n" * 4096)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        loaded = load_spec_file(fifo)
    finally:
        stop.set()
    writer.join(timeout=10)
    assert [d.code for d in loaded.diagnostics] == ["P105"]


# -- 7: one definition of a line --------------------------------------------------------------

ODD_BREAKS = ["\f", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r"]
"""Characters ``str.splitlines`` ends a line at, which the language does not."""


@pytest.mark.parametrize("char", ODD_BREAKS, ids=[repr(c) for c in ODD_BREAKS])
def test_excerpt_shows_the_line_the_position_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    """After a comment holding a character splitlines breaks at, the excerpt is the right line."""
    path = tmp_path / "t.expect"
    path.write_text(f"expect a  # one{char}two\nexpect b(x=)\n", encoding="utf-8", newline="")
    code, out, _ = _run(capsys, "lint", str(path))
    assert code == 1
    assert f"{path}:2:12" in out
    assert "2 | expect b(x=)\n" in out
    caret_line = out.splitlines()[out.splitlines().index("2 | expect b(x=)") + 1]
    assert caret_line.index("^") == len("2 | expect b(x=")


def test_control_characters_in_an_excerpt_do_not_move_the_caret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lone \\r on the excerpt's line is shown as one visible character, caret in place."""
    path = tmp_path / "t.expect"
    path.write_bytes(b"expect a\rexpect b\n")
    code, out, _ = _run(capsys, "lint", str(path))
    assert code == 1
    assert "\r" not in out
    lines = out.splitlines()
    shown = next(line for line in lines if line.startswith("1 | "))
    caret = lines[lines.index(shown) + 1]
    assert shown[caret.index("^")] == "e"  # the second "expect", where the error is


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\r"])
def test_yaml_places_count_lines_as_the_language_does(char: str) -> None:
    """PyYAML ends lines at \\x85, U+2028 and a lone \\r; toolexpect's places do not."""
    text = f'cases:\n  - name: "a{char}b"\n    expect: 1\n'
    loaded = parse_spec_source(text, "yaml")
    assert [d.code for d in loaded.diagnostics] == ["V202"]
    span = loaded.diagnostics[0].span
    assert span is not None and (span.line, span.column) == (3, 13)


def test_format_diff_splits_lines_only_at_new_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """format --diff shows a comment holding U+2028 as one line, not two."""
    path = tmp_path / "t.expect"
    path.write_text("expect   a  # x\u2028y\n", encoding="utf-8")
    code, out, _ = _run(capsys, "format", "--diff", str(path))
    assert code == 1
    assert "-expect   a  # x\u2028y\n" in out
    assert "+expect a  # x\u2028y\n" in out


# -- 5: a statement a case holds once, written twice -----------------------------------------


@pytest.mark.parametrize(
    ("statement", "again"),
    [
        ('question "a"', 'question "b"'),
        ('question "a"', 'question "a"'),
        ("require accuracy >= 0.5", "require accuracy >= 0.5"),
        ("require pass rate >= 0.5", "require pass rate >= 0.5"),
    ],
)
def test_a_repeated_single_statement_is_a_lint_error(statement: str, again: str) -> None:
    """A second question or threshold is L308 (an error) at the second statement."""
    for text in (
        f"expect t\n{statement}\n{again}\n",
        f'case "c" {{\n    expect t\n    {statement}\n    {again}\n}}\n',
    ):
        loaded = parse_spec_source(text)
        assert [d.code for d in loaded.diagnostics] == ["L308"], text
        assert loaded.diagnostics[0].line == text.count("\n", 0, text.rindex(again)) + 1
        assert not loaded.ok


def test_format_never_drops_a_repeated_question(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """format leaves a file with two questions untouched, reports L308 and exits 2."""
    path = tmp_path / "t.expect"
    original = 'question "first"\nquestion "second"\nexpect t\n'
    path.write_text(original, encoding="utf-8")
    code, _, err = _run(capsys, "format", str(path))
    assert code == 2
    assert "L308" in err
    assert path.read_text(encoding="utf-8") == original


def test_repeated_flags_stay_a_warning() -> None:
    """A flag written twice (require order) keeps both in the document: still the L306 warning."""
    loaded = parse_spec_source("expect t\nrequire order\nrequire order\n")
    assert [d.code for d in loaded.diagnostics] == ["L306"]
    assert loaded.document is not None
    assert len(loaded.document["cases"][0]["require"]) == 2


# -- 6: duplicate keys, and no stale partial flag -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("t.expect", "expect t(x={a: 1, b: 2, a: 3})\n", 1),
        ("t.expect", 'expect t(x=[{"k": {a: 1, "a": 2}}])\n', 1),
        ("t.expect.json", '{"cases": [{"name": "a",\n "name": "b", "expect": [{"tool": "t"}]}]}', 2),
        ("t.expect.yaml", "cases:\n  - name: a\n    expect:\n      - tool: t\n    name: b\n", 5),
    ],
)
def test_a_duplicate_key_is_a_lint_error(name: str, text: str, line: int) -> None:
    """A key written twice in one object is L309 at the second key, in every form."""
    loaded = parse_spec_source(text, specfile.kind_of(name))
    assert [d.code for d in loaded.diagnostics] == ["L309"]
    assert loaded.diagnostics[0].line == line
    assert not loaded.ok


def test_a_json_question_key_written_twice_is_reported() -> None:
    """In a JSON spec the repeated "question" key is the duplicate key L309."""
    text = '{"cases": [{"name": "a", "question": "x", "question": "y", "expect": [{"tool": "t"}]}]}'
    assert [d.code for d in parse_spec_source(text, "json").diagnostics] == ["L309"]


def test_an_overwritten_partial_value_leaves_no_partial_flag() -> None:
    """{a: {b: 1, ...}, a: 2} holds the exact object {"a": 2}: op eq, not partial."""
    loaded = parse_spec_source("expect t(x={a: {b: 1, ...}, a: 2})\n")
    assert loaded.document is not None
    arg = loaded.document["cases"][0]["expect"][0]["args"][0]
    assert (arg["op"], arg["value"]) == ("eq", {"a": 2})
    assert [d.code for d in loaded.diagnostics] == ["L309"]


@pytest.mark.parametrize(
    "value", ["[{a: {b: 1, ...}, a: 2}]", "[[{a: {b: 1, ...}, a: 2}]]", "[{a: 1, a: {...}}]"]
)
def test_a_partial_object_in_an_in_list_is_reported_beside_the_key_that_drops_it(value: str) -> None:
    """A ``...`` inside an ``in`` list is P100 even when a repeated key drops its value, and the
    repeated key is L309 beside it."""
    loaded = parse_spec_source(f"expect t(x in {value})\n")
    assert [d.code for d in loaded.diagnostics] == ["P100", "L309"]
    assert not loaded.ok


def test_format_leaves_a_spec_with_a_duplicate_key_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """format does not rewrite a spec whose duplicate key would change its meaning."""
    path = tmp_path / "t.expect"
    original = "expect t(x={a: {b: 1, ...}, a: 2})\n"
    path.write_text(original, encoding="utf-8")
    code, _, err = _run(capsys, "format", str(path))
    assert code == 2 and "L309" in err
    assert path.read_text(encoding="utf-8") == original


# -- 13: format of a JSON or YAML spec with a question ----------------------------------------

YAML_WITH_QUESTION = 'cases:\n  - name: y\n    question: "hi"\n    expect:\n      - tool: a\n'


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("q.expect.yaml", YAML_WITH_QUESTION),
        ("q.expect.json", '{"cases": [{"name": "y", "expect": [{"tool": "a"}], "question": "hi"}]}'),
    ],
)
def test_format_of_a_json_or_yaml_question_prints_it_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    """format prints a JSON or YAML spec's question first in its case, in bounded memory."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, "format", str(path))
    assert (code, err) == (0, "")
    assert out.startswith('case "y" {\n    question "hi"\n')
    assert "    expect a\n" in out
    again = parse_spec_source(out)
    original = parse_spec_source(text, specfile.kind_of(name))
    assert again.spec == original.spec


def test_format_of_a_document_without_spans_is_bounded() -> None:
    """A document with no spans at all (built in Python) formats at once, question first."""
    from toolexpect.language.format import format_document

    document = {
        "version": 1,
        "cases": [{"name": "y", "question": "hi", "expect": [{"tool": "a"}], "forbid": [{"tool": "b"}]}],
    }
    assert format_document(document, []) == 'case "y" {\n    question "hi"\n    expect a\n    forbid b\n}\n'


# -- 12: big specs ------------------------------------------------------------------------------


def _dense_spec(cases: int) -> str:
    return "".join(
        f'case "case {i}" {{\n    question "q {i}"\n'
        f'    expect get_weather(city="c{i}", days >= 1, meta={{"p": {i}, "t": ["a", {i}.5], ...}})\n'
        f"    forbid delete_user(id={i})\n    require accuracy >= 0.75\n}}\n\n"
        for i in range(cases)
    )


def test_a_spec_over_256_kibibytes_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The size limit is 256 KiB, what lint and compile go through in about a second
    (bench/bench_spec_limit.py): 2 MB is P105, and so is one byte over the limit."""
    assert MAX_SPEC_BYTES == 256 * 1024
    path = tmp_path / "big.expect"
    path.write_text("expect t\n" + "#" * 2_000_000 + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "lint", "--format", "concise", str(path))
    assert code == 2
    assert "P105" in out and "the limit is 262,144" in out
    path.write_text("expect t\n" + "#" * (MAX_SPEC_BYTES - len("expect t\n\n")) + "\n", encoding="utf-8")
    assert _run(capsys, "lint", "--format", "concise", str(path))[0] == 0
    path.write_text("expect t\n" + "#" * (MAX_SPEC_BYTES - len("expect t\n\n") + 1) + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "lint", "--format", "concise", str(path))
    assert code == 2 and "P105" in out


def test_compile_does_not_hold_its_whole_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compile writes the document as it encodes it: its peak memory is no more than lint's."""
    import sys
    import tracemalloc

    path = tmp_path / "big.expect"
    path.write_text(_dense_spec(500), encoding="utf-8")

    def peak(command: str) -> int:
        with open(os.devnull, "w", encoding="utf-8") as sink:
            saved, sys.stdout = sys.stdout, sink
            tracemalloc.start()
            try:
                assert main([command, str(path)]) == 0
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
                sys.stdout = saved

    peak("lint")  # the parser is built before anything is measured
    assert peak("compile") <= 1.5 * peak("lint")


@pytest.mark.parametrize(
    "spec",
    [
        "expect t(x=[" + ",".join(str(10_000 + i) for i in range(20_000)) + "])\n",
        "expect t(x={" + ",".join(f"k{i}: {10_000 + i}" for i in range(8_000)) + "})\n",
    ],
    ids=["list", "object"],
)
def test_a_long_list_keeps_its_values_not_its_tokens(spec: str) -> None:
    """The parser folds a list or an object as it reads it: its peak memory is a small multiple
    of the text (each value is kept, no token: tokens took about 100 bytes per byte of a list)."""
    import tracemalloc

    from toolexpect.language.parse import parse_text

    parse_text("expect t(x=[1])", "s")  # the parser is built before anything is measured
    tracemalloc.start()
    try:
        result = parse_text(spec, "s")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.diagnostics == []
    assert peak < 30 * len(spec)


def test_compile_output_is_the_indented_json_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compile prints exactly json.dumps(document, indent=2) and a new line."""
    path = tmp_path / "t.expect"
    path.write_text(_dense_spec(3), encoding="utf-8")
    code, out, _ = _run(capsys, "compile", "--no-spans", str(path))
    assert code == 0
    document = json.loads(out)
    assert out == json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def test_format_of_many_commented_statements_is_not_quadratic() -> None:
    """Comments are given to their statements by bisection: 16,000 commented lines come back as
    written (a quadratic pass would show in the suite's time; bench/ measures it)."""
    from toolexpect.language.format import format_document

    text = "".join(f"# about {i}\nexpect t(x={i})  # after {i}\n" for i in range(16_000))
    loaded = parse_spec_source(text)
    assert loaded.document is not None
    assert format_document(loaded.document, loaded.comments) == text


# -- found by the fuzz tests ----------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\f", "\x7f", "\x0b"])
def test_a_yaml_control_character_is_p109_at_its_place(char: str) -> None:
    """PyYAML refuses control characters as it starts reading: P109 at the character, no exception."""
    loaded = parse_spec_source(f"cases:\n  - name: a{char}\n", "yaml")
    assert [d.code for d in loaded.diagnostics] == ["P109"]
    span = loaded.diagnostics[0].span
    assert span is not None and (span.line, span.column) == (2, 12)


def test_format_keeps_every_comment_of_a_statement_over_several_lines() -> None:
    """Comments on several lines of one statement stay where they stood: none swallows another."""
    from toolexpect.language.format import format_document

    text = "expect t(a=1,  # first\n  b=2)  # last\nexpect u\n"
    loaded = parse_spec_source(text)
    assert loaded.document is not None
    formatted = format_document(loaded.document, loaded.comments)
    assert formatted == "expect t(\n    a=1,  # first\n    b=2,\n)  # last\nexpect u\n"
    assert [c.text for c in parse_spec_source(formatted).comments] == ["# first", "# last"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2001-12-14", "a YAML date or time is not a JSON value"),
        ("!!binary AAAA", "YAML binary data is not a JSON value"),
        ("!!set {a, b}", "a YAML set is not a JSON value"),
        ("{1: a}", "an object key must be a string"),
        ("!!float abc", "invalid value: could not convert string to float: 'abc'"),
        ("!!int abc", "invalid value"),
        ("!!timestamp 2001-13-99", "a YAML date or time is not a JSON value"),
    ],
)
def test_yaml_values_that_are_not_json_are_p109(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    """A YAML date, bytes, set, non-text key or badly tagged scalar is P109 at its place:
    compile and format never meet a value JSON cannot hold."""
    path = tmp_path / "t.expect.yaml"
    path.write_text(_spec_texts(value)["t.expect.yaml"], encoding="utf-8")
    for command in ("lint", "compile", "format"):
        code, out, err = _run(capsys, command, str(path))
        assert "Traceback" not in out + err
        assert code == (1 if command == "lint" else 2)
        assert f"{path}:6:" in out + err and "P109" in out + err and message in out + err
