"""Find the grammar, build lark's LALR parser, and run its tables in one loop.

The wheel carries a copy of ``grammar/toolexpect.lark`` inside the package; an editable
install or a source checkout reads the repository's top-level ``grammar/`` folder. Lark is
imported only by :func:`build`: :class:`OneLoop` parses valid text from the tables that
:mod:`toolexpect._tables` read off lark's parser once and keeps in the user's cache.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolexpect._tables import Tables

if TYPE_CHECKING:
    from lark import Lark, Transformer

__all__ = [
    "COMMENTS",
    "MAX_DEPTH",
    "CommentSink",
    "DepthError",
    "OneLoop",
    "Token",
    "Unsure",
    "build",
    "cache_folder",
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


class Token(str):
    """A token of the source: its text, terminal and place (the fields of lark's ``Token``).

    :class:`OneLoop` makes these without importing lark; when lark parses, its own tokens,
    which have the same fields, take their place. Only the start is stored: where a token
    ends is worked out from its text when asked, which few tokens are.
    """

    __slots__ = ("column", "line", "start_pos", "type")

    type: str
    start_pos: int
    line: int
    column: int

    @property
    def value(self) -> str:
        """The token's text."""
        return str(self)

    @property
    def end_pos(self) -> int:
        """The offset just after the token."""
        return self.start_pos + len(self)

    @property
    def end_line(self) -> int:
        """The line the token ends on."""
        return self.line + self.count("\n")

    @property
    def end_column(self) -> int:
        """The column just after the token's last character."""
        last = self.rfind("\n")
        return self.column + len(self) if last < 0 else len(self) - last


def new_token(kind: str, value: str, start: int, line: int, column: int) -> Token:
    """A :class:`Token` of terminal ``kind`` with text ``value``, starting at the place given."""
    token = str.__new__(Token, value)
    token.type = kind
    token.start_pos = start
    token.line = line
    token.column = column
    return token


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


def cache_folder() -> str | None:
    """The user's cache folder for toolexpect, made if need be; never the package.

    ``XDG_CACHE_HOME`` (default ``~/.cache``)/toolexpect; ``TOOLEXPECT_NO_CACHE=1`` turns
    caching off. ``None`` when caching is off or no private folder can be made.
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
    return folder


def cache_path(text: str) -> str | None:
    """Where lark's analysis of the grammar is cached, in :func:`cache_folder`.

    The file name carries the grammar's and lark's versions, so a change of either builds
    afresh. ``None`` when there is no cache folder.
    """
    import hashlib

    import lark

    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256((_BUILD_OPTIONS + text).encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}-lark{lark.__version__}.cache")


_BUILD_OPTIONS = "lalr contextual layout-postlex no-positions no-placeholders embedded-transformer;"
"""How :func:`build` makes the parser, in words: part of the cache key, change it with them."""


def build(
    *, strict: bool = False, cache: bool = False, transformer: Transformer[Any, Any] | Any | None = None
) -> Lark:
    """Build the LALR parser; ``strict`` also fails on conflicts and terminal collisions.

    With a ``transformer`` lark calls its methods as it reduces and returns what the start
    rule's method returns, instead of a tree.
    """
    from lark import Lark

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


Reduce = Callable[[list[Any]], Any]
"""What a reduction calls with the rule's children: the transformer's method for the rule."""


class OneLoop:
    """Runs the parser's tables (:class:`toolexpect._tables.Tables`) in one loop, without lark.

    Nothing of the language is written here. The scanners are lark's contextual lexer's, one
    per parser state, with their keywords and comment callbacks; the actions are lark's LALR
    table; the values are what the transformer's methods return, given the children lark's
    tree builder would give them. What lark spreads over a lexer generator, the post-lexer
    generator, ``feed_token`` and its tree builder runs here in one function, which in CPython
    is most of the cost of parsing. The layout rules are :class:`_Layout`'s, written out again
    inline (``tests/language/test_one_loop.py`` checks that both ways give the same).

    Children are never copied from one rule to another: the value stack holds only what rules
    keep, and ``bases`` says where each symbol's values begin, so an inlined ``_rule`` (and a
    rule that passes its one child through) leaves its values where they are.

    It takes only input that parses: at the first token it cannot take it raises
    :class:`Unsure`, and the caller parses the text again with lark, which reports the error
    exactly as it always does.
    """

    def __init__(self, tables: Tables, transformer: Any, comments: Callable[[Token], Any]) -> None:
        reducers: list[Reduce | None] = [_reducer(transformer, *rule) for rule in tables.rules]
        # Per state (a list index), per symbol, a number: the state to shift or go to (>= 0);
        # ``_UNIT - i`` for a rule of one symbol that leaves its value as it is, whose symbol
        # is ``self._units[i]``: only the state on top changes; any other negative number
        # ``~i`` for the reduction ``self._reductions[i]``. A symbol the state does not take
        # shifts to the dead state, whose scanner matches nothing at the next token.
        numbers: dict[tuple[int, str, int], int] = {}
        self._units: list[str] = []
        self._reductions: list[tuple[int, str, Reduce | None]] = []
        self._dead = dead = max(tables.actions) + 1
        self._actions: list[dict[str, int]] = [{} for _ in range(dead + 1)]
        for state, row in tables.actions.items():
            out = self._actions[state]
            for symbol, action in row.items():
                if isinstance(action, int):
                    out[symbol] = action
                    continue
                number = numbers.get(action)
                if number is None:
                    length, origin, rule = action
                    reduce = reducers[rule]
                    if length == 1 and reduce is None:
                        number = _UNIT - len(self._units)
                        self._units.append(origin)
                    else:
                        number = ~len(self._reductions)
                        self._reductions.append((length, origin, reduce))
                    numbers[action] = number
                out[symbol] = number
        terminals = {"$END"}.union(*((name for name, _ in tried) for tried in tables.alternatives))
        self._skip_default_units(terminals)
        # Once the start rule is done, the end of input reduces by a rule of no symbols whose
        # goto is the dead state: that is where the loop returns the start rule's value.
        self._actions[tables.end]["$END"] = ~len(self._reductions)
        self._reductions.append((0, _ACCEPT, None))
        for moves in self._actions:
            moves[_ACCEPT] = dead
        self._start = tables.start
        self._dropped = tables.dropped
        self._scanners = _Scanners(tables, len(self._actions))
        nothing: frozenset[str] = frozenset()
        self._scanners.of[dead] = (_Dead(), {}, nothing, (None, nothing, nothing, {}, nothing))
        self._comments = comments

    def _skip_default_units(self, terminals: set[str]) -> None:
        """Go straight past states whose only action is a one-symbol rule that leaves its value.

        Such a state (the one after ``STRING`` in ``string: STRING``, say) reduces whatever
        comes next, so a step into it can go on at once to where the reduction leads: the
        state that the state below goes to with the rule's symbol, and on if that one is
        such a state too. These are LR parsers' default reductions: they take the same
        steps on any text that parses, and at worst find an error one token later, before
        taking it, so every error is still left to lark.
        """
        actions = self._actions
        units = self._units
        defaults: dict[int, str] = {}
        for state, row in enumerate(actions):
            moves = {action for symbol, action in row.items() if symbol in terminals}
            if len(moves) == 1 and len(moves) == len(set(row.values())):
                (action,) = moves
                if action <= _UNIT:
                    defaults[state] = units[_UNIT - action]
        for row in actions:
            for symbol, action in row.items():
                target = action
                seen = 0
                while target in defaults and seen < len(actions):
                    target = row[defaults[target]]
                    seen += 1
                row[symbol] = target

    def __call__(self, text: str) -> Any:
        """What the start rule's method returns for ``text``; :class:`Unsure` if lark must say."""
        actions = self._actions
        reductions = self._reductions
        units = self._units
        dead = self._dead
        unit = _UNIT
        scanners = self._scanners
        scanner_of = scanners.of
        dropped = self._dropped
        sink = self._comments
        states: list[int] = [self._start]
        bases: list[int] = [0]  # where the values of each symbol on the stack begin
        values: list[Any] = []
        make = str.__new__
        brackets = _BRACKETS
        pos = line_start = 0
        line = 1
        size = len(text)
        nesting: list[int] = []  # what each open bracket is: _BLOCK, _CALL or _VALUE
        depth = 0
        before = last = ""
        while True:
            state = states[-1]
            if pos >= size:
                # The end of input, the last lookahead: it is never shifted, so a shift here
                # (to the dead state, as for any symbol not taken) is an error.
                kind = "$END"
                token = None
                if state == dead:
                    raise Unsure
            else:
                chars, plain, skip, scanner = scanner_of[state] or scanners.make(state)
                found = chars[text[pos]](text, pos)
                if found is None:
                    raise Unsure
                kind = found.lastgroup
                words = plain.get(kind)
                if words is not None:
                    # Most tokens: the state takes them, on one line, kept, no comment, no bracket.
                    start = pos
                    pos = found.end()
                    value = found.group(kind)
                    if words:
                        kind = words.get(value, kind)
                    token = make(Token, value)
                    token.type = kind
                    token.start_pos = start
                    token.line = line
                    token.column = start - line_start + 1
                elif kind in skip:
                    pos = found.end()
                    continue
                else:
                    names, ignore, newlines, keywords, comments = scanner
                    if names is not None and kind not in names:
                        # The universal scanner found a terminal this state does not take: its own.
                        chars, plain, skip, scanner = scanners.own(state)
                        names, ignore, newlines, keywords, comments = scanner
                        found = chars[text[pos]](text, pos)
                        if found is None:
                            raise Unsure
                        kind = found.lastgroup
                    start = pos
                    pos = found.end()
                    value = found.group(kind)
                    start_line = line
                    column = start - line_start + 1
                    if kind in newlines:
                        count = value.count("\n")
                        if count:
                            line += count
                            line_start = start + value.rindex("\n") + 1
                    if kind in ignore:
                        if kind in comments:
                            sink(new_token(kind, value, start, start_line, column))
                        continue
                    if kind in keywords:
                        kind = keywords[kind].get(value, kind)
                    if kind == "_NL" and ((nesting and nesting[-1] != _BLOCK) or last == "THEN"):
                        continue
                    if kind in dropped:
                        token = None
                    else:
                        token = make(Token, value)
                        token.type = kind
                        token.start_pos = start
                        token.line = start_line
                        token.column = column
                        if kind in comments:
                            sink(token)
                    bracket = brackets.get(kind)
                    if bracket is not None:
                        if bracket == _CLOSE:
                            if nesting and nesting.pop() == _VALUE:
                                depth -= 1
                        else:
                            if kind == "LBRACE" and last == "STRING" and before == "CASE":
                                bracket = _BLOCK
                            nesting.append(bracket)
                            if bracket == _VALUE:
                                depth += 1
                                if depth > MAX_DEPTH:
                                    raise Unsure
                before = last
                last = kind
            row = actions[state]
            while True:
                action = row.get(kind, dead)
                if action >= 0:
                    states.append(action)
                    bases.append(len(values))
                    if token is not None:
                        values.append(token)
                    break
                if action <= unit:
                    goto = actions[states[-2]][units[unit - action]]
                    states[-1] = goto
                    row = actions[goto]
                    continue
                length, origin, reduce = reductions[~action]
                if length:
                    first = bases[-length]
                    del states[-length:]
                    del bases[-length:]
                else:
                    first = len(values)
                if reduce is not None:
                    children = values[first:]
                    del values[first:]
                    values.append(reduce(children))
                goto = actions[states[-1]][origin]
                if goto == dead:  # the start rule is done, at the end of input
                    return values[-1]
                states.append(goto)
                bases.append(first)
                row = actions[goto]


