"""What a line of source text is: one definition for the parser, the readers and the renderer.

A line ends at ``"\\n"``; a ``"\\r"`` just before it belongs to that ending (``"\\r\\n"``). No
other character ends a line: a lone ``"\\r"``, ``"\\f"``, ``"\\v"``, ``"\\x1c"``-``"\\x1e"``,
``"\\x85"``, U+2028 and U+2029 are characters of the line they stand on. That is how lark's
lexer counts lines (it counts ``"\\n"``), so every position a diagnostic carries, from text,
JSON or YAML, and every excerpt the renderer shows, agree. ``str.splitlines`` splits on all of
those characters and is never used on source text.
"""

from __future__ import annotations

import bisect
import re

__all__ = ["HIDDEN", "LineIndex", "split_lines", "split_lines_keepends", "visible"]

_BREAK = re.compile("\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their endings (``"\\n"`` or ``"\\r\\n"``)."""
    lines = text.split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def split_lines_keepends(text: str) -> list[str]:
    """The lines of ``text`` with their endings, as ``str.splitlines(keepends=True)`` would
    give them if only ``"\\n"`` ended a line."""
    out: list[str] = []
    start = 0
    for match in _BREAK.finditer(text):
        out.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        out.append(text[start:])
    return out


class LineIndex:
    """Offsets in a text to 1-based (line, column), by the one definition of a line."""

    __slots__ = ("_starts",)

    def __init__(self, text: str) -> None:
        self._starts = [0, *(match.end() for match in _BREAK.finditer(text))]

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of character ``offset``."""
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def offset(self, line: int, column: int) -> int:
        """The character offset of 1-based ``line`` and ``column`` (the inverse of :meth:`position`;
        a line past the last one counts from the start of the last)."""
        start = self._starts[min(max(line, 1), len(self._starts)) - 1]
        return start + max(column, 1) - 1


_PICTURES = {code: chr(0x2400 + code) for code in range(32) if code != 9}
_PICTURES[0x7F] = "\u2421"
_PLANES = range(0, 0x110000, 0x10000)
HIDDEN = (
    "\x80-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufdd0-\ufdef"
    + "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in _PLANES)
)
"""The characters past ASCII that :func:`visible` shows as ``"\\ufffd"`` (as a regular
expression's character class, without its brackets): C1 controls, separators, bidirectional
controls, surrogates and noncharacters."""
_SHOWN = re.compile(f"[\\x00-\\x08\\x0a-\\x1f\\x7f{HIDDEN}]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:  # half of a pair: a stream cut in the middle of an emoji
        return f"\\u{code:04x}"
    return _PICTURES.get(code, "\ufffd")


def visible(line: str) -> str:
    """``line`` with each control character shown as one visible character (tabs kept): the
    one escape of every text a person or a CI runner reads.

    A C0 control (``"\\n"``, ``"\\r"``, ``"\\x1b"`` that starts a terminal escape, ...) and DEL
    become their Unicode control pictures (``␊``, ``␍``, ``␛``, ``␡``); a C1 control (``"\\x9b"``,
    the one-byte escape), a line or paragraph separator, a bidirectional control (which would
    reorder what follows it on screen) and a noncharacter (U+FFFE and U+FFFF, which XML
    forbids, and their kin, which HTML warns of) become ``"\\ufffd"``; a lone surrogate (half of
    a pair: text cut in the middle of an emoji) is written as its escape, ``\\ud83d``. A
    terminal would move the cursor on a ``"\\r"`` or run an escape sequence; one character for
    one keeps a caret under the right column (a spec's text, read as UTF-8, holds no lone
    surrogate), and what is left holds only characters XML 1.0 allows.
    """
    return _SHOWN.sub(_picture, line) if _SHOWN.search(line) else line
