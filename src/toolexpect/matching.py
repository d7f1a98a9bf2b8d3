"""Match a case's expectations against a recorded run, and decide pass or fail.

Pure: no I/O, no printing. The steps, after LANGUAGE.md sections 1 to 3 and 5:

1. :func:`compile_case` turns a :class:`~toolexpect.model.Case` into a :class:`CompiledCase`
   once: every argument matcher becomes a small predicate (regexes compiled once), identical
   expectations are grouped, and expectations are bucketed by tool name.
2. :meth:`CompiledCase.evaluate` scores one run: a maximum bipartite matching of expectations
   to calls (greedy start, then augmenting paths), per tool, with an index on equality
   arguments for large buckets. Argument-less expectations take the calls left over.
3. Requirements are checked (threshold, ``forbid``, unexpected calls, no tool calls, ``then``
   chains and ``require order``); only a failing run gets explanations (:class:`Failure`).
4. :class:`CaseAccumulator` (or :func:`aggregate`) folds repeated runs of one case.

Positions: every index in the data (``pairs``, ``details``) is 0-based; messages written for
people say ``call #N`` with N 1-based.
"""

from __future__ import annotations

import difflib
import functools
import heapq
import json
import math
import operator
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

import re2

from toolexpect.calls import ToolCall
from toolexpect.diagnostics import Span
from toolexpect.equivalence import (
    compile_pattern,
    number_value,
    pattern_key,
    value_key,
)
from toolexpect.model import ArgMatcher, Case, Expectation, Op, PartialObject

__all__ = [
    "ArgReport",
    "CaseAccumulator",
    "CaseResult",
    "CompiledCase",
    "Failure",
    "FailureKind",
    "MatchResult",
    "NearMiss",
    "RunResult",
    "Status",
    "aggregate",
    "arg_matches",
    "compile_case",
    "evaluate",
    "expectation_matches",
    "source_call",
    "tool_call_accuracy",
]

Status = Literal["pass", "fail", "error"]
"""The outcome of a run or a case."""

FailureKind = Literal[
    "unmatched",
    "threshold",
    "forbidden",
    "unexpected",
    "order",
    "no_tool_calls",
    "pass_rate",
    "error",
]
"""What a :class:`Failure` is about."""

Check = Callable[[Mapping[str, Any]], bool]
"""A compiled predicate over a call's arguments."""

MAX_EXPLAINED = 100
"""At most this many unmatched expectations of a run get a closest-call analysis."""

MAX_SCANNED = 1000
"""At most this many calls of a tool are ranked when looking for the closest calls."""

MAX_CLOSEST = 3
"""How many closest calls an unmatched expectation reports."""

MAX_LISTED = 100
"""At most this many unexpected calls get a record each; the rest share one record."""

MAX_KEPT_RUNS = 10
"""How many failing or erroring runs a :class:`CaseResult` keeps for the report."""

_INDEX_THRESHOLD = 64
"""Below this many (groups x calls) tests per tool, test directly instead of indexing."""

_MISSING: Any = object()
_EMPTY: Mapping[str, Any] = {}


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ArgReport:
    """How one argument matcher of an expectation fared against one recorded call.

    ``expected`` describes the matcher (``"Berlin"``, ``>= 5``, ``absent``); ``got`` is the
    recorded value rendered as short JSON, or ``None`` when the argument is missing.
    """

    name: str
    holds: bool
    expected: str
    got: str | None
    message: str


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A recorded call close to an unmatched expectation: how many matchers hold, and which.

    ``call`` is 0-based; ``paired_with`` is the expectation the call was paired with, if any.
    """

    call: int
    holds: int
    total: int
    paired_with: int | None
    valid_json: bool
    args: tuple[ArgReport, ...]


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a run or a case failed: a kind, one line for people, the spec span, and details.

    ``details`` holds structured data per kind (all positions 0-based):

    * ``unmatched``: ``expectation``, ``tool``, ``never_called``, ``similar_tools``,
      ``closest`` (a tuple of :class:`NearMiss`, best first)
    * ``threshold``: ``score``, ``threshold``, ``matched``, ``expected``
    * ``forbidden``: ``forbid`` (index in ``case.forbids``), ``tool``, ``calls``
    * ``unexpected``: ``calls`` (the unpaired calls this record covers), ``tools``
    * ``order``: ``requirement`` (``"then"`` or ``"require order"``), ``chain`` (index in
      ``case.chains``, ``None`` for ``require order``), ``step``, ``expectation``,
      ``after_call`` (the call the previous step matched, ``None`` for the first step),
      ``matching_calls`` (every call matching the step, wherever it is)
    * ``no_tool_calls``: ``calls`` (all of them)
    * ``pass_rate``: ``runs``, ``passed``, ``required``
    * ``error``: nothing
    """

    kind: FailureKind
    message: str
    span: Span | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The accuracy of one run: pairs and counts, without requirements.

    ``precision`` is paired calls / recorded calls, 1.0 when nothing was recorded (no call
    was wrong). ``f1`` is the harmonic mean of ``score`` and ``precision`` (0.0 when both
    are 0).
    """

    score: float
    matched: int
    expected: int
    calls: int
    precision: float
    f1: float
    pairs: tuple[tuple[int, int], ...]
    unmatched: tuple[int, ...]
    unpaired_calls: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RunResult:
    """The verdict on one recorded run of a case.

    ``score`` is matched / expected, ``None`` for an error or a case without expectations;
    ``precision`` and ``f1`` as in :class:`MatchResult` (``None`` for an error; ``f1`` also
    ``None`` without expectations). ``pairs`` maps expectation index to call index (0-based,
    sorted by expectation). ``failures`` is empty for a passing run.
    """

    case: str
    status: Status
    score: float | None
    matched: int
    expected: int
    calls: int
    precision: float | None
    f1: float | None
    pairs: tuple[tuple[int, int], ...]
    failures: tuple[Failure, ...] = ()

    @property
    def passed(self) -> bool:
        """True when the run passes."""
        return self.status == "pass"

    @property
    def unmatched(self) -> tuple[int, ...]:
        """The indices of the expectations left without a call."""
        paired = {e for e, _ in self.pairs}
        return tuple(e for e in range(self.expected) if e not in paired)


_RUN_SETTERS: tuple[Callable[[Any, Any], None], ...] = tuple(
    vars(RunResult)[name].__set__
    for name in (
        "case", "status", "score", "matched", "expected", "calls", "precision", "f1", "pairs", "failures"
    )
)
_new_object = object.__new__


def new_run(
    case: str,
    status: Status,
    score: float | None,
    matched: int,
    expected: int,
    calls: int,
    precision: float | None,
    f1: float | None,
    pairs: tuple[tuple[int, int], ...],
    failures: tuple[Failure, ...],
) -> RunResult:
    """A :class:`RunResult` built without the frozen-dataclass ``__init__`` cost (same result).

    Internal to toolexpect (scoring uses it to rebuild runs scored in another process).
    """
    run: RunResult = _new_object(RunResult)
    (set_case, set_status, set_score, set_matched, set_expected, set_calls, set_precision, set_f1, set_pairs,
     set_failures) = _RUN_SETTERS
    set_case(run, case)
    set_status(run, status)
    set_score(run, score)
    set_matched(run, matched)
    set_expected(run, expected)
    set_calls(run, calls)
    set_precision(run, precision)
    set_f1(run, f1)
    set_pairs(run, pairs)
    set_failures(run, failures)
    return run


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The verdict on a case over all its recorded runs.

    ``pass_rate`` is passed / runs (``None`` without runs); ``mean_score`` and ``min_score``
    are over runs that have a score. ``kept_runs`` holds up to :data:`MAX_KEPT_RUNS` failing
    or erroring runs as (0-based run number, result); ``failures`` the case-level reasons.
    """

    case: str
    status: Status
    runs: int
    passed: int
    errors: int
    mean_score: float | None
    min_score: float | None
    pass_rate: float | None
    required_pass_rate: float | None
    kept_runs: tuple[tuple[int, RunResult], ...] = ()
    failures: tuple[Failure, ...] = ()


# ---------------------------------------------------------------------------- rendering


_json_string: Callable[[str], str] = json.encoder.encode_basestring
"""A string as JSON text with non-ASCII characters kept: ``json.dumps(s, ensure_ascii=False)``."""


def _render(value: Any, limit: int = 60) -> str:
    """Short JSON-like text of a value (iterative, cut at about ``limit`` characters)."""
    kind = type(value)  # plain scalars first, written as the loop below writes them
    text: str | None = None
    if kind is str:
        text = _json_string(value)
    elif kind is int:
        if value.bit_length() < 160:
            text = str(value)
    elif kind is float:
        text = "NaN" if value != value else repr(value).replace("inf", "Infinity")
    elif kind is bool:
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    if text is not None:
        return text if len(text) <= limit else text[:limit] + "…"
    out: list[str] = []
    size = 0
    stack: list[tuple[bool, Any]] = [(False, value)]
    while stack:
        if size > limit:
            return "".join(out)[:limit] + "…"
        is_text, item = stack.pop()
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


