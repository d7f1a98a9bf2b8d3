"""Format detection: which reader fits the first decoded records of a log.

Readers are tried in a fixed order, most specific first; the canonical form is tried
first because it is strict and by far the most common input of ``toolexpect score``.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from toolexpect.logs import (
    adk,
    anthropic,
    bfcl,
    canonical,
    gemini,
    langchain,
    langsmith,
    mcp,
    openai_batch,
    openai_chat,
    openai_responses,
    otel,
)

__all__ = ["LOG_FORMATS", "READERS", "detect"]

READERS: dict[str, ModuleType] = {
    module.NAME: module
    for module in (
        canonical,
        openai_batch,
        openai_responses,
        openai_chat,
        anthropic,
        gemini,
        otel,
        mcp,
        langsmith,
        langchain,
        adk,
        bfcl,
    )
}
"""Reader modules by format name, in detection order."""

LOG_FORMATS: tuple[str, ...] = tuple(READERS)
"""The names of the log formats, in detection order."""


def _fits(name: str, value: Any) -> bool:
    try:
        return bool(READERS[name].sniff(value))
    except RecursionError:
        return False


_LAST_RESORT = {openai_chat.NAME: openai_chat.is_conversation}
"""What a format also takes when no record fits any format: chat conversations without a call
(the runs of cases that require none) fit no reader's own test, which looks for calls."""


def detect(values: Iterable[Any]) -> str | None:
    """The first format that fits one of ``values`` (tried in order), else the format whose
    last resort takes them all, else ``None``."""
    values = list(values)
    for value in values:
        for name in LOG_FORMATS:
            if _fits(name, value):
                return name
    for name, takes in _LAST_RESORT.items():
        if values and all(takes(value) for value in values):
            return name
    return None


def fits(name: str, values: Iterable[Any]) -> bool:
    """Whether the format ``name`` fits one of ``values`` (or its last resort all of them)."""
    values = list(values)
    if any(_fits(name, value) for value in values):
        return True
    takes = _LAST_RESORT.get(name)
    return takes is not None and bool(values) and all(takes(value) for value in values)