_ACCEPT = "$accept"
"""The symbol of the reduction that ends the loop when the start rule is done."""

_UNIT = -(2**40)
"""Where the numbers of one-symbol rules that leave their value begin (downwards)."""


def _nothing(text: str, pos: int) -> None:
    """The matcher at a character no terminal starts with: no match."""
    return None


class _Dead(dict[str, Any]):
    """The dead state's matchers: none matches, as the last token was not one to take."""

    def __missing__(self, char: str) -> Any:
        return _nothing


class _ByChar(dict[str, Any]):
    """A scanner's matchers by the character at hand, each compiled on first use.

    At a character, only the terminals that can start with it are tried, in the scanner's
    order: the first of the whole alternation to match is the first of these to match.
    """

    def __init__(
        self,
        alternatives: tuple[tuple[str, str], ...],
        firsts: dict[str, str | None],
        flags: int,
        suffix: str,
    ) -> None:
        super().__init__()
        self._alternatives = alternatives
        self._firsts = firsts
        self._flags = flags
        self._suffix = suffix

    def __missing__(self, char: str) -> Any:
        firsts = self._firsts
        tried = [
            f"(?P<{name}>{regexp})"
            for name, regexp in self._alternatives
            if firsts.get(name) is None or char in firsts[name]  # type: ignore[operator]
        ]
        if not tried:
            self[char] = _nothing
            return _nothing
        pattern = "|".join(tried)
        if self._suffix:
            pattern = f"(?:{pattern}){self._suffix}*"
        match = self[char] = re.compile(pattern, self._flags).match
        return match


