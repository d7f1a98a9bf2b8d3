"""Writing the files the command line makes, so that a failure never leaves a file half written.

Text goes to a temporary file in the target's folder, which is renamed over the target only
once everything is written: on a full disk, without permission, or when rendering fails,
the target keeps its old content and the temporary file is removed. A new file gets the
permissions a plain ``open`` would give it under the umask; an existing file keeps its mode.
A target that exists and is not a regular file (``/dev/null``, a FIFO, a terminal) has no
content to lose and is written directly. A symbolic link is followed: the file it points to
is replaced and the link stays.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from typing import IO

__all__ = ["replacing", "write_text"]

_NEW_FILE_MODE = 0o666  # what open() asks for; the umask takes its share


def _temporary(folder: str, name: str) -> tuple[int, str]:
    """A new file next to the target, opened for writing, and its path."""
    while True:
        path = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE), path
        except FileExistsError:
            continue


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """A UTF-8 text stream whose content replaces ``path`` when the ``with`` block ends.

    Any exception in the block or while writing (``OSError`` for a full disk) leaves
    ``path`` as it was and propagates.
    """
    target = os.path.realpath(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "w", encoding="utf-8", newline="") as stream:
            yield stream
        return
    handle, temporary = _temporary(os.path.dirname(target), os.path.basename(target))
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            yield stream
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> str | None:
    """Replace ``path``'s content with ``text`` (see :func:`replacing`); the reason it failed, or None."""
    try:
        with replacing(path) as stream:
            stream.write(text)
    except OSError as error:
        return error.strerror or str(error)
    return None
