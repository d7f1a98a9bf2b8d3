"""A JSON or YAML spec read into a document, with its spans by JSON path, and what both
readers refuse alike (numbers the language cannot hold)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.document import Repeat
from toolexpect.language.layout import MAX_DEPTH
from toolexpect.language.strings import integer_too_long, number_too_small

__all__ = ["DOCUMENT_DEPTH", "MAX_NODES", "Located", "PathKey", "bad_number"]

PathKey = tuple[str | int, ...]

DOCUMENT_DEPTH = MAX_DEPTH + 8
"""How deeply a JSON or YAML spec may nest: the value limit plus the document's own levels."""

MAX_NODES = 200_000


@dataclass(slots=True)
class Located:
    """A document read from JSON or YAML, with spans by JSON path (keys' spans under ``keys``)."""

    document: Any
    spans: dict[PathKey, Span] = field(default_factory=dict)
    keys: dict[PathKey, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)

    def locate(self, path: PathKey, *, key: bool = False) -> Span | None:
        """The span of the node at ``path`` (of its key with ``key``), or of its nearest parent."""
        if key and path in self.keys:
            return self.keys[path]
        current = path
        while True:
            if current in self.spans:
                return self.spans[current]
            if not current:
                return None
            current = current[:-1]


def bad_number(literal: str, kind: str, span: Span | None) -> Diagnostic:
    """The diagnostic of a number the language cannot hold: ``kind`` is ``"integer"`` (too
    many digits), ``"float"`` (beyond the 64-bit range), ``"underflow"`` (not zero, but read
    as 0) or ``"constant"`` (NaN, infinity)."""
    if kind == "integer":
        return integer_too_long(literal, span)
    if kind == "underflow":
        return number_too_small(literal, span)
    if kind == "float" and not any(c.isalpha() and c not in "eE" for c in literal):
        return make(
            "P110",
            f"number {literal} is too large to represent",
            span,
            help="use a number within the range of a 64-bit float",
        )
    return make(
        "P110",
        f"{literal} is not a finite number",
        span,
        help="write finite numbers; a spec has no NaN or Infinity",
    )
