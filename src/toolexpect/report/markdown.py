"""Text from specs and logs made safe in Markdown (pull-request comments, job summaries): the
one escape of the ``markdown`` formats of ``score`` and ``diff``."""

from __future__ import annotations

from toolexpect.lines import visible

__all__ = ["escape"]

_MARKS = str.maketrans({mark: "\\" + mark for mark in "\\`*_[]~"})


def escape(text: str) -> str:
    """Text safe in a Markdown table cell or list item: no HTML, no link, image, emphasis or
    code span (their marks escaped with a backslash), no cell break, and no line break or other
    control character (shown as a visible character, :func:`~toolexpect.lines.visible`)."""
    text = visible(text).translate(_MARKS)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|")