def _describe(matcher: ArgMatcher) -> str:
    """What a matcher expects, in words for a message (``"Berlin"``, ``>= 5``, ``absent``)."""
    op = matcher.op
    if op is Op.EQ or op is Op.PARTIAL:
        text = _render(matcher.value)
    elif op is Op.ANY:
        text = "any value"
    elif op is Op.IN:
        text = "one of " + _render(list(matcher.values))
    elif op is Op.REGEX:
        text = "a match for ~ " + _render(matcher.pattern)
    elif op is Op.APPROX:
        text = f"{_render(matcher.value)} +- {_render(matcher.tolerance)}"
    elif op is Op.ABSENT:
        text = "absent"
    else:
        text = f"{op.value} {_render(matcher.value)}"
    if matcher.optional and op is not Op.ABSENT:
        text = f"absent or {text}"
    return text


def _source_arg(matcher: ArgMatcher) -> str:
    """A matcher written back roughly as the spec spells it."""
    name = matcher.name + ("?" if matcher.optional else "")
    op = matcher.op
    if op is Op.EQ or op is Op.PARTIAL:
        return f"{name}={_render(matcher.value, 30)}"
    if op is Op.ANY:
        return f"{name}=any"
    if op is Op.IN:
        return f"{name} in {_render(list(matcher.values), 30)}"
    if op is Op.REGEX:
        return f"{name} ~ {_render(matcher.pattern, 30)}"
    if op is Op.APPROX:
        return f"{name} = {_render(matcher.value)} +- {_render(matcher.tolerance)}"
    if op is Op.ABSENT:
        return f"not {matcher.name}"
    return f"{name} {op.value} {_render(matcher.value)}"


def source_call(expectation: Expectation) -> str:
    """An expectation written back roughly as the spec spells it, cut when long."""
    if not expectation.args:
        return expectation.tool
    text = f"{expectation.tool}({', '.join(_source_arg(m) for m in expectation.args)})"
    return text if len(text) <= 120 else text[:119] + "…"


# ---------------------------------------------------------------------------- matchers


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
    Op.LT: 2,
    Op.LE: 2,
    Op.GT: 2,
    Op.GE: 2,
    Op.IN: 3,
    Op.APPROX: 3,
    Op.PARTIAL: 4,
    Op.REGEX: 5,
}
"""Rough cost of each test: an expectation tests cheap matchers first and stops at a miss."""


def _compile_eq(name: str, value: Any) -> Check:
    kind = type(value)
    if kind is str:
        return lambda a: a.get(name, _MISSING) == value
    if value is None:
        return lambda a: name in a and a[name] is None
    if kind is bool:
        return lambda a: a.get(name, _MISSING) is value
    if kind is int or kind is float:
        want = number_value(value)
        if want is None:
            return _never

        def number_eq(a: Mapping[str, Any]) -> bool:
            got = a.get(name, _MISSING)
            got_kind = type(got)
            if got_kind is int:
                return bool(got == want)
            if got_kind is float:
                return got == got and Decimal(repr(got)) == want
            return False

        return number_eq
    # Containers and partial objects: the nested rules (what ``equivalent`` applies to them).
    test = compile_pattern(value)

    def pattern_eq(a: Mapping[str, Any]) -> bool:
        got = a.get(name, _MISSING)
        return got is not _MISSING and test(got)

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
        got = number_value(a.get(name, _MISSING))
        if got is None:
            return False
        if isinstance(got, Decimal) and not got.is_finite():
            return False
        return bool(low <= got <= high)

    return approx


def _compile_present(matcher: ArgMatcher) -> Check:
    """The matcher's test, for a call where the argument must be present (``?`` aside)."""
    name = matcher.name
    op = matcher.op
    if op is Op.EQ or op is Op.PARTIAL:
        return _compile_eq(name, matcher.value)
    if op is Op.ANY:
        return lambda a: name in a
    if op is Op.ABSENT:
        return lambda a: name not in a
    if op is Op.IN:
        keys = frozenset(value_key(v) for v in matcher.values)
        return lambda a: name in a and value_key(a[name]) in keys
    if op is Op.REGEX:
        regex = _regex(matcher.pattern)
        if regex is None:
            return _never

        def search(a: Mapping[str, Any]) -> bool:
            got = a.get(name, _MISSING)
            return type(got) is str and regex(got)

        return search
    if op is Op.APPROX:
        return _compile_approx(name, matcher.value, matcher.tolerance)
    compare = _COMPARE.get(op)
    bound = number_value(matcher.value)
    if compare is None or bound is None:
        return _never

    def compare_number(a: Mapping[str, Any]) -> bool:
        got = number_value(a.get(name, _MISSING))
        return got is not None and compare(got, bound)

    return compare_number


def _compile_arg(matcher: ArgMatcher) -> Check:
    """The full test of one matcher, ``optional`` included."""
    if matcher.optional:
        if matcher.op is Op.ABSENT:
            return _always
        name = matcher.name
        present = _compile_present(matcher)
        return lambda a: name not in a or present(a)
    return _compile_present(matcher)


