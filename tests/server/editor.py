"""A test editor: pygls's ``LanguageClient`` driving ``python -m toolexpect server`` over stdio.

The client runs in an event loop of its own; each method runs it until the answer is there, so
the tests read as plain calls. It opens and changes documents as an editor does (whole-text
changes, rising versions) and collects the diagnostics the server publishes.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

T = TypeVar("T")
WAIT = 30.0  # seconds; only ever reached when the server fails

# What VS Code offers: UTF-16 positions, Markdown, snippets.
CAPABILITIES = types.ClientCapabilities(
    general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
    text_document=types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        completion=types.CompletionClientCapabilities(
            completion_item=types.ClientCompletionItemOptions(snippet_support=True)
        ),
        document_symbol=types.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
    ),
)


class Editor:
    """One server process and the documents opened in it."""

    def __init__(self, root: Path, *, cwd: Path | None = None, watch_files: bool = False) -> None:
        """Start the server in ``cwd`` (the tests' folder when ``None``) for the workspace
        ``root``; with ``watch_files`` the client offers to watch files for it."""
        self._loop = asyncio.new_event_loop()
        self._client = LanguageClient("toolexpect-tests", "1")
        self._published: dict[str, list[types.Diagnostic]] = {}
        self._versions: dict[str, int] = {}

        self.history: list[tuple[str, int | None, list[types.Diagnostic]]] = []
        """Every publication of diagnostics: document, version and diagnostics."""
        self.messages: list[types.ShowMessageParams] = []
        """Every ``window/showMessage`` of the server."""
        self.registrations: list[types.Registration] = []
        """Every capability the server registered with ``client/registerCapability``."""

        @self._client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self._published[params.uri] = list(params.diagnostics)
            self.history.append((params.uri, params.version, list(params.diagnostics)))

        @self._client.feature(types.WINDOW_SHOW_MESSAGE)
        def shown(params: types.ShowMessageParams) -> None:
            self.messages.append(params)

        @self._client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            self.registrations.extend(params.registrations)

        capabilities = CAPABILITIES
        if watch_files:
            capabilities = types.ClientCapabilities(
                general=CAPABILITIES.general,
                text_document=CAPABILITIES.text_document,
                workspace=types.WorkspaceClientCapabilities(
                    did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                        dynamic_registration=True
                    )
                ),
            )
        self._run(self._client.start_io(sys.executable, "-m", "toolexpect", "server", cwd=cwd))
        self.initialized = self._run(
            self._client.initialize_async(
                types.InitializeParams(capabilities=capabilities, root_uri=root.as_uri())
            )
        )
        self._client.initialized(types.InitializedParams())

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(asyncio.wait_for(work, WAIT))

    def close(self) -> None:
        """Shut the server down as an editor does, and wait for it to exit."""
        self._run(self._client.shutdown_async(None))
        self._client.exit(None)
        self._run(self._client.stop())
        self._loop.close()

    def _diagnostics(self, uri: str) -> list[types.Diagnostic]:
        async def arrived() -> list[types.Diagnostic]:
            while uri not in self._published:
                await asyncio.sleep(0.01)
            return self._published.pop(uri)

        return self._run(arrived())

    def open(self, path: Path, text: str) -> list[types.Diagnostic]:
        """Write ``text`` to ``path``, open it, and return the diagnostics published for it."""
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        self._published.pop(uri, None)
        self._versions[uri] = 1
        self._client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="toolexpect", version=1, text=text)
            )
        )
        return self._diagnostics(uri)

    def change(self, path: Path, *texts: str) -> list[types.Diagnostic]:
        """Replace the open document's text (unsaved) with each of ``texts`` in turn, as fast as
        they can be sent, and return the next diagnostics of the last."""
        uri = path.as_uri()
        self._published.pop(uri, None)
        for text in texts:
            self._versions[uri] += 1
            self._client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self._versions[uri]),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                )
            )
        last = self._versions[uri]

        async def arrived() -> list[types.Diagnostic]:
            while not any(u == uri and v == last for u, v, _ in self.history):
                await asyncio.sleep(0.01)
            return self._published.pop(uri)

        return self._run(arrived())

    def files_changed(self, changed: Path, then: Path) -> list[types.Diagnostic]:
        """Tell the server that the file ``changed`` changed on disk (as a client watching files
        for it does) and return the next diagnostics published for the open document ``then``."""
        uri = then.as_uri()
        self._published.pop(uri, None)
        seen = len(self.history)
        self._client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=changed.as_uri(), type=types.FileChangeType.Changed)]
            )
        )

        async def arrived() -> list[types.Diagnostic]:
            while not any(u == uri for u, _, _ in self.history[seen:]):
                await asyncio.sleep(0.01)
            return self._published.pop(uri)

        return self._run(arrived())

    def wait_until_registered(self, method: str) -> types.Registration:
        """The server's registration of ``method``, once it has arrived."""

        async def arrived() -> types.Registration:
            while not any(r.method == method for r in self.registrations):
                await asyncio.sleep(0.01)
            return next(r for r in self.registrations if r.method == method)

        return self._run(arrived())

    def format(self, path: Path) -> list[types.TextEdit] | None:
        """The edits of whole-document formatting."""
        found = self._run(
            self._client.text_document_formatting_async(
                types.DocumentFormattingParams(
                    text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                    options=types.FormattingOptions(tab_size=4, insert_spaces=True),
                )
            )
        )
        return None if found is None else list(found)

    def complete(self, path: Path, line: int, character: int) -> list[types.CompletionItem]:
        """The completions at a position."""
        found = self._run(
            self._client.text_document_completion_async(
                types.CompletionParams(
                    text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                    position=types.Position(line=line, character=character),
                )
            )
        )
        if found is None:
            return []
        return list(found.items if isinstance(found, types.CompletionList) else found)

    def complete_text(self, path: Path, text: str) -> dict[str, types.CompletionItem]:
        """The completions at the end of ``text`` (the document's new text), by label."""
        self.change(path, text)
        lines = text.split("\n")
        return {item.label: item for item in self.complete(path, len(lines) - 1, len(lines[-1]))}

    def hover(self, path: Path, line: int, character: int) -> str | None:
        """The Markdown shown on hover at a position, if any."""
        found = self._run(
            self._client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                    position=types.Position(line=line, character=character),
                )
            )
        )
        if found is None:
            return None
        assert isinstance(found.contents, types.MarkupContent)
        return found.contents.value

    def symbols(self, path: Path) -> list[types.DocumentSymbol]:
        """The document symbols (the outline)."""
        found = self._run(
            self._client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
            )
        )
        return [s for s in found or [] if isinstance(s, types.DocumentSymbol)]
