"""Helpers on the canonical JSON document, shared by the steps of the pipeline."""

from __future__ import annotations

from typing import Any

__all__ = ["SPAN_KEYS", "without_spans"]

SPAN_KEYS = frozenset({"span", "question_span"})
"""The keys that say where a node was written; they are not part of what a spec means."""


def without_spans(node: Any) -> Any:
    """A copy of a document (or any part of one) without its span objects; paths stay the same."""
    if isinstance(node, dict):
        return {k: without_spans(v) for k, v in node.items() if k not in SPAN_KEYS}
    if isinstance(node, list):
        return [without_spans(v) for v in node]
    return node
