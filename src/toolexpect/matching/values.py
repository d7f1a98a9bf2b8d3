"""Value semantics: when a recorded argument value is equivalent to an expected one.

Two rules, after docs/language.md (what a spec says):

* **top level** (the argument value itself): a number (``int`` or ``float``, never ``bool``)
  equals any number of the same exact decimal value, taken from its shortest representation
  (``Decimal(repr(x))``), so ``5 == 5.0``, ``1.50 == 1.5`` and ``2e23 == 200000000000000000000000``;
* **nested** (inside a list or an object): strict equality with types, so nested ``5`` is not
  nested ``5.0`` and nested ``-0.0`` is not nested ``0.0``.

At any depth: NaN equals nothing (not even NaN), a boolean is never a number, ``null`` equals
only ``null``, strings compare exactly, object key order is ignored and list order is kept.
A :class:`~toolexpect.model.PartialObject` in a pattern matches any object that holds at least
its keys, each value matching by the nested rules. A key whose pattern is a
:class:`~toolexpect.model.KeyMatch` (``{city ~ "^Ber", ...}``) is tested by its matchers on the
object, as an argument's are on a call's arguments: the caller gives the compiler of a key's
matchers (``keys``, :func:`toolexpect.matching.matchers.key_test`), without which a
:class:`~toolexpect.model.KeyMatch` holds for nothing. An object pattern with a key's matchers
and without ``...`` holds no key beyond those it names.

Everything here walks values with an explicit stack: recorded logs are untrusted and a value
nested 100,000 deep must not raise ``RecursionError``.

The key functions give a hashable value per equivalence class, for indexing: two values are
equivalent exactly when their keys are equal (a NaN anywhere gives a key equal to nothing).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from toolexpect.model import KeyMatch, PartialObject, arg_to_json

__all__ = [
    "KeyTest",
    "compile_pattern",
    "equivalent",
    "exact_fraction",
    "is_number",
    "matches_pattern",
    "nested_key",
    "number_value",
    "pattern_key",
    "strict_equal",
    "value_key",
]


def is_number(value: object) -> bool:
    """True for an ``int`` or ``float`` that is not a ``bool``."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def number_value(value: object) -> int | Decimal | None:
    """The exact decimal value of a top-level number; ``None`` for NaN and non-numbers.

    An ``int`` is returned as it is (it compares and hashes exactly like its ``Decimal``);
    a ``float`` becomes ``Decimal(repr(value))``, the decimal of its shortest representation.
    Infinities are kept (``Decimal("Infinity")``).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value:
            return None
        return Decimal(repr(value))
    return None


def exact_fraction(number: float) -> Fraction:
    """The exact decimal value of a threshold or pass rate, as a fraction (1 for NaN)."""
    value = number_value(number)
    return Fraction(value) if value is not None else Fraction(1)


class _Unique:
    """A key equal only to itself: the key of a value holding NaN, which equals nothing."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<NaN key>"


def _float_equal(expected: float, actual: float) -> bool:
    """Strict float equality: NaN never equal, ``-0.0`` is not ``0.0``."""
    if expected != actual:  # also true for NaN
        return False
    return expected != 0.0 or math.copysign(1.0, expected) == math.copysign(1.0, actual)


KeyTest = Callable[[KeyMatch], Callable[[Mapping[str, Any]], bool]]
"""Compiles a key's matchers into a test of the object that holds the key."""


def _no_keys(match: KeyMatch) -> Callable[[Mapping[str, Any]], bool]:
    return lambda got: False


