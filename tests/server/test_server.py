"""``toolexpect server`` driven by a real LSP client over stdio (pygls's ``LanguageClient``
starting ``python -m toolexpect server``): diagnostics as ``lint`` gives them, formatting as
``format`` writes, completion, hover and the outline, in a project whose pyproject.toml names a
tool catalogue and a line length. One server serves the whole module."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types

from toolexpect.cli import main
from toolexpect.language.parse import parse_text
from toolexpect.specfiles.stages import MAX_SPEC_BYTES

from .editor import Editor

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder: pyproject.toml with the example catalogue and a line length of 60."""
    folder = tmp_path_factory.mktemp("project")
    (folder / "pyproject.toml").write_text(
        '[tool.toolexpect]\ntools = "tools.json"\nline-length = 60\n', encoding="utf-8"
    )
    shutil.copy(ROOT / "specs" / "tools.json", folder / "tools.json")
    (folder / "specs").mkdir()
    return folder


@pytest.fixture(scope="module")
def editor(project: Path) -> Iterator[Editor]:
    """One server for the module, initialised as VS Code would (UTF-16 positions)."""
    started = Editor(project)
    yield started
    started.close()


def cli(*argv: str) -> tuple[int, str]:
    """Run ``toolexpect`` in this process: exit code and standard output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def lint_json(path: Path, *tools: str) -> list[dict[str, object]]:
    """What ``toolexpect lint --format json`` reports for ``path``: code, message and place."""
    _code, out = cli("lint", "--format", "json", *tools, str(path))
    keys = ("code", "message", "line", "column", "end_line", "end_column")
    return [{key: found[key] for key in keys} for found in json.loads(out)]


def as_lint(diagnostic: types.Diagnostic) -> dict[str, object]:
    """An LSP diagnostic in the terms of ``lint --format json`` (1-based lines and columns)."""
    place = diagnostic.range
    return {
        "code": diagnostic.code,
        "message": diagnostic.message.split("\nhelp: ")[0],
        "line": place.start.line + 1,
        "column": place.start.character + 1,
        "end_line": place.end.line + 1,
        "end_column": place.end.character + 1,
    }


BROKEN = 'case "berlin" {\n    expect get_weather(city="Berlin"\n}\n'
FIXED = 'case "berlin" {\n    expect get_weather(city="Berlin")\n}\n'


def test_a_syntax_error_arrives_as_lint_reports_it_and_clears_when_fixed(
    editor: Editor, project: Path
) -> None:
    """Opening a spec with an error publishes lint's diagnostic at its range; fixing it clears it."""
    path = project / "specs" / "broken.expect"
    diagnostics = editor.open(path, BROKEN)
    expected = lint_json(path)
    assert [d["code"] for d in expected] == ["P100"]
    assert [as_lint(d) for d in diagnostics] == expected
    end_of_call = len('    expect get_weather(city="Berlin"')
    assert diagnostics[0].range == types.Range(
        start=types.Position(line=1, character=end_of_call),
        end=types.Position(line=1, character=end_of_call + 1),
    )
    assert diagnostics[0].severity == types.DiagnosticSeverity.Error
    assert diagnostics[0].source == "toolexpect"
    assert "\nhelp: " in diagnostics[0].message
    assert editor.change(path, FIXED) == []


def test_a_spec_whose_path_has_a_space_and_an_accent_gets_its_diagnostics(
    editor: Editor, project: Path
) -> None:
    """Editors send such a path percent-encoded (``my%20specs/%C3%A9t%C3%A9.expect``); its
    diagnostics arrive, under the URI the editor sent, and clear when fixed."""
    folder = project / "specs" / "my specs"
    folder.mkdir()
    path = folder / "été.expect"
    assert "%20" in path.as_uri() and "%C3%A9" in path.as_uri()
    assert [d.code for d in editor.open(path, BROKEN)] == ["P100"]
    assert editor.change(path, FIXED) == []


def test_a_burst_of_changes_publishes_only_diagnostics_of_the_text_they_were_made_from(
    editor: Editor, project: Path
) -> None:
    """Changes sent faster than the server analyses are taken together: the last text gets its
    diagnostics, and any earlier publication is of an earlier version, in order, never after."""
    path = project / "specs" / "burst.expect"
    editor.open(path, FIXED)
    start = len(editor.history)
    texts = [FIXED.replace('"Berlin"', f'"Berlin {i}"') for i in range(5)] + [BROKEN]
    diagnostics = editor.change(path, *texts)
    assert [d.code for d in diagnostics] == ["P100"]
    versions = [v for u, v, _ in editor.history[start:] if u == path.as_uri()]
    assert versions == sorted(versions) and versions[-1] == 7
    assert all(found == [] for u, v, found in editor.history[start:] if u == path.as_uri() and v != 7)