def _reducer(transformer: Any, name: str, expands_single: bool, kept: int) -> Reduce | None:
    """What a reduction of a rule calls, as lark's tree builder would; ``None``: the children
    stay on the stack as they are (an inlined ``_rule``, or a rule that passes on its one child).
    """
    method = getattr(transformer, name, None)
    if name.startswith("_"):
        if method is not None:
            raise TypeError(f"a method for the inlined rule {name}")
        return None
    if kept == 1 and (expands_single or _passes_through(method)):
        return None
    if method is None:
        default = transformer.__default__

        def method(children: list[Any], data: str = name) -> Any:
            return default(data, children, None)

    if expands_single:
        whole = method

        def method(children: list[Any]) -> Any:
            return children[0] if len(children) == 1 else whole(children)

    return method


def _passes_through(method: Any) -> bool:
    """Whether a method is marked as returning its one child as it is (``passes_through``)."""
    return bool(getattr(getattr(method, "__func__", None), "passes_through", False))


_Names = frozenset[str]
_Rest = tuple[_Names | None, _Names, _Names, dict[str, dict[str, str]], _Names]
_Scanner = tuple[dict[str, Any], dict[str, dict[str, str]], _Names, _Rest]
"""``(matchers, plain, skip, (names, ignored, newlines, keywords, comments))``; ``matchers``
maps the character at hand to the match function to use there.

``plain`` are the terminals that need nothing but a token, with their keywords: the state
takes them, and they are not skipped, dropped, comments, brackets, layout or able to hold a
new line, nor do they turn into a keyword that is.
``skip`` are the ignored terminals that need nothing at all. With ``names``, the match is the
universal scanner's, to be checked against the names the state's own scanner tries.
"""


