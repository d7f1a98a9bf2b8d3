"""``allow`` in ``toolexpect server`` (a real LSP client over stdio): completion offers it where a
statement starts and the tools after it, hover says what an allow lets pass, and the outline
lists each allow."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .editor import Editor


@pytest.mark.parametrize("text", ["", "expect search\n", 'case "c" {\n    expect search\n    '])
def test_completion_offers_allow_where_a_statement_starts(editor: Editor, typing: Path, text: str) -> None:
    """``allow`` is offered as a keyword with the other statements, at the top and in a case."""
    items = editor.complete_text(typing, text)
    assert {"allow", "expect", "forbid", "require"} <= set(items)
    allow = items["allow"]
    assert allow.kind == types.CompletionItemKind.Keyword
    assert allow.text_edit is not None and allow.text_edit.new_text == "allow "


def test_after_allow_the_tools_and_their_parameters_are_offered(editor: Editor, typing: Path) -> None:
    """``allow `` is followed by the catalogue's tools, and an allowed call by its tool's parameters."""
    assert {"get_weather", "get_forecast"} <= set(editor.complete_text(typing, "allow "))
    assert "city" in editor.complete_text(typing, "allow get_weather(")


SPEC = """\
case "research" {
    expect search
    allow think
    allow lookup(mode="fast")
    allow get_weather
    require no unexpected calls
}
"""


def test_hover_explains_an_allow(editor: Editor, project: Path) -> None:
    """On an allowed call or its keyword: the statement, what it lets pass, and that it never
    changes the accuracy; on an allowed tool the catalogue knows, that tool."""
    path = project / "specs" / "hover.expect"
    editor.open(path, SPEC)
    on_tool = editor.hover(path, 2, 11)
    assert on_tool is not None
    assert "allow think" in on_tool
    assert "Allows calls of `think`, whatever their arguments, any number of times or none" in on_tool
    assert "neither expected nor unexpected" in on_tool
    assert "never counts towards the accuracy" in on_tool
    on_keyword = editor.hover(path, 3, 6)
    assert on_keyword is not None
    assert 'allow lookup(mode="fast")' in on_keyword
    assert "calls of `lookup` that match its arguments" in on_keyword
    catalogued = editor.hover(path, 4, 12)
    assert catalogued is not None and "Current weather" in catalogued
    assert editor.hover(path, 1, 12) is None  # an expected tool the catalogue does not know


def test_the_outline_lists_each_allow(editor: Editor, project: Path) -> None:
    """Each allow is a child of its case, named ``allow TOOL``, its arguments as detail."""
    path = project / "specs" / "outline.expect"
    editor.open(path, SPEC)
    (case,) = editor.symbols(path)
    children = [(c.name, c.detail, c.range.start.line) for c in case.children or []]
    assert children == [
        ("expect search", "", 1),
        ("allow think", "", 2),
        ("allow lookup", "mode", 3),
        ("allow get_weather", "", 4),
        ("require no unexpected calls", None, 5),
    ]
