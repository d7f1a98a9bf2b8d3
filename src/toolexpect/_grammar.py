"""Find the grammar and build the LALR parser once.

The wheel carries a copy of ``grammar/toolexpect.lark`` inside the package; an editable
install or a source checkout reads the repository's top-level ``grammar/`` folder.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift

__all__ = [
    "COMMENTS",
    "MAX_DEPTH",
    "CommentSink",
    "DepthError",
    "OneLoop",
    "Unsure",
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
    packaged = Path(__file__).resolve().parent / "grammar" / _GRAMMAR
    if packaged.is_file():
        return packaged
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


_BLOCK, _CALL, _VALUE, _CLOSE = 0, 1, 2, 3
_OPENERS = {"LPAR": _CALL, "LSQB": _VALUE, "LBRACE": _VALUE}
_CLOSERS = frozenset({"RPAR", "RSQB", "RBRACE"})
_BRACKETS = {**_OPENERS, **dict.fromkeys(_CLOSERS, _CLOSE)}


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


class Unsure(Exception):
    """:class:`OneLoop` met input it leaves to lark itself: an error, or nesting too deep."""


class OneLoop:
    """Runs a built parser's own tables in one loop: lexer, layout and LALR parser together.

    Nothing of the language is written here. The scanners are lark's contextual lexer's, one
    per parser state, with their keyword and comment callbacks; the actions are lark's LALR
    table; the values are what lark's rule callbacks (the embedded transformer) return. What
    lark spreads over a lexer generator, the post-lexer generator and ``feed_token`` runs here
    in one function, which in CPython is most of the cost of parsing. The layout rules are
    :class:`_Layout`'s, written out again inline (``tests/language/test_one_loop.py`` checks
    that both ways give the same). It takes only input that parses: at the first token it
    cannot take it raises :class:`Unsure`, and the caller parses the text again with lark,
    which reports the error exactly as it always does.
    """

    def __init__(self, parser: Lark) -> None:
        frontend = parser.parser
        self._lexers: dict[int, Any] = frontend.lexer.lexer.lexers
        lalr = frontend.parser
        table = lalr._parse_table
        callbacks = lalr.parser.callbacks
        if any(isinstance(key, str) for key in callbacks):
            raise TypeError("callbacks on terminals are not supported")
        self._start: int = table.start_states["start"]
        self._end: int = table.end_states["start"]
        # Per state and symbol: the state to shift to (an int), or what a reduction takes.
        self._actions: dict[int, dict[str, Any]] = {}
        for state, row in table.states.items():
            actions: dict[str, Any] = {}
            for symbol, (action, target) in row.items():
                if action is Shift:
                    if type(target) is not int:
                        raise TypeError("parse states are not numbered")
                    actions[symbol] = target
                else:
                    length = len(target.expansion)
                    callback = callbacks[target]
                    if length == 1 and _passes_through(callback):
                        callback = None  # the value on the stack stays as it is
                    actions[symbol] = (length, target.origin.name, callback)
            self._actions[state] = actions
        self._scanners = _Scanners(self._lexers)
        self._token = getattr(Token, "_future_new", Token)
        self._inline_tokens = Token.__slots__ == _TOKEN_SLOTS

    def __call__(self, text: str) -> Any:
        """What the start rule's callback returns for ``text``; :class:`Unsure` if lark must say."""
        actions = self._actions
        scanners = self._scanners
        end_state = self._end
        states: list[int] = [self._start]
        values: list[Any] = []
        new = self._token
        make = str.__new__
        inline = self._inline_tokens
        brackets = _BRACKETS
        pos = line_start = 0
        line = 1
        size = len(text)
        nesting: list[int] = []  # what each open bracket is: _BLOCK, _CALL or _VALUE
        depth = 0
        before = last = ""
        while pos < size:
            match, ignore, callbacks, newlines = scanners[states[-1]]
            found = match(text, pos)
            if found is None:
                raise Unsure
            kind = found.lastgroup
            start = pos
            pos = found.end()
            if kind in newlines:
                value = found.group()
                count = value.count("\n")
                if count:
                    start_line = line
                    column = start - line_start + 1
                    line += count
                    line_start = start + value.rindex("\n") + 1
                else:
                    start_line = line
                    column = start - line_start + 1
                if kind in ignore:
                    if kind in callbacks:
                        end_column = pos - line_start + 1
                        callbacks[kind](new(kind, value, start, start_line, column, line, end_column, pos))
                    continue
                if kind == "_NL" and ((nesting and nesting[-1] != _BLOCK) or last == "THEN"):
                    continue
                token = new(kind, value, start, start_line, column, line, pos - line_start + 1, pos)
            elif kind in ignore:
                if kind in callbacks:
                    column = start - line_start + 1
                    end_column = pos - line_start + 1
                    callbacks[kind](new(kind, found.group(), start, line, column, line, end_column, pos))
                continue
            elif inline:
                # What Token(...) does, without its two Python calls (most tokens come here).
                value = found.group()
                token = make(Token, value)
                token.type = kind
                token.start_pos = start
                token.value = value
                token.line = token.end_line = line
                token.column = start - line_start + 1
                token.end_column = pos - line_start + 1
                token.end_pos = pos
            else:
                token = new(
                    kind, found.group(), start, line, start - line_start + 1, line, pos - line_start + 1, pos
                )
            if kind in callbacks:
                token = callbacks[kind](token)
                kind = token.type
            bracket = brackets.get(kind)
            if bracket is not None:
                if bracket == _CLOSE:
                    if nesting and nesting.pop() == _VALUE:
                        depth -= 1
                else:
                    if bracket == _VALUE and kind == "LBRACE" and last == "STRING" and before == "CASE":
                        bracket = _BLOCK
                    nesting.append(bracket)
                    if bracket == _VALUE:
                        depth += 1
                        if depth > MAX_DEPTH:
                            raise Unsure
            before = last
            last = kind
            while True:
                action = actions[states[-1]].get(kind)
                if action is None:
                    raise Unsure
                if type(action) is int:
                    states.append(action)
                    values.append(token)
                    break
                length, origin, callback = action
                if callback is None:
                    states.pop()
                    states.append(actions[states[-1]][origin])
                    continue
                if length == 1:
                    children = [values.pop()]
                    states.pop()
                elif length:
                    children = values[-length:]
                    del states[-length:]
                    del values[-length:]
                else:
                    children = []
                values.append(callback(children))
                states.append(actions[states[-1]][origin])
        while True:  # the end of input: reduce until the start rule is done
            action = actions[states[-1]].get("$END")
            if type(action) is not tuple:
                raise Unsure
            length, origin, callback = action
            if callback is None:
                states.pop()
            else:
                if length:
                    children = values[-length:]
                    del states[-length:]
                    del values[-length:]
                else:
                    children = []
                values.append(callback(children))
            states.append(actions[states[-1]][origin])
            if states[-1] == end_state:
                return values[-1]


def _passes_through(callback: Any) -> bool:
    """Whether a rule's callback returns its one child as it is: lark's ``?rule`` expansion, or
    a method marked ``passes_through``."""
    if isinstance(callback, ExpandSingleChild):
        return True
    return bool(getattr(getattr(callback, "__func__", None), "passes_through", False))


_TOKEN_SLOTS = ("type", "start_pos", "value", "line", "column", "end_line", "end_column", "end_pos")
"""The fields of lark's ``Token`` that :class:`OneLoop` sets itself, when lark's are these."""


class _Scanners(dict[int, tuple[Any, frozenset[str], dict[str, Any], frozenset[str]]]):
    """Per parser state, its contextual lexer's scanner, made on first use as lark makes it."""

    def __init__(self, lexers: dict[int, Any]) -> None:
        super().__init__()
        self._lexers = lexers

    def __missing__(self, state: int) -> tuple[Any, frozenset[str], dict[str, Any], frozenset[str]]:
        lexer = self._lexers[state]
        patterns = lexer.scanner._mres
        if len(patterns) != 1:
            raise Unsure
        found = (patterns[0].match, lexer.ignore_types, lexer.callback, lexer.newline_types)
        self[state] = found
        return found
