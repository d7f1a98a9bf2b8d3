"""The one loop runs any grammar's tables as lark does, not only toolexpect's.

A small grammar with what lark's tree builder does at reductions (aliases, ``?rule``,
inlined ``_rule``, repetitions, a rule kept whole with ``!``, terminals dropped by name,
keywords a name pattern covers, rules without a method) is parsed by lark and by
:class:`toolexpect._grammar.OneLoop` from its tables; results, token places included, must
be the same, and every text lark refuses must be refused.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from toolexpect import _tables
from toolexpect._grammar import COMMENTS, OneLoop, Unsure, _Layout

GRAMMAR = r"""
start: _NL* (_item _NL+)* _item?
_item: stmt | block
block: "begin" _NL* (stmt _NL+)* stmt? "end"
stmt: "set" NAME "=" expr                 -> assign
    | "print" expr ("," expr)*
    | "mode" flag
    | "call" NAME "(" (expr ("," expr)*)? ")"
?expr: term
     | expr "+" term                      -> add
?term: NUMBER                             -> num
     | NAME                               -> var
     | STRING
     | "[" (expr ("," expr)*)? "]"        -> items
     | "(" expr ")"
!flag: "on" | "off"
NAME: /[a-z_][a-z0-9_]*/
NUMBER: /-?[0-9]+(\.[0-9]+)?/
STRING: /"[^"\n]*"/
COMMENT: /#[^\n]*/
_NL: /(\r?\n)+/
WS: /[ \t\f\r]+/
%ignore WS
%ignore COMMENT
"""


def _token(token: Any) -> tuple[Any, ...]:
    return (token.type, str(token), token.line, token.column, token.end_line, token.end_column)


class _Node:
    """What ``__default__`` makes: lark expands an inlined rule's node by its ``children``."""

    def __init__(self, data: str, children: list[Any]) -> None:
        self.data = data
        self.children = children


def _plain(value: Any) -> Any:
    if isinstance(value, _Node):
        return ("default", value.data, _plain(value.children))
    if isinstance(value, str) and hasattr(value, "type"):
        return _token(value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


class _Tree:
    """Methods for some rules; the others go to ``__default__``."""

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        return _Node(str(data), children)

    def assign(self, children: list[Any]) -> Any:
        return ("assign", _plain(children))

    def add(self, children: list[Any]) -> Any:
        return ("add", _plain(children))

    def num(self, children: list[Any]) -> Any:
        return ("num", _plain(children))

    def items(self, children: list[Any]) -> Any:
        return ("items", _plain(children))

    def start(self, children: list[Any]) -> Any:
        return ("start", _plain(children))


@pytest.fixture(scope="module")
def parsers() -> tuple[Lark, OneLoop]:
    """Lark's parser of the small grammar, and the one loop over its tables."""
    transformer = _Tree()
    lark = Lark(
        GRAMMAR,
        parser="lalr",
        lexer="contextual",
        postlex=_Layout(),
        propagate_positions=False,
        maybe_placeholders=False,
        lexer_callbacks={"COMMENT": COMMENTS},
        transformer=transformer,
    )
    tables = _tables.extract(lark, COMMENTS)
    tables = _tables.Tables.from_data(tables.to_data())  # as read back from the cache
    return lark, OneLoop(tables, transformer, COMMENTS)


_PROGRAMS = [
    "set x = 1\nprint x + 2, \"a b\"\n",
    "begin\n  set y = [1, 2, (3 + x)]\n  mode on\nend\n",
    "call f(1, [a, \"s\"], (b + -2.5))  # a comment\nmode off",
    "\n\nprint [ ]\nprint setx, begins, ends\r\nset end_ = 0",
    "call g()\nbegin end\nbegin\n\nend",
]

_PIECES = ["\n", " ", "\t", "\r\n", "(", ")", "[", "]", ",", "+", "=", "1", "x", "set ", "print ",
           "begin", "end", "on", "off", "\"", "# c\n", "mode ", "call f(", "-", ".5"]


def _texts(count: int) -> list[str]:
    chance = random.Random(3)
    texts = list(_PROGRAMS)
    for _ in range(count):
        text = chance.choice(_PROGRAMS)
        for _ in range(chance.randrange(1, 4)):
            at = chance.randrange(len(text) + 1)
            kind = chance.randrange(3)
            if kind == 0:
                text = text[:at]
            elif kind == 1:
                text = text[:at] + chance.choice(_PIECES) + text[at:]
            else:
                text = text[:at] + text[at + 1 :]
        texts.append(text)
    return texts


def test_the_one_loop_parses_any_grammar_as_lark(parsers: tuple[Lark, OneLoop]) -> None:
    """Same values for every text lark takes, :class:`Unsure` for every text it refuses."""
    lark, loop = parsers
    taken = 0
    for text in _texts(1500):
        seen: list[Any] = []
        COMMENTS.target = seen
        try:
            try:
                expected = ("ok", _plain(lark.parse(text)), [_token(t) for t in seen])
            except UnexpectedInput:
                expected = ("error",)
            seen.clear()
            try:
                got = ("ok", _plain(loop(text)), [_token(t) for t in seen])
            except Unsure:
                got = ("error",)
        finally:
            COMMENTS.target = None
        assert got == expected, repr(text)
        taken += got[0] == "ok"
    assert taken > 200  # enough of the texts parse for the comparison to mean something
