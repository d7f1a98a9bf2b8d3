"""Document to text: the one canonical layout of a spec, comments kept.

Statements keep the order they were written in (a JSON or YAML spec without spans gets
question, expect, forbid, allow, require); a case block is indented by four spaces; one blank
line separates cases and stands where the source had blank lines between statements.
A statement longer than the line length (100 by default), or with a comment inside it, is
written over several lines: a ``then`` chain one call per line (each line but the last ends
with ``then``, later calls aligned under the first), a call one argument per line with a
trailing comma and its ``)`` on a line of its own. Each line of output keeps the place in the
source it came from, so a comment on its own line stays before the line that follows it and a
comment after code stays after that code (an argument, a call, a statement). Lines end as the
source's first line did, and a byte order mark is kept. Formatting is idempotent.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from toolexpect.language.grammar import literal
from toolexpect.language.parse import Comment
from toolexpect.language.write import (
    argument_groups,
    format_value,
    write_call,
    write_group,
    write_name,
    write_requirement,
    write_string,
)

__all__ = ["LINE_LENGTH", "format_document", "format_value", "line_ending"]

LINE_LENGTH = 100
"""The default width of a formatted line, in characters."""

_INDENT = "    "


@dataclass(slots=True)
class _Anchor:
    """A line of output tied to a place in the source, with the comments that go with it."""

    text: str
    start: tuple[int, int]
    end_line: int
    indent: str
    leading: list[Comment] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)
    blank_before: bool = False
    continued: bool = False
    """A later line of a statement written over several: never a blank line before it."""
    comment_indent: str | None = None
    """The indent of comments before this line, when not the line's own (before a ``)``)."""


@dataclass(frozen=True, slots=True)
class _Layout:
    """What decides how a statement is written: the width, and the lines that hold comments."""

    width: int
    comment_lines: list[int]

    def commented(self, first: int, last: int) -> bool:
        """True when a comment stands on a line from ``first`` to ``last`` (inclusive)."""
        index = bisect.bisect_left(self.comment_lines, first)
        return index < len(self.comment_lines) and self.comment_lines[index] <= last


_FAR = (10**9, 0)
_THEN_INDENT = " " * len("expect ")


def _span_start(node: dict[str, Any], fallback: tuple[int, int] = _FAR) -> tuple[int, int]:
    span = node.get("span")
    return (span["line"], span["column"]) if span else fallback


def _span_end(node: dict[str, Any], fallback: int = 10**9) -> int:
    span = node.get("span")
    return int(span["end_line"]) if span else fallback


def _call_lines(call: dict[str, Any], head: str, tail: str, indent: str, layout: _Layout) -> list[_Anchor]:
    """``head`` + the call + ``tail`` on one line, or one argument per line (with a trailing
    comma, the ``)`` on a line of its own) when that line is too long or a comment stands
    inside the call."""
    text = head + write_call(call) + tail
    start, end = _span_start(call), _span_end(call)
    args = call.get("args") or []
    if not args or (len(indent + text) <= layout.width and not layout.commented(start[0], end - 1)):
        return [_Anchor(text, start, end, indent)]
    inner = indent + _INDENT
    lines = [_Anchor(head + write_name(call["tool"]) + "(", start, start[0], indent)]
    for group in argument_groups(args):
        text = write_group(group) + ","
        lines.append(_Anchor(text, _span_start(group[0]), _span_end(group[-1]), inner, continued=True))
    span = call.get("span")
    close = (span["end_line"], max(1, span["end_column"] - 1)) if span else _FAR
    lines.append(_Anchor(")" + tail, close, end, indent, continued=True, comment_indent=inner))
    return lines


def _expect_lines(calls: list[dict[str, Any]], indent: str, layout: _Layout) -> list[_Anchor]:
    """An expect statement: on one line when it fits and holds no comment, else one call of
    its chain per line (each line but the last ends with ``then``)."""
    if len(calls) == 1:
        return _call_lines(calls[0], "expect ", "", indent, layout)
    text = "expect " + " then ".join(write_call(c) for c in calls)
    start, end = _span_start(calls[0]), _span_end(calls[-1])
    # A comment inside the last call's parentheses is inside the chain only when the call has
    # arguments to write over several lines; ``b(  # c`` ``)`` is written ``b  # c``.
    last = calls[-1]
    inside = end - 1 if last.get("args") else _span_start(last)[0] - 1
    if len(indent + text) <= layout.width and not layout.commented(start[0], inside):
        return [_Anchor(text, start, end, indent)]
    lines: list[_Anchor] = []
    for index, call in enumerate(calls):
        tail = " then" if index < len(calls) - 1 else ""
        if index == 0:
            lines.extend(_call_lines(call, "expect ", tail, indent, layout))
            continue
        part = _call_lines(call, "", tail, indent + _THEN_INDENT, layout)
        part[0].continued = True
        lines.extend(part)
    return lines


