"""The language server: pygls's ``LanguageServer`` with toolexpect's features, over stdio.

Each feature is one module of this package; this one only wires them to the protocol's
requests and notifications.
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
        analysis = documents.current(params.text_document.uri)
        return document_symbols(analysis, documents.positions(analysis.loaded.text or ""))

    return server


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Run a server on ``stdin`` and ``stdout`` until the client says exit."""
    build_server().start_io(stdin, stdout)
