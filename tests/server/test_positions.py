"""Spans (toolexpect's lines and character columns) to LSP positions (the client's lines and
units) and back."""

from __future__ import annotations

from lsprotocol import types

from toolexpect.diagnostics import Span
from toolexpect.server.positions import Positions


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def test_utf16_counts_two_units_for_a_character_outside_the_bmp() -> None:
    """An emoji is one character for a span, two UTF-16 units for VS Code, four UTF-8 bytes."""
    text = 'x="\U0001f600" y\n'
    span = Span(1, 7, 1, 8)  # the `y`
    assert Positions(text).range(span) == types.Range(start=at(0, 7), end=at(0, 8))
    assert Positions(text, types.PositionEncodingKind.Utf8).range(span).start == at(0, 9)
    assert Positions(text, types.PositionEncodingKind.Utf32).range(span).start == at(0, 6)
    assert Positions(text).offset(at(0, 7)) == 6


def test_a_lone_carriage_return_ends_an_lsp_line_but_not_a_span_line() -> None:
    """toolexpect reads ``a\\rb`` as one line; the protocol as two: the place is the same."""
    text = "a\rb c\n"
    span = Span(1, 5, 1, 6)  # the `c`
    assert Positions(text).range(span) == types.Range(start=at(1, 2), end=at(1, 3))
    assert Positions(text).span_position(Positions(text).offset(at(1, 2))) == (1, 5)


def test_a_column_past_the_end_of_a_line_stays_on_that_line() -> None:
    """A diagnostic at the end of a line (``expected ")"``) is not moved to the next one."""
    text = "f(x=1\n}\r\n"
    assert Positions(text).range(Span(1, 6, 1, 7)) == types.Range(start=at(0, 5), end=at(0, 6))
    assert Positions("a\r\nb").range(Span(1, 2, 1, 3)) == types.Range(start=at(0, 1), end=at(0, 2))


def test_a_byte_order_mark_is_not_a_column_of_a_span() -> None:
    """The parser drops a BOM; the editor's text may hold one."""
    text = "\ufeffexpect x\n"
    assert Positions(text).range(Span(1, 8, 1, 9)).start == at(0, 8)
    assert Positions(text).span_position(8) == (1, 8)


def test_no_span_is_the_start_and_the_whole_text_ends_after_its_last_character() -> None:
    """A diagnostic without a place sits at the top; formatting replaces everything."""
    assert Positions("a\nbc").range(None) == types.Range(start=at(0, 0), end=at(0, 0))
    assert Positions("a\nbc").whole() == types.Range(start=at(0, 0), end=at(1, 2))
    assert Positions("a\n").whole().end == at(1, 0)
