"""Find the grammar and build the LALR parser once.

The wheel carries a copy of ``grammar/toolexpect.lark`` inside the package; an editable
install or a source checkout reads the repository's top-level ``grammar/`` folder.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from lark import Lark, Token

__all__ = ["COMMENTS", "MAX_DEPTH", "CommentSink", "DepthError", "build", "grammar_path", "grammar_text", "parser"]

MAX_DEPTH = 64
"""How deeply values (lists and objects) may nest in a spec."""

_GRAMMAR = "toolexpect.lark"


def grammar_path() -> Path:
    """Where the grammar is read from: the packaged copy first, the repository's second."""
    packaged = resources.files("toolexpect").joinpath("grammar", _GRAMMAR)
    if packaged.is_file():
        return Path(str(packaged))
    repository = Path(__file__).resolve().parents[2] / "grammar" / _GRAMMAR
    if repository.is_file():
        return repository
    raise FileNotFoundError(
        f"toolexpect's grammar {_GRAMMAR} is neither in the package nor in the repository; "
        "reinstall toolexpect"
    )


def grammar_text() -> str:
    """The grammar's source text."""
    return grammar_path().read_text(encoding="utf-8")


class DepthError(Exception):
    """Values nest deeper than :data:`MAX_DEPTH`; carries the token that went too deep."""

    def __init__(self, token: Token) -> None:
        super().__init__(f"values nested deeper than {MAX_DEPTH} levels")
        self.token = token


class _Layout:
    """Post-lexer: drops newlines inside (), [] and value braces and after ``then``.

    It also bounds the nesting of values, so that no spec can drive the parser or the
    transformer into a recursion error.
    """

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        stack: list[str] = []
        depth = 0
        previous: list[str] = ["", ""]
        for token in stream:
            kind = token.type
            if kind == "_NL" and (
                (stack and stack[-1] != "block") or previous[1] == "THEN"
            ):
                continue
            if kind in ("LPAR", "LSQB", "LBRACE"):
                if kind == "LBRACE" and previous == ["CASE", "STRING"]:
                    stack.append("block")
                else:
                    stack.append("value")
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise DepthError(token)
            elif kind in ("RPAR", "RSQB", "RBRACE") and stack:
                if stack.pop() == "value":
                    depth -= 1
            previous = [previous[1], kind]
            yield token


class CommentSink:
    """Lexer callback that collects comment tokens into whatever list ``target`` is."""

    def __init__(self) -> None:
        self.target: list[Token] | None = None

    def __call__(self, token: Token) -> Token:
        if self.target is not None:
            self.target.append(token)
        return token


COMMENTS = CommentSink()
"""The sink the shared parser sends comments to; ``parse`` points it at a list per call."""


def build(*, strict: bool = False) -> Lark:
    """Build the LALR parser; ``strict`` also fails on conflicts and terminal collisions."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        postlex=_Layout(),
        propagate_positions=True,
        maybe_placeholders=False,
        strict=strict,
        lexer_callbacks={"COMMENT": COMMENTS},
    )


@functools.cache
def parser() -> Lark:
    """The LALR parser of the language, built once on first use."""
    return build()