def _json_eq(name: str, value: Any) -> Check | None:
    """The test of ``name=value`` for a container ``value``, for arguments decoded from JSON.

    Such arguments hold only dicts, lists, strings, numbers, booleans and null, so a value
    strictly equal to ``value`` (the nested rules) is also ``==`` to it; ``==`` (in C) then
    leaves only the nested numbers and booleans to check, by type (``1`` is not ``1.0`` or
    ``true``) and for zeros by sign. ``None`` when ``value`` holds anything else (a tuple, a
    partial object, NaN) or is large or deep: the general test is used.
    """
    if type(value) is not dict and type(value) is not list:
        return None
    leaves: list[tuple[tuple[Any, ...], type, float]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    seen = 0
    while stack:
        path, item = stack.pop()
        seen += 1
        if seen > 256 or len(path) > 8:
            return None
        kind = type(item)
        if kind is dict:
            stack.extend(((*path, k), v) for k, v in item.items())
        elif kind is list:
            stack.extend(((*path, i), v) for i, v in enumerate(item))
        elif kind is bool or kind is int:
            leaves.append((path, kind, 0.0))
        elif kind is float:
            if item != item:
                return None
            leaves.append((path, float, math.copysign(1.0, item) if item == 0 else 0.0))
        elif kind is not str and item is not None:
            return None
    if not leaves:
        return lambda a: a.get(name, _MISSING) == value
    frozen = tuple(leaves)
    got_float: Callable[[Any], float] = float

    def json_eq(a: Mapping[str, Any]) -> bool:
        got = a.get(name, _MISSING)
        if got != value:
            return False
        for path, kind, sign in frozen:
            leaf: Any = got
            for step in path:
                leaf = leaf[step]
            if type(leaf) is not kind:
                return False
            if sign and math.copysign(1.0, got_float(leaf)) != sign:
                return False
        return True

    return json_eq


def _json_check(matcher: ArgMatcher, check: Check) -> Check:
    """``check`` of ``matcher``, or the faster equal test for JSON arguments when there is one."""
    if matcher.op is Op.EQ and not matcher.optional:
        fast = _json_eq(matcher.name, matcher.value)
        if fast is not None:
            return fast
    return check


def _all_of(checks: Sequence[Check]) -> Check:
    """One predicate that holds when every check holds."""
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda a: first(a) and second(a)
    frozen = tuple(checks)

    def every(a: Mapping[str, Any]) -> bool:
        return all(check(a) for check in frozen)

    return every


def _arguments(call: ToolCall) -> Mapping[str, Any]:
    """A call's arguments; none at all when they were not valid JSON."""
    return call.arguments if call.valid_json else _EMPTY


def arg_matches(matcher: ArgMatcher, arguments: Mapping[str, Any]) -> bool:
    """True when one argument matcher holds for a call's ``arguments``."""
    return _compile_arg(matcher)(arguments)


def expectation_matches(expectation: Expectation, call: ToolCall) -> bool:
    """True when ``call`` has the expectation's tool name and every matcher holds."""
    if call.name != expectation.tool:
        return False
    arguments = _arguments(call)
    return all(arg_matches(m, arguments) for m in expectation.args)


# ---------------------------------------------------------------------------- compiling


def _indexable(matcher: ArgMatcher) -> bool:
    """An equality matcher whose value an exact key can stand for."""
    return matcher.op is Op.EQ and not matcher.optional


def _matcher_signature(matcher: ArgMatcher) -> Hashable:
    return (
        matcher.name,
        matcher.op.value,
        matcher.optional,
        pattern_key(matcher.value),
        tuple(pattern_key(v) for v in matcher.values),
        matcher.pattern,
        pattern_key(matcher.tolerance),
    )


class _CompiledExpectation:
    """One expectation made ready to test: a predicate per matcher and one for all.

    The texts explanations use (the expectation as written, each matcher described) are
    made on first use and kept.
    """

    __slots__ = ("_described", "_source", "arg_checks", "check", "expectation", "index")

    def __init__(self, index: int, expectation: Expectation) -> None:
        self.index = index
        self.expectation = expectation
        self.arg_checks = tuple(_compile_arg(m) for m in expectation.args)
        by_cost = sorted(zip(expectation.args, self.arg_checks, strict=True), key=lambda p: _COST[p[0].op])
        self.check = _all_of([check for _, check in by_cost])
        self._source: str | None = None
        self._described: tuple[str, ...] | None = None

    @property
    def source(self) -> str:
        """The expectation written back roughly as the spec spells it."""
        if self._source is None:
            self._source = source_call(self.expectation)
        return self._source

    @property
    def described(self) -> tuple[str, ...]:
        """What each matcher expects, in words (see :func:`_describe`)."""
        if self._described is None:
            self._described = tuple(_describe(m) for m in self.expectation.args)
        return self._described


class _Group:
    """Identical expectations of one tool: one predicate, a capacity, an index key."""

    __slots__ = ("check", "index_key", "index_names", "members", "residual")

    def __init__(self, compiled: _CompiledExpectation) -> None:
        self.members: list[int] = [compiled.index]
        self.check = compiled.check
        expectation = compiled.expectation
        names: list[str] = []
        keys: list[Hashable] = []
        residual: list[Check] = []
        for matcher, check in zip(expectation.args, compiled.arg_checks, strict=True):
            if _indexable(matcher):
                names.append(matcher.name)
                keys.append(value_key(matcher.value))
            else:
                residual.append(check)
        order = sorted(range(len(names)), key=names.__getitem__)
        self.index_names: tuple[str, ...] = tuple(names[i] for i in order)
        self.index_key: Hashable = keys[order[0]] if len(order) == 1 else tuple(keys[i] for i in order)
        self.residual: Check | None = _all_of(residual) if residual else None


def _column(name: str, arguments: Sequence[Mapping[str, Any]]) -> list[Hashable]:
    """The value key of argument ``name`` of each call; ``_MISSING`` where a call lacks it."""
    missing = _MISSING
    return [value_key(args[name]) if name in args else missing for args in arguments]


def _index(names: tuple[str, ...], columns: Sequence[Sequence[Hashable]]) -> dict[Any, list[int]]:
    """Calls (local positions, ascending) by the keys of their values of ``names``.

    ``columns`` holds, per name, each call's value key (:func:`_column`); calls that lack
    one of the names are left out.
    """
    table: dict[Any, list[int]] = {}
    missing = _MISSING
    rows: Iterable[Any] = columns[0] if len(names) == 1 else zip(*columns, strict=True)
    for position, key in enumerate(rows):
        if key is missing or (len(names) > 1 and missing in key):
            continue
        bucket = table.get(key)
        if bucket is None:
            table[key] = [position]
        else:
            bucket.append(position)
    return table


def _max_matching(adjacency: Sequence[Sequence[int]], capacity: Sequence[int], size: int) -> list[int]:
    """A maximum matching of groups (with capacities) to ``size`` calls; owner per call.

    Greedy first (groups in order, each taking its earliest free calls), then Hopcroft-Karp
    phases: a breadth-first search layers the groups by their distance from a group with
    room, and depth-first searches along the layers flip vertex-disjoint augmenting paths,
    each group's edges tried at most once per phase. O(edges · sqrt(groups)) in all.
    """
    groups = len(adjacency)
    owner = [-1] * size
    load = [0] * groups
    for group, calls in enumerate(adjacency):
        room = capacity[group]
        if not room:
            continue
        for call in calls:
            if owner[call] < 0:
                owner[call] = group
                room -= 1
                if not room:
                    break
        load[group] = capacity[group] - room
    while True:
        queue = [g for g in range(groups) if load[g] < capacity[g]]
        if not queue:
            break
        dist = [_UNREACHED] * groups
        for group in queue:
            dist[group] = 0
        found = False
        head = 0
        while head < len(queue):
            group = queue[head]
            head += 1
            step = dist[group] + 1
            for call in adjacency[group]:
                holder = owner[call]
                if holder < 0:
                    found = True
                elif dist[holder] == _UNREACHED:
                    dist[holder] = step
                    queue.append(holder)
        if not found:
            break
        pointer = [0] * groups
        progress = False
        for group in range(groups):
            while load[group] < capacity[group] and dist[group] == 0:
                if not _augment(group, adjacency, owner, dist, pointer):
                    break
                load[group] += 1
                progress = True
        if not progress:
            break
    return owner


_UNREACHED = -1
_DEAD = -2


def _augment(
    start: int,
    adjacency: Sequence[Sequence[int]],
    owner: list[int],
    dist: list[int],
    pointer: list[int],
) -> bool:
    """Flip one augmenting path from ``start`` along the layers; False when there is none.

    A group whose edges are exhausted is marked dead for the rest of the phase.
    """
    stack = [start]
    via: list[int] = []
    while stack:
        group = stack[-1]
        calls = adjacency[group]
        index = pointer[group]
        following = dist[group] + 1
        descended = False
        while index < len(calls):
            call = calls[index]
            holder = owner[call]
            if holder < 0:
                pointer[group] = index + 1
                via.append(call)
                for level, step in enumerate(via):
                    owner[step] = stack[level]
                return True
            if dist[holder] == following:
                pointer[group] = index
                via.append(call)
                stack.append(holder)
                descended = True
                break
            index += 1
        if not descended:
            pointer[group] = index
            dist[group] = _DEAD
            stack.pop()
            if via:
                via.pop()
            if stack:
                pointer[stack[-1]] += 1
    return False


class _ToolPlan:
    """The expectations of one tool: groups of identical constrained ones, and argument-less."""

    __slots__ = ("capacity", "groups", "tool", "universal")

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self.groups: list[_Group] = []
        self.capacity: list[int] = []
        self.universal: list[int] = []

    def match(self, calls: Sequence[ToolCall], positions: list[int], assigned: list[int]) -> int:
        """Pair this tool's expectations with its calls (``positions``); fill ``assigned``."""
        groups = self.groups
        if groups and len(groups) * len(positions) <= _INDEX_THRESHOLD:
            matched = self._greedy(calls, positions, assigned)
            if matched >= 0:
                return matched
        return self._full(calls, positions, assigned)

    def _greedy(self, calls: Sequence[ToolCall], positions: list[int], assigned: list[int]) -> int:
        """Small buckets: each group takes its earliest free matching calls.

        When every group is filled this is a maximum matching (nothing is left unmatched)
        and the same pairing the full algorithm starts from; otherwise -1, and the caller
        runs the full algorithm.
        """
        used = 0
        matched = 0
        for group in self.groups:
            members = group.members
            need = len(members)
            check = group.check
            taken = 0
            for local, position in enumerate(positions):
                if used >> local & 1:
                    continue
                call = calls[position]
                if check(call.arguments if call.valid_json else _EMPTY):
                    used |= 1 << local
                    assigned[members[taken]] = position
                    taken += 1
                    if taken == need:
                        break
            if taken < need:
                for other in self.groups:
                    for member in other.members:
                        assigned[member] = -1
                return -1
            matched += need
        universal = self.universal
        if universal:
            free = (p for local, p in enumerate(positions) if not used >> local & 1)
            for member, position in zip(universal, free, strict=False):
                assigned[member] = position
                matched += 1
        return matched

    def _full(self, calls: Sequence[ToolCall], positions: list[int], assigned: list[int]) -> int:
        """Greedy start and augmenting paths, with an index on equality arguments."""
        size = len(positions)
        groups = self.groups
        matched = 0
        free: Sequence[int]
        if groups:
            arguments = [_arguments(calls[p]) for p in positions]
            if len(groups) * size <= _INDEX_THRESHOLD:  # the greedy pass could not fill them
                adjacency = [[j for j, args in enumerate(arguments) if group.check(args)] for group in groups]
            else:
                adjacency = self._indexed(arguments)
            owner = _max_matching(adjacency, self.capacity, size)
            per_group: list[list[int]] = [[] for _ in groups]
            free_list: list[int] = []
            for local, group_number in enumerate(owner):
                if group_number < 0:
                    free_list.append(local)
                else:
                    per_group[group_number].append(local)
            for group, mine in zip(groups, per_group, strict=True):
                for member, local in zip(group.members, mine, strict=False):
                    assigned[member] = positions[local]
                matched += len(mine)
            free = free_list
        else:
            free = range(size)
        for member, local in zip(self.universal, free, strict=False):
            assigned[member] = positions[local]
            matched += 1
        return matched

    def _indexed(self, arguments: Sequence[Mapping[str, Any]]) -> list[list[int]]:
        """Adjacency through an index on equality arguments, direct tests for the rest."""
        tables: dict[tuple[str, ...], dict[Any, list[int]]] = {}
        columns: dict[str, list[Hashable]] = {}  # each argument's value keys, made once
        adjacency: list[list[int]] = []
        for group in self.groups:
            if not group.index_names:
                check = group.check
                adjacency.append([j for j, args in enumerate(arguments) if check(args)])
                continue
            table = tables.get(group.index_names)
            if table is None:
                wanted = []
                for name in group.index_names:
                    column = columns.get(name)
                    if column is None:
                        column = columns[name] = _column(name, arguments)
                    wanted.append(column)
                table = tables[group.index_names] = _index(group.index_names, wanted)
            candidates = table.get(group.index_key, [])
            residual = group.residual
            if residual is not None:
                candidates = [j for j in candidates if residual(arguments[j])]
            adjacency.append(candidates)
        return adjacency


def _fraction(number: float) -> Fraction:
    """The exact decimal value of a threshold, as a fraction."""
    value = number_value(number)
    return Fraction(value) if value is not None else Fraction(1)


_SHARED_EXPECTATIONS = 32
_SHARED_CALLS = 64
_SHARED_PAIRS: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    (*((e, c) for c in range(_SHARED_CALLS)), None) for e in range(_SHARED_EXPECTATIONS)
)
"""The (expectation, call) pairs of small positions, made once and shared by every run;
each row ends with ``None``, what position -1 (no call) finds."""

