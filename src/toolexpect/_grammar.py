"""Find the grammar and build the LALR parser once.

The wheel carries a copy of ``grammar/toolexpect.lark`` inside the package; an editable
install or a source checkout reads the repository's top-level ``grammar/`` folder.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token

__all__ = [
    "COMMENTS",
    "MAX_DEPTH",
    "CommentSink",
    "DepthError",
    "build",
    "cache_path",
    "grammar_path",
    "grammar_text",
]

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


_OPENERS = {"LPAR": 1, "LSQB": 2, "LBRACE": 2}
_CLOSERS = frozenset({"RPAR", "RSQB", "RBRACE"})
_BLOCK, _CALL, _VALUE = 0, 1, 2


class _Layout:
    """Post-lexer: drops newlines inside (), [] and value braces and after ``then``.

    It also bounds the nesting of values, so that no spec can drive the parser or the
    transformer into a recursion error.
    """

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        # What each open bracket is: a case block, a call's arguments or a value.
        stack: list[int] = []
        depth = 0
        before = last = ""
        openers = _OPENERS
        closers = _CLOSERS
        for token in stream:
            kind = token.type
            if kind == "_NL":
                if (stack and stack[-1] != _BLOCK) or last == "THEN":
                    continue
            elif kind in openers:
                what = openers[kind]
                if kind == "LBRACE" and last == "STRING" and before == "CASE":
                    what = _BLOCK
                stack.append(what)
                if what == _VALUE:
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise DepthError(token)
            elif kind in closers and stack and stack.pop() == _VALUE:
                depth -= 1
            before = last
            last = kind
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


def cache_path(text: str) -> str | None:
    """Where the analysed grammar is cached: the user's cache folder, never the package.

    ``XDG_CACHE_HOME`` (default ``~/.cache``)/toolexpect; ``TOOLEXPECT_NO_CACHE=1`` turns
    caching off. The file name carries the grammar's and lark's versions, so a change
    of either builds afresh. ``None`` when no private folder can be made.
    """
    if os.environ.get("TOOLEXPECT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "toolexpect")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    digest = hashlib.sha256((_BUILD_OPTIONS + text).encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}-lark{lark.__version__}.cache")


_BUILD_OPTIONS = "lalr contextual layout-postlex no-positions no-placeholders embedded-transformer;"
"""How :func:`build` makes the parser, in words: part of the cache key, change it with them."""


def build(
    *, strict: bool = False, cache: bool = False, transformer: lark.Transformer[Token, Any] | None = None
) -> Lark:
    """Build the LALR parser; ``strict`` also fails on conflicts and terminal collisions.

    With a ``transformer`` lark calls its methods as it reduces and returns what the start
    rule's method returns, instead of a tree.
    """
    text = grammar_text()
    path = cache_path(text) if cache and not strict else None
    return Lark(
        text,
        cache=path or False,
        parser="lalr",
        lexer="contextual",
        postlex=_Layout(),
        propagate_positions=False,
        maybe_placeholders=False,
        strict=strict,
        lexer_callbacks={"COMMENT": COMMENTS},
        transformer=transformer,
    )
