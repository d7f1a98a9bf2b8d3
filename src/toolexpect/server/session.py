"""One session with an editor over stdio: frames in, messages checked, then handed to pygls.

pygls's own loop is replaced by this one so that a bad message never costs more than itself:

* Frames are read by :class:`~toolexpect.server.frames.FrameReader` (resynchronising on the next
  header, refusing frames over :data:`~toolexpect.server.frames.MAX_FRAME`); a body that is not
  JSON gets the JSON-RPC parse error (-32700), one that is not a message object, or a refused
  frame, invalid request (-32600), both with ``"id": null`` as JSON-RPC says.
* A request whose params do not fit its method (``"textDocument": 5``, a negative line, no
  params where some are required) is answered with invalid params (-32602); such a notification
  is dropped, there is no one to answer.
* Before ``initialize``, every request is answered with -32002 (ServerNotInitialized) and
  notifications but ``exit`` are dropped, as the LSP says.
* After ``shutdown``, every request but ``exit`` is answered with invalid request (-32600) and
  notifications are dropped; ``exit`` ends the session with 0 after ``shutdown``, 1 without
  (also when the client closes the stream without ``exit``).

stdin is read by a daemon thread (a read blocks; the event loop never does), a chunk at a
time, and the thread waits while the loop is behind.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from cattrs import Converter
from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage

from toolexpect.server.frames import MAX_FRAME, FrameReader, Refused

__all__ = ["run_session"]

_CHUNK = 64 * 1024
_PARSE_ERROR = types.ErrorCodes.ParseError.value
_INVALID_REQUEST = types.ErrorCodes.InvalidRequest.value
_INVALID_PARAMS = types.ErrorCodes.InvalidParams.value
_NOT_INITIALIZED = types.ErrorCodes.ServerNotInitialized.value
_EXIT_CODE_OK = 0
_EXIT_CODE_UNCLEAN = 1


def run_session(server: LanguageServer, converter: Converter, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Serve the client on ``stdin``/``stdout`` until it says ``exit`` or closes the stream; the
    exit code the LSP asks for (0 after ``shutdown``, else 1). ``converter`` is the server's (it
    structures the messages' params)."""
    server.protocol.set_writer(StdoutWriter(stdout))
    session = _Session(server, converter, stdin)
    try:
        return asyncio.run(session.run())
    except BrokenPipeError:  # the client is gone
        return _EXIT_CODE_UNCLEAN
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]


class _Session:
    def __init__(self, server: LanguageServer, converter: Converter, stdin: BinaryIO) -> None:
        self._server = server
        self._converter = converter
        self._stdin = stdin
        self._frames = FrameReader()
        self._shut_down = False
        self._initialized = False

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=4)
        threading.Thread(target=self._read, args=(loop, chunks), name="toolexpect-stdin", daemon=True).start()
        while True:
            chunk = await chunks.get()
            if not chunk:
                return _EXIT_CODE_OK if self._shut_down else _EXIT_CODE_UNCLEAN
            for frame in self._frames.feed(chunk):
                code = self._take(frame)
                if code is not None:
                    return code

    def _read(self, loop: asyncio.AbstractEventLoop, chunks: asyncio.Queue[bytes]) -> None:
        read: Callable[[int], bytes]
        try:  # the descriptor itself: closing the file object then never waits for this thread
            descriptor = self._stdin.fileno()
            read = functools.partial(os.read, descriptor)
        except (AttributeError, OSError, ValueError):  # a stream without one (io.BytesIO)
            read = getattr(self._stdin, "read1", self._stdin.read)
        while True:
            try:
                chunk: bytes = read(_CHUNK)
            except (OSError, ValueError):
                chunk = b""
            try:
                asyncio.run_coroutine_threadsafe(chunks.put(chunk), loop).result()
            except RuntimeError:  # the loop has closed: the session is over
                return
            if not chunk:
                return

    def _take(self, frame: bytes | Refused) -> int | None:
        """Handle one frame; the exit code when it ends the session."""
        if isinstance(frame, Refused):
            limit = f"{MAX_FRAME // (1024 * 1024)} MiB"
            self._error(
                None, _INVALID_REQUEST, f"a message of {frame.length} bytes is over the limit of {limit}"
            )
            return None
        try:
            data = json.loads(frame)
        except (ValueError, RecursionError):
            self._error(None, _PARSE_ERROR, "the message is not JSON")
            return None
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            self._error(None, _INVALID_REQUEST, "the message is not a JSON-RPC 2.0 object")
            return None
        method = data.get("method")
        has_id = "id" in data
        msg_id = data.get("id") if isinstance(data.get("id"), (int, str)) else None
        if method == types.EXIT:
            return _EXIT_CODE_OK if self._shut_down else _EXIT_CODE_UNCLEAN
        if self._shut_down:
            if has_id and isinstance(method, str):
                self._error(msg_id, _INVALID_REQUEST, "the server has been shut down")
            return None
        if not self._initialized and method != types.INITIALIZE and isinstance(method, str):
            if has_id:
                self._error(msg_id, _NOT_INITIALIZED, "the server has not been initialized")
            return None
        if isinstance(method, str):
            try:
                message = self._structure(data, method, has_id)
            except Exception:
                if has_id:
                    self._error(msg_id, _INVALID_PARAMS, f"the params do not fit {method[:100]!r}")
                return None
            if method == types.SHUTDOWN and has_id:
                self._shut_down = True
            if method == types.INITIALIZE and has_id:
                self._initialized = True
        else:
            try:  # a response to one of the server's requests: pygls knows its result type
                message = self._server.protocol.structure_message(data)
            except Exception:
                return None
        self._server.protocol.handle_message(message)
        return None

    def _structure(self, data: dict[str, Any], method: str, request: bool) -> Any:
        protocol = self._server.protocol
        fallback = JsonRPCRequestMessage if request else JsonRPCNotification
        kind = protocol.get_message_type(method) or fallback
        return self._converter.structure(data, kind)

    def _error(self, msg_id: int | str | None, code: int, message: str) -> None:
        """Answer with a JSON-RPC error (``msg_id`` ``None``: the request is not known)."""
        response = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}
        body = json.dumps(response).encode("utf-8")
        writer = self._server.protocol.writer
        if writer is not None:
            writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
