"""A raw LSP client: bytes over stdio to a real ``python -m toolexpect server``.

pygls's client only ever sends well-formed frames; this one writes whatever a test gives it
(wrong lengths, no header, huge lengths, bad params) and reads the server's frames back with
a reader thread, so every wait is bounded and a failing server fails the test instead of
hanging the suite. With ``in_process`` the same server runs in a thread of the test process
over pipes (the same session and framing code), so that a property test can run many
examples in a few seconds and look at the server's copy of a document.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from pygls.lsp.server import LanguageServer

from toolexpect.server.app import build_server, serve

WAIT = 20.0  # seconds; only ever reached when the server fails

_HEADER = re.compile(rb"Content-Length: ([0-9]+)\r\n(?:[^\r\n]*\r\n)*?\r\n")


def frame(message: dict[str, Any] | bytes) -> bytes:
    """One well-formed frame of ``message`` (a JSON-RPC object, or raw body bytes)."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


class RawClient:
    """One server process, written to byte by byte and read frame by frame."""

    def __init__(
        self,
        cwd: Path,
        *,
        initialize: bool = True,
        encodings: tuple[str, ...] = ("utf-16",),
        in_process: bool = False,
    ) -> None:
        """Start the server in ``cwd`` (a process) or in a thread; with ``initialize``, initialise
        it (UTF-16 positions unless ``encodings`` offers others)."""
        self._messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._kept: list[dict[str, Any]] = []
        self._next_id = 1000
        self._errors: list[bytes] = []
        self.process: subprocess.Popen[bytes] | None = None
        self.server: LanguageServer | None = None
        self._ended: list[int] = []
        if in_process:
            self.server = build_server()
            their_in, self._stdin = (
                os.fdopen(fd, mode) for fd, mode in zip(os.pipe(), ("rb", "wb"), strict=True)
            )
            self._stdout, their_out = (
                os.fdopen(fd, mode) for fd, mode in zip(os.pipe(), ("rb", "wb"), strict=True)
            )
            self._thread = threading.Thread(target=self._serve, args=(their_in, their_out), daemon=True)
            self._thread.start()
        else:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "toolexpect", "server"],
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            assert self.process.stdin is not None and self.process.stdout is not None
            self._stdin, self._stdout = self.process.stdin, self.process.stdout
            threading.Thread(target=self._read_errors, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()
        self.encoding = "utf-16"
        if initialize:
            params = {
                "processId": None,
                "rootUri": cwd.as_uri(),
                "capabilities": {"general": {"positionEncodings": list(encodings)}},
            }
            answer = self.request("initialize", params)
            self.encoding = answer["result"]["capabilities"].get("positionEncoding", "utf-16")
            self.notify("initialized", {})

    def _serve(self, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        with stdin, stdout:
            self._ended.append(serve(stdin, stdout, self.server))  # type: ignore[arg-type]

    def _read(self) -> None:
        stream = self._stdout
        buffer = b""
        while True:
            found = _HEADER.match(buffer)
            if found is not None and len(buffer) >= found.end() + int(found.group(1)):
                end = found.end() + int(found.group(1))
                self._messages.put(json.loads(buffer[found.end() : end]))
                buffer = buffer[end:]
                continue
            chunk = stream.read1(65536)
            if not chunk:
                self._messages.put(None)
                return
            buffer += chunk

    def _read_errors(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := self.process.stderr.read1(65536):
            self._errors.append(chunk)

    def send(self, data: bytes) -> None:
        """Write raw bytes to the server's stdin."""
        self._stdin.write(data)
        self._stdin.flush()

    def notify(self, method: str, params: Any = None) -> None:
        """Send a notification in a well-formed frame."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(frame(message))

    def request(
        self, method: str, params: Any = None, *, raw: bytes | None = None, within: float = WAIT
    ) -> dict[str, Any]:
        """Send a request (its frame, or ``raw`` bytes around it) and return the server's answer
        within ``within`` seconds."""
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(frame(message) if raw is None else raw)
        return self.answer(self._next_id, within)

    def answer(self, msg_id: int | None, within: float = WAIT) -> dict[str, Any]:
        """The server's response to ``msg_id`` (``None``: an error about an unknown request)."""
        return self.wait_for(lambda m: "method" not in m and m.get("id") == msg_id, within)

    def forget(self) -> None:
        """Drop the messages received and not yet taken (those of earlier requests)."""
        self._kept.clear()
        while True:
            try:
                self._messages.get_nowait()
            except queue.Empty:
                return

    def wait_for(self, wanted: Any, within: float = WAIT) -> dict[str, Any]:
        """The first message of the server that ``wanted`` accepts, within ``within`` seconds."""
        for kept in self._kept:
            if wanted(kept):
                self._kept.remove(kept)
                return kept
        deadline = time.monotonic() + within
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message from the server within {within} s")
            try:
                message = self._messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise AssertionError(f"the server closed its output: {self.stderr()}")
            if wanted(message):
                return message
            self._kept.append(message)

    def diagnostics(self, uri: str, version: int) -> list[dict[str, Any]]:
        """The diagnostics the server publishes for ``uri`` at ``version``."""
        found = self.wait_for(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == version
            )
        )
        return list(found["params"]["diagnostics"])

    def exit_code(self) -> int:
        """Wait for the server to end (bounded) and return its exit code."""
        if self.process is None:
            self._thread.join(timeout=WAIT)
            assert self._ended, "the server did not end"
            return self._ended[0]
        return self.process.wait(timeout=WAIT)

    def stderr(self) -> str:
        """What the server has written to stderr so far."""
        return b"".join(self._errors).decode("utf-8", "replace")

    def close(self) -> None:
        """End the server, whatever state it is in."""
        if self.process is None:
            self._stdin.close()  # the end of its input: the session ends
            self._thread.join(timeout=WAIT)
            self._stdout.close()
            return
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=WAIT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