class _Scanners:
    """Per parser state, its scanner, compiled on first use.

    A state whose own scanner tries the universal scanner's alternatives in the same order
    starts with the universal scanner, which one compiled pattern serves for most states; the
    state's own is compiled only when the universal one finds a terminal the state does not try.
    ``of[state]`` is the state's scanner once made, ``None`` before.
    """

    def __init__(self, tables: Tables, states: int) -> None:
        self._tables = tables
        self._compiled: dict[int, _ByChar] = {}
        self._special = frozenset({*tables.dropped, *_BRACKETS, "_NL"})
        self.of: list[_Scanner | None] = [None] * states
        self._own: dict[int, _Scanner] = {}

    def _match(self, index: int) -> _ByChar:
        """The matchers of scanner ``index``, one per first character."""
        chars = self._compiled.get(index)
        if chars is None:
            tables = self._tables
            suffix = tables.universal_suffix if index == tables.universal else ""
            chars = self._compiled[index] = _ByChar(
                tables.alternatives[index], tables.firsts, tables.lexers[index][0], suffix
            )
        return chars

    def _scanner(self, state: int, universal: bool) -> _Scanner:
        tables = self._tables
        index = tables.state_lexer[state]
        _, ignore, newlines, keywords, comments = tables.lexers[index]
        names = frozenset(name for name, _ in tables.alternatives[index])
        special = self._special
        plain = {
            kind: keywords.get(kind, {})
            for kind in names - ignore - newlines - comments - special
            if special.isdisjoint(keywords.get(kind, {}).values())
        }
        skip = ignore - newlines - comments
        match = self._match(tables.universal if universal else index)
        return (match, plain, skip, (names if universal else None, ignore, newlines, keywords, comments))

    def make(self, state: int) -> _Scanner:
        """The state's scanner: the universal one where it serves, else the state's own."""
        found = self.of[state] = self._scanner(state, state in self._tables.shares_universal)
        return found

    def own(self, state: int) -> _Scanner:
        """The state's own scanner, for a token the universal one found but the state does not
        take (a keyword the universal scanner reads as a name)."""
        found = self._own.get(state)
        if found is None:
            found = self._own[state] = self._scanner(state, False)
        return found
