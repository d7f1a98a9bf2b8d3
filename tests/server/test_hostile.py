"""``toolexpect server`` as a hostile or broken editor drives it, over raw bytes on stdio: each bad
frame and bad request costs only itself, and the next good request is answered.

One server process takes the bad frames and requests one after the other, so a frame that
made it deaf fails every later test too; the exit codes need a process each. Every wait is
bounded (:data:`raw.WAIT`)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from toolexpect.server.analysis import Catalogues, analyse
from toolexpect.server.diagnostics import lsp_diagnostics
from toolexpect.server.positions import Positions

from .raw import RawClient, frame

SPEC = 'case "c" {\n    expect get_weather(city="Berlin")\n}\n'
_names = count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project without settings."""
    return tmp_path_factory.mktemp("hostile")


@pytest.fixture(scope="module")
def client(folder: Path) -> Iterator[RawClient]:
    """One server process for the module's bad frames and requests."""
    started = RawClient(folder)
    yield started
    started.close()


def open_document(client: RawClient, folder: Path, text: str, suffix: str = ".expect") -> str:
    """Open a new document holding ``text`` (written to its file too when it can be); its URI."""
    path = folder / f"doc{next(_names)}{suffix}"
    with contextlib.suppress(UnicodeEncodeError):  # a lone surrogate: only the editor holds it
        path.write_text(text, encoding="utf-8", newline="")
    uri = path.as_uri()
    item = {"uri": uri, "languageId": "toolexpect", "version": 1, "text": text}
    client.notify("textDocument/didOpen", {"textDocument": item})
    return uri


def assert_still_serving(client: RawClient, folder: Path) -> None:
    """A good request after the bad input is answered, with the right answer."""
    uri = open_document(client, folder, SPEC)
    answer = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [symbol["name"] for symbol in answer["result"]] == ["c"]


GOOD = frame({"jsonrpc": "2.0", "method": "$/noSuchNotification"})

BAD_FRAMES = {
    "length-too-small": b'Content-Length: 3\r\n\r\n{"a":1}',
    "length-too-large": b'Content-Length: 100\r\n\r\n{"a":1}',
    "no-length": b'\r\n{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}',
    "content-type-only": b"Content-Type: application/vscode-jsonrpc\r\n\r\n"
    + b'{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}',
    "length-not-a-number": b'Content-Length: abc\r\n\r\n{"jsonrpc": "2.0", "id": 3, "method": "shutdown"}',
    "length-negative": b'Content-Length: -7\r\n\r\n{"a":1}',
    "no-blank-line": b'Content-Length: 7\r\n{"a":1}',
    "length-1e12": b"Content-Length: 1000000000000\r\n\r\n" + b'{"a":1}',
    "length-5000-digits": b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n",
    "body-not-json": frame(b'{"jsonrpc": '),
    "body-not-utf8": frame(b"\xff\xfe\xfd"),
    "body-a-list": frame(b"[1, 2]"),
    "body-nested-100000-deep": frame(b"[" * 100_000 + b"]" * 100_000),
    "body-no-jsonrpc": frame(b'{"id": 4, "method": "shutdown"}'),
    "garbage": b"\x00\x01 hello \r\n\r\n\r\n" * 100,
}


@pytest.mark.parametrize("bad", list(BAD_FRAMES.values()), ids=list(BAD_FRAMES))
def test_a_bad_frame_costs_only_itself(client: RawClient, folder: Path, bad: bytes) -> None:
    """After a frame with a wrong, missing, non-numeric or huge length, or a body that is not a
    JSON-RPC message, the server reads the next frame and answers it (none of the shutdowns
    inside broken frames is taken)."""
    client.send(bad + GOOD)
    assert_still_serving(client, folder)


