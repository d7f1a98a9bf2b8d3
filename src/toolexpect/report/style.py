"""Terminal styling: ANSI colour on a terminal, never with NO_COLOR or when not a TTY."""

from __future__ import annotations

import os
from typing import IO

__all__ = ["Style", "wants_colour"]

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "cyan": "36",
}


def wants_colour(stream: IO[str]) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (to anything)."""
    if "NO_COLOR" in os.environ:
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Style:
    """Wraps text in ANSI codes when enabled, and leaves it alone otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        """``text`` in the given styles (bold, dim, red, green, yellow, blue, cyan)."""
        if not self.enabled or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"