_FAST_LIMIT = 256
"""Runs with at most this many calls are paired through the per-case key tables first."""

_SCALARS = (str, int, float, bool, type(None))


def _key_value(value: Any) -> bool:
    """An expected value that can stand as a dictionary key of a table (a scalar, not NaN)."""
    if type(value) not in _SCALARS:
        return False
    return not (type(value) is float and value != value)


class _FastTool:
    """One tool's groups for the small-run path: key tables on scalar equality arguments.

    ``keyed`` holds, per set of argument names, a table from the calls' value keys of those
    names to the groups (global number, residual test) whose equality arguments have those
    keys; ``unkeyed`` the groups without a scalar equality argument (tested directly).
    """

    __slots__ = ("keyed", "universal", "unkeyed")

    def __init__(self) -> None:
        self.keyed: list[tuple[tuple[str, ...], dict[Hashable, list[tuple[int, Check | None]]]]] = []
        self.unkeyed: list[tuple[int, Check]] = []
        self.universal: tuple[int, ...] = ()


_DirectTool = tuple[tuple[str, ...], dict[Hashable, Any], tuple[int, ...], Any]
"""A tool of a directly paired case: key names, table (key to group number, members and
residual test), argument-less members, and the lone unkeyed group (or ``None``)."""

Paired = tuple[list[int], int, dict[str, list[int]]]
"""A run's pairing: the call of each expectation (-1 for none), how many are paired, and the
call positions of each tool the case names (filled when it has a ``forbid`` or an order)."""

_JsonTool = tuple[str | None, str | None, tuple[str, ...], dict[Hashable, Any], tuple[int, ...], Any]
"""A :data:`_DirectTool` for arguments decoded from JSON, led by the two key names when
there are two (else ``None, None``)."""


def _spread(
    spare: Mapping[str, list[int]], direct: Mapping[str, tuple[Any, ...]], slot: int, assigned: list[int]
) -> int:
    """Give each tool's calls that no keyed group took to its expectations of any value
    (``direct[tool][slot]``), in order; how many were given."""
    given = 0
    for name, positions in spare.items():
        for member, position in zip(direct[name][slot], positions, strict=False):
            assigned[member] = position
            given += 1
    return given


