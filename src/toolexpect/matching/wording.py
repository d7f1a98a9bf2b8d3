"""How failure messages name what they are about: an expectation as ``format`` writes it, what
each matcher expects in words, and values cut short (JSON-like, iterative).

The wording of a case's expectations is the same for every run, so :func:`wording` is made once
per case, when a failure first needs it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from toolexpect.calls import ToolCall
from toolexpect.matching.matchers import CompiledExpectation
from toolexpect.model import (
    ArgMatcher,
    Expectation,
    KeyMatch,
    Op,
    PartialObject,
    expectation_to_json,
    pattern_to_json,
)

__all__ = ["Wording", "describe", "render_value", "source_call", "unread_arguments", "wording"]

_json_string: Callable[[str], str] = json.encoder.encode_basestring
"""A string as JSON text with non-ASCII characters kept: ``json.dumps(s, ensure_ascii=False)``."""


def render_value(value: Any, limit: int = 60) -> str:
    """Short JSON-like text of a value (iterative, cut at about ``limit`` characters)."""
    out: list[str] = []
    size = 0
    stack: list[tuple[bool, Any]] = [(False, value)]
    while stack:
        if size > limit:
            return "".join(out)[:limit] + "…"
        is_text, item = stack.pop()
        text: str
        if is_text:
            text = item
        elif isinstance(item, str):
            text = _json_string(item)
        elif item is None:
            text = "null"
        elif isinstance(item, bool):
            text = "true" if item else "false"
        elif isinstance(item, int):
            bits = item.bit_length()
            text = str(item) if bits < 160 else f"<integer of {bits} bits>"
        elif isinstance(item, float):
            text = "NaN" if item != item else repr(item).replace("inf", "Infinity")
        elif isinstance(item, list | tuple):
            text = "["
            stack.append((True, "]"))
            for position, element in enumerate(reversed(item)):
                stack.append((False, element))
                if position < len(item) - 1:
                    stack.append((True, ", "))
        elif isinstance(item, dict | PartialObject):
            entries = item.entries if isinstance(item, PartialObject) else item
            text = "{"
            stack.append((True, "}"))
            if isinstance(item, PartialObject):
                stack.append((True, ", ..." if entries else "..."))
            keys = list(entries)
            for position, key in enumerate(reversed(keys)):
                entry = entries[key]
                if isinstance(entry, KeyMatch):
                    stack.append((True, _key_matchers(str(key), entry)))
                else:
                    stack.append((False, entries[key]))
                    stack.append((True, _json_string(str(key)) + ": "))
                if position < len(keys) - 1:
                    stack.append((True, ", "))
        else:
            text = repr(item)
        out.append(text)
        size += len(text)
    result = "".join(out)
    return result if len(result) <= limit else result[:limit] + "…"


def _key_matchers(key: str, match: KeyMatch) -> str:
    """A key's matchers as ``format`` writes them inside an object: ``"city" ~ "^Ber"``."""
    from toolexpect.language.write import write_member  # loads the grammar: only to explain

    return write_member(key, pattern_to_json(match))


def describe(matcher: ArgMatcher) -> str:
    """What a matcher expects, in words for a message (``"Berlin"``, ``>= 5``, ``absent``)."""
    op = matcher.op
    if op is Op.EQ or op is Op.PARTIAL:
        text = render_value(matcher.value)
    elif op is Op.NE:
        text = "anything but " + render_value(matcher.value)
    elif op is Op.ANY:
        text = "any value"
    elif op is Op.IN:
        text = "one of " + render_value(list(matcher.values))
    elif op is Op.REGEX:
        from toolexpect.language.write import write_pattern  # as format writes it (r"\d+")

        text = "a match for ~ " + write_pattern(matcher.pattern)
    elif op is Op.APPROX:
        text = f"{render_value(matcher.value)} +- {render_value(matcher.tolerance)}"
    elif op is Op.ABSENT:
        text = "absent"
    elif op is Op.CONTAINS:
        text = "contains " + render_value(matcher.value)
    else:
        text = f"{op.value} {render_value(matcher.value)}"
    if matcher.optional and op is not Op.ABSENT:
        text = f"absent or {text}"
    return text


def source_call(expectation: Expectation) -> str:
    """An expectation as ``toolexpect format`` writes it (the same writer), cut when long."""
    from toolexpect.language.write import write_call  # loads the grammar: only to explain

    text = write_call(expectation_to_json(expectation))
    return text if len(text) <= 120 else text[:119] + "…"


class Wording(NamedTuple):
    """How messages name one expectation: as the spec spells it, and what each matcher expects."""

    source: str
    described: tuple[str, ...]


def wording(expectations: Sequence[CompiledExpectation]) -> tuple[Wording, ...]:
    """The wording of each expectation of a case (the same for every run, so made once)."""
    return tuple(
        Wording(source_call(c.expectation), tuple(describe(m) for m in c.expectation.args))
        for c in expectations
    )


def unread_arguments(call: ToolCall) -> str:
    """The text of a call's arguments that were not valid JSON, as logged (cut when long)."""
    return render_value(call.raw_arguments if call.raw_arguments is not None else "", 80)
