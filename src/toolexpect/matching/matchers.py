"""Argument matchers as predicates: each ``ArgMatcher`` of the model becomes one test.

A test (a :data:`Check`) takes a call's arguments and says whether the matcher holds,
as docs/language.md's table of argument matchers says. The same forms match a key inside an
object value (:func:`compile_key`, the object standing for the arguments), where a value is
compared by the nested rules (``=``, ``!=``, ``in``, ``contains``) and a comparison or
tolerance by numeric value, as at the top level. Regular expressions (RE2) are
compiled once per pattern. An expectation becomes a :class:`CompiledExpectation`: a test
per matcher and one for them all, cheap matchers first.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import re2

from toolexpect.calls import ToolCall
from toolexpect.matching.values import (
    compile_pattern,
    matches_pattern,
    nested_key,
    number_value,
    pattern_key,
    value_key,
)
from toolexpect.model import ArgMatcher, Expectation, KeyMatch, Op

__all__ = [
    "MISSING",
    "NO_ARGUMENTS",
    "Check",
    "CompiledExpectation",
    "all_of",
    "arg_matches",
    "arguments_of",
    "compile_arg",
    "compile_key",
    "contains_test",
    "cost",
    "expectation_matches",
    "indexable",
    "key_test",
    "pattern_matches",
    "pattern_test",
    "signature",
]

Check = Callable[[Mapping[str, Any]], bool]
"""A compiled predicate over a call's arguments."""

MISSING: Any = object()
"""Stands for an argument a call does not have."""

NO_ARGUMENTS: Mapping[str, Any] = MappingProxyType({})
"""What matchers see of a call whose arguments were not valid JSON: no arguments at all."""


def arguments_of(call: ToolCall) -> Mapping[str, Any]:
    """The arguments matchers see: none at all when the call's were not valid JSON."""
    return call.arguments if call.valid_json else NO_ARGUMENTS


@functools.lru_cache(maxsize=4096)
def searchable(pattern: str) -> bool:
    """Whether an RE2 set takes ``pattern`` as :func:`_regex` compiles it (for the pairing's
    index of the groups that search an argument)."""
    if _regex(pattern) is None:
        return False
    patterns = re2.Set.SearchSet()
    try:
        patterns.Add(pattern)
        patterns.Compile()
    except Exception:  # re2.error, or a TypeError/ValueError from a bad pattern
        return False
    return True


@functools.lru_cache(maxsize=4096)
def _regex(pattern: str) -> Callable[[str], bool] | None:
    """A search function for an RE2 pattern, compiled once; ``None`` when RE2 rejects it.

    The search runs on the UTF-8 bytes of the text (lone surrogates, which JSON allows, are
    passed through instead of raising), through the compiled RE2 object directly when the
    ``re2`` module exposes it, else through its public ``search``.
    """
    try:
        compiled = re2.compile(pattern)
    except Exception:  # re2.error, or a TypeError/ValueError from a bad pattern
        return None
    raw = getattr(compiled, "_regexp", None)
    anchor = getattr(getattr(re2, "_Anchor", None), "UNANCHORED", None)
    if raw is not None and anchor is not None and hasattr(raw, "Match"):
        match = raw.Match

        def search_bytes(text: str) -> bool:
            data = text.encode("utf-8", "surrogatepass")
            return bool(match(anchor, data, 0, len(data))[0][0] >= 0)

        return search_bytes

    def search_text(text: str) -> bool:
        try:
            return compiled.search(text) is not None
        except UnicodeEncodeError:
            return False

    return search_text


def _never(arguments: Mapping[str, Any]) -> bool:
    return False


def _always(arguments: Mapping[str, Any]) -> bool:
    return True


_COMPARE: dict[Op, Callable[[Any, Any], bool]] = {
    Op.LT: operator.lt,
    Op.LE: operator.le,
    Op.GT: operator.gt,
    Op.GE: operator.ge,
}