@pytest.mark.parametrize(
    "answered",
    [
        (b'Content-Length: 3\r\n\r\n{"a":1}', -32700),
        (b"Content-Length: 1000000000000\r\n\r\n", -32600),
        (frame(b"[1, 2]"), -32600),
    ],
    ids=["not-json", "over-the-limit", "not-an-object"],
)
def test_a_broken_frame_is_answered_with_the_json_rpc_error(
    client: RawClient, answered: tuple[bytes, int]
) -> None:
    """A body that is not JSON is a parse error, one that is not a message or over the limit an
    invalid request, each answered with ``"id": null`` as JSON-RPC asks."""
    bad, code = answered
    client.forget()  # the errors of the frames before
    client.send(bad + GOOD)
    error = client.answer(None)["error"]
    assert error["code"] == code
    if code == -32600 and b"1000000000000" in bad:
        assert "64 MiB" in error["message"]


def test_a_frame_over_the_limit_is_skipped_while_it_arrives(client: RawClient, folder: Path) -> None:
    """A frame longer than 64 MiB that does arrive is skipped as it comes, and the next one read."""
    body = b'{"jsonrpc": "2.0", "method": "$/x", "params": "' + b"a" * (65 * 1024 * 1024) + b'"}'
    client.forget()
    client.send(b"Content-Length: %d\r\n\r\n" % len(body))
    for start in range(0, len(body), 1 << 20):
        client.send(body[start : start + (1 << 20)])
    assert client.answer(None)["error"]["code"] == -32600
    assert_still_serving(client, folder)


BAD_PARAMS = {
    "text-document-a-number": (
        "textDocument/hover",
        {"textDocument": 5, "position": {"line": 0, "character": 0}},
    ),
    "line-minus-one": (
        "textDocument/hover",
        {"textDocument": {"uri": "file:///x.expect"}, "position": {"line": -1, "character": 0}},
    ),
    "formatting-without-params": ("textDocument/formatting", None),
    "completion-position-a-string": (
        "textDocument/completion",
        {"textDocument": {"uri": "file:///x.expect"}, "position": "here"},
    ),
    "symbols-params-a-list": ("textDocument/documentSymbol", []),
}


@pytest.mark.parametrize("method,params", list(BAD_PARAMS.values()), ids=list(BAD_PARAMS))
def test_a_request_with_params_that_do_not_fit_is_answered_with_invalid_params(
    client: RawClient, folder: Path, method: str, params: Any
) -> None:
    """The LSP's -32602 (InvalidParams) for the request's id, and the server goes on."""
    answer = client.request(method, params)
    assert answer["error"]["code"] == -32602
    assert_still_serving(client, folder)


def test_a_notification_with_params_that_do_not_fit_is_dropped(client: RawClient, folder: Path) -> None:
    """A ``didOpen`` whose document is a number has no one to answer; the server goes on."""
    client.notify("textDocument/didOpen", {"textDocument": 5})
    client.notify("textDocument/didChange", {"textDocument": {"uri": 5}, "contentChanges": "x"})
    assert_still_serving(client, folder)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "too-large", "folder"])
def test_a_request_on_a_file_never_opened_never_blocks(client: RawClient, folder: Path, kind: str) -> None:
    """Hover, formatting, completion and symbols on a never-opened FIFO, ``/dev/zero``, a file
    over lint's 256 KiB or a folder are answered at once, as for an empty document."""
    if kind == "fifo":
        path = folder / f"pipe{next(_names)}.expect"
        os.mkfifo(path)
    elif kind == "dev-zero":
        path = Path("/dev/zero")
    elif kind == "too-large":
        path = folder / f"large{next(_names)}.expect"
        path.write_text("expect get_weather()\n" * 20_000, encoding="utf-8")
    else:
        path = folder
    document = {"textDocument": {"uri": path.as_uri()}}
    at = {**document, "position": {"line": 0, "character": 3}}
    assert client.request("textDocument/hover", at, within=5)["result"] is None
    assert client.request("textDocument/completion", at, within=5).get("error") is None
    assert client.request("textDocument/documentSymbol", document, within=5)["result"] == []
    formatting = {**document, "options": {"tabSize": 4, "insertSpaces": True}}
    assert client.request("textDocument/formatting", formatting, within=5).get("error") is None
    assert_still_serving(client, folder)


