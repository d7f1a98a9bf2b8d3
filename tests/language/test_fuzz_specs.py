"""Fuzzing the spec pipeline with generated and mutated specs, in text, JSON and YAML forms.

Whatever the input, reading, lint, compile and format raise nothing: every problem is one of
the project's diagnostics. For a spec that parses and lints clean, format is idempotent, keeps
every comment and never changes what the spec means (``compile(format(x)) == compile(x)``,
spans aside). The normal run is bounded to a few seconds; ``HYPOTHESIS_PROFILE=long`` runs
fifty times as many examples (CONTRIBUTING.md, "Testing").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from language_support import typed

from toolexpect.cli import main
from toolexpect.diagnostics import CODES
from toolexpect.document import without_spans
from toolexpect.language.format import format_document
from toolexpect.report.diagnostics import FORMATS, render
from toolexpect.specfiles.stages import Kind, SpecFile, parse_spec_source

SCALE = max(1, settings.default.max_examples // 100)
"""1 in the normal run; 50 under the ``long`` profile (5,000 examples)."""


def fuzz(examples: int) -> settings:
    """Settings of one fuzz test: ``examples`` in the normal run, scaled by the profile."""
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )


# -- generated source text ------------------------------------------------------------------------

ODD = ["\f", "\x0b", "\x1c", "\x85", "\u2028", "\u2029", "\r", "\t", "\ufeff", "\x00", "é", "😀", "\\"]
"""Characters a hostile spec holds: line breaks only splitlines knows, controls, a BOM, escapes."""

bare_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True) | st.sampled_from(
    [
        "github.create_issue",
        "mcp__fs__read",
        "a/b:c-d",
        "order",
        "calls",
        "tool",
        "rate",
        "in",
        "any",
        "expect",
        "then_b",
        "notx",
        "true1",
        "pass",
        "at",
        "of",
        "between",
        "call",
        "allow",
    ]
)
text_values = st.text(st.characters(codec="utf-8") | st.sampled_from(ODD), max_size=8)


@st.composite
def strings(draw: st.DrawFn) -> str:
    """A string literal: JSON-escaped in double quotes, or in single quotes."""
    value = draw(text_values)
    if draw(st.integers(0, 3)) == 0:
        body = json.dumps(value, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
        return f"'{body}'"
    return json.dumps(value, ensure_ascii=draw(st.booleans()))


def _float(value: float) -> str:
    return repr(value)


numbers = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(_float),
    st.sampled_from(["0", "-0", "-0.0", "1e3", "1E-5", "2e23", "9" * 640, "-" + "9" * 640, "1.5e300"]),
)
thresholds = st.sampled_from(["0", "1", "0.5", "0.75", "1.0", "0.0", "1e-1"])
spaces = st.sampled_from(["", " ", "  ", "\t", " \f"])


def gap(draw: st.DrawFn, inside: bool = False) -> str:
    """White space between tokens; inside brackets it may hold new lines and comments."""
    options = [" ", "", "  ", "\t"] + (["\n", "\n    ", " # note\n", "\r\n"] if inside else [])
    return draw(st.sampled_from(options))


@st.composite
def values(draw: st.DrawFn, depth: int = 0) -> str:
    """A value as written: scalars, lists and objects (bare or quoted keys, ``...``)."""
    kind = draw(st.integers(0, 5 if depth < 3 else 3))
    if kind == 0:
        return draw(strings())
    if kind == 1:
        return draw(numbers)
    if kind == 2:
        return draw(st.sampled_from(["true", "false", "null"]))
    if kind == 3:
        return draw(numbers)
    if kind == 4:
        items = draw(st.lists(values(depth + 1), max_size=3))
        trailing = "," if items and draw(st.booleans()) else ""
        return "[" + ("," + gap(draw, True)).join(items) + trailing + "]"
    keys = draw(
        st.lists(
            bare_names.filter(lambda k: ":" not in k and "." not in k and "/" not in k) | strings(),
            max_size=3,
            unique=True,
        )
    )
    members = [f"{k}:{gap(draw)}{draw(values(depth + 1))}" for k in keys]
    if draw(st.integers(0, 3)) == 0:
        members.append("...")
    return "{" + ("," + gap(draw, True)).join(members) + "}"


PATTERNS = st.sampled_from(['"^a"', '"(?i)x|y"', 'r"\\d+"', "r'\\w\"'", '"\\\\s"', '""', '"(a"', '"(?=x)"'])
"""Patterns as written, some of which RE2 refuses (L302)."""


@st.composite
def arguments(draw: st.DrawFn) -> str:
    """One argument in any matcher form."""
    name = draw(bare_names | strings())
    if name == "not":
        name = '"not"'
    name += "?" if draw(st.integers(0, 4)) == 0 else ""
    form = draw(st.integers(0, 8))
    if form == 0:
        return f"{name}={draw(values())}"
    if form == 8:
        return f"{name} != {draw(values())}"
    if form == 1:
        return f"{name}{gap(draw)}={gap(draw)}any"
    if form == 2:
        items = draw(st.lists(values(1), min_size=1, max_size=3))
        return f"{name} in [{', '.join(items)}]"
    if form == 3:
        return f"{name} ~ {draw(PATTERNS)}"
    if form == 4:
        return f"{name} {draw(st.sampled_from(['<', '<=', '>', '>=']))} {draw(numbers)}"
    if form == 5:
        sign = draw(st.sampled_from(["+-", "±"]))
        return f"{name} = {draw(numbers)} {sign} {draw(st.sampled_from(['0', '0.1', '2']))}"
    if form == 6:
        return f"not {name.rstrip('?')}"
    low, high = sorted(draw(st.lists(st.integers(-9, 9), min_size=2, max_size=2)))
    return f"{low} <= {name} <= {high}"


@st.composite
def calls(draw: st.DrawFn) -> str:
    """A call: a name, ``name()`` (its parentheses perhaps holding a line break or a comment
    alone) or ``name(arg, ...)`` spread over lines or not."""
    name = draw(bare_names | strings())
    shape = draw(st.integers(0, 3))
    if shape == 0:
        return name
    if shape == 1:
        return name + "(" + gap(draw, True) + ")"
    args = draw(st.lists(arguments(), min_size=1, max_size=3))
    trailing = "," if draw(st.booleans()) else ""
    return f"{name}({gap(draw, True)}" + ("," + gap(draw, True)).join(args) + trailing + ")"


@st.composite
def statements(draw: st.DrawFn) -> str:
    """One statement of any kind."""
    kind = draw(st.integers(0, 8))
    if kind == 8:
        return "allow " + draw(calls())
    if kind == 7:
        return draw(counts())
    if kind <= 1:
        chain = draw(st.lists(calls(), min_size=1, max_size=3))
        joiner = draw(st.sampled_from([" then ", " then\n    "]))
        return "expect " + joiner.join(chain)
    if kind == 2:
        return "forbid " + draw(calls())
    if kind == 3:
        return "question " + draw(strings())
    if kind == 4:
        words = draw(st.sampled_from(["require accuracy ", "require pass rate "]))
        return words + draw(st.sampled_from([">= ", "> "])) + draw(thresholds)
    return draw(st.sampled_from(["require no unexpected calls", "require no tool calls", "require order"]))


@st.composite
def counts(draw: st.DrawFn) -> str:
    """A count requirement in any of its forms, of one call or of every call (bounds from
    0 to 5, in either order: reversed bounds are L312)."""
    low, high = draw(st.integers(0, 5)), draw(st.integers(0, 5))
    bound = draw(
        st.sampled_from([f"at most {high}", f"at least {low}", f"exactly {low}", f"between {low} and {high}"])
    )
    word = draw(st.sampled_from(["call", "calls"]))
    of = f" of {draw(calls())}" if draw(st.integers(0, 3)) else ""
    return f"require {bound} {word}{of}"


@st.composite
def comments(draw: st.DrawFn) -> str:
    """A comment, possibly holding characters that other tools take for line breaks."""
    characters = st.sampled_from([" ", "a", "#", "\f", "\x85", "\u2028", "\x0b", "é"])
    return "#" + draw(st.text(characters, max_size=6))


@st.composite
def bodies(draw: st.DrawFn, indent: str) -> str:
    """Statements with separators, comments on their own line and after code, blank lines."""
    out = []
    for statement in draw(st.lists(statements(), max_size=4)):
        if draw(st.integers(0, 3)) == 0:
            out.append(indent + draw(comments()) + "\n")
        if draw(st.integers(0, 4)) == 0:
            out.append("\n")
        line = indent + statement
        if draw(st.integers(0, 3)) == 0:
            line += draw(spaces) + draw(comments())
        out.append(line + draw(st.sampled_from(["\n", "\n", ";\n", "; ", "\r\n"])))
    return "".join(out)


@st.composite
def spec_texts(draw: st.DrawFn) -> str:
    """A whole spec: loose statements, case blocks, comments; perhaps a BOM or CRLF endings."""
    parts = [draw(bodies(""))]
    for name in draw(st.lists(st.text(max_size=5), max_size=3)):
        parts.append(f"case {json.dumps(name)} {{\n" + draw(bodies("    ")) + "}\n")
        if draw(st.booleans()):
            parts.append("\n")
    text = "".join(parts)
    if draw(st.integers(0, 5)) == 0:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    if draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text
    return text


@st.composite
def mutated(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> str:
    """A text with a few random edits: cut, doubled, or with hostile characters put in."""
    text = draw(texts)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 12)))
        edit = draw(st.integers(0, 3))
        if edit == 0:
            text = text[:at] + text[end:]
        elif edit == 1:
            text = text[:at] + text[at:end] * 2 + text[end:]
        else:
            alphabet = st.sampled_from(
                [
                    *ODD,
                    "{",
                    "}",
                    "[",
                    "]",
                    "(",
                    ")",
                    '"',
                    "'",
                    "#",
                    "\n",
                    ";",
                    ",",
                    "=",
                    "~",
                    "?",
                    "...",
                    "then",
                    "expect ",
                    "-",
                    "e",
                    "9" * 700,
                    "1e999",
                    "NaN",
                    ".nan",
                    "-.inf",
                    "\\u",
                    "\\ud800",
                    ": ",
                    "- ",
                ]
            )
            text = text[:at] + "".join(draw(st.lists(alphabet, max_size=3))) + text[end:]
    return text


# -- what must hold ---------------------------------------------------------------------------------


def _meaning(loaded: SpecFile) -> Any:
    """What ``compile --no-spans`` prints, typed."""
    assert loaded.document is not None
    return typed(without_spans(loaded.document))


def _read(text: str, kind: Kind = "text") -> SpecFile:
    """Run ``text`` through the pipeline, checking that only diagnostics come out of it."""
    loaded = parse_spec_source(text, kind, name="fuzz", path="fuzz.expect")
    for diagnostic in loaded.diagnostics:
        assert diagnostic.code in CODES
        if diagnostic.span is not None:
            assert diagnostic.span.line >= 1 and diagnostic.span.column >= 1
    for fmt in FORMATS:
        render(loaded.diagnostics, fmt, sources=lambda _path: text)
    if loaded.ok and loaded.document is not None:
        json.dumps(loaded.document, allow_nan=False)  # compile prints strict JSON
        format_document(loaded.document, loaded.comments)
        assert loaded.spec is not None
    return loaded


def _format_holds(text: str) -> None:
    """For a spec format accepts (lint findings included): format keeps meaning, findings and
    comments, and formatting again changes nothing, at the default width and at a narrow one
    that wraps most calls and chains."""
    loaded = _read(text)
    if loaded.document is None or not loaded.formattable:
        return
    for width in (100, 12):
        formatted = format_document(loaded.document, loaded.comments, line_length=width)
        again = _read(formatted)
        assert again.formattable, (formatted, again.diagnostics)
        assert sorted(d.code for d in again.diagnostics) == sorted(d.code for d in loaded.diagnostics)
        assert _meaning(again) == _meaning(loaded)
        assert sorted(c.text for c in again.comments) == sorted(c.text for c in loaded.comments)
        assert again.document is not None
        assert format_document(again.document, again.comments, line_length=width) == formatted


@fuzz(40)
@given(spec_texts())
def test_generated_specs_format_keeping_meaning_and_comments(text: str) -> None:
    """A generated spec that format accepts formats to text of the same meaning, comments kept, stably."""
    _format_holds(text)


@st.composite
def specs_with_allow(draw: st.DrawFn) -> str:
    """A generated spec with ``allow`` statements put among the statements of its cases."""
    lines = draw(spec_texts()).splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines)))
        comment = draw(spaces) + draw(comments()) if draw(st.booleans()) else ""
        lines.insert(at, "allow " + draw(calls()) + comment + "\n")
    return "".join(lines)


@fuzz(40)
@given(specs_with_allow())
def test_generated_specs_with_allow_format_keeping_meaning_and_comments(text: str) -> None:
    """A generated spec holding ``allow`` statements that format accepts formats to text of the
    same document, comments kept, and formatting again changes nothing."""
    _format_holds(text)


@fuzz(60)
@given(mutated(spec_texts()))
def test_mutated_specs_give_diagnostics_never_exceptions(text: str) -> None:
    """Any edit of a spec gives diagnostics, never an exception; if format accepts it, format holds."""
    _format_holds(text)


@fuzz(30)
@given(st.text(st.characters(codec="utf-8") | st.sampled_from(ODD), max_size=40))
def test_any_text_gives_diagnostics_never_exceptions(text: str) -> None:
    """Arbitrary characters are read, rendered and (if format accepts them) formatted, never an exception."""
    _format_holds(text)


@fuzz(30)
@given(spec_texts(), st.sampled_from(["json", "yaml"]), st.booleans())
def test_json_and_yaml_forms_mean_what_the_text_means(text: str, kind: Kind, indent: bool) -> None:
    """A clean spec written as JSON or YAML builds the same model, and formats back to the same text."""
    loaded = _read(text)
    if not loaded.ok or loaded.document is None:
        return
    document = without_spans(loaded.document)
    if kind == "json":
        source = json.dumps(document, indent=2 if indent else None, ensure_ascii=not indent)
    else:
        source = yaml.safe_dump(document, allow_unicode=indent, default_flow_style=None if indent else False)
        if yaml.safe_load(source) != document:
            # PyYAML writes \x85, U+2028 and U+2029 as they are, and YAML 1.1 reads them as
            # line breaks: such text only round-trips escaped.
            source = yaml.safe_dump(document, allow_unicode=False)
    other = _read(source, kind)
    assert other.ok, (source, other.diagnostics)
    assert other.spec == loaded.spec
    assert other.document is not None
    formatted = format_document(other.document, [])
    assert _meaning(_read(formatted)) == _meaning(loaded)


@st.composite
def structured_sources(draw: st.DrawFn) -> tuple[str, Kind]:
    """A JSON or YAML spec from a generated text spec, then edited."""
    text = draw(spec_texts())
    loaded = parse_spec_source(text, name="fuzz")
    document = without_spans(loaded.document) if loaded.document is not None else {"cases": []}
    kind: Kind = draw(st.sampled_from(["json", "yaml"]))
    source = json.dumps(document, indent=1) if kind == "json" else yaml.safe_dump(document)
    return draw(mutated(st.just(source))), kind


@fuzz(40)
@given(structured_sources())
def test_mutated_json_and_yaml_specs_give_diagnostics_never_exceptions(source: tuple[str, Kind]) -> None:
    """Edited JSON and YAML specs give diagnostics, never an exception; clean ones format."""
    text, kind = source
    loaded = _read(text, kind)
    if loaded.ok and loaded.document is not None:
        formatted = format_document(loaded.document, [])
        assert _read(formatted).ok, formatted


def _cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue()


@fuzz(8)
@given(mutated(spec_texts()), st.sampled_from([".expect", ".expect.json", ".expect.yaml"]))
def test_the_command_line_exits_cleanly_on_any_spec(text: str, suffix: str) -> None:
    """lint, compile and format --check exit 0, 1 or 2 on any spec; compile prints strict JSON."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fuzz" + suffix)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        for argv in (["lint", path], ["lint", "--format", "json", path], ["format", "--check", path]):
            code, _ = _cli(argv)
            assert code in (0, 1, 2)
        code, out = _cli(["compile", path])
        assert code in (0, 2)
        if code == 0:
            document = json.loads(out, parse_constant=_refuse)
            assert isinstance(document, dict)


def _refuse(name: str) -> Any:
    raise AssertionError(f"compile printed {name}, which is not JSON")
