"""The language server: pygls's ``LanguageServer`` with toolexpect's features, over stdio.

Each feature is one module of this package; this one only wires them to the protocol's
requests and notifications, and applies the editor's changes to its documents
(:class:`Protocol`); :mod:`~toolexpect.server.session` reads and checks the messages. A
client that can watch files is asked to report changes of ``pyproject.toml``, after which every
open document is analysed again with its settings read anew (they are also read again on each
change and save of a document).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, BinaryIO

from cattrs import Converter
from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter, lsp_method

from toolexpect._version import __version__
from toolexpect.server.completion import complete
from toolexpect.server.documents import Documents
from toolexpect.server.formatting import format_edits
from toolexpect.server.hover import hover
from toolexpect.server.positions import Positions
from toolexpect.server.session import run_session
from toolexpect.server.symbols import document_symbols

__all__ = ["Protocol", "build_server", "serve"]

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


class Protocol(LanguageServerProtocol):
    """pygls's protocol, but an incremental change is applied as the editor applies it.

    pygls splits a document into lines with ``str.splitlines`` (which also breaks at U+2028,
    U+2029, U+0085, form feed, vertical tab and U+001C to U+001E, where the LSP and the
    language do not) and puts a position past the end of a line into the next line. Here each
    change is placed by :meth:`Positions.replace` (lines end at ``\\n``, ``\\r\\n`` or
    ``\\r``, columns in the agreed units, a column past the end of a line at its end) and
    stored as the document's whole new text.
    """

    def __init__(self, server: Any, converter: Converter) -> None:
        super().__init__(server, converter)
        self.converter = converter
        """What turns the messages' JSON into lsprotocol's types (the session checks params with it)."""

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """Apply the changes in order, then run the server's own handler."""
        workspace = self.workspace
        document = workspace.get_text_document(params.text_document.uri)
        if document not in workspace.text_documents.values():
            return  # not open: nothing to change (an editor opens a document before changing it)
        encoding = workspace.position_encoding or types.PositionEncodingKind.Utf16
        for change in params.content_changes:
            text = change.text
            if isinstance(change, types.TextDocumentContentChangePartial):
                text = Positions(document.source, encoding).replace(change.range, change.text)
            workspace.update_text_document(
                params.text_document, types.TextDocumentContentChangeWholeDocument(text=text)
            )
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None


def build_server() -> LanguageServer:
    """A new server with every feature registered; nothing is shared between two of them."""
    server = LanguageServer(
        "toolexpect", __version__, protocol_cls=Protocol, converter_factory=default_converter
    )
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


def serve(stdin: BinaryIO, stdout: BinaryIO, server: LanguageServer | None = None) -> int:
    """Run ``server`` (a new one when ``None``) on ``stdin`` and ``stdout`` until the client says
    exit (or goes); the exit code the LSP asks for: 0 after ``shutdown``, else 1."""
    server = server or build_server()
    protocol = server.protocol
    if not isinstance(protocol, Protocol):
        raise TypeError("serve() needs a server from build_server()")
    return run_session(server, protocol.converter, stdin, stdout)