def test_a_small_file_never_opened_is_read(client: RawClient, folder: Path) -> None:
    """A regular file under the limit is read as before: its outline is answered."""
    path = folder / f"closed{next(_names)}.expect"
    path.write_text(SPEC, encoding="utf-8")
    answer = client.request("textDocument/documentSymbol", {"textDocument": {"uri": path.as_uri()}})
    assert [symbol["name"] for symbol in answer["result"]] == ["c"]


def test_the_server_wrote_no_traceback(client: RawClient, folder: Path) -> None:
    """After all of the above, nothing the server wrote to stderr is a traceback."""
    assert_still_serving(client, folder)
    assert "Traceback" not in client.stderr()


# -- shutdown and exit ---------------------------------------------------------------------


def test_exit_without_shutdown_exits_1(folder: Path) -> None:
    """The LSP: ``exit`` before ``shutdown`` ends the server with exit code 1."""
    server = RawClient(folder)
    try:
        server.notify("exit")
        assert server.exit_code() == 1
    finally:
        server.close()


def test_shutdown_then_exit_exits_0_and_refuses_requests_between(folder: Path) -> None:
    """After ``shutdown`` a request is answered with -32600 (InvalidRequest), a notification is
    dropped, and ``exit`` ends the server with exit code 0."""
    server = RawClient(folder)
    try:
        assert server.request("shutdown")["result"] is None
        server.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.expect"}})
        refused = server.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///x.expect"}})
        assert refused["error"]["code"] == -32600
        server.notify("exit")
        assert server.exit_code() == 0
        assert "Traceback" not in server.stderr()
    finally:
        server.close()


def test_a_request_before_initialize_is_answered_not_initialized(folder: Path) -> None:
    """Before ``initialize``, a request gets -32002 (ServerNotInitialized) and a notification is
    dropped; ``initialize`` then works as ever."""
    server = RawClient(folder, initialize=False)
    try:
        server.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.expect"}})
        early = server.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///x.expect"}})
        assert early["error"]["code"] == -32002
        answer = server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert "capabilities" in answer["result"]
        assert server.request("shutdown")["result"] is None
        server.notify("exit")
        assert server.exit_code() == 0
        assert "Traceback" not in server.stderr()
    finally:
        server.close()


def test_a_client_that_goes_without_shutdown_leaves_exit_code_1(folder: Path) -> None:
    """A client that closes the stream without ``shutdown`` and ``exit``: exit code 1."""
    server = RawClient(folder)
    try:
        assert server.process is not None and server.process.stdin is not None
        server.process.stdin.close()
        assert server.exit_code() == 1
    finally:
        server.close()


# -- the document's text ---------------------------------------------------------------------


def expected_diagnostics(text: str, uri: str, encoding: str = "utf-16") -> list[dict[str, Any]]:
    """What the server must publish for ``text``: lint's diagnostics, placed in LSP terms (in the
    ``encoding`` agreed)."""
    path = uri.removeprefix("file://")
    made = analyse(text, path, Catalogues())
    placed = lsp_diagnostics(made.diagnostics, Positions(text, encoding))
    return [json.loads(json.dumps(_unstructure(d))) for d in placed]


def _unstructure(diagnostic: Any) -> dict[str, Any]:
    from lsprotocol.converters import get_converter

    found: dict[str, Any] = get_converter().unstructure(diagnostic)
    return found


def change(client: RawClient, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
    """Send incremental changes of the document at ``uri``, making it ``version``."""
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
    )


def at(line: int, character: int) -> dict[str, int]:
    """An LSP position."""
    return {"line": line, "character": character}


