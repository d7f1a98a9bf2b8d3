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
import re
import sys
from typing import Any, NamedTuple

__all__ = ["FORMAT", "Action", "Lexer", "Tables", "extract", "load", "save", "tables_path"]

FORMAT = 4
"""The layout of :class:`Tables`; part of the cache file's name, change it with the layout."""

Lexer = tuple[int, frozenset[str], frozenset[str], dict[str, dict[str, str]], frozenset[str]]
"""A scanner: ``(flags, ignored, newlines, keywords, comments)``; its terminals are in
:attr:`Tables.alternatives`."""

Action = int | tuple[int, str, int]
"""A parse action: the state to shift to, or ``(length, rule's symbol, rule's number)``."""


class Tables(NamedTuple):
    """The tables of one grammar, as plain data (see the module's text for what each holds).

    ``actions[state][symbol]`` is an :data:`Action`. ``rules[number]`` is ``(name to call,
    expands a single child, children kept)``: the name of the transformer's method (the
    rule's alias or symbol), whether lark returns a lone child as it is (``?rule``), and how
    many children the rule keeps when that does not depend on the input (``-1`` when an
    inlined ``_rule`` among them does). ``dropped`` are the terminals no rule keeps.

    ``lexers[i]`` is ``(flags, ignored, newlines, keywords, comments)``: a scanner's regular
    expression flags, the terminals it skips, those that may hold a newline, the keyword
    each word of a terminal turns into (lark's "unless" callbacks), and the terminals sent
    to the comment sink. ``state_lexer[state]`` is that state's scanner;
    ``universal`` is the scanner of every terminal, and ``shares_universal`` the states whose
    own scanner gives what it gives for any terminal the state accepts.
    ``alternatives[i]`` are scanner ``i``'s terminals in order, as ``(name, pattern)``; a
    scanner's pattern is their alternation. ``firsts`` are the characters each terminal can
    start with (``None``: any), so that at a character only the terminals that can start
    with it need be tried, in the same order.
    ``universal_suffix`` is a character class (or ``""``) that the universal scanner also
    takes after each token: characters that only an ignored terminal can start with, which
    lark would skip as a token of its own at the next step (spaces between tokens).
    """

    start: int
    end: int
    actions: dict[int, dict[str, Action]]
    rules: list[tuple[str, bool, int]]
    dropped: frozenset[str]
    lexers: list[Lexer]
    state_lexer: dict[int, int]
    universal: int
    shares_universal: frozenset[int]
    universal_suffix: str
    alternatives: list[tuple[tuple[str, str], ...]]
    firsts: dict[str, str | None]

    def to_data(self) -> tuple[Any, ...]:
        """The tables as one tuple of plain values, as :func:`save` writes them."""
        return tuple(self)

    @classmethod
    def from_data(cls, data: Any) -> Tables:
        """Tables from :meth:`to_data`'s tuple; ``TypeError`` or ``ValueError`` if it is not one."""
        if type(data) is not tuple:
            raise TypeError("not toolexpect's parser tables")
        tables = cls(*data)
        kinds = (int, int, dict, list, frozenset, list, dict, int, frozenset, str, list, dict)
        if not all(type(value) is kind for value, kind in zip(tables, kinds, strict=True)):
            raise TypeError("not toolexpect's parser tables")
        if len(tables.alternatives) != len(tables.lexers):
            raise TypeError("not toolexpect's parser tables")
        for row in tables.actions.values():
            for action in row.values():
                if type(action) is not int and not (
                    type(action) is tuple and len(action) == 3 and 0 <= action[2] < len(tables.rules)
                ):
                    raise TypeError("not toolexpect's parser tables")
        scanners = (*tables.state_lexer.values(), tables.universal)
        if not all(0 <= index < len(tables.lexers) for index in scanners):
            raise TypeError("not toolexpect's parser tables")
        return tables