def _statements(case: dict[str, Any], indent: str, layout: _Layout) -> list[_Anchor]:
    items: list[tuple[tuple[int, int], int, list[_Anchor]]] = []

    def add(lines: list[_Anchor]) -> None:
        items.append((lines[0].start, len(items), lines))

    if "question" in case:
        # A JSON or YAML spec gives its question no span: it goes first in its case.
        own = case.get("question_span")
        span = own or case.get("span")
        start = (span["line"], span["column"]) if span else _FAR
        text = f"question {write_string(case['question'])}"
        add([_Anchor(text, start, span["end_line" if own else "line"] if span else 10**9, indent)])
    expects = case.get("expect", [])
    chains = {chain[0]: chain for chain in case.get("chains", [])}
    skip: set[int] = set()
    for index in range(len(expects)):
        if index in skip:
            continue
        chain = chains.get(index, [index])
        skip.update(chain)
        add(_expect_lines([expects[i] for i in chain if i < len(expects)], indent, layout))
    for call in case.get("forbid", []):
        add(_call_lines(call, "forbid ", "", indent, layout))
    for call in case.get("allow", []):
        add(_call_lines(call, "allow ", "", indent, layout))
    for req in case.get("require", []):
        call = req.get("call") if req["kind"] == "count" else None
        if call is not None:  # a count of one call: laid out as that call is
            head = write_requirement({k: v for k, v in req.items() if k != "call"}) + f" {literal('OF')} "
            add(_call_lines(call, head, "", indent, layout))
            continue
        add([_Anchor(write_requirement(req), _span_start(req), _span_end(req), indent)])
    items.sort(key=lambda item: (item[0], item[1]))
    return [line for item in items for line in item[2]]


def line_ending(text: str) -> str:
    """The line ending of ``text``'s first line: CRLF or LF (LF for text of one line)."""
    end = text.find("\n")
    return "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"


def format_document(
    document: dict[str, Any],
    comments: list[Comment] | None = None,
    *,
    newline: str = "\n",
    bom: bool = False,
    blank_lines: bool = True,
    line_length: int = LINE_LENGTH,
) -> str:
    """The canonical text of a document, with the source's comments put back.

    Lines end with ``newline`` and the text starts with a byte order mark when ``bom`` is
    true, as the source file did. ``blank_lines`` keeps one blank line where the source had
    blank lines between statements: true for a text spec, false for a document read from JSON
    or YAML, whose line numbers say nothing about blank lines. A statement longer than
    ``line_length`` characters (its comment not counted), or with a comment inside it, is
    written over several lines: a chain one call per line, a call one argument per line.
    """
    layout = _Layout(line_length, sorted({c.line for c in comments or []}))
    blocks: list[list[_Anchor]] = []
    for case in document["cases"]:
        if case.get("implicit"):
            blocks.append(_statements(case, "", layout))
            continue
        span = case.get("span")
        header = _Anchor(
            f"case {write_string(case['name'])} {{",
            (span["line"], span["column"]) if span else (10**9, 0),
            span["line"] if span else 10**9,
            "",
        )
        body = _statements(case, _INDENT, layout)
        closing = _Anchor(
            "}",
            (span["end_line"], max(1, span["end_column"] - 1)) if span else (10**9, 1),
            span["end_line"] if span else 10**9,
            "",
        )
        blocks.append([header, *body, closing])
    blocks = [b for b in blocks if b]
    blocks.sort(key=lambda block: min(a.start for a in block))
    anchors = [a for block in blocks for a in block]
    tail = _attach(anchors, comments or [], blank_lines=blank_lines)
    out: list[str] = []
    first_of_block = {id(block[0]) for block in blocks if block}
    for anchor in anchors:
        starts_block = id(anchor) in first_of_block
        if out and (starts_block or (anchor.blank_before and not anchor.continued)):
            out.append("")
        lead_indent = _INDENT if anchor.text == "}" else anchor.comment_indent or anchor.indent
        for index, comment in enumerate(anchor.leading):
            out.append(lead_indent + comment.text)
            following = anchor.leading[index + 1].line if index + 1 < len(anchor.leading) else anchor.start[0]
            if following - comment.line > 1 and following < 10**9:
                out.append("")
        # A line that stood for several source lines (a value or question over several lines)
        # holds only the comment of its last line; the others go on lines of their own before it.
        for text in anchor.trailing[:-1]:
            out.append(lead_indent + text)
        line = anchor.indent + anchor.text
        if anchor.trailing:
            line += "  " + anchor.trailing[-1]
        out.append(line)
    if tail:
        if out:
            out.append("")
        out.extend(tail)
    return ("\ufeff" if bom else "") + (newline.join(out) + newline if out else "")


def _attach(anchors: list[_Anchor], comments: list[Comment], *, blank_lines: bool) -> list[str]:
    """Give each comment to its anchor; return the comments left at the end of the file."""
    tail: list[str] = []
    ordered = sorted(anchors, key=lambda a: a.start)
    starts = [a.start for a in ordered]
    reach: list[int] = []  # the furthest line any anchor up to this one ends on
    for anchor in ordered:
        reach.append(max(anchor.end_line, reach[-1]) if reach else anchor.end_line)
    comment_lines = sorted({c.line for c in comments})
    for comment in sorted(comments, key=lambda c: (c.line, c.column)):
        # The owner of a comment after code: the last anchor that starts before the comment
        # and ends on its line or later.
        owner = None
        index = bisect.bisect_left(starts, (comment.line, comment.column)) - 1
        while index >= 0 and reach[index] >= comment.line:
            if ordered[index].end_line >= comment.line:
                owner = ordered[index]
                break
            index -= 1
        if owner is not None:
            owner.trailing.append(comment.text)
            continue
        # A comment on its own line goes before the first anchor on a later line.
        following = bisect.bisect_left(starts, (comment.line + 1, -1))
        if following == len(ordered):
            tail.append(comment.text)
        else:
            ordered[following].leading.append(comment)
    # Blank lines: keep one where the source had any between two anchors.
    if not blank_lines:
        return tail
    previous_end = None
    for anchor in ordered:
        first = anchor.start[0]
        lead = [c.line for c in anchor.leading]
        top = min([first, *lead]) if lead else first
        if previous_end is not None and top - previous_end > 1:
            # A line between the two that holds no comment is a blank line.
            comments_between = bisect.bisect_left(comment_lines, top) - bisect.bisect_right(
                comment_lines, previous_end
            )
            anchor.blank_before = top - previous_end - 1 > comments_between
        previous_end = anchor.end_line
    return tail
