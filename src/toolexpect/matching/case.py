"""A case compiled once and scored against many runs: pairing, requirements, the verdict.

:func:`compile_case` turns a :class:`~toolexpect.model.Case` into a :class:`CompiledCase`
(matchers compiled, expectations planned for pairing). :meth:`CompiledCase.evaluate`
scores one run and checks the requirements of docs/language.md (pass or fail): the
accuracy threshold, ``forbid``, ``require no unexpected calls``, ``require no tool calls``,
``then`` chains, ``require order`` and each count requirement (``require at most 3 calls of
search``: the run's calls that match the call, counted apart from pairing). A call left
unpaired that matches an ``allow`` (and no ``forbid``) is allowed: never unexpected, and left
out of precision and F1. A compiled case holds no state of a run, so one may be shared by
threads.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from toolexpect.calls import ToolCall
from toolexpect.matching.explain import Break, Findings, Wording, explain, wording
from toolexpect.matching.matchers import CompiledExpectation, arguments_of
from toolexpect.matching.pairing import Pairing, Plan
from toolexpect.matching.results import Failure, LaterFailures, MatchResult, RunResult, figures
from toolexpect.matching.values import exact_fraction
from toolexpect.matching.wording import render_value
from toolexpect.model import Case, Expectation

__all__ = ["CompiledCase", "compile_case", "evaluate", "tool_call_accuracy"]


class CompiledCase:
    """A case made ready to score many runs: build once with :func:`compile_case`, reuse."""

    __slots__ = (
        "_allows",
        "_chains",
        "_counts",
        "_expectations",
        "_forbids",
        "_min_matched",
        "_plan",
        "_wording",
        "case",
        "error",
    )

    def __init__(self, case: Case) -> None:
        """Compile ``case``: its matchers, its pairing plan and its requirements."""
        self.case = case
        self._expectations = tuple(CompiledExpectation.of(i, e) for i, e in enumerate(case.expectations))
        self._forbids = tuple(CompiledExpectation.of(i, f) for i, f in enumerate(case.forbids))
        self._counts = tuple(
            (count, CompiledExpectation.of(i, count.call) if count.call is not None else None)
            for i, count in enumerate(case.counts)
        )
        self._allows = tuple(CompiledExpectation.of(i, a) for i, a in enumerate(case.allows))
        self._plan = Plan.of(
            self._expectations, [*(f.tool for f in case.forbids), *(a.tool for a in case.allows)]
        )
        self._wording: tuple[Wording, ...] | None = None
        chains: list[tuple[int | None, tuple[int, ...]]] = list(enumerate(case.chains))
        if case.ordered and len(case.expectations) > 1:
            chains.append((None, tuple(range(len(case.expectations)))))
        self._chains = tuple(chains)
        threshold = exact_fraction(case.threshold)
        # The fewest matched expectations that meet the threshold (exact fractions): the
        # ceiling of threshold * n to reach it (>=), one more than its floor to pass it (>).
        reach = threshold.numerator * len(self._expectations)
        if case.threshold_strict:
            self._min_matched = reach // threshold.denominator + 1
        else:
            self._min_matched = -(-reach // threshold.denominator)
        self.error: str | None = None
        if not case.expectations:
            if not (case.forbids or case.no_tool_calls or case.no_unexpected_calls or case.counts):
                self.error = (
                    f'case "{case.name}" has no expectations and no requirement, '
                    "so it has no accuracy to compute"
                )
            elif case.accuracy_required or case.threshold != 1.0:
                self.error = (
                    f'case "{case.name}" requires an accuracy but has no expectations to compute it from'
                )

    def pair(self, calls: Sequence[ToolCall]) -> Pairing:
        """The maximum pairing of this case's expectations with ``calls``."""
        return self._plan.pair(calls)

    def match(self, calls: Sequence[ToolCall]) -> MatchResult:
        """The accuracy of one run, requirements aside; ``ValueError`` without expectations."""
        expected = len(self._expectations)
        if not expected:
            raise ValueError("tool call accuracy needs at least one expected call; got no expectations")
        pairing = self.pair(calls)
        assigned, matched, by_tool = pairing
        total = len(calls)
        allowed: tuple[int, ...] = ()
        if self._allows:
            allowed = self._allowed(calls, pairing, self._forbidden(calls, by_tool) if self._forbids else [])
        _, precision, f1 = figures(matched, expected, total - len(allowed))
        paired_calls = set(assigned)
        return MatchResult(
            score=matched / expected,
            matched=matched,
            expected=expected,
            calls=total,
            precision=precision,
            f1=f1 if f1 is not None else 0.0,
            pairs=tuple((e, c) for e, c in enumerate(assigned) if c >= 0),
            unmatched=tuple(e for e, c in enumerate(assigned) if c < 0),
            unpaired_calls=tuple(c for c in range(total) if c not in paired_calls),
            allowed_calls=allowed,
        )

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

    def failed(self, error: str, path: str | None = None, line: int | None = None) -> RunResult:
        """The run of a request that failed (``error``: the provider's words, read at ``line``
        of the log ``path``): an error, whatever the case requires, since the run never
        happened."""
        where = f" ({path}:{line})" if path and line else f" ({path})" if path else ""
        message = f"the recorded request failed, so the run was not scored: {render_value(error, 200)}{where}"
        details = {"error": error, "path": path, "line": line}
        run = self._error(message)
        return replace(run, failures=(Failure("request_failed", message, self.case.span, details),))

    def evaluate(self, calls: Sequence[ToolCall] | None, *, explain_later: bool = False) -> RunResult:
        """Score one recorded run and decide pass or fail (``None``: nothing was recorded).

        With ``explain_later`` a failing run's ``failures`` are worked out when first read
        (the run keeps ``calls``, which must then not change); they are the same either way.
        """
        case = self.case
        if calls is None:
            return self._error(f'no recorded sample for case "{case.name}"')
        if self.error is not None:
            return self._error(self.error)
        pairing = self.pair(calls)
        assigned, matched, by_tool = pairing
        total = len(calls)
        expected = len(assigned)
        forbidden = self._forbidden(calls, by_tool) if self._forbids else []
        allowed: tuple[int, ...] = self._allowed(calls, pairing, forbidden) if self._allows else ()
        score, precision, f1 = figures(matched, expected, total - len(allowed))
        if matched == expected:
            pairs = tuple(enumerate(assigned))
        else:
            pairs = tuple([(e, c) for e, c in enumerate(assigned) if c >= 0])
        called = case.no_tool_calls and total > 0
        threshold_ok = matched >= self._min_matched
        unexpected = case.no_unexpected_calls and matched + len(allowed) < total
        breaks = self._breaks(calls, by_tool) if self._chains else []
        miscounted = self._miscounted(calls) if self._counts else []
        if threshold_ok and not (called or forbidden or unexpected or breaks or miscounted):
            return RunResult(
                case.name, "pass", score, matched, expected, total, precision, f1, pairs, (), len(allowed)
            )
        findings = Findings(called, threshold_ok, forbidden, unexpected, breaks, miscounted, allowed)
        why = functools.partial(
            explain, case, self._expectations, self._forbids, calls, pairing, findings, self._words
        )
        failures = LaterFailures(why) if explain_later else why()
        return RunResult(
            case.name, "fail", score, matched, expected, total, precision, f1, pairs, failures, len(allowed)
        )

    def _words(self) -> tuple[Wording, ...]:
        """How failures word this case's expectations, made when a run is first explained.

        The wording is the same for every run; two threads that both make it at once make
        equal tuples, and either may be kept.
        """
        words = self._wording
        if words is None:
            words = self._wording = wording(self._expectations)
        return words

    def _forbidden(
        self, calls: Sequence[ToolCall], by_tool: Mapping[str, list[int]]
    ) -> list[tuple[int, list[int]]]:
        """Each matched ``forbid`` (its index) with the calls it matched."""
        found: list[tuple[int, list[int]]] = []
        for forbid in self._forbids:
            positions = by_tool.get(forbid.expectation.tool)
            if positions:
                check = forbid.check
                hits = [p for p in positions if check(arguments_of(calls[p]))]
                if hits:
                    found.append((forbid.index, hits))
        return found

    def _allowed(
        self, calls: Sequence[ToolCall], pairing: Pairing, forbidden: Sequence[tuple[int, list[int]]]
    ) -> tuple[int, ...]:
        """The calls no expectation is paired with that match an ``allow`` and no ``forbid``
        (``forbidden``: each matched forbid with its calls), in call order."""
        by_tool = pairing.by_tool
        paired = {c for c in pairing.assigned if c >= 0}
        banned = {p for _, hits in forbidden for p in hits}
        found: set[int] = set()
        for allow in self._allows:
            check = allow.check
            for p in by_tool.get(allow.expectation.tool, ()):
                if p not in paired and p not in banned and p not in found and check(arguments_of(calls[p])):
                    found.add(p)
        return tuple(sorted(found))

    def _miscounted(self, calls: Sequence[ToolCall]) -> list[tuple[int, tuple[int, ...]]]:
        """Each count requirement (its index) that the run does not meet, with the calls it
        counted: those matching its call, whatever they are paired with, or every call."""
        found: list[tuple[int, tuple[int, ...]]] = []
        for index, (count, compiled) in enumerate(self._counts):
            if compiled is None:
                counted = tuple(range(len(calls)))
            else:
                tool, check = compiled.expectation.tool, compiled.check
                counted = tuple(
                    p for p, call in enumerate(calls) if call.name == tool and check(arguments_of(call))
                )
            if not count.holds(len(counted)):
                found.append((index, counted))
        return found

    def _breaks(self, calls: Sequence[ToolCall], by_tool: Mapping[str, list[int]]) -> list[Break]:
        """Each order requirement (``then`` chain, ``require order``) the run breaks.

        Greedy: each step takes the earliest matching call after the previous step's one
        (earliest is always the best choice for a subsequence).
        """
        breaks: list[Break] = []
        for number, chain in self._chains:
            previous = -1
            for step, index in enumerate(chain):
                compiled = self._expectations[index]
                positions = by_tool.get(compiled.expectation.tool, ())
                check = compiled.check
                found = -1
                for k in range(bisect_right(positions, previous), len(positions)):
                    if check(arguments_of(calls[positions[k]])):
                        found = positions[k]
                        break
                if found < 0:
                    breaks.append((number, chain, (step, previous)))
                    break
                previous = found
        return breaks


class _Identity:
    """A key for a cache that stands for one object, by identity (and keeps it alive)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.value is self.value


@functools.lru_cache(maxsize=1024)
def _compile(key: _Identity) -> CompiledCase:
    return CompiledCase(key.value)


def compile_case(case: Case) -> CompiledCase:
    """Prepare a case for scoring; the same case object gives the same compiled case."""
    return _compile(_Identity(case))


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
