"""The open documents' latest analyses, and the debounced runs that publish their diagnostics.

A change schedules an analysis after a short quiet time (:data:`DEBOUNCE`); a newer change
cancels the one waiting. The analysis runs in a worker thread, so the server keeps reading
messages meanwhile, and its diagnostics are published only if the document has not changed
since. Requests (formatting, completion, hover, symbols) take the analysis of the text as it
is now, made on the spot when the latest one is of an older text.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from toolexpect.server.analysis import Analysis, Catalogues, analyse
from toolexpect.server.diagnostics import lsp_diagnostics
from toolexpect.server.positions import Positions

__all__ = ["DEBOUNCE", "Documents"]

DEBOUNCE = 0.05
"""Seconds of quiet after a change before the document is analysed again."""


class Documents:
    """The analyses of one server's open documents, by URI."""

    def __init__(self, server: LanguageServer) -> None:
        self._server = server
        self._catalogues = Catalogues()
        self._lock = threading.Lock()
        self._latest: dict[str, Analysis] = {}
        self._waiting: dict[str, asyncio.Task[None]] = {}

    def positions(self, text: str) -> Positions:
        """The places of ``text`` in the position encoding agreed with the client."""
        encoding = self._server.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return Positions(text, str(encoding))

    def current(self, uri: str) -> Analysis:
        """The analysis of the document's text as it is now."""
        document = self._server.workspace.get_text_document(uri)
        text = document.source
        with self._lock:
            latest = self._latest.get(uri)
        if latest is not None and latest.loaded.text == text:
            return latest
        made = analyse(text, _path(document.uri, document.path), self._catalogues)
        with self._lock:
            self._latest[uri] = made
        return made

    def schedule(self, uri: str, delay: float = DEBOUNCE) -> None:
        """Analyse the document after ``delay`` seconds and publish its diagnostics, unless a
        newer change comes first."""
        waiting = self._waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self._waiting[uri] = asyncio.get_running_loop().create_task(self._run(uri, delay))

    def close(self, uri: str) -> None:
        """Forget a closed document and clear its diagnostics."""
        waiting = self._waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        with self._lock:
            self._latest.pop(uri, None)
        self._server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    async def _run(self, uri: str, delay: float) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(delay)
            document = self._server.workspace.get_text_document(uri)
            version, text = document.version, document.source
            path = _path(document.uri, document.path)
            made = await asyncio.to_thread(analyse, text, path, self._catalogues)
            now = self._server.workspace.text_documents.get(uri)
            if now is None or now.version != version:
                return  # closed or changed meanwhile: a newer run publishes
            with self._lock:
                self._latest[uri] = made
            self._waiting.pop(uri, None)
            self._server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri,
                    version=version,
                    diagnostics=lsp_diagnostics(made.diagnostics, self.positions(text)),
                )
            )


def _path(uri: str, path: str | None) -> str | None:
    """The file a document is, for its settings and implicit case name; ``None`` when it is not a
    file (an unsaved buffer)."""
    return path if uri.startswith("file:") and path else None
