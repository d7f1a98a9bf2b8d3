"""Where toolexpect keeps what it caches, and the switch that turns caching off.

Two things are cached, both in one folder of the user's cache, never inside the package or a
project: lark's built parser of the grammar (:mod:`toolexpect.language.grammar`) and the
parsed, checked result of each spec file (:mod:`toolexpect.specfiles.cache`). The folder is
``$TOOLEXPECT_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/toolexpect`` (by default
``~/.cache/toolexpect``). ``TOOLEXPECT_NO_CACHE=1`` (which ``--no-cache`` sets for the command
it is given to) turns both off: nothing is read from the folder, and nothing is written.

Deleting the folder is always safe: whatever it held is built again on the next run.
"""

from __future__ import annotations

import os

__all__ = ["CACHE_DIR_VARIABLE", "NO_CACHE_VARIABLE", "cache_folder", "caching_on"]

CACHE_DIR_VARIABLE = "TOOLEXPECT_CACHE_DIR"
"""The environment variable naming the cache folder itself (tests point it at a temporary one)."""

NO_CACHE_VARIABLE = "TOOLEXPECT_NO_CACHE"
"""The environment variable that, set to anything but the empty string, turns caching off."""


def caching_on() -> bool:
    """False when ``TOOLEXPECT_NO_CACHE`` is set (to anything but the empty string)."""
    return not os.environ.get(NO_CACHE_VARIABLE)


def cache_folder() -> str | None:
    """The user's cache folder for toolexpect, made if need be (private to the user); never
    the package. ``None`` when caching is off or no writable folder can be made."""
    if not caching_on():
        return None
    folder = os.environ.get(CACHE_DIR_VARIABLE)
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "toolexpect")
    if folder in _MADE:  # made and writable earlier in this process: no system call per spec
        return folder
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    _MADE.add(folder)
    return folder


_MADE: set[str] = set()
