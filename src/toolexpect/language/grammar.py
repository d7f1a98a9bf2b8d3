"""The grammar of the language and lark's LALR parser of it, built once and cached.

The wheel carries a copy of ``grammar/toolexpect.lark`` inside the package; an editable
install or a source checkout reads the repository's top-level ``grammar/`` folder.

The built parser (lark's analysis of the grammar: its terminals, rules and LALR tables) is
kept with lark's ``Lark.save`` in the user's cache folder (:func:`toolexpect.caching.cache_folder`),
never the package: ``$XDG_CACHE_HOME/toolexpect`` (default ``~/.cache/toolexpect``), off with
``TOOLEXPECT_NO_CACHE=1``, and read back with ``Lark.load``. The file is named after what it
holds (toolexpect's, lark's and Python's versions, a hash of the grammar text and of the build
options), so installs of the same version share one file and never rewrite it. It is written
under a name of its own and renamed into place, so no reader ever sees half a file; a file
that does not load is replaced by a fresh build.

The functions after :func:`parser` read names and patterns off the built parser, so that the
formatter and the error messages take them from the grammar rather than from a copy.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import re
import sys
import threading
from typing import Any

import lark
from lark import Lark

from toolexpect._version import __version__
from toolexpect.caching import cache_folder
from toolexpect.language.context import keep_comment
from toolexpect.language.layout import Layout
from toolexpect.language.source import grammar_path, grammar_text
from toolexpect.language.transform import ToDocument

__all__ = [
    "build",
    "cache_folder",
    "cache_path",
    "choices",
    "every_spelling",
    "first_words",
    "grammar_path",
    "grammar_text",
    "literal",
    "parser",
    "spellings",
    "terminal_regexp",
]

_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": False,
    "maybe_placeholders": False,
}
"""How the parser is built, beside the post-lexer, the transformer and the comment callback
(objects of this package, saved by reference). Spans come from the tokens, so lark need not
propagate positions."""


def cache_path(text: str) -> str | None:
    """The cache file of lark's parser of grammar ``text``, in :func:`cache_folder`.

    The name holds toolexpect's, lark's and Python's versions and a hash of the grammar and
    the build options: whatever changes what is cached changes the name (the file refers to
    this package's transformer, post-lexer and comment callback by name, hence its version).
    ``None`` without a cache folder.
    """
    folder = cache_folder()
    if folder is None:
        return None
    options = repr(sorted(_OPTIONS.items()))
    digest = hashlib.sha256(f"{options}\n{text}".encode()).hexdigest()[:16]
    python = "{}{}".format(*sys.version_info[:2])
    versions = f"toolexpect{__version__}-lark{lark.__version__}-py{python}"
    return os.path.join(folder, f"grammar-{digest}-{versions}.cache")


def build(*, strict: bool = False, cache: bool = False) -> Lark:
    """Build lark's LALR parser of the grammar, with the document transformer embedded.

    ``strict`` also fails on LALR conflicts and terminal collisions (it needs ``interegular``);
    ``cache`` reads the parser from :func:`cache_folder`, or keeps it there once built.
    """
    text = grammar_text()
    path = cache_path(text) if cache and not strict else None
    if path is not None:
        try:
            with open(path, "rb") as file:
                return Lark.load(file)
        except Exception:  # none yet, or damaged (any unpickling error): build it afresh
            pass
    made = Lark(
        text,
        strict=strict,
        transformer=ToDocument(),
        postlex=Layout(),
        lexer_callbacks={"COMMENT": keep_comment},
        **_OPTIONS,
    )
    if path is not None:
        _keep(made, path)
    return made


def _keep(made: Lark, path: str) -> None:
    """Save ``made`` at ``path`` whole or not at all: written aside, then renamed into place."""
    fresh = f"{path}.{os.getpid()}-{threading.get_ident()}.tmp"
    try:
        with open(fresh, "wb") as file:
            made.save(file)
        os.replace(fresh, path)
    except OSError:
        pass  # a parser that cannot be kept still parses
    finally:
        with contextlib.suppress(OSError):
            os.unlink(fresh)


_LOCK = threading.Lock()


@functools.cache
def _built() -> Lark:
    return build(cache=True)


def parser() -> Lark:
    """The parser of the language, built (or read from the cache) once, by one thread."""
    with _LOCK:
        return _built()


def terminal_regexp(name: str) -> str:
    """The regular expression of the grammar's terminal ``name``."""
    return str(parser().get_terminal(name).pattern.to_regexp())


def literal(name: str) -> str | None:
    """The one text terminal ``name`` matches (``"("``, ``"expect"``), else ``None``.

    A keyword's pattern is its word and a zero-width condition after it (a whole word), so a
    pattern of fixed width that starts with that many letters is that word.
    """
    pattern = parser().get_terminal(name).pattern
    if pattern.type == "str":
        return str(pattern.value)
    word = _LETTERS.match(pattern.value)
    if word and pattern.min_width == pattern.max_width == len(word.group()):
        return word.group()
    return None


_LETTERS = re.compile(r"[A-Za-z]+")


@functools.cache
def first_words(rule: str) -> tuple[str, ...]:
    """The keywords that rule ``rule`` can start with, in the grammar's order."""
    rules = parser().rules
    seen: set[str] = set()
    words: list[str] = []

    def visit(origin: str) -> None:
        if origin in seen:
            return
        seen.add(origin)
        for each in rules:
            if each.origin.name != origin or not each.expansion:
                continue
            symbol = each.expansion[0]
            if not symbol.is_term:
                visit(symbol.name)
            else:
                word = literal(symbol.name)
                if word is not None and word not in words:
                    words.append(word)

    visit(rule)
    return tuple(words)


@functools.cache
def choices(rule: str) -> tuple[str, ...]:
    """The texts of rule ``rule`` when each of its alternatives is one literal terminal
    (``at_least``: ``(">=", ">")``), in the grammar's order; else ``()``."""
    found: list[str] = []
    for each in parser().rules:
        if each.origin.name != rule:
            continue
        symbols = each.expansion
        word = literal(symbols[0].name) if len(symbols) == 1 and symbols[0].is_term else None
        if word is None:
            return ()
        found.append(word)
    return tuple(found)


@functools.cache
def spellings(rule: str) -> dict[str, tuple[str, ...]]:
    """How each alternative of rule ``rule`` is written, by its alias: the text of each literal
    terminal, the first text of a rule of literal choices (``at_least`` is ``">="``), and the
    name of each other rule or terminal (``("require", "accuracy", ">=", "number")``)."""
    out: dict[str, tuple[str, ...]] = {}
    for each in parser().rules:
        if each.origin.name == rule:
            words = tuple(
                (literal(symbol.name) or symbol.name)
                if symbol.is_term
                else (choices(symbol.name) or (symbol.name,))[0]
                for symbol in each.expansion
            )
            out[each.alias or rule] = words
    return out


def every_spelling(rule: str) -> tuple[tuple[str, ...], ...]:
    """Every way the alternatives of rule ``rule`` are written, in the grammar's order: as
    :func:`spellings`, but a rule of literal choices is taken with each of its choices
    (``("require", "accuracy", ">", "number")`` as well as ``">="``)."""
    found: list[tuple[str, ...]] = []
    for each in parser().rules:
        if each.origin.name == rule:
            options = [
                (literal(symbol.name) or symbol.name,)
                if symbol.is_term
                else (choices(symbol.name) or (symbol.name,))
                for symbol in each.expansion
            ]
            found.extend(itertools.product(*options))
    return tuple(found)
