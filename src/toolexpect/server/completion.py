"""Completion: statement keywords, the forms of ``require``, argument matchers, and with a tool
catalogue the tools' names and their parameters (with types and descriptions) and the values an
``enum`` parameter allows.

The keywords and the forms of ``require`` are read off the built parser
(:func:`toolexpect.language.grammar.first_words`,
:func:`~toolexpect.language.grammar.every_spelling`), so they follow the grammar: after ``require``
every form it allows, and after a part of one (``require pass``) the rest of each form it starts;
a count (``require at most 3 calls of``) goes on after its numbers, and the tools follow ``of``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable

from lsprotocol import types

from toolexpect.catalogue import Catalogue
from toolexpect.language.grammar import every_spelling, first_words, literal
from toolexpect.server.context import Place, place_at
from toolexpect.server.positions import Positions
from toolexpect.server.toolinfo import parameters, signature

__all__ = ["ENTRY_MATCHERS", "MATCHERS", "complete"]

MATCHERS: tuple[tuple[str, str, str], ...] = (
    ("=", "=", "is present and equivalent to the value"),
    ("= any", "=any", "is present, with any value (null included)"),
    ("in [...]", "in [", "is present and equivalent to one of the listed values"),
    ('~ "regex"', '~ "', "is a string in which the RE2 pattern finds a match"),
    (">=", ">= ", "is a number (not a boolean) at least this"),
    (">", "> ", "is a number (not a boolean) greater than this"),
    ("<=", "<= ", "is a number (not a boolean) at most this"),
    ("<", "< ", "is a number (not a boolean) less than this"),
    ("!=", "!= ", "is present and not equivalent to the value"),
    ("= N +- T", "=", "is a number within the tolerance T of N"),
    ("contains", "contains ", "is a list holding an element equivalent to the value, or a string holding it"),
    ("?", "?", "optional: absent, or present and matching the rest of the form"),
)
"""Argument matchers offered after an argument's name: label, text inserted, what it matches."""

ENTRY_MATCHERS: tuple[tuple[str, str, str], ...] = (
    (": value", ": ", "is present and equal to the value (nested rule: type included)"),
    (": any", ": any", "is present, with any value (null included)"),
    ("in [...]", "in [", "is present and equal to one of the listed values (nested rule)"),
    ('~ "regex"', '~ "', "is a string in which the RE2 pattern finds a match"),
    (">=", ">= ", "is a number (not a boolean) at least this"),
    (">", "> ", "is a number (not a boolean) greater than this"),
    ("<=", "<= ", "is a number (not a boolean) at most this"),
    ("<", "< ", "is a number (not a boolean) less than this"),
    ("!=", "!= ", "is present and not equal to the value"),
    (": N +- T", ": ", "is a number within the tolerance T of N"),
    ("contains", "contains ", "is a list holding an element equal to the value, or a string holding it"),
    ("?", "?", "optional: absent, or present and matching the rest of the form"),
)
"""Matchers offered after a key inside an object value (``location={city ``): label, text
inserted, what the key's value must be."""

_Kind = types.CompletionItemKind
_Item = Callable[..., types.CompletionItem]


def complete(
    text: str, position: types.Position, positions: Positions, catalogue: Catalogue | None
) -> list[types.CompletionItem]:
    """The completions at ``position`` of ``text``."""
    offset = positions.offset(position)
    place = place_at(text, offset)
    replace = types.Range(start=positions.position(offset - len(place.prefix)), end=position)

    def item(
        label: str,
        kind: types.CompletionItemKind,
        insert: str | None = None,
        detail: str | None = None,
        documentation: str | None = None,
        order: str = "1",
    ) -> types.CompletionItem:
        return types.CompletionItem(
            label=label,
            kind=kind,
            detail=detail,
            documentation=(
                types.MarkupContent(kind=types.MarkupKind.Markdown, value=documentation)
                if documentation
                else None
            ),
            text_edit=types.TextEdit(range=replace, new_text=label if insert is None else insert),
            sort_text=order + label,
        )

    if place.where == "statement":
        words = first_words("_item") if not place.in_case else first_words("_statement")
        return [item(word, _Kind.Keyword, word + " ") for word in words]
    if place.where == "after-require":
        return [
            item(form, _Kind.Keyword, form + (" " if more else ""), detail=statement)
            for form, more, statement in _require_forms(place.written)
        ]
    if place.where == "tool":
        return _tools(catalogue, item)
    if place.where == "argument":
        return _arguments(place, catalogue, item)
    if place.where == "matcher":
        return [
            item(label, _Kind.Operator, insert, "matcher", f"Matches when the argument {what}.")
            for label, insert, what in MATCHERS
        ]
    if place.where == "entry":
        return [
            item(label, _Kind.Operator, insert, "matcher", f"Matches when the key `{place.argument}` {what}.")
            for label, insert, what in ENTRY_MATCHERS
        ]
    if place.where == "value":
        return _values(place, catalogue, item)
    return []


