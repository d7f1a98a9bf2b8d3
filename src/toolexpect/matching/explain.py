"""Explanations of a failing run: what failed, the closest calls, each argument's verdict.

:func:`explain` turns what a run broke (:class:`Findings`, worked out while scoring) into
:class:`~toolexpect.matching.results.Failure` records, in the order reports list them.
Only a failing run is explained, and a run scored with ``explain_later`` only when its
failures are first read. Nothing here pairs calls again. How messages name expectations and
values is :mod:`toolexpect.matching.wording` (its names are also importable from here).
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from toolexpect.calls import ToolCall
from toolexpect.matching.matchers import (
    CompiledExpectation,
    arguments_of,
    compile_arg,
    compile_key,
    pattern_matches,
)
from toolexpect.matching.pairing import Pairing
from toolexpect.matching.results import ArgReport, Failure, NearMiss
from toolexpect.matching.wording import (
    Wording,
    describe,
    render_value,
    source_call,
    unread_arguments,
    wording,
)
from toolexpect.model import ArgMatcher, Case, CountRequirement, KeyMatch, Op, PartialObject, holds_matchers

__all__ = [
    "MAX_CLOSEST",
    "MAX_EXPLAINED",
    "MAX_LISTED",
    "MAX_SCANNED",
    "Findings",
    "Wording",
    "describe",
    "explain",
    "failing_messages",
    "render_value",
    "source_call",
    "unread_arguments",
    "wording",
]

MAX_EXPLAINED = 100
"""At most this many unmatched expectations of a run get a closest-call analysis."""

MAX_SCANNED = 1000
"""At most this many calls of a tool are ranked when looking for the closest calls."""

MAX_CLOSEST = 3
"""How many closest calls an unmatched expectation reports."""

MAX_LISTED = 100
"""At most this many unexpected calls get a record each; the rest share one record."""

Break = tuple[int | None, tuple[int, ...], tuple[int, int]]
"""A broken order: the chain's number (``None`` for ``require order``), the chain, and
(the step without a matching call, the call the previous step matched or -1)."""


class Findings(NamedTuple):
    """What a failing run broke, as scoring found it (all positions 0-based)."""

    called: bool
    threshold_ok: bool
    forbidden: list[tuple[int, list[int]]]
    unexpected: bool
    breaks: list[Break]
    miscounted: Sequence[tuple[int, tuple[int, ...]]] = ()
    """Each count requirement the run does not meet (its index) with the calls it counted."""
    allowed: Sequence[int] = ()
    """The unpaired calls an ``allow`` of the case lets pass (never unexpected)."""


def explain(
    case: Case,
    expectations: Sequence[CompiledExpectation],
    forbids: Sequence[CompiledExpectation],
    calls: Sequence[ToolCall],
    pairing: Pairing,
    findings: Findings,
    words: Callable[[], Sequence[Wording]],
) -> tuple[Failure, ...]:
    """Why a failing run failed: every failure, in the order the report lists them.

    ``words`` gives the case's :func:`wording` (made once per case, when first needed).
    """
    total = len(calls)
    expected = len(expectations)
    matched = pairing.matched
    failures: list[Failure] = []
    if findings.called:
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
    if not findings.threshold_ok:
        failures.append(
            Failure(
                "threshold",
                f"accuracy {matched}/{expected} = {matched / expected:.2f} is "
                f"{'not above' if case.threshold_strict else 'below'} the threshold {case.threshold:g}",
                case.requirement_span("accuracy"),
                {
                    "score": matched / expected,
                    "threshold": case.threshold,
                    "matched": matched,
                    "expected": expected,
                },
            )
        )
        failures.extend(_unmatched(case, expectations, calls, pairing.assigned, words()))
    for index, hits in findings.forbidden:
        banned = case.forbids[index]
        more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
        failures.append(
            Failure(
                "forbidden",
                f"forbidden {source_call(forbids[index].expectation)} matched call #{hits[0] + 1}{more}",
                banned.span,
                {"forbid": index, "tool": banned.tool, "calls": tuple(hits)},
            )
        )
    if findings.unexpected:
        failures.extend(_unexpected(case, calls, pairing.assigned, findings.allowed))
    for number, chain, (step, previous) in findings.breaks:
        failures.append(_order(expectations, words(), number, chain, step, previous, calls, pairing.by_tool))
    for index, counted in findings.miscounted:
        failures.append(_miscount(case, index, counted, calls))
    return tuple(failures)


def _times(number: int) -> str:
    return "once" if number == 1 else f"{number} times"


def _calls(number: int) -> str:
    return "no call" if number == 0 else "1 call" if number == 1 else f"{number} calls"


def _allowed(count: CountRequirement) -> str:
    """What a count allows, in words: ``at most 3 are allowed``, ``exactly 1 is required``."""
    low, high = count.at_least, count.at_most
    if low is not None and high is not None:
        if low == high:
            return f"exactly {low} {'is' if low == 1 else 'are'} required"
        return f"between {low} and {high} are required"
    if high is not None:
        return f"at most {high} {'is' if high == 1 else 'are'} allowed"
    return f"at least {low} {'is' if low == 1 else 'are'} required"


def _miscount(case: Case, index: int, counted: Sequence[int], calls: Sequence[ToolCall]) -> Failure:
    """A count requirement the run does not meet: how many calls it counted, what it allows,
    and the calls counted (the first five named in the message)."""
    count = case.counts[index]
    number = len(counted)
    if count.call is None:
        subject = f"the run made {_calls(number)}"
    elif count.call.args:
        subject = f"{source_call(count.call)} matched {_calls(number)}"
    elif number == 0:
        subject = f"{count.call.tool} was never called"
    else:
        subject = f"{count.call.tool} was called {_times(number)}"
    message = f"{subject}; {_allowed(count)}"
    shown = 5
    if counted:
        named = (
            f"#{p + 1}" if count.call is not None else f"#{p + 1} {calls[p].name}" for p in counted[:shown]
        )
        more = f" and {number - shown} more" if number > shown else ""
        message += f" (call{'s' if number > 1 else ''} {', '.join(named)}{more})"
    return Failure(
        "count",
        message,
        count.span,
        {
            "count": index,
            "tool": count.call.tool if count.call is not None else None,
            "at_least": count.at_least,
            "at_most": count.at_most,
            "counted": number,
            "calls": tuple(counted),
        },
    )


def _unmatched(
    case: Case,
    expectations: Sequence[CompiledExpectation],
    calls: Sequence[ToolCall],
    assigned: Sequence[int],
    words: Sequence[Wording],
) -> list[Failure]:
    by_tool: dict[str, list[int]] = {}
    for position, call in enumerate(calls):
        by_tool.setdefault(call.name, []).append(position)
    paired_with = {c: e for e, c in enumerate(assigned) if c >= 0}
    failures: list[Failure] = []
    explained = 0
    for compiled in expectations:
        if assigned[compiled.index] >= 0:
            continue
        expectation = compiled.expectation
        source, described = words[compiled.index]
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
            closest = _closest(compiled, described, calls, by_tool[expectation.tool], paired_with)
            details["closest"] = closest
            best = closest[0]
            if best.holds == best.total:
                other = case.expectations[best.paired_with or 0]
                where = f"line {other.span.line}" if other.span else "another expectation"
                message = (
                    f"{source} not matched: every call of {expectation.tool} that fits is "
                    f"paired with another expectation (call #{best.call + 1} with {where})"
                )
            elif not best.valid_json:
                message = (
                    f"{source} not matched: the arguments of call #{best.call + 1} could not be "
                    f"read (not valid JSON): {unread_arguments(calls[best.call])}"
                )
            else:
                wrong = "; ".join(failing_messages(best))
                message = f"{source} not matched; closest call #{best.call + 1}: {wrong}"
        failures.append(Failure("unmatched", message, expectation.span, details))
    return failures


def _closest(
    compiled: CompiledExpectation,
    described: Sequence[str],
    calls: Sequence[ToolCall],
    positions: Sequence[int],
    paired_with: Mapping[int, int],
) -> tuple[NearMiss, ...]:
    """The calls of the tool on which most of the expectation's matchers hold."""
    checks = compiled.arg_checks
    held: dict[int, list[bool]] = {}
    for position in positions[:MAX_SCANNED]:
        arguments = arguments_of(calls[position])
        held[position] = [check(arguments) for check in checks]
    ranked = sorted((-sum(map(bool, holds)), position) for position, holds in held.items())
    result: list[NearMiss] = []
    for negative, position in ranked[:MAX_CLOSEST]:
        call = calls[position]
        arguments = arguments_of(call)
        reports = tuple(
            _arg_report(m, holds, arguments, words, call.valid_json)
            for m, holds, words in zip(compiled.expectation.args, held[position], described, strict=True)
        )
        paired = paired_with.get(position)
        result.append(NearMiss(position, -negative, len(checks), paired, call.valid_json, reports))
    return tuple(result)


