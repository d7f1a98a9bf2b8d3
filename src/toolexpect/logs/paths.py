"""Which files a ``--log`` names: a file, ``-`` (standard input), a folder, or a glob.

A folder stands for the log files under it, at any depth, in sorted order: names ending in
``.jsonl``, ``.ndjson``, ``.json``, ``.log`` or ``.sse``, each possibly followed by ``.gz`` or
``.zst``; hidden files and folders are left out. A name that is no file but holds ``*``,
``?`` or ``[`` is a glob (``**`` reaches into subfolders), expanded in sorted order, folders
among the matches as above. A folder or a glob that names no log file is an ``R400``.
"""

from __future__ import annotations

import glob
import os

from toolexpect.logs._base import Context

__all__ = ["LOG_SUFFIXES", "log_paths"]

LOG_SUFFIXES = (".jsonl", ".ndjson", ".json", ".log", ".sse")
"""The names of log files inside a folder (also with ``.gz`` or ``.zst`` after them)."""

_COMPRESSED = ("", ".gz", ".zst")


def _is_log(name: str) -> bool:
    lower = name.lower()
    return not name.startswith(".") and any(
        lower.endswith(suffix + packed) for suffix in LOG_SUFFIXES for packed in _COMPRESSED
    )


def _folder(folder: str) -> list[str]:
    found: list[str] = []
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        found.extend(os.path.join(root, name) for name in sorted(files) if _is_log(name))
    return found


def log_paths(given: str) -> list[str]:
    """The log files ``given`` names, in order; ``LogError`` for a folder or glob of none."""
    if given == "-" or (os.path.exists(given) and not os.path.isdir(given)):
        return [given]
    if os.path.isdir(given):
        found = _folder(given)
        what = "folder"
    elif glob.has_magic(given):
        found = []
        for match in sorted(glob.glob(given, recursive=True)):
            found.extend(_folder(match) if os.path.isdir(match) else [match])
        what = "pattern"
    else:
        return [given]  # opening it says why it cannot be read
    if not found:
        raise Context(given).fatal(
            "R400",
            f"no log files in {what} {given!r}",
            None,
            help=f"a folder is read for files named *{', *'.join(LOG_SUFFIXES)} (also .gz or .zst)",
        )
    return found
