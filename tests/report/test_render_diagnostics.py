"""The ``full`` rendering of many diagnostics: each file's text is read once, excerpts as before."""

from __future__ import annotations

from toolexpect.diagnostics import Span, make
from toolexpect.report.diagnostics import render, render_one
from toolexpect.report.style import Style

SOURCE = 'case "a" {\n\texpect t(x={"k": 1, "k": 2})\n}\ncase "b" {\n  expect\tt(x=1, x=2)\n}\n'


def _findings() -> list:
    """Diagnostics in two files: three in ``a.expect``, one in ``b.expect``."""
    return [
        make("L309", 'key "k" is written twice', Span(2, 21, 2, 24), path="a.expect"),
        make("L301", "argument x is given twice", Span(5, 16, 5, 19), path="a.expect"),
        make("L300", "case is defined twice", Span(4, 1, 6, 2), path="b.expect", help="rename one"),
        make("L301", "argument x is given twice", Span(5, 11, 5, 14), path="a.expect"),
    ]


def test_each_file_is_asked_for_once_however_many_diagnostics_it_has() -> None:
    """``render`` asks ``sources`` for a file's text once, not once per diagnostic in it."""
    asked: list[str | None] = []

    def sources(path: str | None) -> str | None:
        asked.append(path)
        return SOURCE

    render(_findings(), "full", sources=sources)
    assert sorted(asked, key=str) == ["a.expect", "b.expect"]


def test_full_rendering_is_each_diagnostic_rendered_alone() -> None:
    """The rendering of several diagnostics is each one's rendering, in order, a blank line apart."""
    findings = _findings()
    alone = [render_one(d, SOURCE, Style(False)) for d in findings]
    assert render(findings, "full", sources=lambda _path: SOURCE) == "\n\n".join(alone)


def test_caret_lands_under_its_column_after_tabs() -> None:
    """A tab counts to the next multiple of four columns, before and inside the underline."""
    after = render_one(make("L301", "twice", Span(5, 17, 5, 20), path="a.expect"), SOURCE, Style(False))
    assert after.splitlines()[2:] == [
        "  |",
        "5 |   expect    t(x=1, x=2)",
        "  |                    ^^^",
    ]
    first = render_one(make("L309", "twice", Span(2, 2, 2, 10), path="a.expect"), SOURCE, Style(False))
    assert first.splitlines()[3:] == ['2 |     expect t(x={"k": 1, "k": 2})', "  |     ^^^^^^^^"]


LONG = "expect f(" + ", ".join(f"a{n}=1" for n in range(100)) + ", bad=)\n"


def test_a_long_source_line_is_cut_around_the_caret_with_the_caret_still_under_the_span() -> None:
    """A line longer than 200 characters (a minified or one-line spec) shows some 120
    characters around the caret, each cut end marked with an ellipsis; the caret still points
    at the span, and a short line is shown whole."""
    column = LONG.index("bad") + 1
    finding = make("P101", "unexpected", Span(1, column, 1, column + 3), path="x.expect")
    source, carets = render([finding], "full", sources=lambda _path: LONG).splitlines()[3:5]
    shown = source.split("| ", 1)[1]
    assert shown.startswith("…") and not shown.endswith("…") and len(shown) <= 122
    at = carets.index("^")
    assert source[at : at + 3] == "bad" and carets.count("^") == 3
    start = make("P101", "unexpected", Span(1, 1, 1, 7), path="x.expect")
    first = render([start], "full", sources=lambda _path: LONG).splitlines()[3]
    assert first.endswith("…") and "expect f(a0=1" in first
    short = make("P101", "unexpected", Span(1, 1, 1, 7), path="x.expect")
    assert "…" not in render([short], "full", sources=lambda _path: "expect f(a=1)\n")