def failing_messages(miss: NearMiss) -> list[str]:
    """The messages of a near miss's failing arguments, each once: the conditions of one
    argument (``1 <= d <= 9``) all say ``d: missing`` when it is absent."""
    return list(dict.fromkeys(a.message for a in miss.args if not a.holds))


def _arg_report(
    matcher: ArgMatcher, holds: bool, arguments: Mapping[str, Any], expected: str, readable: bool = True
) -> ArgReport:
    """How one matcher fared on one call's arguments (``holds``: its test's answer;
    ``expected``: the matcher described; ``readable``: the call's arguments were valid JSON)."""
    present = matcher.name in arguments
    got = render_value(arguments[matcher.name]) if present else None
    if holds:
        message = f"{matcher.name}: ok"
    elif not readable:
        message = f"{matcher.name}: unknown, the call's arguments could not be read"
    elif not present:
        message = f"{matcher.name}: missing"
    elif matcher.op is Op.CONTAINS or (holds_matchers(matcher.value) and matcher.op is not Op.NE):
        # Say which nested key failed and why: location.city: "Paris" does not match ~ "^Ber".
        found = _key_mismatch(matcher, arguments, matcher.name, compile_arg(matcher), 0)
        message = found or f"{matcher.name}: expected {expected}, got {got}"
    else:
        message = f"{matcher.name}: expected {expected}, got {got}"
    return ArgReport(matcher.name, holds, expected, got, message)


