"""Whether some value a parameter's schema allows can satisfy a matcher: a comparison or ``+-``
against the schema's bounds and listed numbers, a ``~`` pattern against its listed strings.

Values are weighed as the matcher weighs them: numbers exactly, patterns by the matcher's own
compiled test (RE2), so a finding here is a matcher that no valid call can ever meet.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from toolexpect.lint import regex_error
from toolexpect.matching.matchers import compile_arg
from toolexpect.matching.values import number_value
from toolexpect.model import ArgMatcher, Op
from toolexpect.toolcheck.schemas import MAX_DEPTH, Node, ToolSchema, members_of, types_of

__all__ = ["range_problem", "show", "unmatched_strings"]


def show(value: Any) -> str:
    """A value as the spec language writes it (JSON)."""
    return json.dumps(value, ensure_ascii=False)


def unmatched_strings(arg: ArgMatcher, node: Node, schemas: ToolSchema) -> list[str] | None:
    """The strings the schema at ``node`` lists, when the ``~`` pattern of ``arg`` matches none.

    ``None`` when some allowed string may match: the schema lists no values (any string is
    allowed), one listed string matches, or the pattern is not valid RE2 (lint's ``L302``).
    Members that are not strings never match a pattern, so they are left out.
    """
    if regex_error(arg.pattern) is not None:
        return None
    choices = _string_choices(schemas, node)
    if choices is None:
        return None
    test = compile_arg(arg)
    if any(test({arg.name: choice}) for choice in choices):
        return None
    return choices


def _string_choices(schemas: ToolSchema, node: Node, depth: int = 0) -> list[str] | None:
    """The strings a subschema allows when it lists them (``enum``, ``const``, or a union of
    branches that all do); ``None`` when any string may be allowed.

    The list may hold strings that another keyword rejects (an ``allOf`` member's list is taken
    as it is), never less than the allowed strings: so a pattern that matches none of them
    matches no allowed string.
    """
    resolved = schemas.deref(node)
    schema = resolved.schema
    if schema is False or "string" not in types_of(schemas, resolved):
        return []
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return None
    if "const" in schema:
        return [schema["const"]] if isinstance(schema["const"], str) else []
    if isinstance(schema.get("enum"), list):
        return list(dict.fromkeys(v for v in schema["enum"] if isinstance(v, str)))
    for key in ("anyOf", "oneOf"):
        members = members_of(resolved, key)
        if members:
            union: list[str] = []
            for member in members:
                listed = _string_choices(schemas, member, depth + 1)
                if listed is None:
                    break
                union.extend(listed)
            else:
                return list(dict.fromkeys(union))
    for member in members_of(resolved, "allOf"):
        listed = _string_choices(schemas, member, depth + 1)
        if listed is not None:
            return listed
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def range_problem(arg: ArgMatcher, schema: Any) -> str | None:
    """Why no number the schema's bounds allow satisfies the comparison, if none does."""
    if not isinstance(schema, dict):
        return None
    low = _number(schema.get("minimum"))
    high = _number(schema.get("maximum"))
    xlow = _number(schema.get("exclusiveMinimum"))
    xhigh = _number(schema.get("exclusiveMaximum"))
    bound = _number(arg.value)
    if bound is None or math.isnan(bound):
        return None
    op = arg.op
    text = f"`{arg.name} {op.value} {show(arg.value)}`"
    if op is Op.APPROX:
        text = f"`{arg.name} = {show(arg.value)} +- {arg.tolerance}`"
    choices = _choices(schema)
    if choices is not None and not any(_meets(arg, c) for c in choices):
        allowed = ", ".join(show(c) for c in choices) or "no number"
        return f"{text}, but the numbers the schema allows are {allowed}"
    if op is Op.APPROX:
        tolerance = float(arg.tolerance)
        lo, hi = bound - tolerance, bound + tolerance
        if (high is not None and lo > high) or (xhigh is not None and lo >= xhigh):
            return f"{text}, but the maximum is {_limit(high, xhigh)}"
        if (low is not None and hi < low) or (xlow is not None and hi <= xlow):
            return f"{text}, but the minimum is {_limit(low, xlow)}"
        return None
    if op in (Op.GE, Op.GT):
        strict = op is Op.GT
        if (high is not None and (high < bound or (strict and high == bound))) or (
            xhigh is not None and xhigh <= bound
        ):
            return f"{text}, but the maximum is {_limit(high, xhigh)}"
    if op in (Op.LE, Op.LT):
        strict = op is Op.LT
        if (low is not None and (low > bound or (strict and low == bound))) or (
            xlow is not None and xlow >= bound
        ):
            return f"{text}, but the minimum is {_limit(low, xlow)}"
    return None


def _choices(schema: dict[str, Any]) -> list[int | float] | None:
    """The numbers an ``enum`` or ``const`` allows; ``None`` when the schema lists no values."""
    if "const" in schema:
        listed: Any = [schema["const"]]
    elif isinstance(schema.get("enum"), list):
        listed = schema["enum"]
    else:
        return None
    return [v for v in listed if _number(v) is not None]


def _meets(arg: ArgMatcher, choice: int | float) -> bool:
    """Whether the number ``choice`` satisfies the comparison or tolerance of ``arg``, compared
    exactly as the matcher compares (a value it cannot weigh counts as meeting it)."""
    values = [number_value(v) for v in (choice, arg.value, arg.tolerance)]
    if any(v is None or (isinstance(v, Decimal) and not v.is_finite()) for v in values):
        return True
    value, bound, tolerance = (Fraction(cast(int | Decimal, v)) for v in values)
    return {
        Op.APPROX: abs(value - bound) <= tolerance,
        Op.LT: value < bound,
        Op.LE: value <= bound,
        Op.GT: value > bound,
        Op.GE: value >= bound,
    }[arg.op]


def _limit(inclusive: float | None, exclusive: float | None) -> str:
    if exclusive is not None and (inclusive is None or exclusive <= inclusive):
        return f"{_fmt(exclusive)} (exclusive)"
    return _fmt(inclusive) if inclusive is not None else "?"


def _fmt(number: float) -> str:
    return str(int(number)) if number.is_integer() else str(number)
