"""The parser's tables as plain data: read off a built lark parser, kept in the user's cache.

Lark analyses the grammar into an LALR table and one scanner per parser state (its contextual
lexer). :func:`extract` copies what a valid text needs of that analysis into dicts, tuples
and strings: the actions, the scanners' patterns with their keywords and ignored terminals,
and per rule what lark's tree builder does with the children (which it keeps, which rule it
calls). :class:`toolexpect._grammar.OneLoop` runs these tables, so that a valid spec parses
without importing lark at all; lark itself is imported only to report a syntax error.

The tables are cached as ``marshal`` data beside lark's own cache, in the user's cache
folder, with the grammar text they were made from; a different grammar makes them afresh.
Nothing here is executed: ``marshal`` reads only plain values, and the file is checked for
the shape :class:`Tables` expects before it is used.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from typing import Any

__all__ = ["FORMAT", "Action", "Lexer", "Tables", "extract", "load", "save", "tables_path"]

FORMAT = 1
"""The layout of :class:`Tables`; part of the cache file's name, change it with the layout."""

Lexer = tuple[str, int, frozenset[str], frozenset[str], frozenset[str], dict[str, dict[str, str]], frozenset[str]]  # noqa: E501
"""A scanner: ``(pattern, flags, names, ignored, newlines, keywords, comments)``."""

Action = int | tuple[int, str, int]
"""A parse action: the state to shift to, or ``(length, rule's symbol, rule's number)``."""


class Tables:
    """The tables of one grammar, as plain data (see the module's text for what each holds).

    ``actions[state][symbol]`` is an :data:`Action`. ``rules[number]`` is ``(name to call,
    expands a single child, children kept)``: the name of the transformer's method (the
    rule's alias or symbol), whether lark returns a lone child as it is (``?rule``), and how
    many children the rule keeps when that does not depend on the input (``-1`` when an
    inlined ``_rule`` among them does). ``dropped`` are the terminals no rule keeps.

    ``lexers[i]`` is ``(pattern, flags, names, ignored, newlines, keywords, comments)``: a
    scanner's regular expression, the terminals it tries, those it skips, those that may
    hold a newline,
    the keyword each word of a terminal turns into (lark's "unless" callbacks), and the
    terminals sent to the comment sink. ``state_lexer[state]`` is that state's scanner;
    ``universal`` is the scanner of every terminal, and ``shares_universal`` the states whose
    own scanner gives what it gives for any terminal the state accepts.
    """

    __slots__ = (
        "actions",
        "dropped",
        "end",
        "lexers",
        "rules",
        "shares_universal",
        "start",
        "state_lexer",
        "universal",
    )

    def __init__(
        self,
        *,
        start: int,
        end: int,
        actions: dict[int, dict[str, Action]],
        rules: list[tuple[str, bool, int]],
        dropped: frozenset[str],
        lexers: list[Lexer],
        state_lexer: dict[int, int],
        universal: int,
        shares_universal: frozenset[int],
    ) -> None:
        self.start = start
        self.end = end
        self.actions = actions
        self.rules = rules
        self.dropped = dropped
        self.lexers = lexers
        self.state_lexer = state_lexer
        self.universal = universal
        self.shares_universal = shares_universal

    def to_data(self) -> tuple[Any, ...]:
        """The tables as one tuple of plain values, as :func:`save` writes them."""
        return (
            self.start,
            self.end,
            self.actions,
            self.rules,
            self.dropped,
            self.lexers,
            self.state_lexer,
            self.universal,
            self.shares_universal,
        )

    @classmethod
    def from_data(cls, data: Any) -> Tables:
        """Tables from :meth:`to_data`'s tuple; ``TypeError`` or ``ValueError`` if it is not one."""
        start, end, actions, rules, dropped, lexers, state_lexer, universal, shares = data
        if not (
            type(start) is int
            and type(end) is int
            and type(actions) is dict
            and type(rules) is list
            and type(dropped) is frozenset
            and type(lexers) is list
            and type(state_lexer) is dict
            and type(universal) is int
            and type(shares) is frozenset
        ):
            raise TypeError("not toolexpect's parser tables")
        for row in actions.values():
            for action in row.values():
                if type(action) is not int and not (
                    type(action) is tuple and len(action) == 3 and 0 <= action[2] < len(rules)
                ):
                    raise TypeError("not toolexpect's parser tables")
        if not all(0 <= index < len(lexers) for index in (*state_lexer.values(), universal)):
            raise TypeError("not toolexpect's parser tables")
        return cls(
            start=start,
            end=end,
            actions=actions,
            rules=rules,
            dropped=dropped,
            lexers=lexers,
            state_lexer=state_lexer,
            universal=universal,
            shares_universal=shares,
        )


