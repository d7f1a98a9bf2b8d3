"""``toolexpect server`` driven by a real LSP client over stdio (pytest-lsp starting
``python -m toolexpect server``): diagnostics as ``lint`` gives them, formatting as ``format``
writes, completion, hover and the outline, in a project whose pyproject.toml names a tool
catalogue and a line length."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import shutil
import sys
from pathlib import Path

import pytest
import pytest_asyncio
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from toolexpect.cli import main

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # seconds, only ever reached when the server fails


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


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "toolexpect", "server"]),
)
async def client(lsp_client: LanguageClient, project: Path):  # type: ignore[no-untyped-def]
    """One server for the module, initialised as VS Code would (UTF-16 positions)."""
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=project.as_uri(),
        )
    )
    yield
    await lsp_client.shutdown_session()


def cli(*argv: str) -> tuple[int, str]:
    """Run ``toolexpect`` in this process: exit code and standard output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def lint_json(path: Path, *tools: str) -> list[dict[str, object]]:
    """What ``toolexpect lint --format json`` reports for ``path``."""
    _code, out = cli("lint", "--format", "json", *tools, str(path))
    return json.loads(out)  # type: ignore[no-any-return]


_versions: dict[str, int] = {}


async def published(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The diagnostics the server publishes next for ``uri``."""
    async with asyncio.timeout(WAIT):
        while uri not in client.diagnostics:
            await asyncio.sleep(0.01)
    return client.diagnostics.pop(uri)


async def open_spec(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    """Write ``text`` to ``path``, open it in the server and return its first diagnostics."""
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    _versions[uri] = 1
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="toolexpect", version=1, text=text)
        )
    )
    return await published(client, uri)


async def change_spec(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    """Replace the open document's text (as unsaved edits) and return its next diagnostics."""
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    _versions[uri] += 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=_versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await published(client, uri)


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


def lint_places(found: list[dict[str, object]]) -> list[dict[str, object]]:
    keys = ("code", "message", "line", "column", "end_line", "end_column")
    return [{key: d[key] for key in keys} for d in found]


BROKEN = 'case "berlin" {\n    expect get_weather(city="Berlin"\n}\n'
FIXED = 'case "berlin" {\n    expect get_weather(city="Berlin")\n}\n'


async def test_a_syntax_error_arrives_as_lint_reports_it_and_clears_when_fixed(
    client: LanguageClient, project: Path
) -> None:
    """Opening a spec with an error publishes lint's diagnostic at its range; fixing it clears it."""
    path = project / "specs" / "broken.expect"
    diagnostics = await open_spec(client, path, BROKEN)
    expected = lint_places(lint_json(path))
    assert [d["code"] for d in expected] == ["P100"]
    assert [as_lint(d) for d in diagnostics] == expected
    end_of_call = len('    expect get_weather(city="Berlin"')
    assert diagnostics[0].range == types.Range(
        start=types.Position(line=1, character=end_of_call),
        end=types.Position(line=1, character=end_of_call + 1),
    )
    assert diagnostics[0].severity == types.DiagnosticSeverity.Error
    assert "help: " in diagnostics[0].message
    assert list(await change_spec(client, path, FIXED)) == []


async def test_catalogue_checks_apply_from_the_documents_pyproject(
    client: LanguageClient, project: Path
) -> None:
    """With ``tools`` in the nearest pyproject.toml, the catalogue findings are those of
    ``lint --tools``, at the same places."""
    text = (
        'case "weather" {\n    expect get_wether(city="Berlin")\n    expect get_weather(town="Berlin")\n}\n'
    )
    path = project / "specs" / "tools.expect"
    diagnostics = await open_spec(client, path, text)
    expected = lint_places(lint_json(path, "--tools", str(project / "tools.json")))
    assert [d["code"] for d in expected] == ["T500", "T501"]
    assert [as_lint(d) for d in diagnostics] == expected


async def test_positions_count_utf16_units(client: LanguageClient, project: Path) -> None:
    """A character outside the BMP before the error counts two UTF-16 units, as VS Code counts."""
    text = 'expect get_weather(city="\U0001f600") $\n'
    diagnostics = await open_spec(client, project / "specs" / "emoji.expect", text)
    assert [d.code for d in diagnostics] == ["P101"]
    assert diagnostics[0].range.start == types.Position(
        line=0, character=len('expect get_weather(city="') + 2 + 3
    )


UNFORMATTED = (
    '# weather\ncase   "berlin" {\n'
    '  expect get_weather(city="Berlin", unit in ["celsius", "fahrenheit"], days=3)\n'
    "   require   no unexpected calls\n}\n"
)


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """The text after a whole-document edit (all the server sends)."""
    assert len(edits) == 1 and edits[0].range.start == types.Position(line=0, character=0)
    end = edits[0].range.end
    lines = text.split("\n")
    assert end.line == len(lines) - 1 and end.character == len(lines[-1])
    return edits[0].new_text


async def test_formatting_gives_what_toolexpect_format_writes(client: LanguageClient, project: Path) -> None:
    """The formatting edit makes the document what ``toolexpect format`` writes, with the line
    length of pyproject.toml (60: the call is wrapped)."""
    path = project / "specs" / "format.expect"
    await open_spec(client, path, UNFORMATTED)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert edits is not None
    formatted = apply(UNFORMATTED, edits)
    assert cli("format", "--line-length", "60", str(path))[0] == 0
    assert formatted == path.read_text(encoding="utf-8")
    assert "    expect get_weather(\n" in formatted
    await change_spec(client, path, formatted)
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert again is not None and list(again) == []


async def test_a_spec_that_does_not_parse_gets_no_formatting_edit(
    client: LanguageClient, project: Path
) -> None:
    """Format refuses what does not parse; so does the server."""
    path = project / "specs" / "broken-format.expect"
    await open_spec(client, path, BROKEN)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert not edits


async def complete(client: LanguageClient, path: Path, text: str) -> list[types.CompletionItem]:
    """The completions at the end of ``text`` (where ``|`` stands, if it holds one)."""
    cursor = text.index("|") if "|" in text else len(text)
    text = text.replace("|", "")
    await change_spec(client, path, text)
    before = text[:cursor].split("\n")
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=len(before) - 1, character=len(before[-1])),
        )
    )
    assert result is not None
    return result.items if isinstance(result, types.CompletionList) else result


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def typing_path(client: LanguageClient, project: Path) -> Path:
    path = project / "specs" / "typing.expect"
    await open_spec(client, path, "")
    return path


