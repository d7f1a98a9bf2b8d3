"""The language server: pygls's ``LanguageServer`` with toolexpect's features, over stdio.

Each feature is one module of this package; this one only wires them to the protocol's
requests and notifications. A client that can watch files is asked to report changes of
``pyproject.toml``, after which every open document is analysed again with its settings read
anew (they are also read again on each change and save of a document).
"""

from __future__ import annotations

from typing import BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from toolexpect import __version__
from toolexpect.server.completion import complete
from toolexpect.server.documents import Documents
from toolexpect.server.formatting import format_edits
from toolexpect.server.hover import hover
from toolexpect.server.symbols import document_symbols

__all__ = ["build_server", "serve"]

_TRIGGERS = ["(", ",", " ", "="]

_WATCH_SETTINGS = types.RegistrationParams(
    registrations=[
        types.Registration(
            id="toolexpect-settings",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml")]
            ),
        )
    ]
)
"""Asked of a client that can watch files: tell the server when a ``pyproject.toml`` changes."""


def build_server() -> LanguageServer:
    """A new server with every feature registered; nothing is shared between two of them."""
    server = LanguageServer("toolexpect", __version__)
    documents = Documents(server)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        documents.schedule(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        documents.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        documents.schedule(params.text_document.uri, delay=0)  # pyproject.toml may have changed

    @server.feature(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        watching = server.client_capabilities.workspace
        watched = watching.did_change_watched_files if watching is not None else None
        if watched is not None and watched.dynamic_registration:
            server.client_register_capability(_WATCH_SETTINGS)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def settings_changed(params: types.DidChangeWatchedFilesParams) -> None:
        documents.schedule_all()  # each open document reads its settings again

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        documents.close(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        analysis = documents.current(params.text_document.uri)
        return format_edits(analysis, documents.positions(analysis.loaded.text or ""))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=_TRIGGERS))
    def completion(params: types.CompletionParams) -> list[types.CompletionItem]:
        uri = params.text_document.uri
        text = documents.text(uri)
        return complete(text, params.position, documents.positions(text), documents.catalogue(uri))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(params: types.HoverParams) -> types.Hover | None:
        analysis = documents.current(params.text_document.uri)
        return hover(analysis, params.position, documents.positions(analysis.loaded.text or ""))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        uri = params.text_document.uri
        analysis = documents.outlined(uri)
        return document_symbols(
            analysis,
            documents.positions(analysis.loaded.text or ""),
            documents.positions(documents.text(uri)),
        )

    return server


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Run a server on ``stdin`` and ``stdout`` until the client says exit."""
    build_server().start_io(stdin, stdout)
