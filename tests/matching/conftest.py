"""Helpers for the matcher tests: build cases from spec text and calls from JSON."""

from __future__ import annotations

from typing import Any

from toolexpect.calls import ToolCall
from toolexpect.model import Case, from_document
from toolexpect.parse import parse_text


def case_of(text: str, name: str = "spec") -> Case:
    """The first case of a spec text (fails the test on a parse error)."""
    result = parse_text(text, name)
    assert result.document is not None, result.diagnostics
    return from_document(result.document).cases[0]


def calls_of(raw: list[dict[str, Any]] | None) -> list[ToolCall] | None:
    """Tool calls from their canonical JSON form (``None`` stays ``None``)."""
    if raw is None:
        return None
    return [
        ToolCall(
            name=item["name"],
            arguments=item.get("arguments", {}),
            raw_arguments=item.get("raw_arguments"),
            valid_json=item.get("valid_json", True),
        )
        for item in raw
    ]