def _require_forms(written: tuple[str, ...]) -> list[tuple[str, bool, str]]:
    """How each form of ``require`` goes on after the tokens ``written`` after the keyword, up to
    the first part that is not a word or an operator (a number, a rule of the grammar); whether
    a part follows; and the whole statement, for the detail.

    The forms are every spelling of ``require_stmt`` and ``count_stmt`` in the grammar
    (``accuracy >=`` and ``accuracy >``, ``no unexpected calls``, ``at most number calls of
    call``, ...); one goes on only where ``written`` ends between two of its parts, a number
    written standing for ``number``.
    """
    forms: dict[str, tuple[bool, str]] = {}
    for words in _statements():
        parts = words[1:]
        for done in range(len(parts) + 1):
            if _starts(parts[:done], written):
                break
        else:
            continue  # what is written is not the start of this form
        fixed: list[str] = []
        for part in parts[done:]:
            if part.startswith("<"):  # a rule (`number`, ...): what the user writes there varies
                break
            fixed.append(part)
        if not fixed:
            continue
        form = " ".join(fixed)
        more = forms.get(form, (False, ""))[0] or done + len(fixed) < len(parts)
        forms[form] = (more, " ".join(word.strip("<>") if word.startswith("<") else word for word in words))
    return [(form, more, statement) for form, (more, statement) in forms.items()]


@functools.cache
def _statements() -> tuple[tuple[str, ...], ...]:
    """Every spelling of ``require``, a rule written ``<rule>``: ``require_stmt``'s, and
    ``count_stmt``'s with each bound of ``count_bound`` written out (``require at most <number>
    calls of <call>``; the keyword ``call`` is no rule, the call after ``of`` is)."""

    def marked(words: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(f"<{word}>" if word == "number" else word for word in words)

    found = [marked(words) for words in every_spelling("require_stmt")]
    of, calls = literal("OF"), literal("CALLS")
    # `calls of <call>` last, so that a form shared by all the counts (`at most`) says it
    for words in sorted(every_spelling("count_stmt"), key=lambda words: (calls in words, of in words)):
        at = words.index("count_bound")
        tail = tuple(
            "<call>" if index and words[index - 1] == of else word for index, word in enumerate(words)
        )
        found.extend(tail[:at] + marked(bound) + tail[at + 1 :] for bound in every_spelling("count_bound"))
    return tuple(found)


_NUMBER_TOKEN = re.compile(r"[0-9.eE+\-]+")


def _starts(parts: tuple[str, ...], written: tuple[str, ...]) -> bool:
    """True when ``written`` is ``parts`` as the scan reads them, a ``number`` being the tokens of
    one number (``0.5`` is ``0``, ``.``, ``5``)."""
    at = 0
    for part in parts:
        if part == "<number>":
            start = at
            while at < len(written) and _NUMBER_TOKEN.fullmatch(written[at]):
                at += 1
            if at == start:
                return False
            continue
        tokens = _tokens(part) if not part.startswith("<") else [part]  # no rule but a number is written
        if list(written[at : at + len(tokens)]) != tokens:
            return False
        at += len(tokens)
    return at == len(written)


def _tokens(part: str) -> list[str]:
    """A part of a statement as the cursor's scan reads it: a word whole, an operator by
    character (``>=`` is ``>``, ``=``)."""
    return [part] if part[:1].isalpha() else list(part)


def _tools(catalogue: Catalogue | None, item: _Item) -> list[types.CompletionItem]:
    if catalogue is None:
        return []
    return [
        item(tool.name, _Kind.Function, detail=signature(tool), documentation=tool.description or None)
        for tool in catalogue.tools.values()
    ]


def _arguments(place: Place, catalogue: Catalogue | None, item: _Item) -> list[types.CompletionItem]:
    found = [item("not", _Kind.Keyword, "not ", detail="the argument is absent", order="3")]
    tool = catalogue.get(place.tool) if catalogue is not None and place.tool else None
    if tool is None:
        return found
    for parameter in parameters(tool):
        if parameter.name in place.given:
            continue
        detail = f"{parameter.types}{'' if parameter.required else ' (optional)'}"
        found.append(
            item(
                parameter.name,
                _Kind.Field,
                detail=detail,
                documentation=parameter.description or None,
                order="1" if parameter.required else "2",
            )
        )
    return found


def _values(place: Place, catalogue: Catalogue | None, item: _Item) -> list[types.CompletionItem]:
    found = [item("any", _Kind.Keyword, detail="any value, null included")]
    tool = catalogue.get(place.tool) if catalogue is not None and place.tool else None
    if tool is None:
        return found
    for parameter in parameters(tool):
        schema = parameter.schema
        if parameter.name == place.argument and isinstance(schema, dict):
            for value in schema.get("enum", ()) if isinstance(schema.get("enum"), list) else ():
                shown = json.dumps(value, ensure_ascii=False)
                found.append(item(shown, _Kind.EnumMember, detail=f"allowed by {tool.name}"))
    return found
