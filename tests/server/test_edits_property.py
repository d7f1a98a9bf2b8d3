"""Random incremental edits, as an editor sends them, keep the server's copy of a document equal
to the editor's, and its diagnostics equal ``lint``'s for that text.

The editor is a reference model written here from the LSP's words: lines end at ``\\n``,
``\\r\\n`` or ``\\r`` (nothing else: U+2028, U+0085, form feed ... are characters of a line),
columns count the agreed units (UTF-16 or UTF-8), and a column past the end of a line means its
end. Texts hold any characters, those separators, CRLF, astral characters and lone
surrogates. The server runs in a thread over pipes (the same session and framing code as the
process), so that its copy can be read; a few seconds of examples by default, many more with
``HYPOTHESIS_PROFILE=long``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolexpect.cli import main

from .raw import RawClient
from .test_hostile import SEPARATORS, expected_diagnostics

EXAMPLES = 2000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 25
_BREAK = re.compile(r"\r\n|\r|\n")
_names = count()

PIECES = [
    *"abcxyz_ (){}[]\"'=,.:;#?<>*~-0123456789\t",
    *SEPARATORS,
    "\n",
    "\r",
    "\r\n",
    "\u00e9",
    "\U0001f600",
    "\ud800",
    "\udfff",
    "\ufeff",
    "\x00",
    "expect ",
    "forbid ",
    "case ",
    "require ",
    "then ",
    'get_weather(city="Berlin")',
    "...",
]
SEEDS = [
    'case "c" {\n    expect get_weather(city="Berlin")\n}\n',
    'expect t(x=1)\r\nexpect u(y="\u2028")\r\n',
    "# \u0085 \f \v \x1c\x1d\x1e \u2029\nexpect a()\n",
    'expect t(x="\U0001f600", y=[1, 2])\n',
]

texts = st.one_of(
    st.sampled_from(SEEDS),
    st.lists(st.one_of(st.sampled_from(PIECES), st.characters()), max_size=30).map("".join),
)


def units(text: str, encoding: str) -> int:
    """The length of ``text`` in the encoding's code units."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def lines_of(text: str) -> list[str]:
    """The LSP's lines of ``text``, without their line breaks."""
    return _BREAK.split(text)


def model_offset(text: str, line: int, character: int, encoding: str) -> int:
    """Where an editor puts an LSP position: past the end of a line is its end, past the last
    line the end of the text."""
    starts = [0, *(m.end() for m in _BREAK.finditer(text))]
    if line >= len(starts):
        return len(text)
    content = lines_of(text)[line]
    taken = 0
    for index, char in enumerate(content):
        if taken >= character:
            return starts[line] + index
        taken += units(char, encoding)
    return starts[line] + len(content)


@st.composite
def positions(draw: st.DrawFn, text: str, encoding: str) -> tuple[int, int]:
    """A position of ``text`` on a character boundary of its line, maybe past its end or past the
    last line."""
    lines = lines_of(text)
    line = draw(st.integers(0, len(lines)))
    content = lines[line] if line < len(lines) else ""
    index = draw(st.integers(0, len(content) + 3))
    return line, units(content[:index], encoding) + max(0, index - len(content))


@st.composite
def sessions(draw: st.DrawFn, encoding: str) -> tuple[str, list[list[dict[str, Any]]], str]:
    """A first text, the didChange notifications of an editing session (each with one or more
    changes), and the editor's text after them."""
    initial = text = draw(texts)
    notifications: list[list[dict[str, Any]]] = []
    for _ in range(draw(st.integers(1, 4))):
        changes: list[dict[str, Any]] = []
        for _ in range(draw(st.integers(1, 3))):
            if draw(st.integers(0, 9)) == 0:
                new = draw(texts)
                changes.append({"text": new})  # a whole-document change now and then
                text = new
                continue
            first, second = sorted([draw(positions(text, encoding)), draw(positions(text, encoding))])
            new = draw(texts)
            start = model_offset(text, *first, encoding)
            end = max(start, model_offset(text, *second, encoding))
            changes.append(
                {
                    "range": {
                        "start": {"line": first[0], "character": first[1]},
                        "end": {"line": second[0], "character": second[1]},
                    },
                    "text": new,
                }
            )
            text = text[:start] + new + text[end:]
        notifications.append(changes)
    return initial, notifications, text


@pytest.fixture(scope="module", params=["utf-16", "utf-8"])
def editor(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawClient]:
    """A server in a thread that agreed on UTF-16 (as VS Code) or UTF-8 positions."""
    folder = tmp_path_factory.mktemp("edits")
    started = RawClient(folder, encodings=(request.param,), in_process=True)
    assert started.encoding == request.param
    started.folder = folder  # type: ignore[attr-defined]
    yield started
    started.close()


def lint_findings(text: str, path: Path) -> list[tuple[str, str]] | None:
    """Code and message of each finding of ``toolexpect lint`` on a file holding ``text``;
    ``None`` when no file can hold it (a lone surrogate)."""
    try:
        path.write_text(text, encoding="utf-8", newline="")
    except UnicodeEncodeError:
        return None
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["lint", "--format", "json", str(path)])
    return [(found["code"], found["message"]) for found in json.loads(out.getvalue())]


def test_random_edits_keep_the_server_text_equal_to_the_editors(editor: RawClient) -> None:
    """After any incremental edits, in UTF-16 or UTF-8 positions, the server holds the editor's
    text and publishes lint's diagnostics for it."""
    encoding = editor.encoding
    folder: Path = editor.folder  # type: ignore[attr-defined]

    @settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(session=sessions(encoding))
    def check(session: tuple[str, list[list[dict[str, Any]]], str]) -> None:
        first, notifications, expected = session
        path = folder / f"doc{next(_names)}.expect"
        uri = path.as_uri()
        item = {"uri": uri, "languageId": "toolexpect", "version": 1, "text": first}
        editor.notify("textDocument/didOpen", {"textDocument": item})
        for version, changes in enumerate(notifications, start=2):
            editor.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
            )
        published = editor.diagnostics(uri, len(notifications) + 1)
        assert editor.server is not None
        assert editor.server.workspace.get_text_document(uri).source == expected
        assert published == expected_diagnostics(expected, uri, encoding)
        found = lint_findings(expected, path)
        if found is not None:
            assert [(d["code"], d["message"].split("\nhelp: ")[0]) for d in published] == found
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    check()
