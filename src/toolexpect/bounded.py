"""Bounded reads: the one loop that reads at most a given number of bytes from any stream.

A size that ``stat`` reports says nothing true of a device, a pipe or a FIFO, so the spec and
log readers never read without a bound; both read through :func:`read_up_to`.
"""

from __future__ import annotations

from typing import IO

__all__ = ["read_up_to"]


def read_up_to(stream: IO[bytes], size: int) -> bytes:
    """Up to ``size`` bytes, fewer only at the end of the stream."""
    parts: list[bytes] = []
    left = size
    while left > 0:
        data = stream.read(left)
        if not data:
            break
        parts.append(data)
        left -= len(data)
    return b"".join(parts)
