"""The layout rules of the language, as lark's post-lexer: where a new line ends nothing.

Newlines separate statements, but inside ``()``, ``[]`` and value braces and after ``then``
they are dropped, so calls and values may span lines. The same pass bounds how deeply values
nest, so that no spec can drive the parser or what reads its result into a recursion error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolexpect.errors import ToolexpectError

if TYPE_CHECKING:
    from lark import Token

__all__ = ["MAX_DEPTH", "DepthError", "Layout"]

MAX_DEPTH = 64
"""How deeply values (lists and objects) may nest in a spec."""

# What an open bracket is: a case block, a call's argument list or a value.
_BLOCK, _CALL, _VALUE = 0, 1, 2
_OPENERS = {"LPAR": _CALL, "LSQB": _VALUE, "LBRACE": _VALUE}
_CLOSERS = frozenset({"RPAR", "RSQB", "RBRACE"})


class DepthError(ToolexpectError):
    """Values nest deeper than :data:`MAX_DEPTH`; carries the token that went too deep."""

    def __init__(self, token: Token) -> None:
        super().__init__(f"values nested deeper than {MAX_DEPTH} levels")
        self.token = token


class Layout:
    """Lark's post-lexer: drops newlines inside (), [] and value braces and after ``then``.

    Lark calls :meth:`process` once per parse; all its state lives in that call's generator,
    so one ``Layout`` serves any number of parses at once.
    """

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """The tokens of ``stream`` less the newlines the layout drops; raises :class:`DepthError`."""
        stack: list[int] = []
        depth = 0
        before = last = ""
        for token in stream:
            kind = token.type
            if kind == "_NL":
                if (stack and stack[-1] != _BLOCK) or last == "THEN":
                    continue
            elif kind in _OPENERS:
                what = _OPENERS[kind]
                if kind == "LBRACE" and last == "STRING" and before == "CASE":
                    what = _BLOCK
                stack.append(what)
                if what == _VALUE:
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise DepthError(token)
            elif kind in _CLOSERS and stack and stack.pop() == _VALUE:
                depth -= 1
            before = last
            last = kind
            yield token