async def test_inside_a_call_completion_offers_the_catalogues_parameters(
    client: LanguageClient, typing_path: Path
) -> None:
    """Inside ``expect get_weather(`` the parameters come with their types and descriptions."""
    items = await complete(client, typing_path, 'case "c" {\n    expect get_weather(|\n}\n')
    by_label = {item.label: item for item in items}
    assert {"city", "unit", "days", "not"} <= set(by_label)
    assert by_label["city"].detail == "string"
    assert by_label["days"].detail == "integer (optional)"
    documentation = by_label["city"].documentation
    assert isinstance(documentation, types.MarkupContent)
    assert documentation.value == "City name, e.g. Berlin"


async def test_parameters_already_given_are_not_offered_again(
    client: LanguageClient, typing_path: Path
) -> None:
    """After ``city="Berlin", `` the call still offers ``unit`` and ``days``, not ``city``."""
    items = await complete(client, typing_path, 'expect get_weather(city="Berlin", u')
    labels = {item.label for item in items}
    assert {"unit", "days"} <= labels
    assert "city" not in labels


async def test_statement_keywords_tools_require_forms_and_matchers(
    client: LanguageClient, typing_path: Path
) -> None:
    """Keywords where a statement starts, tools after ``expect``, the forms of ``require`` after
    it, matchers after an argument's name, enum values after ``=``."""
    statement = {i.label for i in await complete(client, typing_path, 'case "c" {\n    |\n}\n')}
    assert {"expect", "forbid", "question", "require"} <= statement
    assert "case" not in statement
    assert "case" in {i.label for i in await complete(client, typing_path, "")}
    tools = await complete(client, typing_path, "expect get_")
    assert {"get_weather", "get_forecast"} <= {i.label for i in tools}
    weather = next(i for i in tools if i.label == "get_weather")
    assert weather.detail == "get_weather(city: string, unit?: string, days?: integer)"
    forms = {i.label for i in await complete(client, typing_path, "require ")}
    assert {"accuracy >=", "no unexpected calls", "no tool calls", "order", "pass rate >="} <= forms
    matchers = {i.label for i in await complete(client, typing_path, "expect get_weather(city ")}
    assert {"=", "in [...]", '~ "regex"', ">=", "= any"} <= matchers
    values = {i.label for i in await complete(client, typing_path, "expect get_weather(unit=")}
    assert {'"celsius"', '"fahrenheit"', "any"} <= values
    assert await complete(client, typing_path, 'expect get_weather(city="Ber') == []