def extract(parser: Any, comment_sink: Any) -> Tables:
    """Read the tables off a built lark parser (LALR, contextual lexer, no placeholders).

    ``comment_sink`` is the lexer callback that collects comments. Anything this module does
    not copy faithfully (another kind of callback, templates, flags on keywords, a scanner
    split in several patterns, a terminal kept by one rule and dropped by another) raises
    ``TypeError``, and the caller parses with lark alone.
    """
    frontend = parser.parser
    contextual = frontend.lexer.lexer
    table = frontend.parser._parse_table
    # lark's classes from the very modules that made this parser, even if lark has been
    # imported again since (pytest's ``pytester`` drops the modules a run imported).
    lexing = sys.modules[type(contextual).__module__]
    PatternStr, UnlessCallback = lexing.PatternStr, lexing.UnlessCallback
    Shift = sys.modules[type(table).__module__].Shift
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

    regexps = {str(terminal.name): terminal.pattern.to_regexp() for terminal in parser.terminals}
    lexers: list[Lexer] = []
    alternatives: list[tuple[tuple[str, str], ...]] = []
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
        tried = tuple((str(t.name), str(t.pattern.to_regexp())) for t in scanner.terminals)
        if "|".join(f"(?P<{name}>{regexp})" for name, regexp in tried) != mre.pattern:
            raise TypeError("a scanner's pattern is not the alternation of its terminals")
        alternatives.append(tried)
        lexers.append(
            (
                int(mre.flags),
                frozenset(str(kind) for kind in lexer.ignore_types),
                # Lark counts lines in terminals whose pattern might hold a new line; those
                # that cannot are left out, so that they may take the loop's short path.
                frozenset(
                    str(kind) for kind in lexer.newline_types if may_hold(regexps.get(str(kind), "."), "\n")
                ),
                keywords,
                frozenset(comments),
            )
        )
        seen[id(lexer)] = index = len(lexers) - 1
        return index

    universal_lexer = contextual.root_lexer
    universal = lexer_of(universal_lexer)
    everywhere = [(str(t.name), t.pattern.to_regexp()) for t in universal_lexer.scanner.terminals]
    state_lexer: dict[int, int] = {}
    shares: set[int] = set()
    for state, lexer in contextual.lexers.items():
        state_lexer[state] = lexer_of(lexer)
        if _agrees(everywhere, lexer.scanner.terminals, PatternStr):
            shares.add(state)
    suffix = _suffix(universal_lexer, list(contextual.lexers.values()), regexps)
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
        universal_suffix=suffix,
        alternatives=alternatives,
        firsts={
            name: None if first is None else "".join(sorted(first))
            for name, first in ((name, first_chars(regexp)) for name, regexp in regexps.items())
        },
    )


def _agrees(everywhere: list[tuple[str, str]], terminals: list[Any], literal: Any) -> bool:
    """Whether a state's scanner finds what the universal one finds, wherever the universal
    scanner's first match is a terminal the state's scanner tries.

    The state's alternatives must be the universal ones it tries, in the same order, plus
    perhaps keywords (plain strings) that the universal scanner leaves to a pattern ``R``
    that matches them whole (a name). Such a keyword ``k`` may come before a terminal ``t``
    only if ``t`` comes after ``R`` in the universal order: where ``k`` matches, ``R`` does,
    so the universal scanner's first match is then never ``t``.
    """
    own = [(str(t.name), t.pattern.to_regexp()) for t in terminals]
    known = set(everywhere)
    shared = [item for item in own if item in known]
    if [item for item in everywhere if item in set(shared)] != shared:
        return False
    place = {item: index for index, item in enumerate(everywhere)}
    for index, terminal in enumerate(terminals):
        item = own[index]
        if item in known:
            continue
        pattern = terminal.pattern
        if type(pattern) is not literal or pattern.flags:
            return False
        word = pattern.value
        covering = [place[other] for other in everywhere if re.fullmatch(other[1], word)]
        if not covering:
            return False
        later = [place[other] for other in own[index + 1 :] if other in known]
        if later and min(later) <= min(covering):
            return False
    return True


def _suffix(universal: Any, lexers: list[Any], regexps: dict[str, str]) -> str:
    """The characters the universal scanner may take after a token, as a class; ``""``: none.

    An ignored terminal ``W`` that is one class repeated (``[ \t\f\r]+``), with no callback
    and no new line, which every state skips; of its characters, those no other terminal can
    start with. At such a character lark's scanner, in any state, finds ``W`` and skips it,
    so taking them at once gives the same tokens. Where the run of them stops at a character
    of ``W`` that another terminal can also start with, ``W`` must come first in every
    scanner's order, so that it still takes the rest of the run as lark would.
    """
    everyone = [universal, *lexers]
    for name in sorted(universal.ignore_types):
        regexp = regexps.get(str(name))
        chars = _run_class(regexp) if regexp else None
        if not chars or may_hold(regexp or ".", "\n"):
            continue
        if any(name not in lexer.ignore_types or name in lexer.callback for lexer in everyone):
            continue
        others: set[str] = set()
        starts: dict[str, set[str]] = {}
        for other, pattern in regexps.items():
            if other == name:
                continue
            first = first_chars(pattern)
            if first is None:
                return ""
            starts[other] = first
            others |= first
        for lexer in everyone:
            order = [str(terminal.name) for terminal in lexer.scanner.terminals]
            if str(name) not in order:
                return ""
            place = order.index(str(name))
            if any(order.index(other) < place for other in order if starts.get(other, set()) & chars):
                return ""
        taken = sorted(chars - others)
        return "[" + "".join(re.escape(char) for char in taken) + "]" if taken else ""
    return ""


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


