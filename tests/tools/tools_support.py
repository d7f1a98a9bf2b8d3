"""Shared helpers for the tool-catalogue tests."""

from __future__ import annotations

from pathlib import Path

from toolexpect.language.parse import parse_text
from toolexpect.model import Spec, from_document

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tools"
ROOT = Path(__file__).resolve().parents[2]


def spec_of(text: str, path: str | None = None) -> Spec:
    """Parse spec text into the typed model, failing on any parse diagnostic."""
    result = parse_text(text, "t")
    assert not result.diagnostics, result.diagnostics
    return from_document(result.document, path=path)