def test_catalogue_checks_apply_from_the_documents_pyproject(editor: Editor, project: Path) -> None:
    """With ``tools`` in the nearest pyproject.toml, the catalogue findings are those of
    ``lint --tools``, at the same places."""
    text = (
        'case "weather" {\n    expect get_wether(city="Berlin")\n    expect get_weather(town="Berlin")\n}\n'
    )
    path = project / "specs" / "tools.expect"
    diagnostics = editor.open(path, text)
    expected = lint_json(path, "--tools", str(project / "tools.json"))
    assert [d["code"] for d in expected] == ["T500", "T501"]
    assert [as_lint(d) for d in diagnostics] == expected


def test_positions_count_utf16_units(editor: Editor, project: Path) -> None:
    """A character outside the BMP before the error counts two UTF-16 units, as VS Code counts."""
    text = 'expect get_weather(city="\U0001f600") $\n'
    diagnostics = editor.open(project / "specs" / "emoji.expect", text)
    assert [d.code for d in diagnostics] == ["P101"]
    before = len('expect get_weather(city="') + 2 + len('") ')
    assert diagnostics[0].range.start == types.Position(line=0, character=before)


UNFORMATTED = (
    '# weather\ncase   "berlin" {\n'
    '  expect get_weather(city="Berlin", unit in ["celsius", "fahrenheit"], days=3)\n'
    "   require   no unexpected calls\n}\n"
)


def test_formatting_gives_what_toolexpect_format_writes(editor: Editor, project: Path) -> None:
    """The formatting edit replaces the whole document with what ``toolexpect format`` writes,
    with the line length of pyproject.toml (60: the call is wrapped); formatted, it has no edit."""
    path = project / "specs" / "format.expect"
    editor.open(path, UNFORMATTED)
    edits = editor.format(path)
    assert edits is not None and len(edits) == 1
    assert edits[0].range == types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=5, character=0)
    )
    assert cli("format", "--line-length", "60", str(path))[0] == 0
    formatted = path.read_text(encoding="utf-8")
    assert edits[0].new_text == formatted
    assert "    expect get_weather(\n" in formatted
    editor.change(path, formatted)
    assert editor.format(path) == []


def test_a_spec_that_does_not_parse_gets_no_formatting_edit(editor: Editor, project: Path) -> None:
    """Format refuses what does not parse; so does the server."""
    path = project / "specs" / "broken-format.expect"
    editor.open(path, BROKEN)
    assert not editor.format(path)


def test_a_spec_larger_than_lint_reads_gets_lints_refusal(editor: Editor, project: Path) -> None:
    """Over the limit (256 KiB), the editor shows the P105 that ``lint`` gives (its words, at the top of the
    file), is not analysed further and gets no formatting edit, as ``format`` refuses it."""
    path = project / "specs" / "large.expect"
    text = 'case "a" {\n    expect get_wether\n}\n' + "# " + "x" * MAX_SPEC_BYTES + "\n"
    diagnostics = editor.open(path, text)
    (refused,) = lint_json(path)
    assert refused["code"] == "P105"
    assert [(d.code, d.message.split("\nhelp: ")[0]) for d in diagnostics] == [("P105", refused["message"])]
    assert diagnostics[0].range.start == types.Position(line=0, character=0)
    assert not editor.format(path)


@pytest.fixture(scope="module")
def typing(editor: Editor, project: Path) -> Path:
    """An open document whose text each completion test replaces."""
    path = project / "specs" / "typing.expect"
    editor.open(path, "")
    return path


def complete(editor: Editor, path: Path, text: str) -> list[types.CompletionItem]:
    """The completions where ``|`` stands in ``text`` (at its end without one)."""
    cursor = text.index("|") if "|" in text else len(text)
    text = text.replace("|", "")
    editor.change(path, text)
    before = text[:cursor].split("\n")
    return editor.complete(path, len(before) - 1, len(before[-1]))


def test_inside_a_call_completion_offers_the_catalogues_parameters(editor: Editor, typing: Path) -> None:
    """Inside ``expect get_weather(`` the parameters come with their types and descriptions."""
    items = complete(editor, typing, 'case "c" {\n    expect get_weather(|\n}\n')
    by_label = {item.label: item for item in items}
    assert {"city", "unit", "days", "not"} <= set(by_label)
    assert by_label["city"].detail == "string"
    assert by_label["days"].detail == "integer (optional)"
    documentation = by_label["city"].documentation
    assert isinstance(documentation, types.MarkupContent)
    assert documentation.value == "City name, e.g. Berlin"