def matches_pattern(pattern: Any, actual: Any, keys: KeyTest = _no_keys) -> bool:
    """True when ``actual`` matches ``pattern`` by the nested (strict) rules, at any depth.

    ``pattern`` is a JSON value in which objects may be :class:`PartialObject`; a plain
    object must have exactly the same keys, a partial one at least its keys. A key's
    matchers (:class:`KeyMatch`) are tested by what ``keys`` makes of them.
    """
    stack: list[tuple[Any, Any]] = [(pattern, actual)]
    pop = stack.pop
    push = stack.append
    while stack:
        expected, got = pop()
        kind = type(expected)
        if kind is str:
            if type(got) is not str or got != expected:
                return False
        elif expected is None:
            if got is not None:
                return False
        elif kind is bool:
            if got is not expected:
                return False
        elif kind is int:
            if type(got) is not int or got != expected:
                return False
        elif kind is float:
            if type(got) is not float or not _float_equal(expected, got):
                return False
        elif kind is list or kind is tuple:
            if not isinstance(got, list | tuple) or len(got) != len(expected):
                return False
            stack.extend(zip(expected, got, strict=True))
        elif kind is dict:
            if not isinstance(got, dict):
                return False
            if len(got) != len(expected) and not (
                _key_matched(expected) and all(key in expected for key in got)
            ):
                return False
            for key, value in expected.items():
                if type(value) is KeyMatch:
                    if not keys(value)(got):
                        return False
                elif key not in got:
                    return False
                else:
                    push((value, got[key]))
        elif kind is PartialObject:
            if not isinstance(got, dict):
                return False
            for key, value in expected.entries.items():
                if type(value) is KeyMatch:
                    if not keys(value)(got):
                        return False
                elif key not in got:
                    return False
                else:
                    push((value, got[key]))
        else:
            return False
    return True


def _key_matched(entries: Mapping[str, Any]) -> bool:
    """True when some key of an object pattern is matched by matchers, not a value."""
    return any(type(value) is KeyMatch for value in entries.values())


_COMPILED_DEPTH = 16
"""Patterns nested deeper than this are matched by :func:`matches_pattern` itself."""


def compile_pattern(pattern: Any, keys: KeyTest = _no_keys) -> Callable[[Any], bool]:
    """A predicate equal to ``lambda actual: matches_pattern(pattern, actual, keys)``, made once.

    The pattern's structure is turned into nested closures (no stack, no per-call dispatch
    on the pattern's types); a pattern nested deeper than a small bound falls back to
    :func:`matches_pattern`, so no call ever recurses deeply.
    """
    compiled = _compile_pattern(pattern, 0, keys)
    if compiled is None:
        return lambda actual: matches_pattern(pattern, actual, keys)
    return compiled


def _compile_pattern(pattern: Any, depth: int, keys: KeyTest) -> Callable[[Any], bool] | None:
    if depth > _COMPILED_DEPTH:
        return None
    kind = type(pattern)
    if kind is str:
        return lambda got: type(got) is str and got == pattern
    if pattern is None:
        return lambda got: got is None
    if kind is bool:
        return lambda got: got is pattern
    if kind is int:
        return lambda got: type(got) is int and got == pattern
    if kind is float:
        return lambda got: type(got) is float and _float_equal(pattern, got)
    if kind is list or kind is tuple:
        elements: list[Callable[[Any], bool]] = []
        for element in pattern:
            compiled = _compile_pattern(element, depth + 1, keys)
            if compiled is None:
                return None
            elements.append(compiled)
        size = len(elements)
        frozen = tuple(elements)

        def sequence(got: Any) -> bool:
            if not isinstance(got, list | tuple) or len(got) != size:
                return False
            for test, item in zip(frozen, got, strict=True):  # noqa: SIM110 - faster than all()
                if not test(item):
                    return False
            return True

        return sequence
    if kind is dict or kind is PartialObject:
        entries = pattern.entries if kind is PartialObject else pattern
        members: list[tuple[Any, Callable[[Any], bool]]] = []
        keyed: list[Callable[[Mapping[str, Any]], bool]] = []
        for key, value in entries.items():
            if type(value) is KeyMatch:
                keyed.append(keys(value))
                continue
            compiled = _compile_pattern(value, depth + 1, keys)
            if compiled is None:
                return None
            members.append((key, compiled))
        if keyed:
            return _keyed_mapping(tuple(members), tuple(keyed), frozenset(entries) if kind is dict else None)
        count = len(members) if kind is dict else -1
        pairs = tuple(members)

        def mapping(got: Any) -> bool:
            if not isinstance(got, dict) or (count >= 0 and len(got) != count):
                return False
            for key, test in pairs:  # noqa: SIM110 - faster than all()
                if key not in got or not test(got[key]):
                    return False
            return True

        return mapping
    return lambda got: False


