"""Whole-document formatting: the edit that makes the document what ``toolexpect format`` writes.

The text comes from :meth:`toolexpect.specfiles.stages.SpecFile.formatted` with the line length of
``[tool.toolexpect]`` in the nearest ``pyproject.toml`` (or the default). A document that
``format`` refuses (one that does not parse, or repeats a statement) gets no edit; its
diagnostics say why.
"""

from __future__ import annotations

from lsprotocol import types

from toolexpect.server.analysis import Analysis
from toolexpect.server.positions import Positions

__all__ = ["format_edits"]


def format_edits(analysis: Analysis, positions: Positions) -> list[types.TextEdit] | None:
    """One edit replacing the whole document with its formatted text; ``[]`` when it is already
    formatted, ``None`` when it cannot be formatted."""
    if analysis.loaded.kind != "text":
        return None  # JSON and YAML specs are not rewritten, as by `toolexpect format`
    text = analysis.loaded.formatted(analysis.line_length)
    if text is None:
        return None
    if text == analysis.loaded.text:
        return []
    return [types.TextEdit(range=positions.whole(), new_text=text)]