def extract(parser: Any, comment_sink: Any) -> Tables:
    """Read the tables off a built lark parser (LALR, contextual lexer, no placeholders).

    ``comment_sink`` is the lexer callback that collects comments. Anything this module does
    not copy faithfully (another kind of callback, templates, flags on keywords, a scanner
    split in several patterns, a terminal kept by one rule and dropped by another) raises
    ``TypeError``, and the caller parses with lark alone.
    """
    from lark.lexer import PatternStr, UnlessCallback
    from lark.parsers.lalr_analysis import Shift

    frontend = parser.parser
    contextual = frontend.lexer.lexer
    table = frontend.parser._parse_table
    if parser.options.maybe_placeholders:
        raise TypeError("placeholders are not supported")

    rules: list[tuple[str, bool, int]] = []
    numbers: dict[Any, int] = {}
    kept_terminals: dict[str, bool] = {}
    actions: dict[int, dict[str, Action]] = {}
    for state, row in table.states.items():
        out: dict[str, Action] = {}
        for symbol, (action, target) in row.items():
            if action is Shift:
                if type(target) is not int:
                    raise TypeError("parse states are not numbered")
                out[str(symbol)] = target
                continue
            number = numbers.get(target)
            if number is None:
                number = numbers[target] = len(rules)
                rules.append(_rule(target, kept_terminals))
            out[str(symbol)] = (len(target.expansion), str(target.origin.name), number)
        actions[state] = out

    lexers: list[Lexer] = []
    seen: dict[int, int] = {}

    def lexer_of(lexer: Any) -> int:
        index = seen.get(id(lexer))
        if index is not None:
            return index
        scanner = lexer.scanner  # builds lark's scanner and its callbacks
        if len(scanner._mres) != 1:
            raise TypeError("a scanner split in several patterns")
        keywords: dict[str, dict[str, str]] = {}
        comments = set()
        for kind, callback in lexer.callback.items():
            if callback is comment_sink:
                comments.add(str(kind))
            elif type(callback) is UnlessCallback:
                words: dict[str, str] = {}
                for terminal in reversed(callback.scanner.terminals):  # the first one wins
                    pattern = terminal.pattern
                    if type(pattern) is not PatternStr or pattern.flags:
                        raise TypeError("keywords with flags")
                    words[str(pattern.value)] = str(terminal.name)
                keywords[str(kind)] = words
            else:
                raise TypeError(f"an unknown lexer callback on {kind}")
        mre = scanner._mres[0]
        lexers.append(
            (
                str(mre.pattern),
                int(mre.flags),
                frozenset(str(terminal.name) for terminal in scanner.terminals),
                frozenset(str(kind) for kind in lexer.ignore_types),
                frozenset(str(kind) for kind in lexer.newline_types),
                keywords,
                frozenset(comments),
            )
        )
        seen[id(lexer)] = index = len(lexers) - 1
        return index

    universal_lexer = contextual.root_lexer
    universal = lexer_of(universal_lexer)
    everywhere = [(t.name, t.pattern.to_regexp()) for t in universal_lexer.scanner.terminals]
    state_lexer: dict[int, int] = {}
    shares: set[int] = set()
    for state, lexer in contextual.lexers.items():
        state_lexer[state] = lexer_of(lexer)
        own = [(t.name, t.pattern.to_regexp()) for t in lexer.scanner.terminals]
        names = {name for name, _ in own}
        # The state's scanner tries exactly the universal one's alternatives that the state
        # accepts, in the same order: where the universal scanner's first match is one of
        # them, the state's own scanner would have found the same.
        if [item for item in everywhere if item[0] in names] == own:
            shares.add(state)
    return Tables(
        start=int(table.start_states["start"]),
        end=int(table.end_states["start"]),
        actions=actions,
        rules=rules,
        dropped=frozenset(str(name) for name, kept in kept_terminals.items() if not kept),
        lexers=lexers,
        state_lexer=state_lexer,
        universal=universal,
        shares_universal=frozenset(shares),
    )


def _rule(rule: Any, kept_terminals: dict[str, bool]) -> tuple[str, bool, int]:
    """What lark's tree builder does at a reduction of ``rule``, as in ``parse_tree_builder``."""
    options = rule.options
    if options.template_source:
        raise TypeError("templates are not supported")
    keep_all = options.keep_all_tokens
    kept = 0
    inlined = False
    for symbol in rule.expansion:
        if symbol.is_term:
            keep = keep_all or not symbol.filter_out
            if kept_terminals.setdefault(symbol.name, keep) != keep:
                raise TypeError(f"terminal {symbol.name} is kept by some rules and dropped by others")
            kept += keep
        elif symbol.name.startswith("_"):
            inlined = True
        else:
            kept += 1
    name = str(rule.alias or rule.origin.name)
    return (name, bool(options.expand1 and not rule.alias), -1 if inlined else kept)


def tables_path(version: str) -> str | None:
    """Where the tables are cached, or ``None`` (no private cache folder, or caching is off)."""
    from toolexpect._grammar import cache_folder

    folder = cache_folder()
    if folder is None:
        return None
    return os.path.join(folder, f"tables-{FORMAT}-{version}.marshal")


def load(path: str, grammar: str) -> Tables | None:
    """The tables cached at ``path`` if they were made from ``grammar``; ``None`` otherwise."""
    try:
        with open(path, "rb") as stream:
            stored, data = marshal.loads(stream.read())
        if stored != grammar:
            return None
        return Tables.from_data(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def save(path: str, grammar: str, tables: Tables) -> None:
    """Cache ``tables``, made from ``grammar``, at ``path``; a failure to write is no error."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as stream:
            stream.write(marshal.dumps((grammar, tables.to_data())))
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
