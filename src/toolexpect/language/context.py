"""What one parse collects beside the document, kept for the calling context only.

Lark's parser is built once and shared, with its comment callback and transformer; what a
parse finds on the way (comment tokens, problems of well-formed tokens) goes to the
:class:`Collected` that :func:`collecting` sets for the calling context (a ``ContextVar``:
one per thread, and per asyncio task), so parses in several threads at once never see each
other's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toolexpect.diagnostics import Diagnostic
from toolexpect.document import Repeat

if TYPE_CHECKING:
    from lark import Token

__all__ = ["Collected", "collecting", "keep_comment", "problem", "repeat"]


@dataclass(slots=True)
class Collected:
    """What one parse collects beside the document: comment tokens, problems of tokens, and
    repeats (a key or a statement written twice, which lint reports).

    A problem does not stop the parse, so that a syntax error anywhere still wins; the one
    reported is the first in the order the source is read (the key is a source offset).
    """

    comments: list[Token] = field(default_factory=list)
    problems: list[tuple[int, Diagnostic]] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)


_CURRENT: ContextVar[Collected | None] = ContextVar("toolexpect_parse", default=None)


@contextmanager
def collecting() -> Iterator[Collected]:
    """Collect what the parses in this context (thread, task) find, until the block ends."""
    collected = Collected()
    reset = _CURRENT.set(collected)
    try:
        yield collected
    finally:
        _CURRENT.reset(reset)


def keep_comment(token: Token) -> Token:
    """Lark's lexer callback for comments: keep the token for the parse in progress."""
    collected = _CURRENT.get()
    if collected is not None:
        collected.comments.append(token)
    return token


def problem(key: int, diagnostic: Diagnostic) -> None:
    """Note a problem of a token at source offset ``key`` for the parse in progress."""
    collected = _CURRENT.get()
    if collected is not None:
        collected.problems.append((key, diagnostic))


def repeat(found: Repeat) -> None:
    """Note something written twice where the document holds one, for lint to report."""
    collected = _CURRENT.get()
    if collected is not None:
        collected.repeats.append(found)
