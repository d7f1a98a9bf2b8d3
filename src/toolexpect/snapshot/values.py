"""Which recorded values and names a spec can hold, and recorded values as document values.

A log may hold what the language cannot write (docs/language.md, Values and Limits): NaN and
infinities, integers of more than 640 digits, text that is not valid Unicode (a lone
surrogate decoded from a ``\\ud800`` escape), values nested deeper than 64 levels. Such a
value is written ``=any`` and a name that cannot be written is left out, each with a
diagnostic; everything else is written exactly as recorded.
"""

from __future__ import annotations

import math
from typing import Any

from toolexpect.language.layout import MAX_DEPTH
from toolexpect.language.strings import MAX_INT_DIGITS

__all__ = ["as_document_value", "unwritable_name", "unwritable_value"]

_INT_BOUND = 10**MAX_INT_DIGITS
_WRAPPED = ("$partial", "$literal", "$match")


def _text_problem(text: str) -> str | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "text that is not valid Unicode (a lone surrogate)"
    return None


def unwritable_name(name: str) -> str | None:
    """Why a tool, argument or case name cannot be written in a spec; ``None`` when it can."""
    if not name:
        return "an empty name"
    return _text_problem(name)


def unwritable_value(value: Any, *, depth: int = 0) -> str | None:
    """Why ``value`` (standing ``depth`` levels deep) cannot be written; ``None`` when it can.

    Walked with an explicit stack: a recorded value may nest deeper than Python recurses.
    """
    stack: list[tuple[Any, int]] = [(value, depth)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int):
            if not -_INT_BOUND < item < _INT_BOUND:
                return f"an integer of more than {MAX_INT_DIGITS} digits"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"the number {item!r}, which JSON cannot spell"
        elif isinstance(item, str):
            problem = _text_problem(item)
            if problem:
                return problem
        elif isinstance(item, list | dict):
            if level + 1 > MAX_DEPTH:
                return f"a value nested deeper than {MAX_DEPTH} levels"
            if isinstance(item, dict):
                for key, member in item.items():
                    problem = _text_problem(key)
                    if problem:
                        return problem
                    stack.append((member, level + 1))
            else:
                stack.extend((member, level + 1) for member in item)
        else:
            return f"a {type(item).__name__}, which is not a JSON value"
    return None


def as_document_value(value: Any) -> Any:
    """A recorded value as the canonical document holds it: an object whose only key is
    ``$partial``, ``$literal`` or ``$match`` is wrapped in ``{"$literal": ...}``, so that it means
    itself.

    Call only on a value :func:`unwritable_value` accepts (it nests at most 64 levels).
    """
    if isinstance(value, list):
        return [as_document_value(member) for member in value]
    if isinstance(value, dict):
        plain = {key: as_document_value(member) for key, member in value.items()}
        if len(plain) == 1 and next(iter(plain)) in _WRAPPED:
            return {"$literal": plain}
        return plain
    return value
