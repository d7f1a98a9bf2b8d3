"""Messages that point at the fix: where the mistake is, and help that names what to write."""

from __future__ import annotations

import pytest

from toolexpect.diagnostics import Severity
from toolexpect.specfiles.stages import Kind, parse_spec_source


def _only(text: str) -> tuple[str, int, int, str | None]:
    (diagnostic,) = parse_spec_source(text).diagnostics
    assert diagnostic.span is not None
    return diagnostic.code, diagnostic.span.line, diagnostic.span.column, diagnostic.help


@pytest.mark.parametrize(
    ("text", "column", "help"),
    [
        ('expect convert(amount=2, from_unit="cup, to_unit ~ r"^g")\n', 36, 'as in "cup"'),
        ('expect convert(from_unit="cup, to_unit="g")\n', 26, 'as in "cup"'),
        ("expect convert(from_unit='cup, to_unit='g')\n", 26, "as in 'cup'"),
        ('expect t(y="a", x="b\\"c"d")\n', 19, 'close the string with " where it ends'),
    ],
)
def test_a_string_left_open_in_mid_line_is_reported_where_it_opens(text: str, column: int, help: str) -> None:
    """A string whose closing quote is missing in mid-line runs on to the next string's quote:
    P101 stands at its opening quote, and the help says where it may end."""
    code, line, at, shown = _only(text)
    assert (code, line, at) == ("P101", 1, column)
    assert shown is not None and help in shown


@pytest.mark.parametrize(
    "text",
    ['expect t(x="a"b)\n', 'expect t(x="a" "b")\n', 'expect t(x="abc\n', "expect t(x='it\"s' y=1)\n"],
)
def test_a_line_whose_quotes_pair_up_is_not_taken_for_a_string_left_open(text: str) -> None:
    """Only an odd quote after the error makes a string left open: other errors keep their message."""
    (diagnostic,) = parse_spec_source(text).diagnostics
    assert "runs on to the" not in diagnostic.message


@pytest.mark.parametrize(
    ("text", "help"),
    [
        ("expect a(x=1 then\n       b\n", 'close the argument list with ")" before "then"'),
        ("expect a(x=1\n       then b\n", 'close the argument list with ")" before "then"'),
        ("expect a(x=[1 then\n       b\n", 'close the list with "]" before "then"'),
        ("expect a(x={k: 1 then\n       b\n", 'close the object with "}" before "then"'),
    ],
)
def test_a_then_after_something_left_open_asks_to_close_it(text: str, help: str) -> None:
    """A missing ")" (or "]", "}") before a "then" asks for it, not to move the "then"."""
    assert _only(text)[3] == help


def test_a_then_that_starts_a_line_still_asks_to_move_it() -> None:
    """After a whole statement, a line that starts with "then" is told where "then" goes."""
    help = _only("expect a\nthen b\n")[3]
    assert help is not None and 'move this "then" to the end of the line before' in help


@pytest.mark.parametrize(
    ("text", "help"),
    [
        ("expect t(x =< 5)\n", 'did you mean "<="?'),
        ("expect t(x => 5)\n", 'did you mean ">="?'),
        ('expect t(x ~= "^a")\n', 'match a pattern with "~" alone: name ~ "regex"'),
        ('expect t(x =~ "^a")\n', 'match a pattern with "~" alone: name ~ "regex"'),
        ('expect t(x == "a")\n', 'compare with one "=": name="value"'),
        (
            'expect t(city in "Berlin")\n',
            '"in" takes a list of values: in ["Berlin"]; for one value, write name="Berlin"',
        ),
        ("expect t(days in 5)\n", '"in" takes a list of values: in [5]; for one value, write name=5'),
        ('prompt "hi"\nexpect t\n', 'did you mean "question"?'),
        ('case "c" {\n    prompt "hi"\n}\n', 'did you mean "question"?'),
    ],
)
def test_a_near_miss_of_the_language_gets_the_spelling_it_has(text: str, help: str) -> None:
    """Operators written the other way round, a lone value after "in" and "prompt" for
    "question" each get help that names what the language writes."""
    shown = _only(text)[3]
    assert shown is not None and help in shown


@pytest.mark.parametrize(
    ("pattern", "help"),
    [
        ("(pasta", 'a "(" opens a group that is never closed'),
        ("pasta)", 'this ")" closes no group'),
        ("[ab", 'a "[" opens a character class that is never closed'),
        ("x{2,1}", "write a repetition as {min,max}"),
        ("(?=x)", "backreferences and lookarounds are not available"),
        ("(a)\\\\1", "backreferences and lookarounds are not available"),
    ],
)
def test_an_invalid_pattern_gets_help_about_what_is_wrong_with_it(pattern: str, help: str) -> None:
    """L302's help is about the pattern's own mistake: an unbalanced parenthesis is not a backreference."""
    code, _, _, shown = _only(f'expect t(x ~ "{pattern}")\n')
    assert code == "L302"
    assert shown is not None and help in shown


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("expect f(x=1)\nforbid f\n", "text"),
        ('case "c" {\n    expect f(x=1, y=2)\n    forbid f(y=2)\n}\n', "text"),
        ("expect f(1 <= n <= 9)\nforbid f(n >= 1)\n", "text"),
        (
            '{"cases": [{"name": "c", "expect": [{"tool": "f", '
            '"args": [{"name": "x", "op": "eq", "value": 1}]}], '
            '"forbid": [{"tool": "f"}]}]}',
            "json",
        ),
    ],
)
def test_a_forbid_that_matches_every_call_an_expect_matches_is_a_warning(text: str, kind: Kind) -> None:
    """``expect f(...)`` with ``forbid f`` (or a forbid whose every matcher the expect has):
    that expectation cannot be met without breaking the forbid, so lint warns with L311."""
    loaded = parse_spec_source(text, kind)
    assert [(d.code, d.severity) for d in loaded.diagnostics] == [("L311", Severity.WARNING)]
    assert loaded.diagnostics[0].span is not None
    assert loaded.diagnostics[0].help is not None and "narrow the forbid" in loaded.diagnostics[0].help


@pytest.mark.parametrize(
    "text",
    [
        "expect f(x=1)\nforbid f(x=2)\n",
        "expect f(x=1)\nforbid f(x=1, y=2)\n",
        "expect g(x=1)\nforbid f\n",
        "expect f(x? =1)\nforbid f(x=1)\n",
    ],
)
def test_a_forbid_narrower_than_the_expect_or_of_another_tool_is_clean(text: str) -> None:
    """A forbid that some call meeting the expect escapes gives no L311."""
    assert parse_spec_source(text).diagnostics == []


def test_a_forbid_identical_to_an_expect_stays_l304_alone() -> None:
    """The identical forbid is the error L304, not also L311."""
    assert [d.code for d in parse_spec_source("expect f(x=1)\nforbid f(x=1)\n").diagnostics] == ["L304"]
