"""Count requirements in ``toolexpect server`` (a real LSP client over stdio): completion goes
through each form of ``require at most/at least/exactly/between … calls of``, hover says what a
count counts and when a run fails it, and the outline lists each count."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolexpect.language.parse import parse_text

from .editor import Editor


@pytest.mark.parametrize(
    ("text", "offered"),
    [
        ("require ", {"at most", "at least", "exactly", "between"}),
        ("require at ", {"most", "least"}),
        ("require at most 3 ", {"calls of", "calls", "call of", "call"}),
        ("require between 2 ", {"and"}),
        ("require between 2 and 4 ", {"calls of", "calls", "call of", "call"}),
        ("require exactly 1 call ", {"of"}),
        ("require at most 3 calls ", {"of"}),
    ],
)
def test_completion_goes_through_each_count_form(
    editor: Editor, typing: Path, text: str, offered: set[str]
) -> None:
    """After ``require`` come the count bounds, after the bound's numbers ``calls of`` and its
    other endings, after ``calls`` the ``of``."""
    items = editor.complete_text(typing, text)
    assert offered <= set(items)
    if text != "require ":
        assert set(items) == offered


def test_each_count_form_completed_is_a_count_the_language_reads(editor: Editor, typing: Path) -> None:
    """Each count bound offered, with its numbers, ``calls of`` and a tool, parses clean; the
    detail says the whole statement."""
    items = editor.complete_text(typing, "expect search\nrequire ")
    numbers = {"at most": "3", "at least": "1", "exactly": "2", "between": "1 and 3"}
    for label, number in numbers.items():
        item = items[label]
        assert item.text_edit is not None and item.text_edit.new_text == label + " "
        written = f"require {label} {number} calls of search"
        assert parse_text(f"expect search\n{written}\n", "t").diagnostics == [], written
    assert items["between"].detail == "require between number and number calls of call"


def test_after_of_the_tools_are_offered(editor: Editor, typing: Path) -> None:
    """``require at most 3 calls of `` is followed by the catalogue's tools, and a count's call
    by that tool's parameters."""
    assert {"get_weather", "get_forecast"} <= set(editor.complete_text(typing, "require at most 3 calls of "))
    assert "city" in editor.complete_text(typing, "require at most 3 calls of get_weather(")


SPEC = """\
case "loop" {
    expect search
    require at most 3 calls of search
    require between 1 and 10 calls
    require exactly 1 call of get_weather(city="Berlin")
    require at least 2 calls of lookup
}
"""


def test_hover_explains_each_count(editor: Editor, project: Path) -> None:
    """On a count: its statement, what it counts and when a run fails it; on the tool of a count
    the catalogue knows, that tool."""
    path = project / "specs" / "hover.expect"
    editor.open(path, SPEC)
    at_most = editor.hover(path, 2, 8)
    assert at_most is not None
    assert "require at most 3 calls of search" in at_most
    assert "Counts the calls of `search`, whatever their arguments" in at_most
    assert "a run fails the case when it makes more than 3" in at_most
    between = editor.hover(path, 3, 8)
    assert between is not None
    assert "Counts every tool call of the run" in between
    assert "unless it makes from 1 to 10" in between
    exactly = editor.hover(path, 4, 8)
    assert exactly is not None
    assert "the calls of `get_weather` that match its arguments" in exactly
    assert "unless it makes exactly 1" in exactly
    at_least = editor.hover(path, 5, 8)
    assert at_least is not None and "when it makes fewer than 2" in at_least
    on_tool = editor.hover(path, 4, 33)
    assert on_tool is not None and "Current weather" in on_tool
    assert editor.hover(path, 1, 12) is None  # on a tool the catalogue does not know


def test_the_outline_lists_each_count(editor: Editor, project: Path) -> None:
    """Each count is a child of its case, named by its bounds and tool, its arguments as detail."""
    path = project / "specs" / "outline.expect"
    editor.open(path, SPEC)
    (case,) = editor.symbols(path)
    children = [(c.name, c.detail, c.range.start.line) for c in case.children or []]
    assert children == [
        ("expect search", "", 1),
        ("require at most 3 calls of search", "", 2),
        ("require between 1 and 10 calls", None, 3),
        ("require exactly 1 call of get_weather", "city", 4),
        ("require at least 2 calls of lookup", "", 5),
    ]
