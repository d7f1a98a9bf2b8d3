"""Opening a log once: a file, standard input (``-``), a FIFO or pipe, a gzip or zstd file.

:func:`open_stream` gives a binary stream, decompressed by the name's extension (``.gz`` with
the standard ``gzip``, ``.zst`` with ``zstandard``, the ``zstd`` extra), and whether the log
can be opened again (a regular file can; standard input, a FIFO or a process substitution can
be read only once, so it is opened once). A device or a socket is refused (``R400``): reading
``/dev/zero`` would never end. :class:`Replay` serves the bytes read to probe a log before the
rest of the stream, so that nothing read to probe is read twice.

A damaged compressed file (bad header, cut short) becomes an ``OSError`` while reading, which
the readers report as ``R400`` with the line reached.

A regular file that grows shorter while it is read (logrotate's ``copytruncate`` empties it
in place) would end early, its last records unread and nothing said: :class:`Watched` knows
the file's size when it was opened and, at the end of the file, raises :class:`Shrank` when
fewer bytes were read than it held then (``R406``). A file that grows while it is read loses
nothing: the lines appended are read or not.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from typing import IO, Any

from toolexpect.errors import ToolexpectError
from toolexpect.logs._base import Context

__all__ = ["Replay", "Shrank", "Watched", "open_stream", "shrank"]


class Shrank(ToolexpectError, OSError):
    """A regular file that ended before the bytes it held when it was opened were read."""


def shrank(held: int, read: int, when: str = "when it was opened") -> Shrank:
    """The error of a log that held ``held`` bytes ``when`` and ended after ``read``."""
    return Shrank(
        f"the log shrank while it was read: it held {held:,} bytes {when} and ended after "
        f"{read:,}, so its last records were not read (rotated with copytruncate, or "
        "rewritten?); reading stopped"
    )


class Watched(io.FileIO):
    """A regular file opened to be read, which raises :class:`Shrank` at its end when it
    holds fewer bytes than when it was opened (see module)."""

    def __init__(self, name: str) -> None:
        super().__init__(name, "rb")
        self.opened_size = os.fstat(self.fileno()).st_size
        """The file's size when it was opened."""

    def read(self, size: int | None = -1) -> bytes:
        """Up to ``size`` bytes; ``Shrank`` at an end before the size at open."""
        data = super().read(size)
        if not data and size != 0:
            self._check_end()
        return data

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer``; ``Shrank`` at an end before the size at open."""
        count = super().readinto(buffer)
        if not count and len(buffer):
            self._check_end()
        return count

    def _check_end(self) -> None:
        at = self.tell()
        if at < self.opened_size:
            raise shrank(self.opened_size, at)


class Replay(io.RawIOBase):
    """``head`` then the rest of ``inner``; decompression errors as ``OSError``."""

    def __init__(self, head: bytes, inner: IO[bytes], close_inner: bool = True) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._inner = inner
        self._close_inner = close_inner

    def readable(self) -> bool:
        """Always: a log is read."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` from the head first, then from the stream."""
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        try:
            data = self._inner.read(len(buffer))
        except (EOFError, ValueError) as exc:
            raise OSError(f"the compressed log is damaged ({exc})") from None
        except OSError:
            raise
        except Exception as exc:  # zstandard.ZstdError is no OSError
            raise OSError(f"the compressed log is damaged ({exc})") from None
        count = len(data)
        buffer[:count] = data
        return count

    def close(self) -> None:
        """Close the stream too (never standard input)."""
        if not self.closed and self._close_inner:
            self._inner.close()
        super().close()


def _decompressed(name: str, raw: IO[bytes], ctx: Context) -> IO[bytes]:
    lower = name.lower()
    if lower.endswith(".gz"):
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if lower.endswith(".zst"):
        try:
            import zstandard
        except ImportError:
            raw.close()
            raise ctx.fatal(
                "R400",
                "cannot read a zstd-compressed log: the zstandard package is not installed",
                None,
                help="pip install 'toolexpect[zstd]', or decompress the log first",
            ) from None
        return zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
    return raw


def open_stream(name: str, ctx: Context) -> tuple[IO[bytes], bool]:
    """The log's bytes (decompressed) and whether it can be opened again; ``LogError``."""
    if name == "-":
        return sys.stdin.buffer, False
    try:
        mode = os.stat(name).st_mode
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    except ValueError as exc:  # e.g. an embedded NUL in the path
        raise ctx.fatal("R400", f"cannot read log: {exc}", None) from None
    if stat.S_ISDIR(mode):
        raise ctx.fatal("R400", "cannot read log: it is a folder", None)
    if not stat.S_ISREG(mode) and not stat.S_ISFIFO(mode):
        raise ctx.fatal(
            "R400",
            "cannot read log: not a regular file or a pipe (a device or a socket)",
            None,
            help="give a log file, a pipe, or - for standard input",
        )
    try:
        raw: IO[bytes] = Watched(name) if stat.S_ISREG(mode) else open(name, "rb")  # noqa: SIM115
    except OSError as exc:
        raise ctx.fatal("R400", f"cannot read log: {exc.strerror or exc}", None) from None
    return _decompressed(name, raw, ctx), stat.S_ISREG(mode)
