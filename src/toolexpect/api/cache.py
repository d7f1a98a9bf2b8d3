"""Compiled cases of the evaluator's samples, reused for samples with the same expectations.

Most samples of a data set share their expectations, and compiling is the larger part of
scoring a small sample. A sample's expectations are known by a key: the bytes of a pickle
that only plain values of exact builtin types get (so ``5`` and ``5.0``, ``true`` and ``1``
stay apart); the compiled cases are kept in a bounded, thread-safe cache. Each thread has
its own pickler and buffer.
"""

from __future__ import annotations

import functools
import io
import pickle
import threading
from collections.abc import Callable, Sequence
from typing import Any

from toolexpect.api.calls import CallLike, expectation_of
from toolexpect.diagnostics import Span
from toolexpect.matching import CompiledCase
from toolexpect.model import Case, Expectation

__all__ = ["compiled_sample"]

_CACHE_SIZE = 512
_CACHED_EXPECTATIONS = 64  # larger cases are rarely repeated; keying them costs more than it saves


class _KeyPickler(pickle.Pickler):
    """Pickles only values of exact builtin types: ``None``, booleans, ints, floats, strings,
    bytes, tuples, lists, dicts, sets and frozensets.

    The C pickler writes those types itself without asking :meth:`reducer_override`; every
    other object (a subclass, an enum, a ``ToolCall``, a type, a bytearray) reaches it and
    is refused, and protocol 4 refuses a ``PickleBuffer``. So two values with the same bytes hold the
    same types and values in the same order: a key that keeps ``5`` and ``5.0``, ``true``
    and ``1``, ``"1"`` and ``1`` apart.
    """

    def reducer_override(self, obj: Any) -> Any:
        """Refuse every object the pickler does not write by itself."""
        raise TypeError(f"not a plain value: {type(obj).__name__}")


class _Keys(threading.local):
    """One buffer and pickler per thread, reused from key to key.

    The pickler runs in fast mode (no memo): shared and repeated parts are written out in
    full, so a key depends on the value alone; a cyclic value is refused.
    """

    def __init__(self) -> None:
        self.buffer = io.BytesIO()
        self.pickler = _KeyPickler(self.buffer, protocol=4)
        self.pickler.fast = True


_KEYS = _Keys()


def _key(value: Any) -> bytes | None:
    """Bytes that only an identical plain value gives (see :class:`_KeyPickler`), else ``None``."""
    keys = _KEYS
    buffer = keys.buffer
    buffer.seek(0)
    buffer.truncate()
    try:
        keys.pickler.dump(value)
    except Exception:  # not plain (TypeError), too deep (RecursionError), ...
        return None
    return buffer.getvalue()


def _span_key(span: Span | None) -> tuple[int, int, int, int] | None:
    return None if span is None else (span.line, span.column, span.end_line, span.end_column)


def _case_key(case: Case) -> bytes | None:
    """The cache key of a case built from ``Expectation`` s or ``ToolCall`` s (spans included)."""
    return _key(
        (
            "case",
            case.name,
            case.question,
            [
                (
                    e.tool,
                    _span_key(e.span),
                    [
                        (
                            a.name,
                            a.op.value,
                            a.value,
                            a.values,
                            a.pattern,
                            a.tolerance,
                            a.optional,
                            _span_key(a.span),
                        )
                        for a in e.args
                    ],
                )
                for e in case.expectations
            ],
        )
    )


class _Keyed:
    """A case in the cache of compiled cases, known by its key (the bytes of :func:`_key`)."""

    __slots__ = ("key", "make")

    def __init__(self, key: bytes, make: Callable[[], Case]) -> None:
        self.key = key
        self.make = make

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and other.key == self.key


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _compile_keyed(keyed: _Keyed) -> CompiledCase:
    """The compiled case of the first case seen with this key (thread-safe, bounded)."""
    return CompiledCase(keyed.make())


def _sample_case(question: str | None, expected: Sequence[CallLike | Expectation]) -> Case:
    return Case(
        name=question or "sample",
        expectations=tuple([expectation_of(e) for e in expected]),
        question=question,
    )


def compiled_sample(question: str | None, expected: Sequence[CallLike | Expectation]) -> CompiledCase:
    """The compiled case of an evaluator's sample, reused for samples with the same expectations.

    Expected calls given as plain dicts are keyed as they are, before any conversion; others
    (``ToolCall``, ``Expectation``, dict subclasses) by the case they make.
    """
    if len(expected) > _CACHED_EXPECTATIONS:
        return CompiledCase(_sample_case(question, expected))
    key = _key(("sample", question, expected))
    if key is not None:
        return _compile_keyed(_Keyed(key, functools.partial(_sample_case, question, expected)))
    case = _sample_case(question, expected)
    key = _case_key(case)
    return _compile_keyed(_Keyed(key, lambda: case)) if key is not None else CompiledCase(case)
