"""Terminal styling: ANSI colour on a terminal, never with NO_COLOR or when not a TTY; ASCII
marks where the output's encoding cannot hold ``✓`` and its kin.

Output to a stream whose encoding is not UTF-8 (``PYTHONIOENCODING=cp1252``, a Windows
console redirected) never fails on a character it cannot hold: the text reports write their
marks in ASCII (``✓`` as ``+``, ``✗`` as ``x``, ``→`` as ``->``, ``…`` as ``...``, ``≥`` as
``>=``), and the
command line sets its streams and the files it writes to write any other character as a JSON
escape (``\u2713``), which keeps JSON output valid. Even UTF-8 lacks one kind: a lone
surrogate, which a log may hold (``"\ud83d"``, a stream cut inside an emoji).
"""

from __future__ import annotations

import codecs
import os
from typing import IO

__all__ = ["ESCAPE", "Style", "fit_stream", "holds_marks", "wants_colour"]

_ASCII_MARKS = {"✓": "+", "✗": "x", "↑": "^", "↓": "v", "→": "->", "…": "...", "⚠": "!", "≥": ">=", "≤": "<="}
_MARKS_AS_ASCII = str.maketrans(_ASCII_MARKS)
_MARKS = "".join(_ASCII_MARKS)

ESCAPE = "toolexpect-escape"
"""The encoding error handler that writes a character as ``\\uXXXX`` (a surrogate pair beyond
the Basic Multilingual Plane), as a JSON string escapes it."""


def _escape(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    pieces = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            pieces.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            pieces.append(f"\\u{code:04x}")
    return "".join(pieces), error.end


codecs.register_error(ESCAPE, _escape)


def holds_marks(stream: IO[str]) -> bool:
    """Whether ``stream``'s encoding can write the marks of the text reports."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        _MARKS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def fit_stream(stream: IO[str]) -> None:
    """Let ``stream`` write every character: those its encoding lacks as JSON escapes (in
    UTF-8, a lone surrogate that a log's ``\\ud83d`` escape decoded to)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors=ESCAPE)


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
    """Wraps text in ANSI codes when enabled, and leaves it alone otherwise; with
    ``ascii_marks``, :meth:`marks` writes ``✓`` and its kin in ASCII."""

    def __init__(self, enabled: bool, ascii_marks: bool = False) -> None:
        self.enabled = enabled
        self.ascii_marks = ascii_marks

    @classmethod
    def of(cls, stream: IO[str]) -> Style:
        """The style for text written to ``stream``: its colour and the marks it can hold."""
        return cls(wants_colour(stream), not holds_marks(stream))

    def marks(self, text: str) -> str:
        """``text``, its marks in ASCII when the style says so."""
        return text.translate(_MARKS_AS_ASCII) if self.ascii_marks else text

    def __call__(self, text: str, *styles: str) -> str:
        """``text`` in the given styles (bold, dim, red, green, yellow, blue, cyan)."""
        if not self.enabled or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"
