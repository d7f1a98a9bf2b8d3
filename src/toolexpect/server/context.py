"""Where the cursor stands, for completion: in a statement, after a keyword, or in a call's
arguments.

Where completion is asked for, the text is usually unfinished and does not parse, so the place
is found from the tokens before the cursor: a scan that follows brackets, strings and comments
and remembers, for each open ``(``, the tool it belongs to and the arguments already written.
The token patterns (names, strings, comments) are the grammar's own terminals, read off the
built parser; nothing here builds a document.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Literal

from toolexpect.language.grammar import literal, terminal_regexp

__all__ = ["Place", "place_at"]

Where = Literal["statement", "after-require", "tool", "argument", "matcher", "value", "entry", "nowhere"]

# The characters a name may hold after its first one, to find the part of a name already typed
# (a NAME of the grammar may not end with `-`, `.`, `:` or `/`; one being typed may).
_TYPED = re.compile(r"[A-Za-z_][A-Za-z0-9_\-.:/]*\Z")


@dataclass(frozen=True, slots=True)
class Place:
    """What may be written at the cursor, and the part of a name already typed there."""

    where: Where
    prefix: str = ""
    tool: str | None = None
    """The tool of the call whose arguments the cursor is in."""
    argument: str | None = None
    """The argument whose matcher or value is being written (``entry``: the key of an object)."""
    given: frozenset[str] = frozenset()
    """The arguments written in that call (the one being written included)."""
    in_case: bool = False
    written: tuple[str, ...] = ()
    """After ``require``: the tokens of the requirement written so far (``>=`` is ``>``, ``=``)."""


@functools.cache
def _tokens() -> re.Pattern[str]:
    return re.compile(
        f"(?P<string>{terminal_regexp('STRING')})|(?P<comment>{terminal_regexp('COMMENT')})"
        f"|(?P<name>{terminal_regexp('NAME')})|(?P<newline>\\n)|(?P<space>[ \\t\\r\\f]+)|(?P<other>.)"
    )


@dataclass(slots=True)
class _Frame:
    kind: Literal["call", "case", "value"]
    tool: str | None = None
    brace: bool = False
    """A value frame opened by ``{``: an object, whose entries may be matchers."""
    given: set[str] = field(default_factory=set)
    words: list[str] = field(default_factory=list)
    """Tokens of the current statement (case) or argument (call)."""


def _name_of(kind: str, text: str) -> str:
    if kind == "string":
        try:
            decoded = json.loads(text) if text.startswith('"') else text[1:-1]
        except ValueError:
            return text[1:-1]
        return decoded if isinstance(decoded, str) else text[1:-1]
    return text


def place_at(text: str, offset: int) -> Place:
    """Where the cursor at character ``offset`` of ``text`` stands."""
    before = text[:offset]
    typed = _TYPED.search(before)
    prefix = typed.group() if typed else ""
    then, case = literal("THEN"), literal("CASE")
    top = _Frame("case")  # the file itself holds statements as a case block does
    stack: list[_Frame] = [top]
    end = len(before) - len(prefix)
    for match in _tokens().finditer(before, 0, end):
        kind, value = match.lastgroup or "other", match.group()
        frame = stack[-1]
        if kind == "comment" and match.end() == end:
            return Place("nowhere", prefix)  # in a comment that runs on to the cursor
        if kind in ("space", "comment"):
            continue
        if kind == "newline":
            if frame.kind == "case" and (not frame.words or frame.words[-1] != then):
                frame.words.clear()
            continue
        if kind == "other" and value in "([{":
            if value == "(" and frame.words:
                stack.append(_Frame("call", tool=frame.words[-1]))
            elif value == "{" and frame.kind == "case" and len(frame.words) >= 2 and frame.words[-2] == case:
                frame.words.clear()
                stack.append(_Frame("case"))
            else:
                stack.append(_Frame("value", tool=frame.tool, brace=value == "{"))
            continue
        if kind == "other" and value in ")]}":
            if len(stack) > 1:
                stack.pop()
                if value == "}" and stack[-1].kind == "case" and frame.kind == "case":
                    stack[-1].words.clear()
            continue
        if kind == "other" and value == ";" and frame.kind == "case":
            frame.words.clear()
            continue
        if kind == "other" and value == "," and frame.kind in ("call", "value"):
            frame.words.clear()
            continue
        if kind == "other" and value in "\"'":
            return Place("nowhere")  # inside a string still open on its line
        word = _name_of(kind, value) if kind in ("name", "string") else value
        naming = (not frame.words and word != "not") or frame.words == ["not"]
        if frame.kind == "call" and kind in ("name", "string") and naming:
            frame.given.add(word)
        frame.words.append(word)
    frame = stack[-1]
    in_case = len([f for f in stack if f.kind == "case"]) > 1
    if frame.kind == "value":
        words = frame.words
        if frame.brace and len(words) in (1, 2) and words[-1] in ("?", words[0]) and words[0] != "not":
            return Place("entry", prefix, tool=frame.tool, argument=words[0])  # after a key
        return Place("nowhere", prefix)
    words = frame.words
    if frame.kind == "call":
        given = frozenset(frame.given)
        if not words or words == ["not"]:
            return Place("argument", prefix, tool=frame.tool, given=given)
        if len(words) <= 2 and words[-1] in ("?", words[0]) and words[0] != "not":
            return Place("matcher", prefix, tool=frame.tool, argument=words[0], given=given)
        if words[-1] == "=" and len(words) <= 3:
            return Place("value", prefix, tool=frame.tool, argument=words[0], given=given)
        return Place("nowhere", prefix)
    if not words:
        return Place("statement", prefix, in_case=in_case)
    if words[0] == literal("REQUIRE") and words[-1] == literal("OF"):  # a count of one tool
        return Place("tool", prefix, in_case=in_case)
    if words[0] == literal("REQUIRE"):
        return Place("after-require", prefix, in_case=in_case, written=tuple(words[1:]))
    if words[-1] in (literal("EXPECT"), literal("FORBID"), literal("ALLOW"), then):
        return Place("tool", prefix, in_case=in_case)
    return Place("nowhere", prefix, in_case=in_case)