def test_parameters_already_given_are_not_offered_again(editor: Editor, typing: Path) -> None:
    """After ``city="Berlin", `` the call still offers ``unit`` and ``days``, not ``city``."""
    labels = {item.label for item in complete(editor, typing, 'expect get_weather(city="Berlin", u')}
    assert {"unit", "days"} <= labels
    assert "city" not in labels


def test_statement_keywords_tools_require_forms_and_matchers(editor: Editor, typing: Path) -> None:
    """Keywords where a statement starts, tools after ``expect``, the forms of ``require`` after
    it, matchers after an argument's name, enum values after ``=``, nothing inside a string."""
    statement = {i.label for i in complete(editor, typing, 'case "c" {\n    |\n}\n')}
    assert {"expect", "forbid", "question", "require"} <= statement
    assert "case" not in statement
    assert "case" in {i.label for i in complete(editor, typing, "")}
    tools = complete(editor, typing, "expect get_")
    assert {"get_weather", "get_forecast"} <= {i.label for i in tools}
    weather = next(i for i in tools if i.label == "get_weather")
    assert weather.detail == "get_weather(city: string, unit?: string, days?: integer)"
    assert weather.text_edit == types.TextEdit(
        range=types.Range(
            start=types.Position(line=0, character=7), end=types.Position(line=0, character=11)
        ),
        new_text="get_weather",
    )
    matchers = {i.label for i in complete(editor, typing, "expect get_weather(city ")}
    assert {"=", "in [...]", '~ "regex"', ">=", "= any"} <= matchers
    values = {i.label for i in complete(editor, typing, "expect get_weather(unit=")}
    assert {'"celsius"', '"fahrenheit"', "any"} <= values
    assert complete(editor, typing, 'expect get_weather(city="Ber') == []


COUNTS = {"at most", "at least", "exactly", "between"}  # tests/server/test_counts.py completes them
EVERY_REQUIREMENT = {
    "accuracy >=",
    "accuracy >",
    "no unexpected calls",
    "no tool calls",
    "order",
    "pass rate >=",
    "pass rate >",
    *COUNTS,
}


def test_after_require_every_form_of_the_grammar_is_offered(editor: Editor, typing: Path) -> None:
    """After ``require`` come all its forms, each of which, completed (with a number where one
    follows), is a requirement the language reads."""
    items = complete(editor, typing, 'case "c" {\n    expect a\n    require |\n}\n')
    assert {item.label for item in items} == EVERY_REQUIREMENT
    for item in items:
        assert item.text_edit is not None
        if item.label in COUNTS:
            continue
        inserted = item.text_edit.new_text
        written = "require " + inserted + ("0.5" if inserted.endswith(" ") else "")
        result = parse_text(f"expect a\n{written}\n", "t")
        assert result.diagnostics == [], written
    by_label = {item.label: item for item in items}
    assert by_label["pass rate >"].detail == "require pass rate > number"


@pytest.mark.parametrize(
    ("text", "offered", "typed"),
    [
        ("require accuracy |", {">=", ">"}, ""),
        ("require pass |", {"rate >=", "rate >"}, ""),
        ("require pass rate |", {">=", ">"}, ""),
        ("require no un|", {"unexpected calls", "tool calls"}, "un"),
        ("require acc|", EVERY_REQUIREMENT, "acc"),
        ("require accuracy >= |", set(), ""),
        ("require order |", set(), ""),
    ],
)
def test_after_part_of_a_requirement_the_rest_of_each_form_is_offered(
    editor: Editor, typing: Path, text: str, offered: set[str], typed: str
) -> None:
    """A requirement written in part goes on as each form it starts does; the word being typed
    is what the completion replaces."""
    items = complete(editor, typing, text)
    assert {item.label for item in items} == offered
    column = text.index("|")
    for item in items:
        assert item.text_edit is not None
        assert item.text_edit.range == types.Range(
            start=types.Position(line=0, character=column - len(typed)),
            end=types.Position(line=0, character=column),
        )


def test_hover_shows_the_schema_of_a_tool_and_of_an_argument(editor: Editor, project: Path) -> None:
    """On the tool: its signature, description and parameters schema; on an argument: its own."""
    path = project / "specs" / "hover.expect"
    editor.open(path, 'expect get_weather(city="Berlin", unit="celsius")\n')
    on_tool = editor.hover(path, 0, 10)
    assert on_tool is not None
    assert "get_weather(city: string, unit?: string, days?: integer)" in on_tool
    assert "Current weather and a short forecast for a city." in on_tool
    assert '"required": [\n    "city"\n  ]' in on_tool
    on_unit = editor.hover(path, 0, 36)
    assert on_unit is not None
    assert "get_weather(unit?: string)" in on_unit
    assert '"enum": [\n    "celsius",\n    "fahrenheit"\n  ]' in on_unit
    assert editor.hover(path, 0, 3) is None  # on `expect`


