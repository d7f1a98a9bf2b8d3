"""The base protocol's frames, read so that one broken frame costs only itself.

A frame is a header (``Content-Length: N``, perhaps other fields, a blank line) and ``N`` bytes
of JSON. pygls reads the length and then exactly that many bytes, so one wrong length leaves it
reading bodies as headers for the rest of the session, and a huge one allocates it. Here the
reader resynchronises on the next header instead:

* Bytes that are not a header (a missing or non-numeric ``Content-Length``, the rest of a body
  whose length was given too small) are skipped up to the next ``Content-Length: N`` line.
* A body is cut where a header starts inside it (its length was given too large): valid JSON
  never holds ``Content-Length: N`` followed by a raw line break, so a real body is never cut.
* A frame longer than :data:`MAX_FRAME` is refused without being kept: its bytes are skipped,
  a chunk at a time, up to the next header.

:class:`FrameReader` is pure (bytes in, frames out); the session feeds it what stdin gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MAX_FRAME", "FrameReader", "Refused"]

MAX_FRAME = 64 * 1024 * 1024
"""The longest frame body the server reads, in bytes (64 MiB); a longer one is refused."""

# A whole header: its Content-Length line, other fields (a token, a colon), the blank line.
_HEADER = re.compile(
    rb"content-length:[ \t]*([0-9]+)[ \t]*\r\n(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r\n)*\r\n", re.IGNORECASE
)
# Where a header starts, looked for inside bodies and skipped bytes; bounded, so that a search
# of new bytes needs only a short overlap with the bytes searched before.
_START = re.compile(rb"content-length:[ \t]{0,8}[0-9]{1,20}[ \t]{0,8}\r\n", re.IGNORECASE)
_OVERLAP = 64  # longer than any match of _START
_KEEP = 4096  # bytes kept while no header is found: a header being received


@dataclass(frozen=True, slots=True)
class Refused:
    """A frame whose header gave more than :data:`MAX_FRAME` bytes (``length``, as written)."""

    length: str


class FrameReader:
    """Frames out of a byte stream fed in pieces: bodies (``bytes``, maybe broken JSON when the
    length was wrong) and :class:`Refused` frames."""

    def __init__(self, limit: int = MAX_FRAME) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._need: int | None = None  # the body length being read; None: looking for a header
        self._skipping = False  # skipping a refused frame's bytes
        self._searched = 0  # bytes of the buffer already searched for a header start

    def feed(self, data: bytes) -> list[bytes | Refused]:
        """The frames completed by ``data``, the next bytes of the stream."""
        self._buffer += data
        frames: list[bytes | Refused] = []
        while self._step(frames):
            pass
        return frames

    def _next_start(self) -> int | None:
        found = _START.search(self._buffer, max(0, self._searched - _OVERLAP))
        self._searched = len(self._buffer)
        return None if found is None else found.start()

    def _drop(self, count: int) -> None:
        del self._buffer[:count]
        self._searched = 0

    def _step(self, frames: list[bytes | Refused]) -> bool:
        """Take one frame or one stretch of skipped bytes; False when more bytes are needed."""
        buffer = self._buffer
        if self._skipping:
            start = self._next_start()
            if start is None:
                self._drop(max(0, len(buffer) - _KEEP))
                self._searched = len(self._buffer)
                return False
            self._drop(start)
            self._skipping = False
            return True
        if self._need is None:
            header = _HEADER.search(buffer)
            if header is None:
                if len(buffer) > _KEEP:
                    self._drop(len(buffer) - _KEEP)
                return False
            digits = header.group(1).decode("ascii")
            self._drop(header.end())
            if len(digits) > len(str(self._limit)) or int(digits) > self._limit:
                frames.append(Refused(digits if len(digits) <= 20 else digits[:20] + "…"))
                self._skipping = True
            else:
                self._need = int(digits)
            return True
        need = self._need
        start = self._next_start()
        if start is not None and start < need:  # the next header came before the body ended
            frames.append(bytes(buffer[:start]))
        elif len(buffer) >= need:
            start = need
            frames.append(bytes(buffer[:need]))
        else:
            return False
        self._drop(start)
        self._need = None
        return True
