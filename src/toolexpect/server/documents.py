"""The open documents' latest analyses, and the debounced runs that publish their diagnostics.

A document has at most one analysis running at a time. A change starts one after a short quiet
time (:data:`DEBOUNCE`) when none is running; changes that arrive while one runs only mark the
document changed, and the run then goes on with the newest text. So a burst of keystrokes costs
one analysis more than the burst takes, and diagnostics are never published for a text that has
changed since (their places would be wrong). The analysis runs in a worker thread, so the
server keeps reading messages meanwhile. Formatting, hover and symbols take the analysis of the
text as it is now, made on the spot when the latest one is of an older text; completion needs
only the text and the catalogue, so it never waits for an analysis. While the text does not
parse, the outline is that of the last version of the document that parsed (a stale outline
rather than none, as other language servers keep it).
"""

from __future__ import annotations

import asyncio
import os
import stat
import threading

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from toolexpect.catalogue import Catalogue
from toolexpect.server.analysis import Analysis, Catalogues, analyse, setup_for
from toolexpect.server.diagnostics import lsp_diagnostics
from toolexpect.server.positions import Positions
from toolexpect.specfiles.stages import MAX_SPEC_BYTES

__all__ = ["DEBOUNCE", "Documents", "read_unopened"]

DEBOUNCE = 0.03
"""Seconds of quiet after a change before the document is analysed again."""


class Documents:
    """The analyses of one server's open documents, by URI."""

    def __init__(self, server: LanguageServer) -> None:
        self._server = server
        self._catalogues = Catalogues()
        self._lock = threading.Lock()
        self._latest: dict[str, Analysis] = {}
        self._parsed: dict[str, Analysis] = {}  # the latest analysis whose text parsed
        self._changed: set[str] = set()
        self._told: set[str] = set()  # settings problems shown to the user, each once
        self._running: dict[str, asyncio.Task[None]] = {}

    def _document(self, uri: str) -> TextDocument:
        """The open document at ``uri``; for one never opened, its file as :func:`read_unopened`
        reads it (pygls would read any file whole, on the event loop, a FIFO forever)."""
        workspace = self._server.workspace
        document = workspace.get_text_document(uri)
        if document in workspace.text_documents.values():
            return document
        path = _path(document.uri, document.path)
        return TextDocument(
            uri, source=read_unopened(path) if path else "", position_codec=workspace.position_codec
        )

    def positions(self, text: str) -> Positions:
        """The places of ``text`` in the position encoding agreed with the client."""
        return Positions(text, self._server.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def current(self, uri: str) -> Analysis:
        """The analysis of the document's text as it is now."""
        document = self._document(uri)
        text = document.source
        with self._lock:
            latest = self._latest.get(uri)
        if latest is not None and latest.loaded.text == text:
            return latest
        made = analyse(text, _path(document.uri, document.path), self._catalogues)
        with self._lock:
            self._keep(uri, made)
        return made

    def outlined(self, uri: str) -> Analysis:
        """The analysis the outline shows: of the text as it is now when that parses, else of
        the last version of the document that parsed (the text as it is now when none has)."""
        made = self.current(uri)
        if made.loaded.document is not None:
            return made
        with self._lock:
            return self._parsed.get(uri, made)

    def _keep(self, uri: str, made: Analysis) -> None:
        """Store ``made`` as the document's latest analysis (the caller holds the lock)."""
        self._latest[uri] = made
        if made.loaded.document is not None:
            self._parsed[uri] = made

    def text(self, uri: str) -> str:
        """The document's text as it is now."""
        return self._document(uri).source

    def catalogue(self, uri: str) -> Catalogue | None:
        """The tool catalogue configured for the document, if one is and it can be read (its
        problems are the diagnostics' business)."""
        document = self._document(uri)
        found = setup_for(_path(document.uri, document.path), self._catalogues).catalogue
        return found if isinstance(found, Catalogue) else None

    def schedule(self, uri: str, delay: float = DEBOUNCE) -> None:
        """Analyse the document after ``delay`` seconds of quiet and publish its diagnostics; if
        an analysis of it is running, the newest text is analysed when that one ends."""
        self._changed.add(uri)
        if uri not in self._running:
            self._running[uri] = asyncio.get_running_loop().create_task(self._run(uri, delay))

    def schedule_all(self) -> None:
        """Analyse every open document again at once (its settings may have changed)."""
        for uri in list(self._server.workspace.text_documents):
            self.schedule(uri, delay=0)

    def close(self, uri: str) -> None:
        """Forget a closed document and clear its diagnostics."""
        self._changed.discard(uri)
        running = self._running.pop(uri, None)
        if running is not None:
            running.cancel()
        with self._lock:
            self._latest.pop(uri, None)
            self._parsed.pop(uri, None)
        self._server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    async def _run(self, uri: str, delay: float) -> None:
        try:
            while uri in self._changed:
                await asyncio.sleep(delay)
                delay = DEBOUNCE
                self._changed.discard(uri)
                # The workspace finds the document however its URI is percent-encoded (a
                # folder with a space); a closed one never gets here, close() cancels this run.
                document = self._document(uri)
                version, text = document.version, document.source
                made = await asyncio.to_thread(
                    analyse, text, _path(document.uri, document.path), self._catalogues
                )
                if uri in self._changed:
                    continue  # changed meanwhile: its places may be wrong, go on with the newest
                with self._lock:
                    before = self._latest.get(uri)
                    self._keep(uri, made)
                    if made.problem is None and before is not None and before.problem is not None:
                        self._told.discard(before.problem)  # fixed: tell it again if it comes back
                    told = made.problem is not None and made.problem not in self._told
                    if told:
                        self._told.add(made.problem or "")
                if told:
                    self._server.window_show_message(
                        types.ShowMessageParams(
                            type=types.MessageType.Warning,
                            message=f"toolexpect: {made.problem}; the defaults apply",
                        )
                    )
                self._server.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(
                        uri=uri,
                        version=version,
                        diagnostics=lsp_diagnostics(made.diagnostics, self.positions(text)),
                    )
                )
        finally:
            if self._running.get(uri) is asyncio.current_task():
                del self._running[uri]


def read_unopened(path: str) -> str:
    """The text of the file at ``path`` for a request on a document the editor never opened:
    only a regular file of at most :data:`~toolexpect.specfiles.stages.MAX_SPEC_BYTES` is read (lint
    reads no more), opened without waiting (a FIFO with no writer) and decoded with
    replacement characters; anything else is an empty text."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return ""
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_SPEC_BYTES:
            return ""
        data = b""
        while len(data) <= MAX_SPEC_BYTES and (piece := os.read(descriptor, MAX_SPEC_BYTES + 1 - len(data))):
            data += piece
    except OSError:
        return ""
    finally:
        os.close(descriptor)
    return "" if len(data) > MAX_SPEC_BYTES else data.decode("utf-8", "replace")


def _path(uri: str, path: str | None) -> str | None:
    """The file a document is, for its settings and implicit case name; ``None`` when it is not a
    file (an unsaved buffer)."""
    return path if uri.startswith("file:") and path else None
