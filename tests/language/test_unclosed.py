"""A list left open at the end of a line is reported where it should have been closed."""

from toolexpect.language.parse import parse_text


def test_missing_paren_points_at_the_end_of_its_line() -> None:
    """A call left open: the caret stands after its last character, not at the next line."""
    text = 'case "c" {\n    expect get_weather(city="Berlin"\n    require order\n}\n'
    (diagnostic,) = parse_text(text).diagnostics
    assert diagnostic.code == "P100"
    assert diagnostic.span is not None
    assert (diagnostic.span.line, diagnostic.span.column) == (2, 37)
    assert 'at the end of this line; the next line goes on with "require"' in diagnostic.message
    assert diagnostic.help == 'close the argument list with ")"'


def test_error_inside_the_same_line_keeps_its_place() -> None:
    """Two arguments without a comma on one line: the caret stays on the second argument."""
    (diagnostic,) = parse_text("expect a(b=1,\n  c=2 d=3)\n").diagnostics
    assert diagnostic.span is not None
    assert (diagnostic.span.line, diagnostic.span.column) == (2, 7)


def test_misspelt_statement_after_an_open_case_is_reported_at_the_word() -> None:
    """The case's own "{" is no open list: a misspelt keyword on the next line is marked there."""
    (diagnostic,) = parse_text('case "c" {\n    expec get_weather(city="Berlin")\n}\n').diagnostics
    assert diagnostic.code == "P100"
    assert diagnostic.span is not None
    assert (diagnostic.span.line, diagnostic.span.column, diagnostic.span.end_column) == (2, 5, 10)
    assert diagnostic.message.endswith('found "expec"')
    assert diagnostic.help == 'did you mean "expect"?'
