"""Helpers on the canonical JSON document, shared by the steps of the pipeline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from toolexpect.diagnostics import Span

__all__ = ["SPAN_KEYS", "Comment", "Repeat", "without_spans"]


class Repeat(NamedTuple):
    """Something written twice where the document holds one: an object's key or a statement.

    The document keeps the last; the reader notes the repeat so that lint reports it, and
    ``format`` (which refuses a spec with a repeat) never drops what was written.
    ``what`` is ``"key"`` or the statement (``"question"``); ``first`` is where it was first.
    """

    what: str
    name: str
    span: Span
    first: Span | None


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment of the source, kept for ``format``: its text (from ``#``) and place."""

    text: str
    line: int
    column: int


SPAN_KEYS = frozenset({"span", "question_span"})
"""The keys that say where a node was written; they are not part of what a spec means."""


def without_spans(node: Any) -> Any:
    """A copy of a document (or any part of one) without its span objects; paths stay the same."""
    if isinstance(node, dict):
        return {k: without_spans(v) for k, v in node.items() if k not in SPAN_KEYS}
    if isinstance(node, list):
        return [without_spans(v) for v in node]
    return node