def _lookup(table: Mapping[Any, Any], arguments: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    """The entry of a key table for a call's values of ``names`` (``None`` when none).

    Two names with string or integer values, the common shape, are looked up directly: such
    values are their own keys.
    """
    if len(names) == 2:
        first = arguments.get(names[0], _MISSING)
        second = arguments.get(names[1], _MISSING)
        kind = type(first)
        other = type(second)
        if (kind is str or kind is int) and (other is str or other is int):
            return table.get((first, second))
    return table.get(_call_key(arguments, names))


def _call_key(arguments: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    """The key of a call's values of ``names`` (as the table stores it), or ``_MISSING``.

    Only scalar values can equal a table's keys; a missing name or a container gives
    ``_MISSING``. Scalars are keyed by :func:`value_key` (equal keys ⇔ equivalent values).
    """
    if len(names) == 1:
        value = arguments.get(names[0], _MISSING)
        kind = type(value)
        if kind is str or kind is int:
            return value
        if kind is float or kind is bool or value is None:
            return value_key(value)
        return _MISSING
    parts = []
    for name in names:
        value = arguments.get(name, _MISSING)
        kind = type(value)
        if kind is str or kind is int:
            parts.append(value)
        elif kind is float or kind is bool or value is None:
            parts.append(value_key(value))
        else:
            return _MISSING
    return tuple(parts)


class CompiledCase:
    """A case made ready to score many runs: build once with :func:`compile_case`, reuse."""

    __slots__ = (
        "_buckets",
        "_chains",
        "_direct",
        "_direct_json",
        "_expectations",
        "_fast",
        "_fast_groups",
        "_forbids",
        "_min_matched",
        "_plans",
        "_stats",
        "_threshold",
        "_tools",
        "case",
        "error",
    )

    def __init__(self, case: Case) -> None:
        self.case = case
        self._expectations = tuple(_CompiledExpectation(i, e) for i, e in enumerate(case.expectations))
        self._forbids = tuple(_CompiledExpectation(i, f) for i, f in enumerate(case.forbids))
        plans: dict[str, _ToolPlan] = {}
        seen: dict[Hashable, int] = {}
        for compiled in self._expectations:
            expectation = compiled.expectation
            plan = plans.get(expectation.tool)
            if plan is None:
                plan = plans[expectation.tool] = _ToolPlan(expectation.tool)
            if not expectation.args:
                plan.universal.append(compiled.index)
                continue
            signature = (expectation.tool, tuple(_matcher_signature(m) for m in expectation.args))
            number = seen.get(signature)
            if number is None:
                seen[signature] = len(plan.groups)
                plan.groups.append(_Group(compiled))
                plan.capacity.append(1)
            else:
                plan.groups[number].members.append(compiled.index)
                plan.capacity[number] += 1
        self._plans = plans
        self._tools = frozenset(plans) | {f.tool for f in case.forbids}
        chains: list[tuple[int | None, tuple[int, ...]]] = [
            (number, chain) for number, chain in enumerate(case.chains)
        ]
        if case.ordered and len(case.expectations) > 1:
            chains.append((None, tuple(range(len(case.expectations)))))
        self._chains = tuple(chains)
        self._threshold = _fraction(case.threshold)
        expected = len(self._expectations)
        # The fewest matched expectations that meet the threshold (exact fractions).
        self._min_matched = -(-self._threshold.numerator * expected // self._threshold.denominator)
        self._stats: dict[tuple[int, int], tuple[float | None, float, float | None]] = {}
        self._buckets = bool(self._forbids or self._chains)
        # The small-run tables are made on the first small run (a case scored only on
        # large runs never needs them).
        self._fast: dict[str, _FastTool] | None = None
        self._fast_groups: tuple[tuple[int, ...], ...] = ()
        self._direct: dict[str, _DirectTool] | None = None
        self._direct_json: dict[str, _JsonTool] | None = None
        self.error: str | None = None
        if not case.expectations:
            has_requirement = bool(case.forbids) or case.no_tool_calls or case.no_unexpected_calls
            if not has_requirement:
                self.error = (
                    f'case "{case.name}" has no expectations and no requirement, '
                    "so it has no accuracy to compute"
                )
            elif case.accuracy_required or case.threshold != 1.0:
                self.error = (
                    f'case "{case.name}" requires an accuracy but has no expectations to compute it from'
                )

    def _small_plan(self) -> dict[str, _FastTool]:
        """The small-run tables (made once, on first use)."""
        if self._fast is None:
            fast, self._fast_groups = self._fast_plan(self._plans)
            self._fast = fast
            self._direct = self._direct_plan(fast)
            if self._direct is not None and "" not in self._direct:
                self._direct_json = self._json_plan(self._direct)
            return fast
        return self._fast

    def _json_plan(self, direct: Mapping[str, _DirectTool]) -> dict[str, _JsonTool]:
        """The direct plan with each group's tests made for arguments decoded from JSON
        (:func:`_json_check`): what :meth:`_pair_direct_plain` uses."""

        def tests(number: int, keyed: bool) -> Check | None:
            compiled = self._expectations[self._fast_groups[number][0]]
            pairs = [
                (matcher, _json_check(matcher, check))
                for matcher, check in zip(compiled.expectation.args, compiled.arg_checks, strict=True)
                if not (keyed and matcher.op is Op.EQ and not matcher.optional and _key_value(matcher.value))
            ]
            pairs.sort(key=lambda pair: _COST[pair[0].op])
            return _all_of([check for _, check in pairs]) if pairs else None

        plan: dict[str, _JsonTool] = {}
        for tool, (keys, table, universal, lone) in direct.items():
            if lone is not None:
                number, members, _ = lone
                lone = (number, members, tests(number, False) or _always)
            entries = {key: (found[0], found[1], tests(found[0], True)) for key, found in table.items()}
            pair = keys if len(keys) == 2 else (None, None)
            plan[tool] = (pair[0], pair[1], keys, entries, universal, lone)
        return plan

    def _fast_plan(
        self, plans: Mapping[str, _ToolPlan]
    ) -> tuple[dict[str, _FastTool], tuple[tuple[int, ...], ...]]:
        """Key tables per tool for the small-run path, and the groups' members (global order)."""
        fast: dict[str, _FastTool] = {}
        members: list[tuple[int, ...]] = []
        for tool, plan in plans.items():
            entry = fast[tool] = _FastTool()
            entry.universal = tuple(plan.universal)
            tables: dict[tuple[str, ...], dict[Hashable, list[tuple[int, Check | None]]]] = {}
            for group in plan.groups:
                number = len(members)
                members.append(tuple(group.members))
                compiled = self._expectations[group.members[0]]
                names: list[str] = []
                keys: list[Hashable] = []
                residual: list[tuple[ArgMatcher, Check]] = []
                for matcher, check in zip(compiled.expectation.args, compiled.arg_checks, strict=True):
                    if matcher.op is Op.EQ and not matcher.optional and _key_value(matcher.value):
                        names.append(matcher.name)
                        keys.append(value_key(matcher.value))
                    else:
                        residual.append((matcher, check))
                if not names:
                    entry.unkeyed.append((number, compiled.check))
                    continue
                order = sorted(range(len(names)), key=names.__getitem__)
                key_names = tuple(names[i] for i in order)
                key = keys[order[0]] if len(order) == 1 else tuple(keys[i] for i in order)
                residual.sort(key=lambda pair: _COST[pair[0].op])
                rest = _all_of([check for _, check in residual]) if residual else None
                table = tables.get(key_names)
                if table is None:
                    table = tables[key_names] = {}
                    entry.keyed.append((key_names, table))
                table.setdefault(key, []).append((number, rest))
        return fast, tuple(members)

    def _direct_plan(
        self, fast: Mapping[str, _FastTool]
    ) -> dict[str, _DirectTool] | None:
        """Per tool, what no two groups compete for, when every tool of the case is so.

        A tool qualifies with one key table holding one group per key, or with a single
        group and no table (tested directly), or with argument-less expectations only.
        Then no call fits two groups, groups never compete for a call, and each group
        simply takes its first fitting calls in order: the greedy pairing, which is then
        maximum and the one the full path gives. ``None`` when some tool has groups keyed
        on different argument names, a group without a scalar equality argument beside
        other groups, or two groups with the same key.
        """
        direct: dict[str, _DirectTool] = {}
        for tool, entry in fast.items():
            if len(entry.keyed) + len(entry.unkeyed) > 1:
                return None
            if entry.unkeyed:
                number, check = entry.unkeyed[0]
                direct[tool] = ((), {}, entry.universal, (number, self._fast_groups[number], check))
                continue
            if not entry.keyed:
                direct[tool] = ((), {}, entry.universal, None)
                continue
            names, table = entry.keyed[0]
            single: dict[Hashable, Any] = {}
            for key, hits in table.items():
                if len(hits) != 1:
                    return None
                number, rest = hits[0]
                single[key] = (number, self._fast_groups[number], rest)
            direct[tool] = (names, single, entry.universal, None)
        return direct

    def figures(self, matched: int, calls: int) -> tuple[float | None, float, float | None]:
        """(score, precision, f1) of a run with ``matched`` pairs and ``calls`` calls, as
        :meth:`evaluate` computes them; equal figures are the same objects."""
        stats = self._stats.get((matched, calls))
        if stats is None:
            expected = len(self._expectations)
            score = matched / expected if expected else None
            precision = matched / calls if calls else 1.0
            f1 = _f1(score, precision) if score is not None else None
            stats = (score, precision, f1)
            if len(self._stats) < 4096:
                self._stats[(matched, calls)] = stats
        return stats

    def pairs(self, assigned: Sequence[int], matched: int) -> tuple[tuple[int, int], ...]:
        """``pairs`` of a run from the call of each expectation (-1 for none).

        The (expectation, call) tuples of small positions are shared, not made anew: a
        report keeps the pairs of every run.
        """
        if assigned and len(assigned) <= _SHARED_EXPECTATIONS and max(assigned) < _SHARED_CALLS:
            found = map(operator.getitem, _SHARED_PAIRS, assigned)  # -1 finds a row's None
            return tuple(filter(None, found)) if matched < len(assigned) else tuple(found)  # type: ignore[arg-type]
        if matched == len(assigned):
            return tuple(enumerate(assigned))
        return tuple((e, c) for e, c in enumerate(assigned) if c >= 0)

    def shared_figures(
        self, matched: int, calls: int, figures: tuple[float | None, float | None, float | None]
    ) -> tuple[float | None, float | None, float | None]:
        """``figures`` (score, precision, f1), as the objects this case's runs share when equal."""
        known = self._stats.get((matched, calls))
        return known if known is not None and known == figures else figures

    # -- matching ---------------------------------------------------------------------

    def _pair(self, calls: Sequence[ToolCall]) -> tuple[list[int], int, dict[str, list[int]]]:
        """Pair expectations with calls: call per expectation (-1 when none), count, buckets.

        The buckets (call positions by tool name) hold only the tools the case names; they
        may be left empty when the case has no ``forbid`` and no order requirement.
        """
        if len(calls) <= _FAST_LIMIT:
            if self._fast is None:
                self._small_plan()
            if self._direct is not None:
                return self._pair_direct(calls, self._direct)
            paired = self._pair_fast(calls)
            if paired is not None:
                return paired
        return self._pair_full(calls)

    def _pair_direct(
        self,
        calls: Sequence[ToolCall],
        direct: Mapping[str, _DirectTool],
    ) -> tuple[list[int], int, dict[str, list[int]]]:
        """The greedy pairing when no call can fit two groups (see :meth:`_direct_plan`)."""
        buckets = self._buckets
        relevant = self._tools
        by_tool: dict[str, list[int]] = {}
        spare: dict[str, list[int]] = {}
        load = [0] * len(self._fast_groups)
        assigned = [-1] * len(self._expectations)
        matched = 0
        for position, call in enumerate(calls):
            name = call.name
            if buckets and name in relevant:
                bucket = by_tool.get(name)
                if bucket is None:
                    by_tool[name] = [position]
                else:
                    bucket.append(position)
            plan = direct.get(name)
            if plan is None:
                continue
            names, table, universal, lone = plan
            if table or lone is not None:
                arguments = call.arguments if call.valid_json else _EMPTY
                hit = lone if lone is not None else _lookup(table, arguments, names)
                if hit is not None:
                    number, members, rest = hit
                    taken = load[number]
                    if taken < len(members) and (rest is None or rest(arguments)):
                        assigned[members[taken]] = position
                        load[number] = taken + 1
                        matched += 1
                        continue
            if universal:
                found = spare.get(name)
                if found is None:
                    spare[name] = [position]
                else:
                    found.append(position)
        if spare:
            matched += _spread(spare, direct, 2, assigned)
        return assigned, matched, by_tool

    def _pair_direct_plain(
        self, calls: Sequence[Any], direct: Mapping[str, _JsonTool]
    ) -> tuple[list[int], int, dict[str, list[int]]] | None:
        """:meth:`_pair_direct` on plain call dicts (see :meth:`evaluate_plain`),
        checking each as it goes; ``None`` at the first item that is not such a call.

        The same steps in one loop, with the common two-name key looked up inline: this
        runs once per recorded call of a canonical log.
        """
        buckets = self._buckets
        relevant = self._tools
        by_tool: dict[str, list[int]] = {}
        spare: dict[str, list[int]] = {}
        load = [0] * len(self._fast_groups)
        assigned = [-1] * len(self._expectations)
        matched = 0
        lookup = direct.get
        for position, call in enumerate(calls):
            if type(call) is not dict or len(call) != 2:
                return None
            try:
                name = call["name"]
                args = call["arguments"]
            except KeyError:
                return None
            if type(args) is not dict or type(name) is not str:
                return None
            if buckets and name in relevant:
                bucket = by_tool.get(name)
                if bucket is None:
                    by_tool[name] = [position]
                else:
                    bucket.append(position)
            plan = lookup(name)
            if plan is None:
                if not name:
                    return None
                continue  # a tool the case does not expect (a planned tool's name is never empty)
            first_key, second_key, keys, table, universal, lone = plan
            if first_key is not None:  # two key names (then there is no lone group)
                try:
                    first = args[first_key]
                    second = args[second_key]
                except KeyError:
                    hit = None  # a key name is missing: no group's key can match
                else:
                    kind = type(first)
                    other = type(second)
                    if (kind is str or kind is int) and (other is str or other is int):
                        hit = table.get((first, second))
                    else:
                        hit = table.get(_call_key(args, keys))
            elif lone is not None:
                hit = lone
            elif table:
                hit = table.get(_call_key(args, keys))
            else:
                hit = None
            if hit is not None:
                number, members, rest = hit
                taken = load[number]
                if taken < len(members) and (rest is None or rest(args)):
                    assigned[members[taken]] = position
                    load[number] = taken + 1
                    matched += 1
                    continue
            if universal:
                found = spare.get(name)
                if found is None:
                    spare[name] = [position]
                else:
                    found.append(position)
        if spare:
            matched += _spread(spare, direct, 4, assigned)
        return assigned, matched, by_tool

    def _pair_fast_plain(self, calls: Sequence[Any]) -> tuple[list[int], int, dict[str, list[int]]] | None:
        """:meth:`_pair_fast_lists` on plain call dicts (see :meth:`evaluate_plain`); ``None``
        when an item is not such a call or the full path is needed."""
        names: list[str] = []
        arguments: list[Mapping[str, Any]] = []
        add_name = names.append
        add_arguments = arguments.append
        for call in calls:
            if type(call) is not dict or len(call) != 2:
                return None
            name = call.get("name")
            args = call.get("arguments")
            if type(name) is not str or type(args) is not dict or not name:
                return None
            add_name(name)
            add_arguments(args)
        return self._pair_fast_lists(names, arguments)

    def _pair_fast(self, calls: Sequence[ToolCall]) -> tuple[list[int], int, dict[str, list[int]]] | None:
        """The greedy pairing through key tables; ``None`` when the full path is needed.

        See :meth:`_pair_fast_lists`, which this runs on the calls' names and arguments.
        """
        return self._pair_fast_lists([c.name for c in calls], [_arguments(c) for c in calls])

    def _pair_fast_lists(
        self, names: Sequence[str], arguments: Sequence[Mapping[str, Any]]
    ) -> tuple[list[int], int, dict[str, list[int]]] | None:
        """The greedy pairing through key tables; ``None`` when the full path is needed.

        Each group takes, in written order, its earliest free matching calls, as
        :meth:`_ToolPlan.match` does first. When every group is filled, or a group left
        short took every call that fits it (so no augmenting path can start from it), that
        pairing is a maximum matching and the very one the full path gives. Otherwise
        (a short group whose calls went to other groups) ``None``: the caller runs the
        full path.
        """
        fast = self._small_plan()
        buckets = self._buckets
        relevant = self._tools
        by_tool: dict[str, list[int]] = {}
        candidates: dict[int, list[int]] = {}
        spare: dict[str, list[int]] = {}
        for position, name in enumerate(names):
            entry = fast.get(name)
            if buckets and name in relevant:
                bucket = by_tool.get(name)
                if bucket is None:
                    by_tool[name] = [position]
                else:
                    bucket.append(position)
            if entry is None:
                continue
            args = arguments[position]
            for keys, table in entry.keyed:
                hits = _lookup(table, args, keys)
                if hits is not None:
                    for number, rest in hits:
                        if rest is None or rest(args):
                            found = candidates.get(number)
                            if found is None:
                                candidates[number] = [position]
                            else:
                                found.append(position)
            for number, check in entry.unkeyed:
                if check(args):
                    found = candidates.get(number)
                    if found is None:
                        candidates[number] = [position]
                    else:
                        found.append(position)
            if entry.universal:
                found = spare.get(name)
                if found is None:
                    spare[name] = [position]
                else:
                    found.append(position)
        assigned = [-1] * len(self._expectations)
        used: set[int] = set()
        matched = 0
        for number, members in enumerate(self._fast_groups):
            mine = candidates.get(number)
            if mine is None:
                continue  # no call fits: no augmenting path can start here
            need = len(members)
            taken = 0
            for position in mine:
                if position not in used:
                    used.add(position)
                    assigned[members[taken]] = position
                    taken += 1
                    if taken == need:
                        break
            else:
                if taken < len(mine):
                    # A call this group needs went to another group: an augmenting path
                    # may exist, which the full path finds.
                    return None
            matched += taken
        for name, positions in spare.items():
            free = (p for p in positions if p not in used)
            for member, position in zip(fast[name].universal, free, strict=False):
                assigned[member] = position
                matched += 1
        return assigned, matched, by_tool

    def _pair_full(self, calls: Sequence[ToolCall]) -> tuple[list[int], int, dict[str, list[int]]]:
        """The general pairing, per tool: greedy for small buckets, else a maximum matching."""
        by_tool: dict[str, list[int]] = {}
        relevant = self._tools
        for position, call in enumerate(calls):
            name = call.name
            if name in relevant:
                bucket = by_tool.get(name)
                if bucket is None:
                    by_tool[name] = [position]
                else:
                    bucket.append(position)
        assigned = [-1] * len(self._expectations)
        matched = 0
        for tool, plan in self._plans.items():
            positions = by_tool.get(tool)
            if positions:
                matched += plan.match(calls, positions, assigned)
        return assigned, matched, by_tool

    def evaluate_plain(self, calls: Sequence[Any]) -> RunResult | None:
        """A passing run scored straight from plain call dicts, or ``None``.

        Each item of ``calls`` must be a dict of exactly ``"name"`` (a non-empty string) and
        ``"arguments"`` (a dict): the canonical log's call, which reads as
        ``ToolCall(name, arguments)``. When every item is one and the run passes, the result
        equals :meth:`evaluate` on those ToolCalls (no call object is built). ``None`` when
        an item is anything else, when the run needs the general pairing (more than
        :data:`_FAST_LIMIT` calls, or an augmenting path), or when it does not pass (only
        :meth:`evaluate` explains failures).
        """
        found = self.score_plain(calls)
        return found if type(found) is RunResult else None

    def score_plain(self, calls: Sequence[Any]) -> RunResult | Paired | None:
        """:meth:`evaluate_plain`, but a run that fails gives its pairing (a :data:`Paired`)
        instead of ``None``: :meth:`evaluate_paired` finishes it without pairing again."""
        total = len(calls)
        if self.error is not None or total > _FAST_LIMIT:
            return None
        if self._fast is None:
            self._small_plan()
        direct = self._direct_json
        found = self._pair_direct_plain(calls, direct) if direct is not None else self._pair_fast_plain(calls)
        if found is None:
            return None
        assigned, matched, by_tool = found
        case = self.case
        if (
            matched < self._min_matched
            or (case.no_unexpected_calls and matched < total)
            or (case.no_tool_calls and total > 0)
        ):
            return found
        if self._buckets:
            arguments = [call["arguments"] for call in calls]
            for forbid in self._forbids:
                positions = by_tool.get(forbid.expectation.tool)
                if positions:
                    check = forbid.check
                    for p in positions:
                        if check(arguments[p]):
                            return found
            for _, chain in self._chains:
                if self._chain_break_lists(chain, arguments, by_tool) is not None:
                    return found
        stats = self._stats.get((matched, total))
        score, precision, f1 = stats if stats is not None else self.figures(matched, total)
        pairs = self.pairs(assigned, matched)
        return new_run(case.name, "pass", score, matched, len(assigned), total, precision, f1, pairs, ())

    def match(self, calls: Sequence[ToolCall]) -> MatchResult:
        """The accuracy of one run, requirements aside; ``ValueError`` without expectations."""
        expected = len(self._expectations)
        if not expected:
            raise ValueError("tool call accuracy needs at least one expected call; got no expectations")
        assigned, matched, _ = self._pair(calls)
        total = len(calls)
        score = matched / expected
        precision = matched / total if total else 1.0
        paired_calls = set(assigned)
        return MatchResult(
            score=score,
            matched=matched,
            expected=expected,
            calls=total,
            precision=precision,
            f1=_f1(score, precision),
            pairs=tuple((e, c) for e, c in enumerate(assigned) if c >= 0),
            unmatched=tuple(e for e, c in enumerate(assigned) if c < 0),
            unpaired_calls=tuple(c for c in range(total) if c not in paired_calls),
        )

    def _chain_break(
        self, chain: tuple[int, ...], calls: Sequence[ToolCall], by_tool: Mapping[str, list[int]]
    ) -> tuple[int, int] | None:
        """The first step of ``chain`` with no matching call after the previous step's call.

        Greedy: each step takes the earliest matching call after the previous step's one
        (earliest is always the best choice for a subsequence). ``None`` when the chain is
        met, else (step, the previous step's call or -1).
        """
        return self._chain_break_lists(chain, [_arguments(c) for c in calls], by_tool)

    def _chain_break_lists(
        self, chain: tuple[int, ...], arguments: Sequence[Mapping[str, Any]], by_tool: Mapping[str, list[int]]
    ) -> tuple[int, int] | None:
        """:meth:`_chain_break` on the calls' arguments (``{}`` for invalid JSON)."""
        previous = -1
        for step, number in enumerate(chain):
            compiled = self._expectations[number]
            positions = by_tool.get(compiled.expectation.tool, ())
            check = compiled.check
            found = -1
            for k in range(bisect_right(positions, previous), len(positions)):
                position = positions[k]
                if check(arguments[position]):
                    found = position
                    break
            if found < 0:
                return step, previous
            previous = found
        return None

    # -- evaluating -------------------------------------------------------------------

    def _error(self, message: str) -> RunResult:
        return RunResult(
            case=self.case.name,
            status="error",
            score=None,
            matched=0,
            expected=len(self._expectations),
            calls=0,
            precision=None,
            f1=None,
            pairs=(),
            failures=(Failure("error", message, self.case.span),),
        )

    def evaluate(self, calls: Sequence[ToolCall] | None, *, explain_later: bool = False) -> RunResult:
        """Score one recorded run and decide pass or fail (LANGUAGE.md section 3).

        With ``explain_later`` a failing run's ``failures`` are worked out when first read
        (the run keeps ``calls``, which must then not change); they are the same either way.
        """
        case = self.case
        if calls is None:
            return self._error(f'no recorded sample for case "{case.name}"')
        if self.error is not None:
            return self._error(self.error)
        return self.evaluate_paired(calls, self._pair(calls), explain_later=explain_later)

    def evaluate_paired(
        self, calls: Sequence[ToolCall], paired: Paired, *, explain_later: bool = False
    ) -> RunResult:
        """:meth:`evaluate` of ``calls`` (not ``None``; the case has no error) with their
        pairing already made: :meth:`score_plain` of the call dicts these calls were read
        from, unchanged since (see :func:`same_calls`)."""
        case = self.case
        expected = len(self._expectations)
        total = len(calls)
        assigned, matched, by_tool = paired

        threshold_ok = matched >= self._min_matched
        forbidden: list[tuple[int, list[int]]] = []
        breaks: list[tuple[int | None, tuple[int, ...], tuple[int, int]]] = []
        if self._buckets:
            for forbid in self._forbids:
                positions = by_tool.get(forbid.expectation.tool)
                if positions:
                    check = forbid.check
                    hits = [p for p in positions if check(_arguments(calls[p]))]
                    if hits:
                        forbidden.append((forbid.index, hits))
            for number, chain in self._chains:
                broken = self._chain_break(chain, calls, by_tool)
                if broken is not None:
                    breaks.append((number, chain, broken))
        unexpected = case.no_unexpected_calls and matched < total
        called = case.no_tool_calls and total > 0

        stats = self._stats.get((matched, total))
        if stats is None:
            score = matched / expected if expected else None
            precision = matched / total if total else 1.0
            f1 = _f1(score, precision) if score is not None else None
            stats = (score, precision, f1)
            if len(self._stats) < 4096:
                self._stats[(matched, total)] = stats
        score, precision, f1 = stats
        if matched == expected:
            pairs = tuple(enumerate(assigned))
        else:
            pairs = tuple((e, c) for e, c in enumerate(assigned) if c >= 0)
        if threshold_ok and not forbidden and not unexpected and not called and not breaks:
            return new_run(case.name, "pass", score, matched, expected, total, precision, f1, pairs, ())

        facts = (calls, assigned, matched, by_tool, called, threshold_ok, forbidden, unexpected, breaks)
        if explain_later:
            explain = functools.partial(self._failures, *facts)
            return _explained_later(case.name, score, matched, expected, total, precision, f1, pairs, explain)
        failures = self._failures(*facts)
        return RunResult(case.name, "fail", score, matched, expected, total, precision, f1, pairs, failures)

    # -- explaining -------------------------------------------------------------------

    def _failures(
        self,
        calls: Sequence[ToolCall],
        assigned: list[int],
        matched: int,
        by_tool: Mapping[str, list[int]],
        called: bool,
        threshold_ok: bool,
        forbidden: list[tuple[int, list[int]]],
        unexpected: bool,
        breaks: list[tuple[int | None, tuple[int, ...], tuple[int, int]]],
    ) -> tuple[Failure, ...]:
        """Why a failing run failed: every failure, in the order the report lists them."""
        case = self.case
        total = len(calls)
        expected = len(self._expectations)
        failures: list[Failure] = []
        if called:
            failures.append(
                Failure(
                    "no_tool_calls",
                    f"expected no tool calls, got {total}: "
                    + ", ".join(f"#{p + 1} {calls[p].name}" for p in range(min(total, 5)))
                    + (" …" if total > 5 else ""),
                    case.requirement_span("no_tool_calls"),
                    {"calls": tuple(range(total))},
                )
            )
        if not threshold_ok:
            failures.append(
                _new_failure(
                    "threshold",
                    f"accuracy {matched}/{expected} = {matched / expected:.2f} is below "
                    f"the threshold {case.threshold:g}",
                    case.requirement_span("accuracy"),
                    {
                        "score": matched / expected,
                        "threshold": case.threshold,
                        "matched": matched,
                        "expected": expected,
                    },
                )
            )
            failures.extend(self._explain_unmatched(calls, assigned))
        for index, hits in forbidden:
            banned = case.forbids[index]
            more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
            failures.append(
                Failure(
                    "forbidden",
                    f"forbidden {self._forbids[index].source} matched call #{hits[0] + 1}{more}",
                    banned.span,
                    {"forbid": index, "tool": banned.tool, "calls": tuple(hits)},
                )
            )
        if unexpected:
            failures.extend(self._explain_unexpected(calls, assigned))
        for number, chain, (step, previous) in breaks:
            failures.append(self._explain_order(number, chain, step, previous, calls, by_tool))
        return tuple(failures)

    def _explain_unmatched(self, calls: Sequence[ToolCall], assigned: list[int]) -> list[Failure]:
        by_tool: dict[str, list[int]] = {}
        for position, call in enumerate(calls):
            by_tool.setdefault(call.name, []).append(position)
        paired_with = {c: e for e, c in enumerate(assigned) if c >= 0}
        failures: list[Failure] = []
        explained = 0
        for compiled in self._expectations:
            if assigned[compiled.index] >= 0:
                continue
            expectation = compiled.expectation
            source = compiled.source
            details: dict[str, Any] = {
                "expectation": compiled.index,
                "tool": expectation.tool,
                "never_called": expectation.tool not in by_tool,
                "similar_tools": (),
                "closest": (),
            }
            if expectation.tool not in by_tool:
                similar = _similar_tools(expectation.tool, by_tool)
                details["similar_tools"] = similar
                message = f"{source} not matched: {expectation.tool} was never called"
                if similar:
                    message += "; similarly named tools called: " + ", ".join(similar)
                elif not calls:
                    message += " (no tool calls were recorded)"
            elif explained >= MAX_EXPLAINED:
                message = f"{source} not matched"
            else:
                explained += 1
                closest = self._closest(compiled, calls, by_tool[expectation.tool], paired_with)
                details["closest"] = closest
                best = closest[0]
                if best.holds == best.total:
                    other = self.case.expectations[best.paired_with or 0]
                    where = f"line {other.span.line}" if other.span else "another expectation"
                    message = (
                        f"{source} not matched: every call of {expectation.tool} that fits is "
                        f"paired with another expectation (call #{best.call + 1} with {where})"
                    )
                else:
                    wrong = "; ".join(a.message for a in best.args if not a.holds)
                    if not best.valid_json:
                        wrong = "arguments are not valid JSON; " + wrong
                    message = f"{source} not matched; closest call #{best.call + 1}: {wrong}"
            failures.append(_new_failure("unmatched", message, expectation.span, details))
        return failures

    def _closest(
        self,
        compiled: _CompiledExpectation,
        calls: Sequence[ToolCall],
        positions: Sequence[int],
        paired_with: Mapping[int, int],
    ) -> tuple[NearMiss, ...]:
        """The calls of the tool on which most of the expectation's matchers hold."""
        checks = compiled.arg_checks
        held: dict[int, list[bool]] = {}
        for position in positions[:MAX_SCANNED]:
            arguments = _arguments(calls[position])
            held[position] = [check(arguments) for check in checks]
        ranked = sorted((-sum(map(bool, holds)), position) for position, holds in held.items())
        result: list[NearMiss] = []
        for negative, position in ranked[:MAX_CLOSEST]:
            call = calls[position]
            arguments = _arguments(call)
            reports = tuple(
                _arg_report(m, holds, arguments, described)
                for m, holds, described in zip(
                    compiled.expectation.args, held[position], compiled.described, strict=True
                )
            )
            paired = paired_with.get(position)
            result.append(_new_near_miss(position, -negative, len(checks), paired, call.valid_json, reports))
        return tuple(result)

    def _explain_unexpected(self, calls: Sequence[ToolCall], assigned: list[int]) -> list[Failure]:
        paired = set(assigned)
        unpaired = [p for p in range(len(calls)) if p not in paired]
        failures = [
            Failure(
                "unexpected",
                f"unexpected call #{p + 1} {calls[p].name}: no expectation is paired with it",
                self.case.requirement_span("no_unexpected_calls"),
                {"calls": (p,), "tools": (calls[p].name,)},
            )
            for p in unpaired[:MAX_LISTED]
        ]
        rest = unpaired[MAX_LISTED:]
        if rest:
            failures.append(
                Failure(
                    "unexpected",
                    f"… and {len(rest)} more unexpected calls",
                    self.case.requirement_span("no_unexpected_calls"),
                    {"calls": tuple(rest), "tools": tuple(sorted({calls[p].name for p in rest}))},
                )
            )
        return failures

    def _explain_order(
        self,
        number: int | None,
        chain: tuple[int, ...],
        step: int,
        previous: int,
        calls: Sequence[ToolCall],
        by_tool: Mapping[str, list[int]],
    ) -> Failure:
        compiled = self._expectations[chain[step]]
        expectation = compiled.expectation
        matching = tuple(p for p in by_tool.get(expectation.tool, ()) if compiled.check(_arguments(calls[p])))
        requirement = "then" if number is not None else "require order"
        source = compiled.source
        if step == 0 or previous < 0:
            message = f"{requirement}: step 1 {source} has no matching call"
        else:
            before = self._expectations[chain[step - 1]].source
            message = (
                f"{requirement}: step {step + 1} {source} has no matching call after "
                f"call #{previous + 1} (step {step}, {before})"
            )
            if matching:
                message += "; it matched only " + ", ".join(f"call #{p + 1}" for p in matching[:5])
            else:
                message += "; it matched no call at all"
        return Failure(
            "order",
            message,
            expectation.span,
            {
                "requirement": requirement,
                "chain": number,
                "step": step,
                "expectation": chain[step],
                "after_call": previous if previous >= 0 else None,
                "matching_calls": matching,
            },
        )


def _arg_report(matcher: ArgMatcher, holds: bool, arguments: Mapping[str, Any], expected: str) -> ArgReport:
    """How one matcher fared on one call's arguments (``holds``: its test's answer;
    ``expected``: the matcher described)."""
    present = matcher.name in arguments
    got = _render(arguments[matcher.name]) if present else None
    if holds:
        message = f"{matcher.name}: ok"
    elif not present:
        message = f"{matcher.name}: missing"
    else:
        message = f"{matcher.name}: expected {expected}, got {got}"
    return _new_arg_report(matcher.name, holds, expected, got, message)


_ARG_REPORT_SETTERS: tuple[Any, ...] = tuple(
    vars(ArgReport)[name].__set__ for name in ("name", "holds", "expected", "got", "message")
)
_NEAR_MISS_SETTERS: tuple[Any, ...] = tuple(
    vars(NearMiss)[name].__set__ for name in ("call", "holds", "total", "paired_with", "valid_json", "args")
)
_FAILURE_SETTERS: tuple[Any, ...] = tuple(
    vars(Failure)[name].__set__ for name in ("kind", "message", "span", "details")
)


def _new_arg_report(name: str, holds: bool, expected: str, got: str | None, message: str) -> ArgReport:
    """``ArgReport(...)`` without the frozen-dataclass ``__init__`` cost (the same object)."""
    report: ArgReport = _new_object(ArgReport)
    set_name, set_holds, set_expected, set_got, set_message = _ARG_REPORT_SETTERS
    set_name(report, name)
    set_holds(report, holds)
    set_expected(report, expected)
    set_got(report, got)
    set_message(report, message)
    return report


def _new_near_miss(
    call: int, holds: int, total: int, paired_with: int | None, valid_json: bool, args: tuple[ArgReport, ...]
) -> NearMiss:
    """``NearMiss(...)`` without the frozen-dataclass ``__init__`` cost (the same object)."""
    miss: NearMiss = _new_object(NearMiss)
    set_call, set_holds, set_total, set_paired, set_valid, set_args = _NEAR_MISS_SETTERS
    set_call(miss, call)
    set_holds(miss, holds)
    set_total(miss, total)
    set_paired(miss, paired_with)
    set_valid(miss, valid_json)
    set_args(miss, args)
    return miss


def _new_failure(kind: FailureKind, message: str, span: Span | None, details: Mapping[str, Any]) -> Failure:
    """``Failure(...)`` without the frozen-dataclass ``__init__`` cost (the same object)."""
    failure: Failure = _new_object(Failure)
    set_kind, set_message, set_span, set_details = _FAILURE_SETTERS
    set_kind(failure, kind)
    set_message(failure, message)
    set_span(failure, span)
    set_details(failure, details)
    return failure


_FAILURES_SLOT: Any = vars(RunResult)["failures"]
_SET_CLASS = object.__setattr__


class _ExplainedLater(RunResult):
    """A failing :class:`RunResult` whose ``failures`` are worked out when first read.

    Until then its ``failures`` slot holds the function that works them out; the first
    read (or a comparison, ``repr``, ``hash``, copy or pickle) stores the tuple and turns
    the object into a plain :class:`RunResult`, equal to the one made at once.
    """

    __slots__ = ()

    @property
    def failures(self) -> tuple[Failure, ...]:
        """Why the run failed (worked out now, once)."""
        return _explain_now(self)

    def __eq__(self, other: object) -> bool:
        _explain_now(self)
        return self == other

    def __hash__(self) -> int:
        _explain_now(self)
        return hash(self)

    def __repr__(self) -> str:
        _explain_now(self)
        return repr(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        _explain_now(self)
        return self.__reduce_ex__(protocol)


def _explain_now(run: RunResult) -> tuple[Failure, ...]:
    """The failures of ``run``, working them out if it was made with ``explain_later``."""
    found = _FAILURES_SLOT.__get__(run, RunResult)
    if type(found) is tuple:
        return found
    failures: tuple[Failure, ...] = found()
    _FAILURES_SLOT.__set__(run, failures)
    _SET_CLASS(run, "__class__", RunResult)
    return failures


def _explained_later(
    case: str,
    score: float | None,
    matched: int,
    expected: int,
    calls: int,
    precision: float | None,
    f1: float | None,
    pairs: tuple[tuple[int, int], ...],
    explain: Callable[[], tuple[Failure, ...]],
) -> RunResult:
    """A failing run whose failures ``explain()`` gives on first read."""
    run = new_run(case, "fail", score, matched, expected, calls, precision, f1, pairs, ())
    _FAILURES_SLOT.__set__(run, explain)
    _SET_CLASS(run, "__class__", _ExplainedLater)
    return run


@functools.lru_cache(maxsize=65_536)
def _likeness(word: str, other: str) -> float:
    """How alike two tool names are, as ``difflib.get_close_matches`` measures it (cached)."""
    matcher = difflib.SequenceMatcher(None, other, word)
    return matcher.ratio()


def _similar_tools(word: str, names: Iterable[str], n: int = 3, cutoff: float = 0.6) -> tuple[str, ...]:
    """The ``n`` called tool names most like ``word``: ``difflib.get_close_matches`` with a cache."""
    scored = [(score, name) for name in names if (score := _likeness(word, name)) >= cutoff]
    if not scored:
        return ()
    # heapq.nlargest(n, scored) is documented to equal this; for a few names sorting is cheaper.
    best = sorted(scored, reverse=True)[:n] if len(scored) <= 32 else heapq.nlargest(n, scored)
    return tuple(name for _, name in best)


def _f1(score: float, precision: float) -> float:
    total = score + precision
    return 2 * score * precision / total if total else 0.0


_COMPILED: dict[int, tuple[Case, CompiledCase]] = {}
_COMPILED_LIMIT = 1024


def same_calls(plain: Sequence[Any], calls: Sequence[ToolCall]) -> bool:
    """Whether ``calls`` are the canonical reading of the call dicts ``plain``: the same
    names, the very same argument dicts, all valid JSON (so they pair alike)."""
    if len(plain) != len(calls):
        return False
    for raw, call in zip(plain, calls):  # noqa: B905 - lengths checked above
        if call.arguments is not raw["arguments"] or call.name != raw["name"] or not call.valid_json:
            return False
    return True


def compile_case(case: Case) -> CompiledCase:
    """Prepare a case for scoring; reuse the result for every run of the case."""
    entry = _COMPILED.get(id(case))
    if entry is not None and entry[0] is case:
        return entry[1]
    compiled = CompiledCase(case)
    if len(_COMPILED) >= _COMPILED_LIMIT:
        _COMPILED.clear()
    _COMPILED[id(case)] = (case, compiled)
    return compiled


def evaluate(case: Case, calls: Sequence[ToolCall] | None) -> RunResult:
    """Score one recorded run of ``case`` (``None``: no sample was recorded, an error)."""
    return compile_case(case).evaluate(calls)


def tool_call_accuracy(expected: Sequence[Expectation], calls: Sequence[ToolCall] | None) -> MatchResult:
    """The Tool Call Accuracy of ``calls`` against ``expected``; ``ValueError`` when undefined."""
    if not expected:
        raise ValueError("tool call accuracy needs at least one expected call; got none")
    if calls is None:
        raise ValueError(
            "tool call accuracy needs the recorded calls; got None (no sample was recorded). "
            "Pass an empty list for a run that called no tools"
        )
    return CompiledCase(Case(name="tool_call_accuracy", expectations=tuple(expected))).match(calls)


# ---------------------------------------------------------------------------- repeated runs


class CaseAccumulator:
    """Fold the runs of one case as they come (streaming logs) into a :class:`CaseResult`."""

    __slots__ = ("_case", "_errors", "_kept", "_min", "_passed", "_runs", "_scored", "_sum")

    def __init__(self, case: Case) -> None:
        self._case = case
        self._runs = 0
        self._passed = 0
        self._errors = 0
        self._scored = 0
        self._sum: list[float] = []
        self._min: float | None = None
        self._kept: list[tuple[int, RunResult]] = []

    def add(self, run: RunResult) -> None:
        """Count one run."""
        number = self._runs
        self._runs += 1
        if run.status == "pass":
            self._passed += 1
        else:
            if run.status == "error":
                self._errors += 1
            if len(self._kept) < MAX_KEPT_RUNS:
                self._kept.append((number, run))
        if run.score is not None:
            self._scored += 1
            self._sum.append(run.score)
            if len(self._sum) > 1024:
                self._sum = [math.fsum(self._sum)]
            self._min = run.score if self._min is None else min(self._min, run.score)

    def result(self) -> CaseResult:
        """The verdict on the runs counted so far."""
        case = self._case
        runs = self._runs
        failures: list[Failure] = []
        status: Status
        if not runs:
            status = "error"
            message = f'no recorded sample for case "{case.name}"'
            failures.append(Failure("error", message, case.span))
        elif self._errors:
            status = "error"
        elif self._passed == runs or (
            case.pass_rate is not None and Fraction(self._passed, runs) >= _fraction(case.pass_rate)
        ):
            status = "pass"
        else:
            status = "fail"
            if case.pass_rate is not None:
                failures.append(
                    Failure(
                        "pass_rate",
                        f"{self._passed} of {runs} runs passed ({self._passed / runs:.0%}), "
                        f"below the required pass rate {case.pass_rate:g}",
                        case.requirement_span("pass_rate"),
                        {"runs": runs, "passed": self._passed, "required": case.pass_rate},
                    )
                )
            elif runs > 1:
                failures.append(
                    Failure(
                        "pass_rate",
                        f"{runs - self._passed} of {runs} runs failed; every run must pass",
                        case.span,
                        {"runs": runs, "passed": self._passed, "required": 1.0},
                    )
                )
        mean = math.fsum(self._sum) / self._scored if self._scored else None
        return CaseResult(
            case=case.name,
            status=status,
            runs=runs,
            passed=self._passed,
            errors=self._errors,
            mean_score=mean,
            min_score=self._min,
            pass_rate=self._passed / runs if runs else None,
            required_pass_rate=case.pass_rate,
            kept_runs=tuple(self._kept),
            failures=tuple(failures),
        )


def aggregate(case: Case, runs: Sequence[RunResult]) -> CaseResult:
    """Fold all recorded runs of ``case`` into one verdict (see :class:`CaseAccumulator`)."""
    accumulator = CaseAccumulator(case)
    for run in runs:
        accumulator.add(run)
    return accumulator.result()