def _keyed_mapping(
    pairs: tuple[tuple[Any, Callable[[Any], bool]], ...],
    keyed: tuple[Callable[[Mapping[str, Any]], bool], ...],
    allowed: frozenset[str] | None,
) -> Callable[[Any], bool]:
    """The test of an object pattern with keys' matchers: each key's value or matchers hold,
    and (``allowed``, without ``...``) the object holds no key the pattern does not name."""

    def mapping(got: Any) -> bool:
        if not isinstance(got, dict):
            return False
        if allowed is not None:
            for key in got:
                if key not in allowed:
                    return False
        for key, test in pairs:
            if key not in got or not test(got[key]):
                return False
        for check in keyed:  # noqa: SIM110 - faster than all()
            if not check(got):
                return False
        return True

    return mapping


def strict_equal(first: Any, second: Any) -> bool:
    """The nested equality: types included, NaN equal to nothing, ``-0.0`` not ``0.0``."""
    return matches_pattern(first, second)


def equivalent(expected: Any, actual: Any) -> bool:
    """Top-level equivalence of an argument value (numbers by exact decimal value).

    ``expected`` may hold :class:`PartialObject` patterns (matched by the nested rules).
    """
    if type(expected) is str:
        return type(actual) is str and actual == expected
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        want = number_value(expected)
        if want is None:
            return False
        got = number_value(actual)
        return got is not None and got == want
    return matches_pattern(expected, actual)


def _encode(value: Any, *, partial: bool) -> str | None:
    """A canonical text of a value by the nested rules; ``None`` when it holds NaN.

    Every item is tagged with its type and strings are length-prefixed, so two values give
    the same text exactly when they are strictly equal. With ``partial`` a
    :class:`PartialObject` is encoded with its own tag (for pattern signatures).
    """
    out: list[str] = []
    emit = out.append
    # Each stack item is (is_text, payload): text is emitted as is, a value is encoded.
    stack: list[tuple[bool, Any]] = [(False, value)]
    pop = stack.pop
    push = stack.append
    while stack:
        is_text, item = pop()
        if is_text:
            emit(item)
            continue
        kind = type(item)
        if kind is str:
            emit(f"s{len(item)}:")
            emit(item)
        elif item is None:
            emit("n")
        elif item is True:
            emit("t")
        elif item is False:
            emit("f")
        elif kind is int:
            emit(f"i{item:x};")
        elif kind is float:
            if item != item:
                return None
            emit(f"d{item.hex()};")
        elif kind is list or kind is tuple:
            emit(f"[{len(item)}:")
            push((True, "]"))
            for element in reversed(item):
                push((False, element))
        elif partial and kind is KeyMatch:
            nodes = [arg_to_json(m) for m in item.matchers]
            emit(f"m{json.dumps(nodes, sort_keys=True)};")
        elif kind is dict or (partial and kind is PartialObject):
            entries = item.entries if kind is PartialObject else item
            emit(f"{'<' if kind is PartialObject else '{'}{len(entries)}:")
            push((True, ">" if kind is PartialObject else "}"))
            for key in sorted(entries, reverse=True):
                push((False, entries[key]))
                push((True, f"k{len(key)}:{key}"))
        else:
            emit(f"?{type(item).__name__}:{item!r};")
    return "".join(out)


def nested_key(value: Any) -> Hashable:
    """A hashable key of ``value`` under the nested rules (equal keys ⇔ strictly equal)."""
    text = _encode(value, partial=False)
    return ("v", text) if text is not None else _Unique()


def value_key(value: Any) -> Hashable:
    """A hashable key of a top-level argument value (equal keys ⇔ equivalent values).

    Numbers are keyed by exact decimal value (``int`` or ``Decimal``, which hash alike),
    strings by themselves, ``null`` by ``None``, booleans and containers by tagged tuples.
    """
    kind = type(value)
    if kind is str or kind is int:
        key: Hashable = value
        return key
    if value is None:
        return None
    if kind is bool:
        return ("b", value)
    if kind is float:
        number = number_value(value)
        return number if number is not None else _Unique()
    return nested_key(value)


def pattern_key(pattern: Any) -> Hashable:
    """A hashable signature of a pattern, partial objects included (for grouping equal ones)."""
    text = _encode(pattern, partial=True)
    return ("p", text) if text is not None else _Unique()