SEPARATORS = ["\u2028", "\u2029", "\u0085", "\f", "\v", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("separator", SEPARATORS, ids=[f"U+{ord(s):04X}" for s in SEPARATORS])
def test_a_change_after_a_character_python_calls_a_line_break_lands_where_the_editor_put_it(
    client: RawClient, folder: Path, separator: str
) -> None:
    """U+2028, U+2029, U+0085, form feed, vertical tab and U+001C to U+001E break no line for
    the LSP: a change on the line after one is made there, so the diagnostics are lint's for
    the editor's text and formatting keeps the edit."""
    text = f'# a{separator}b\ncase "c" {{\n    expect t(x=1)\n}}\n'
    uri = open_document(client, folder, text)
    # On line 2, after "x=1": add an argument; then break the call's closing parenthesis.
    change(client, uri, 2, [{"range": {"start": at(2, 16), "end": at(2, 16)}, "text": ", y=2"}])
    expected = f'# a{separator}b\ncase "c" {{\n    expect t(x=1, y=2)\n}}\n'
    assert client.diagnostics(uri, 2) == expected_diagnostics(expected, uri)
    formatting = {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}}
    edits = client.request("textDocument/formatting", formatting)["result"]
    assert all("y=2" in edit["newText"] for edit in edits)
    change(client, uri, 3, [{"range": {"start": at(2, 21), "end": at(2, 22)}, "text": ""}])
    broken = f'# a{separator}b\ncase "c" {{\n    expect t(x=1, y=2\n}}\n'
    assert client.diagnostics(uri, 3) == expected_diagnostics(broken, uri) != []


@pytest.mark.parametrize("past", [1, 2, 1000], ids=["one-past", "two-past", "far-past"])
@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r", ""], ids=["lf", "crlf", "cr", "no-final-break"])
def test_a_change_past_the_end_of_a_line_is_made_at_its_end(
    client: RawClient, folder: Path, past: int, ending: str
) -> None:
    """A position past the end of a line means the end of that line (LSP): a ``)`` typed there
    closes the call on that line, with no false P102."""
    first = 'expect t(x="Berlin"'
    text = f"{first}{ending}expect u(){ending}" if ending else first
    uri = open_document(client, folder, text)
    change(
        client,
        uri,
        2,
        [{"range": {"start": at(0, len(first) + past), "end": at(0, len(first) + past)}, "text": ")"}],
    )
    expected = f"{first}){ending}expect u(){ending}" if ending else f"{first})"
    published = client.diagnostics(uri, 2)
    assert published == expected_diagnostics(expected, uri)
    assert "P102" not in [d["code"] for d in published]


def test_a_raw_lone_surrogate_is_p103_as_lint_gives_its_escape(client: RawClient, folder: Path) -> None:
    """A lone surrogate typed into a string (a text no file can hold) gets P103 at its place, the
    code lint gives ``"\\ud800"`` written as an escape."""
    uri = open_document(client, folder, 'expect t(x="ab\ud800")\n')
    published = client.diagnostics(uri, 1)
    assert [(d["code"], d["range"]["start"]) for d in published] == [("P103", at(0, 14))]
    escaped = folder / "escaped.expect"
    escaped.write_text('expect t(x="ab\\ud800")\n', encoding="utf-8")
    assert [d.code for d in analyse(escaped.read_text(), str(escaped), Catalogues()).diagnostics] == ["P103"]


def test_a_catalogue_nested_100000_deep_is_t505_and_the_server_goes_on(
    client: RawClient, tmp_path: Path
) -> None:
    """With ``tools`` naming a file nested 100,000 deep, the diagnostics are published (T505 at
    the top), and completion and hover are answered without an error."""
    (tmp_path / "pyproject.toml").write_text('[tool.toolexpect]\ntools = "deep.json"\n', encoding="utf-8")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    uri = open_document(client, tmp_path, "expect get_weather(city=1)\n")
    published = client.diagnostics(uri, 1)
    assert [d["code"] for d in published] == ["T505"]
    assert "deeper than 128 levels" in published[0]["message"]
    place = {"textDocument": {"uri": uri}, "position": at(0, 9)}
    assert client.request("textDocument/completion", place).get("error") is None
    assert client.request("textDocument/hover", place).get("error") is None