def _made_by() -> str:
    """What made the tables besides the grammar: this module's file, by size and time.

    An installed toolexpect keeps its files as they are; a changed checkout of this module
    (how the tables are read off lark) makes them afresh without a change of ``FORMAT``.
    """
    try:
        status = os.stat(__file__)
    except OSError:
        return ""
    return f"{status.st_size}:{status.st_mtime_ns}"


def load(path: str, grammar: str) -> Tables | None:
    """The tables cached at ``path`` if they were made from ``grammar`` by this code."""
    try:
        with open(path, "rb") as stream:
            stored, made_by, data = marshal.loads(stream.read())
        if stored != grammar or made_by != _made_by():
            return None
        return Tables.from_data(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def save(path: str, grammar: str, tables: Tables) -> None:
    """Cache ``tables``, made from ``grammar``, at ``path``; a failure to write is no error."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as stream:
            stream.write(marshal.dumps((grammar, _made_by(), tables.to_data())))
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


# -- what a terminal's regular expression can match, read off Python's own parse of it --------
# Both answers err on the safe side: "unknown" (None) and "may hold a new line" (True) keep
# the loop on the path that does what lark does.


def _parsed(regexp: str) -> list[Any] | None:
    try:
        from re import _parser

        return list(_parser.parse(regexp).data)
    except Exception:  # another Python's private parser, or a pattern it will not take
        return None


def _class_chars(items: list[Any]) -> set[str] | None:
    """The characters of a ``[...]`` class; ``None`` for a negated class or a category."""
    from re import _constants as c

    chars: set[str] = set()
    for op, value in items:
        if op is c.LITERAL:
            chars.add(chr(value))
        elif op is c.RANGE and value[1] - value[0] < 4096:
            chars.update(chr(code) for code in range(value[0], value[1] + 1))
        else:
            return None
    return chars


def _first(items: list[Any]) -> tuple[set[str] | None, bool]:
    """The characters a match of ``items`` can start with (``None``: unknown), and whether
    it can match nothing at all."""
    from re import _constants as c

    out: set[str] = set()
    first: set[str] | None
    for op, value in items:
        if op is c.LITERAL:
            first, empty = {chr(value)}, False
        elif op is c.IN:
            first, empty = _class_chars(value), False
        elif op is c.SUBPATTERN:
            if value[1] or value[2]:  # flags change what the characters mean
                return None, False
            first, empty = _first(list(value[3].data))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            first, empty = _first(list(value[2].data))
            empty = empty or value[0] == 0
        elif op is c.BRANCH:
            first, empty = set(), False
            for branch in value[1]:
                more, none = _first(list(branch.data))
                if more is None:
                    return None, False
                first |= more
                empty = empty or none
        else:
            return None, False
        if first is None:
            return None, False
        out |= first
        if not empty:
            return out, False
    return out, True


def first_chars(regexp: str) -> set[str] | None:
    """The characters any match of ``regexp`` starts with; ``None`` when unknown, or when it
    can match nothing at all."""
    items = _parsed(regexp)
    if items is None:
        return None
    first, empty = _first(items)
    return None if empty else first


def may_hold(regexp: str, char: str) -> bool:
    """Whether a match of ``regexp`` may contain ``char`` (``True`` when unsure)."""
    from re import _constants as c

    def walk(items: list[Any]) -> bool:
        for op, value in items:
            if op is c.LITERAL:
                if chr(value) == char:
                    return True
            elif op is c.NOT_LITERAL:
                if chr(value) != char:
                    return True
            elif op is c.IN:
                negated = bool(value) and value[0][0] is c.NEGATE
                chars = _class_chars(value[1:] if negated else value)
                if chars is None or (char in chars) != negated:
                    return True
            elif op is c.SUBPATTERN:
                if value[1] or value[2] or walk(list(value[3].data)):
                    return True
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
                if walk(list(value[2].data)):
                    return True
            elif op is c.BRANCH:
                if any(walk(list(branch.data)) for branch in value[1]):
                    return True
            else:
                return True
        return False

    items = _parsed(regexp)
    return True if items is None else walk(items)


def _run_class(regexp: str) -> set[str] | None:
    """The characters of a pattern that is one class repeated, ``[...]+``; else ``None``."""
    from re import _constants as c

    items = _parsed(regexp)
    if items is None or len(items) != 1 or items[0][0] is not c.MAX_REPEAT:
        return None
    low, _, inner = items[0][1]
    inner = list(inner.data)
    if low != 1 or len(inner) != 1 or inner[0][0] is not c.IN:
        return None
    return _class_chars(inner[0][1])