_COST: dict[Op, int] = {
    Op.ABSENT: 0,
    Op.ANY: 0,
    Op.EQ: 1,
    Op.NE: 1,
    Op.LT: 2,
    Op.LE: 2,
    Op.GT: 2,
    Op.GE: 2,
    Op.IN: 3,
    Op.APPROX: 3,
    Op.PARTIAL: 4,
    Op.CONTAINS: 4,
    Op.REGEX: 5,
}
"""Rough cost of each test: an expectation tests cheap matchers first and stops at a miss."""


def _compile_eq(name: str, value: Any) -> Check:
    kind = type(value)
    if kind is str:
        return lambda a: a.get(name, MISSING) == value
    if value is None:
        return lambda a: name in a and a[name] is None
    if kind is bool:
        return lambda a: a.get(name, MISSING) is value
    if kind is int or kind is float:
        want = number_value(value)
        if want is None:
            return _never

        def number_eq(a: Mapping[str, Any]) -> bool:
            got = a.get(name, MISSING)
            got_kind = type(got)
            if got_kind is int:
                return bool(got == want)
            if got_kind is float:
                return got == got and Decimal(repr(got)) == want
            return False

        return number_eq
    # Containers and partial objects: the nested rules.
    test = pattern_test(value)

    def pattern_eq(a: Mapping[str, Any]) -> bool:
        got = a.get(name, MISSING)
        return got is not MISSING and test(got)

    return pattern_eq


def _compile_approx(name: str, centre: Any, tolerance: Any) -> Check:
    mid = number_value(centre)
    tol = number_value(tolerance)
    if mid is None or tol is None:
        return _never
    if isinstance(mid, Decimal) and not mid.is_finite():
        return _never
    if isinstance(tol, Decimal) and not tol.is_finite():
        return _never
    if tol < 0:
        return _never
    low = Fraction(mid) - Fraction(tol)
    high = Fraction(mid) + Fraction(tol)

    def approx(a: Mapping[str, Any]) -> bool:
        got = number_value(a.get(name, MISSING))
        if got is None:
            return False
        if isinstance(got, Decimal) and not got.is_finite():
            return False
        return bool(low <= got <= high)

    return approx


def key_test(match: KeyMatch) -> Check:
    """The test of a key's matchers on the object that holds it (all of them must hold)."""
    return all_of([compile_key(m) for m in match.matchers])


def pattern_test(pattern: Any) -> Callable[[Any], bool]:
    """The test of a value by a pattern (nested rules; partial objects, keys' matchers)."""
    return compile_pattern(pattern, key_test)


def pattern_matches(pattern: Any, actual: Any) -> bool:
    """True when ``actual`` matches ``pattern`` (as :func:`pattern_test`, without compiling)."""
    return matches_pattern(pattern, actual, key_test)


def contains_test(element: Any) -> Callable[[Any], bool]:
    """The test of ``contains``: a list holding an element that matches ``element`` by the
    nested rules, or (for a string ``element``) a string holding it as a substring."""
    test = pattern_test(element)
    text = element if type(element) is str else None

    def contains(got: Any) -> bool:
        if isinstance(got, list | tuple):
            for item in got:  # noqa: SIM110 - faster than any()
                if test(item):
                    return True
            return False
        return text is not None and type(got) is str and text in got

    return contains


def _compile_nested_eq(name: str, value: Any) -> Check:
    """``key: value`` inside an object: present and equal by the nested rules."""
    test = pattern_test(value)

    def pattern_eq(a: Mapping[str, Any]) -> bool:
        got = a.get(name, MISSING)
        return got is not MISSING and test(got)

    return pattern_eq


