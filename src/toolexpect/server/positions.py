"""Places in one document: toolexpect's spans to LSP ranges and LSP positions to offsets.

A span counts lines as toolexpect does (a line ends at ``\\n``, :mod:`toolexpect.lines`) and
columns in characters, after a byte order mark is dropped. The Language Server Protocol counts
lines ending at ``\\n``, ``\\r\\n`` or ``\\r`` and characters in the units the client and server
agreed on (UTF-16 unless the client offers another). Both go through character offsets into
the text, so the two ways of counting never have to agree line by line.
"""

from __future__ import annotations

import bisect
import re

from lsprotocol import types

from toolexpect.diagnostics import Span
from toolexpect.lines import LineIndex

__all__ = ["Positions"]

_LSP_BREAK = re.compile(r"\r\n|\r|\n")
_KNOWN = {kind.value for kind in types.PositionEncodingKind}
_UTF16 = types.PositionEncodingKind.Utf16


class Positions:
    """Offsets, spans and LSP positions of one text, in the position encoding of the client."""

    __slots__ = ("_bom", "_encoding", "_index", "_starts", "_text")

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self._text = text
        self._encoding = types.PositionEncodingKind(encoding) if encoding in _KNOWN else _UTF16
        self._bom = text.startswith("\ufeff")
        self._index = LineIndex(text)
        self._starts = [0, *(match.end() for match in _LSP_BREAK.finditer(text))]

    def _units(self, piece: str) -> int:
        if self._encoding == types.PositionEncodingKind.Utf8:
            return len(piece.encode("utf-8", "surrogatepass"))
        if self._encoding == types.PositionEncodingKind.Utf32:
            return len(piece)
        return len(piece.encode("utf-16-le", "surrogatepass")) // 2

    def position(self, offset: int) -> types.Position:
        """The LSP position of character ``offset``."""
        offset = min(max(offset, 0), len(self._text))
        line = bisect.bisect_right(self._starts, offset) - 1
        return types.Position(line=line, character=self._units(self._text[self._starts[line] : offset]))

    def offset(self, position: types.Position) -> int:
        """The character offset of an LSP position (clamped to its line and to the text)."""
        if position.line >= len(self._starts):
            return len(self._text)
        start = self._starts[position.line]
        end = self._starts[position.line + 1] if position.line + 1 < len(self._starts) else len(self._text)
        line = _LSP_BREAK.sub("", self._text[start:end])
        count = 0
        for index, char in enumerate(line):
            if count >= position.character:
                return start + index
            count += self._units(char)
        return start + len(line)

    def replace(self, place: types.Range, text: str) -> str:
        """The text with ``place`` replaced by ``text``, as an editor applies an incremental
        change: lines counted as the LSP counts them, a position past the end of its line at the
        end of that line, one past the last line at the end of the text."""
        start = self.offset(place.start)
        end = max(start, self.offset(place.end))
        return self._text[:start] + text + self._text[end:]

    def span_offset(self, line: int, column: int) -> int:
        """The character offset of a 1-based line and column of a span (the end of the text at most)."""
        offset = self._index.offset(line, column) + (1 if self._bom and line <= 1 else 0)
        return min(offset, len(self._text))

    def _span_point(self, line: int, column: int) -> types.Position:
        """The LSP position of a span's line and column; a column past the end of its line (where
        a diagnostic points at the end of a line) stays on that line, past its last character."""
        start = self.span_offset(line, 1)
        end = self._text.find("\n", start)
        end = len(self._text) if end < 0 else end - (self._text[end - 1 : end] == "\r")
        offset = self.span_offset(line, column)
        if offset <= end:
            return self.position(offset)
        last = self.position(end)
        return types.Position(line=last.line, character=last.character + offset - end)

    def span_position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column a span gives character ``offset``."""
        line, column = self._index.position(offset)
        return line, column - (1 if self._bom and line == 1 else 0)

    def range(self, span: Span | None) -> types.Range:
        """The LSP range of a span; the start of the text for a diagnostic without a place."""
        if span is None:
            start = types.Position(line=0, character=0)
            return types.Range(start=start, end=start)
        start = self._span_point(span.line, span.column)
        end = self._span_point(span.end_line, span.end_column)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return types.Range(start=start, end=end)

    def whole(self) -> types.Range:
        """The range of the whole text."""
        return types.Range(start=types.Position(line=0, character=0), end=self.position(len(self._text)))