async def hover_at(client: LanguageClient, path: Path, line: int, character: int) -> str | None:
    found = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=character),
        )
    )
    if found is None:
        return None
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


async def test_hover_shows_the_schema_of_a_tool_and_of_an_argument(
    client: LanguageClient, project: Path
) -> None:
    """On the tool: its signature, description and parameters schema; on an argument: its own."""
    path = project / "specs" / "hover.expect"
    await open_spec(client, path, 'expect get_weather(city="Berlin", unit="celsius")\n')
    on_tool = await hover_at(client, path, 0, 10)
    assert on_tool is not None
    assert "get_weather(city: string, unit?: string, days?: integer)" in on_tool
    assert "Current weather and a short forecast for a city." in on_tool
    assert '"required": [\n    "city"\n  ]' in on_tool
    on_unit = await hover_at(client, path, 0, 36)
    assert on_unit is not None
    assert "get_weather(unit?: string)" in on_unit
    assert '"enum": [\n    "celsius",\n    "fahrenheit"\n  ]' in on_unit
    assert await hover_at(client, path, 0, 3) is None  # on `expect`


async def test_hover_works_in_a_spec_that_does_not_parse_yet(client: LanguageClient, project: Path) -> None:
    """While a call is being written, hover still finds the tool and the argument."""
    path = project / "specs" / "hover-typing.expect"
    await open_spec(client, path, 'expect get_weather(city="Berlin", unit=\n')
    on_tool = await hover_at(client, path, 0, 10)
    assert on_tool is not None and "Current weather" in on_tool
    on_unit = await hover_at(client, path, 0, 36)
    assert on_unit is not None and "get_weather(unit?: string)" in on_unit


async def test_symbols_list_cases_and_their_statements(client: LanguageClient, project: Path) -> None:
    """The outline holds each case with its question, expectations, forbids and requirements."""
    text = (
        "expect ping\n\n"
        'case "berlin" {\n    question "Weather?"\n    expect get_weather(city="Berlin") then get_forecast\n'
        "    forbid delete_user\n    require accuracy >= 0.5\n}\n"
    )
    path = project / "specs" / "outline.expect"
    await open_spec(client, path, text)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    assert symbols is not None
    outline = [
        (s.name, [c.name for c in s.children or []], s.range.start.line, s.range.end.line)
        for s in symbols
        if isinstance(s, types.DocumentSymbol)
    ]
    assert outline == [
        ("outline", ["expect ping"], 0, 0),
        (
            "berlin",
            [
                "question",
                "expect get_weather",
                "expect get_forecast",
                "forbid delete_user",
                "require accuracy",
            ],
            2,
            7,
        ),
    ]