def _compile_present(matcher: ArgMatcher, nested: bool = False) -> Check:
    """The matcher's test, for a call where the argument must be present (``?`` aside);
    ``nested``: of a key inside an object, whose values compare by the nested rules."""
    name = matcher.name
    op = matcher.op
    if op is Op.EQ or op is Op.PARTIAL:
        return _compile_nested_eq(name, matcher.value) if nested else _compile_eq(name, matcher.value)
    if op is Op.NE:
        equal = _compile_nested_eq(name, matcher.value) if nested else _compile_eq(name, matcher.value)
        return lambda a: name in a and not equal(a)
    if op is Op.ANY:
        return lambda a: name in a
    if op is Op.ABSENT:
        return lambda a: name not in a
    if op is Op.IN:
        key_of = nested_key if nested else value_key
        keys = frozenset(key_of(v) for v in matcher.values)
        return lambda a: name in a and key_of(a[name]) in keys
    if op is Op.CONTAINS:
        contains = contains_test(matcher.value)

        def holds(a: Mapping[str, Any]) -> bool:
            got = a.get(name, MISSING)
            return got is not MISSING and contains(got)

        return holds
    if op is Op.REGEX:
        regex = _regex(matcher.pattern)
        if regex is None:
            return _never

        def search(a: Mapping[str, Any]) -> bool:
            got = a.get(name, MISSING)
            return type(got) is str and regex(got)

        return search
    if op is Op.APPROX:
        return _compile_approx(name, matcher.value, matcher.tolerance)
    compare = _COMPARE.get(op)
    bound = number_value(matcher.value)
    if compare is None or bound is None:
        return _never

    def compare_number(a: Mapping[str, Any]) -> bool:
        got = number_value(a.get(name, MISSING))
        return got is not None and compare(got, bound)

    return compare_number


def compile_arg(matcher: ArgMatcher, *, nested: bool = False) -> Check:
    """The full test of one matcher, ``optional`` included (``nested``: see :func:`compile_key`)."""
    if matcher.optional:
        if matcher.op is Op.ABSENT:
            return _always
        name = matcher.name
        present = _compile_present(matcher, nested)
        return lambda a: name not in a or present(a)
    return _compile_present(matcher, nested)


def compile_key(matcher: ArgMatcher) -> Check:
    """The test of a matcher of a key inside an object value, on the object that holds it:
    ``=``, ``!=``, ``in`` and ``contains`` compare values by the nested rules (type included),
    comparisons and tolerances numbers by value, as at the top level."""
    return compile_arg(matcher, nested=True)


def all_of(checks: Sequence[Check]) -> Check:
    """One predicate that holds when every check holds (tested in the order given)."""
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda a: first(a) and second(a)
    frozen = tuple(checks)

    def every(a: Mapping[str, Any]) -> bool:
        for check in frozen:  # noqa: SIM110 - a loop is cheaper than all() over a generator
            if not check(a):
                return False
        return True

    return every


def arg_matches(matcher: ArgMatcher, arguments: Mapping[str, Any]) -> bool:
    """True when one argument matcher holds for a call's ``arguments``."""
    return compile_arg(matcher)(arguments)


def expectation_matches(expectation: Expectation, call: ToolCall) -> bool:
    """True when ``call`` has the expectation's tool name and every matcher holds."""
    if call.name != expectation.tool:
        return False
    arguments = arguments_of(call)
    return all(arg_matches(m, arguments) for m in expectation.args)


def signature(matcher: ArgMatcher) -> Hashable:
    """A key equal for two matchers that test the same thing (to group equal expectations)."""
    return (
        matcher.name,
        matcher.op.value,
        matcher.optional,
        pattern_key(matcher.value),
        tuple(pattern_key(v) for v in matcher.values),
        matcher.pattern,
        pattern_key(matcher.tolerance),
    )


def cost(matcher: ArgMatcher) -> int:
    """The rough cost of a matcher's test: cheap tests run first and stop at a miss."""
    return _COST[matcher.op]


def indexable(matcher: ArgMatcher) -> bool:
    """An equality matcher whose value an exact key (:func:`value_key`) can stand for."""
    return matcher.op is Op.EQ and not matcher.optional


@dataclass(frozen=True, slots=True)
class CompiledExpectation:
    """One expectation made ready to test: a test per matcher and one for all of them."""

    index: int
    expectation: Expectation
    arg_checks: tuple[Check, ...]
    check: Check

    @classmethod
    def of(cls, index: int, expectation: Expectation) -> CompiledExpectation:
        """Compile ``expectation``, the ``index``-th of its case (or of its forbids)."""
        arg_checks = tuple(compile_arg(m) for m in expectation.args)
        by_cost = sorted(zip(expectation.args, arg_checks, strict=True), key=lambda p: cost(p[0]))
        return cls(index, expectation, arg_checks, all_of([check for _, check in by_cost]))