def test_hover_works_in_a_spec_that_does_not_parse_yet(editor: Editor, project: Path) -> None:
    """While a call is being written, hover still finds the tool and the argument."""
    path = project / "specs" / "hover-typing.expect"
    editor.open(path, 'expect get_weather(city="Berlin", unit=\n')
    on_tool = editor.hover(path, 0, 10)
    assert on_tool is not None and "Current weather" in on_tool
    on_unit = editor.hover(path, 0, 36)
    assert on_unit is not None and "get_weather(unit?: string)" in on_unit


def test_symbols_list_cases_and_their_statements(editor: Editor, project: Path) -> None:
    """The outline holds each case with its question, expectations, forbids and requirements."""
    text = (
        "expect ping\n\n"
        'case "berlin" {\n    question "Weather?"\n    expect get_weather(city="Berlin") then get_forecast\n'
        "    forbid delete_user\n    require accuracy >= 0.5\n}\n"
    )
    path = project / "specs" / "outline.expect"
    editor.open(path, text)
    outline = [
        (s.name, [c.name for c in s.children or []], s.range.start.line, s.range.end.line)
        for s in editor.symbols(path)
    ]
    children = [
        "question",
        "expect get_weather",
        "expect get_forecast",
        "forbid delete_user",
        "require accuracy",
    ]
    assert outline == [("outline", ["expect ping"], 0, 0), ("berlin", children, 2, 7)]


def _outline(editor: Editor, path: Path) -> list[tuple[str, list[str], int, int]]:
    return [
        (s.name, [c.name for c in s.children or []], s.range.start.line, s.range.end.line)
        for s in editor.symbols(path)
    ]


_TWO_CASES = (
    'case "berlin" {\n    expect get_weather(city="Berlin")\n}\n\n'
    'case "paris" {\n    expect get_weather(city="Paris")\n    forbid delete_user\n}\n'
)
_TWO_OUTLINED = [
    ("berlin", ["expect get_weather"], 0, 2),
    ("paris", ["expect get_weather", "forbid delete_user"], 4, 7),
]


def test_outline_of_the_last_version_that_parsed_stays_while_typing(editor: Editor, project: Path) -> None:
    """While the text does not parse, the outline is that of the last version that parsed; once
    the text parses again, the outline is of the new text."""
    path = project / "specs" / "outline-typing.expect"
    editor.open(path, _TWO_CASES)
    assert _outline(editor, path) == _TWO_OUTLINED
    typing = _TWO_CASES.replace('city="Paris")', 'city="Paris", unit=')
    [broken] = editor.change(path, typing)
    assert broken.code is not None and str(broken.code).startswith("P")
    assert _outline(editor, path) == _TWO_OUTLINED
    editor.change(path, _TWO_CASES.replace('city="Paris")', 'city="Paris", unit="C")') + "expect ping\n")
    editor.change(path, 'case "rome" {\n    expect get_weather(city="Rome"\n}\n')
    assert sorted(name for name, *_ in _outline(editor, path)) == ["berlin", "outline-typing", "paris"]
    editor.change(path, 'case "rome" {\n    expect get_weather(city="Rome")\n}\n')
    assert _outline(editor, path) == [("rome", ["expect get_weather"], 0, 2)]


def test_stale_outline_ranges_end_by_the_end_of_the_text(editor: Editor, project: Path) -> None:
    """A stale outline of a longer text never points past the end of the text as it is now."""
    path = project / "specs" / "outline-cut.expect"
    editor.open(path, _TWO_CASES)
    editor.change(path, "case ")
    symbols = editor.symbols(path)
    assert [s.name for s in symbols] == ["berlin", "paris"]
    places = [
        (p.line, p.character)
        for s in [*symbols, *(c for s in symbols for c in s.children or [])]
        for p in (s.range.start, s.range.end, s.selection_range.start, s.selection_range.end)
    ]
    assert max(places) == (0, 5)
    assert symbols[0].range.start == types.Position(line=0, character=0)


def test_a_document_that_never_parsed_has_no_outline(editor: Editor, project: Path) -> None:
    """With no version that parsed, the outline is empty (no other document's outline shows)."""
    path = project / "specs" / "outline-never.expect"
    editor.open(path, 'case "c" {\n    expect get_weather(city=\n')
    assert editor.symbols(path) == []