_MAX_WHY_DEPTH = 64
"""How deep an explanation follows a pattern into a value (a spec's values nest at most 64)."""


def _mismatch(pattern: Any, actual: Any, path: str, depth: int) -> str | None:
    """Where and why ``actual`` does not match ``pattern`` by the nested rules (``None`` when it
    does): the first key or element that fails, named by its path from the argument."""
    if depth > _MAX_WHY_DEPTH or pattern_matches(pattern, actual):
        return None
    kind = type(pattern)
    if kind is dict or kind is PartialObject:
        entries = pattern.entries if kind is PartialObject else pattern
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {render_value(actual)}"
        if kind is dict:
            for key in actual:
                if key not in entries:
                    return f"{path}.{key}: not expected (the object has no ...)"
        for key, value in entries.items():
            here = f"{path}.{key}"
            if type(value) is KeyMatch:
                for matcher in value.matchers:
                    found = _key_mismatch(matcher, actual, here, compile_key(matcher), depth + 1)
                    if found is not None:
                        return found
            elif key not in actual:
                return f"{here}: missing"
            else:
                found = _mismatch(value, actual[key], here, depth + 1)
                if found is not None:
                    return found
        return None
    if kind is list and isinstance(actual, list) and len(actual) == len(pattern):
        for index, (element, item) in enumerate(zip(pattern, actual, strict=True)):
            found = _mismatch(element, item, f"{path}[{index}]", depth + 1)
            if found is not None:
                return found
        return None
    return f"{path}: expected {render_value(pattern)}, got {render_value(actual)}"


