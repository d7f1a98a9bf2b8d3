"""Render diagnostics: ``full`` (source excerpt and caret), ``concise``, ``github``, ``json``.

A message, help, path or source line (which may quote a log) has its control characters shown
(:func:`~toolexpect.lines.visible`), and only the ``github`` format holds workflow commands.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.lines import split_lines, visible
from toolexpect.report.github import annotation, inert, inert_json
from toolexpect.report.style import Style

__all__ = ["FORMATS", "render", "render_one"]

FORMATS = ("full", "concise", "github", "json")
"""The diagnostic formats ``lint --format`` accepts."""

_COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.NOTE: "blue"}


def _place(d: Diagnostic) -> str:
    path = visible(d.path or "<input>")
    if d.span is None:
        return path
    return f"{path}:{d.span.line}:{d.span.column}"


def _expand(line: str, column: int) -> tuple[str, int]:
    """Expand tabs to 4 columns; return the line and where 1-based ``column`` lands.

    ``line`` holds no line break (:func:`~toolexpect.lines.visible` has shown each as a
    character), so ``expandtabs`` counts its columns from its start. A column outside the
    line lands as far from the end of the expanded line as from the end of ``line``.
    """
    out = line.expandtabs(4)
    if 1 <= column <= len(line):
        return out, len(line[: column - 1].expandtabs(4)) + 1
    return out, len(out) + (column - len(line))


def render_one(d: Diagnostic, source: str | None, style: Style) -> str:
    """One diagnostic in the ``full`` format, with the source line and a caret under it."""
    return inert(_full(d, _lines_of(source), style))


def _lines_of(source: str | None) -> list[str] | None:
    return None if source is None else split_lines(source.removeprefix("\ufeff"))


def _full(d: Diagnostic, text_lines: list[str] | None, style: Style) -> str:
    """:func:`render_one` of a source already split into lines."""
    colour = _COLOURS[d.severity]
    head = style(f"{d.severity.value}[{d.code}]", "bold", colour) + style(f": {visible(d.message)}", "bold")
    lines = [head, style(" --> ", "blue") + _place(d)]
    span = d.span
    if span is not None and text_lines is not None and 0 < span.line <= len(text_lines):
        raw = visible(text_lines[span.line - 1])
        shown, start = _expand(raw, span.column)
        if span.end_line == span.line and span.end_column > span.column:
            _, end = _expand(raw, span.end_column)
            width = max(1, end - start)
        else:
            width = max(1, len(shown) - start + 1)
        shown, start, width = _window(shown, start, width)
        gutter = " " * len(str(span.line))
        lines.append(style(f"{gutter} |", "blue"))
        lines.append(style(f"{span.line} |", "blue") + (" " + shown if shown else ""))
        lines.append(style(f"{gutter} |", "blue") + " " + " " * (start - 1) + style("^" * width, colour))
    if d.help:
        lines.append(style("help", "bold", "cyan") + f": {visible(d.help)}")
    return "\n".join(lines)


_LONGEST = 200
"""The longest source line the ``full`` format shows whole (a longer one is cut around the caret)."""

_BEFORE = 40
_WINDOW = 120


def _window(shown: str, start: int, width: int) -> tuple[str, int, int]:
    """``shown`` (with the caret at column ``start``, ``width`` wide) cut to some
    :data:`_WINDOW` characters around the caret when it is longer than :data:`_LONGEST`, the
    cut ends marked with ``…``: a minified or one-line spec gives a readable excerpt."""
    if len(shown) <= _LONGEST:
        return shown, start, width
    low = max(0, start - 1 - _BEFORE)
    high = min(len(shown), low + _WINDOW)
    cut = ("…" if low else "") + shown[low:high] + ("…" if high < len(shown) else "")
    caret = start - low + (1 if low else 0)
    return cut, caret, max(1, min(width, high - (start - 1)))


def _github(d: Diagnostic) -> str:
    level = {"error": "error", "warning": "warning", "note": "notice"}[d.severity.value]
    span = d.span
    return annotation(
        level,
        visible(d.message + (f". Help: {d.help}" if d.help else "")),
        file=d.path or "",
        line=span.line if span else None,
        col=span.column if span else None,
        endColumn=span.end_column if span and span.end_line == span.line else None,
        title=f"{d.code} {d.name}",
    )


def render(
    diagnostics: Sequence[Diagnostic],
    fmt: str = "full",
    *,
    sources: Callable[[str | None], str | None] = lambda _path: None,
    style: Style | None = None,
) -> str:
    """Render ``diagnostics`` in ``fmt``; ``sources`` gives a file's text for excerpts."""
    style = style or Style(False)
    if fmt == "json":
        return inert_json(json.dumps([d.to_json() for d in diagnostics], indent=2, ensure_ascii=False))
    if fmt == "concise":
        return inert("\n".join(f"{_place(d)}: {d.code} {visible(d.message)}" for d in diagnostics))
    if fmt == "github":
        return "\n".join(_github(d) for d in diagnostics)
    # Each file's text is asked for and split into lines once, however many diagnostics it has.
    split: dict[str | None, list[str] | None] = {}

    def lines_of(path: str | None) -> list[str] | None:
        if path not in split:
            split[path] = _lines_of(sources(path))
        return split[path]

    return inert("\n\n".join(_full(d, lines_of(d.path), style) for d in diagnostics))
