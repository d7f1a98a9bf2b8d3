"""Matchers inside values in ``toolexpect server`` (a real LSP client over stdio): completion
offers the matchers of a key inside an object and ``contains`` after an argument, hover on a
nested matcher says what the key must hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolexpect.language.parse import parse_text
from toolexpect.server.completion import ENTRY_MATCHERS

from .editor import Editor


@pytest.mark.parametrize(
    "text",
    ["expect f(location={city ", 'expect f(location={country: "DE", city ', "expect f(m={owner={team? "],
)
def test_after_a_key_inside_an_object_its_matchers_are_offered(
    editor: Editor, typing: Path, text: str
) -> None:
    """After a key in an object value come the matchers of a key, and nothing else."""
    items = editor.complete_text(typing, text)
    assert set(items) == {label for label, _, _ in ENTRY_MATCHERS}
    assert items["contains"].documentation is not None


def test_each_entry_matcher_offered_is_one_the_language_reads(editor: Editor, typing: Path) -> None:
    """Each matcher offered after a key, completed with a value, parses clean."""
    items = editor.complete_text(typing, "expect f(location={city ")
    values = {"in [": '"a"]', '~ "': '^B"', ": any": "", "?": ': "B"', ": ": "1"}
    for item in items.values():
        assert item.text_edit is not None
        inserted = item.text_edit.new_text
        rest = values.get(inserted, "2" if inserted.endswith(" ") else "")
        if inserted == "contains ":
            rest = '"x"'
        text = f"expect f(location={{city {inserted}{rest}, ...}})\n"
        assert parse_text(text, "t").diagnostics == [], text


def test_contains_is_offered_after_an_argument(editor: Editor, typing: Path) -> None:
    """After an argument's name ``contains`` stands beside the other matchers."""
    items = editor.complete_text(typing, "expect send_email(to ")
    assert "contains" in items and "=" in items


def test_while_a_key_is_typed_no_matcher_is_offered(editor: Editor, typing: Path) -> None:
    """Inside an object, before or while a key is written, nothing is offered."""
    assert editor.complete_text(typing, "expect f(location={cit") == {}
    assert editor.complete_text(typing, "expect f(location={") == {}


SPEC = """\
case "nested" {
    expect get_weather(location={city ~ "^Ber", 1 <= days <= 7, ...}, city="Berlin")
    expect send_email(meta={owner={team?: "ops", ...}, ...}, to contains "ops@example.com")
}
"""


def test_hover_explains_a_nested_matcher(editor: Editor, project: Path) -> None:
    """On a matcher inside a value: its key as written, the argument and what the key must
    hold; a range says both bounds; an optional key may be absent."""
    path = project / "specs" / "hover.expect"
    editor.open(path, SPEC)
    regex = editor.hover(path, 1, 34)
    assert regex is not None
    assert '"city" ~ "^Ber"' in regex
    assert "the key `city` of `location` is a string in which the RE2 pattern finds a match" in regex
    ranged = editor.hover(path, 1, 50)
    assert ranged is not None
    assert '1 <= "days" <= 7' in ranged
    assert "at least the bound; and it is a number (not a boolean) at most the bound" in ranged
    optional = editor.hover(path, 2, 36)
    assert optional is not None
    assert "the key `team` of `meta.owner` is absent, or it is equal to the value" in optional
    on_argument = editor.hover(path, 1, 76)
    assert on_argument is not None and "City name" in on_argument  # the catalogue's, as before