def _key_mismatch(
    matcher: ArgMatcher, arguments: Mapping[str, Any], path: str, test: Callable[[Any], bool], depth: int
) -> str | None:
    """Why ``matcher`` fails on the object (or arguments) that holds its key, ``None`` when it
    holds; ``path`` names the key, ``test`` is the matcher's own test."""
    if test(arguments):
        return None
    op = matcher.op
    name = matcher.name
    if op is Op.ABSENT:
        return f"{path}: expected absent, got {render_value(arguments[name])}"
    if name not in arguments:
        return f"{path}: missing"
    got = arguments[name]
    shown = render_value(got)
    wanted = describe(replace(matcher, optional=False))  # present: what the rest asks
    if op is Op.EQ or op is Op.PARTIAL:
        return _mismatch(matcher.value, got, path, depth) or f"{path}: expected {wanted}, got {shown}"
    if op is Op.REGEX:
        pattern = wanted.removeprefix("a match for ")
        if type(got) is not str:
            return f"{path}: {shown} is not a string, so it does not match {pattern}"
        return f"{path}: {shown} does not match {pattern}"
    if op in (Op.LT, Op.LE, Op.GT, Op.GE, Op.APPROX):
        if isinstance(got, bool) or not isinstance(got, int | float):
            return f"{path}: {shown} is not a number"
        if op is Op.APPROX:
            return f"{path}: {shown} is not within {wanted}"
        return f"{path}: {shown} is not {wanted}"
    if op is Op.CONTAINS:
        element = render_value(matcher.value)
        if isinstance(got, list):
            return f"{path}: {shown} holds no element matching {element}"
        if isinstance(got, str) and isinstance(matcher.value, str):
            return f"{path}: {shown} does not contain {element}"
        if isinstance(got, str):
            return f"{path}: {shown} is a string, in which only a string is looked for, not {element}"
        return f"{path}: {shown} is neither a list nor a string holding {element}"
    if op is Op.IN:
        return f"{path}: {shown} is not {wanted}"
    if op is Op.NE:
        return f"{path}: {shown} is the value it must not be"
    return f"{path}: expected {wanted}, got {shown}"


def _unexpected(
    case: Case, calls: Sequence[ToolCall], assigned: Sequence[int], allowed: Sequence[int] = ()
) -> list[Failure]:
    """A record per unexpected call: paired with no expectation, and not allowed."""
    passed = {*assigned, *allowed}
    unpaired = [p for p in range(len(calls)) if p not in passed]
    span = case.requirement_span("no_unexpected_calls")
    why = " and no allow matches it" if case.allows else ""
    failures = [
        Failure(
            "unexpected",
            f"unexpected call #{p + 1} {calls[p].name}: no expectation is paired with it{why}",
            span,
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
                span,
                {"calls": tuple(rest), "tools": tuple(sorted({calls[p].name for p in rest}))},
            )
        )
    return failures


def _order(
    expectations: Sequence[CompiledExpectation],
    words: Sequence[Wording],
    number: int | None,
    chain: tuple[int, ...],
    step: int,
    previous: int,
    calls: Sequence[ToolCall],
    by_tool: Mapping[str, list[int]],
) -> Failure:
    compiled = expectations[chain[step]]
    expectation = compiled.expectation
    matching = tuple(p for p in by_tool.get(expectation.tool, ()) if compiled.check(arguments_of(calls[p])))
    requirement = "then" if number is not None else "require order"
    source = words[chain[step]].source
    if step == 0 or previous < 0:
        message = f"{requirement}: step 1 {source} has no matching call"
    else:
        before = words[chain[step - 1]].source
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


@functools.lru_cache(maxsize=65_536)
def _likeness(word: str, other: str) -> float:
    """How alike two tool names are, as ``difflib.get_close_matches`` measures it (cached)."""
    return difflib.SequenceMatcher(None, other, word).ratio()


def _similar_tools(word: str, names: Iterable[str], n: int = 3, cutoff: float = 0.6) -> tuple[str, ...]:
    """The ``n`` called tool names most like ``word``, best first, as ``difflib.get_close_matches``."""
    scored = [(score, name) for name in names if (score := _likeness(word, name)) >= cutoff]
    scored.sort(reverse=True)  # best score first, ties by name, as get_close_matches ranks
    return tuple(name for _, name in scored[:n])
