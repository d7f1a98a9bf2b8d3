"""Shared helpers for the log reader tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolexpect.calls import RecordedSample
from toolexpect.logs import open_log

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "logs"


def call(
    name: str,
    arguments: dict[str, Any] | None = None,
    id: str | None = None,
    kind: str = "function",
    raw: str | None = None,
    valid: bool = True,
) -> dict[str, Any]:
    """One expected call in the ``ToolCall.to_json`` form."""
    return {
        "name": name,
        "arguments": arguments or {},
        "id": id,
        "kind": kind,
        "raw_arguments": raw,
        "valid_json": valid,
    }


def summary(samples: list[RecordedSample]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """Samples as (id, calls as JSON) pairs, for exact comparison."""
    return [(s.id, [c.to_json() for c in s.calls]) for s in samples]


def read(relpath: str, fmt: str = "auto") -> tuple[str, list[RecordedSample], list[str]]:
    """Format, samples and diagnostic codes of a fixture."""
    reader = open_log(FIXTURES / relpath, fmt)
    samples = list(reader)
    return reader.format, samples, [d.code for d in reader.diagnostics]


@pytest.fixture
def fixtures() -> Path:
    """The fixture folder."""
    return FIXTURES
