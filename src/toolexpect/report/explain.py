"""Explain a failing run in plain text: what was expected, what was called, what went wrong.

The text is what ``assert_*`` helpers put in their ``AssertionError`` and what the pytest
plugin shows for a failing case. It is built from the matcher's ``Failure`` records only;
no matching is redone here. Call numbers are 1-based (``#1`` is the first call). What a log
or spec holds is shown with its control characters visible (:func:`~toolexpect.lines.visible`),
and no line is a workflow command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from toolexpect.calls import ToolCall
from toolexpect.lines import visible
from toolexpect.matching import CaseResult, Failure, NearMiss, RunResult, source_call
from toolexpect.matching.explain import unread_arguments
from toolexpect.model import Case, Expectation, Pattern, pattern_to_json
from toolexpect.report.github import inert

__all__ = ["explain_case", "explain_run", "render_call", "render_expectation"]

MAX_CALLS_LISTED = 20
"""At most this many recorded calls are listed under a failing run."""

_LIMIT = 200


def _short(text: str, limit: int = _LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_expectation(expectation: Expectation) -> str:
    """An expectation written roughly as a spec spells it: ``get_weather(city="Berlin")``."""
    return source_call(expectation)


def render_call(call: ToolCall) -> str:
    """A recorded call on one line, written as a spec would expect it (the writer of
    ``toolexpect format``): ``get_weather(city="Paris")``, ``"天気"("都市"="東京")``."""
    from toolexpect.language.write import write_call, write_name  # loads the grammar: only to explain

    if not call.valid_json:
        return _short(f"{write_name(call.name)}(<arguments not valid JSON: {call.raw_arguments!r}>)")
    if not call.arguments:
        return _short(f"{write_name(call.name)}()")
    args = [
        {"name": name, "op": "eq", "value": pattern_to_json(cast(Pattern, value))}
        for name, value in call.arguments.items()
    ]
    return _short(write_call({"tool": call.name, "args": args}))


def _where(failure: Failure, path: str | None) -> str:
    if failure.span is None:
        return ""
    return f" [{path or 'spec'}:{failure.span.line}:{failure.span.column}]"


def _call_at(calls: Sequence[ToolCall] | None, index: int) -> str:
    if calls is not None and 0 <= index < len(calls):
        return f"#{index + 1} {render_call(calls[index])}"
    return f"#{index + 1}"


def _near_miss(miss: NearMiss, calls: Sequence[ToolCall] | None, case: Case) -> list[str]:
    head = f"      {_call_at(calls, miss.call)}: {miss.holds} of {miss.total} arguments match"
    if miss.paired_with is not None and miss.paired_with < len(case.expectations):
        other = render_expectation(case.expectations[miss.paired_with])
        head += f" (paired with expected {other})"
    lines = [head]
    if not miss.valid_json:
        raw = unread_arguments(calls[miss.call]) if calls is not None and miss.call < len(calls) else ""
        lines.append(f"        arguments could not be read (not valid JSON): {raw}".rstrip())
        return lines
    for report in miss.args:
        if report.holds:
            continue
        got = "missing" if report.got is None else report.got
        plain = f"{report.name}: expected {report.expected}, got {got}"
        # A value with matchers inside, or contains, says which key failed and why.
        nested = report.got is not None and report.message != plain
        lines.append(f"        {report.message if nested else plain}")
    return lines


def _failure_lines(
    failure: Failure, case: Case, calls: Sequence[ToolCall] | None, path: str | None
) -> list[str]:
    details: Mapping[str, Any] = failure.details
    where = _where(failure, path)
    kind = failure.kind
    if kind == "unmatched":
        index = details.get("expectation")
        if isinstance(index, int) and 0 <= index < len(case.expectations):
            shown = render_expectation(case.expectations[index])
        else:
            shown = str(details.get("tool", "?"))
        lines = [f"  - expected {shown}: not matched{where}"]
        if details.get("never_called"):
            line = f"      {details.get('tool')} was never called"
            similar = details.get("similar_tools") or ()
            if similar:
                line += "; similarly named tools called: " + ", ".join(similar)
            lines.append(line)
        closest: Sequence[NearMiss] = details.get("closest") or ()
        if closest:
            lines.append("    closest calls:")
            for miss in closest:
                lines.extend(_near_miss(miss, calls, case))
        elif not details.get("never_called"):
            lines.append(f"      {failure.message}")
        return lines
    if kind == "forbidden":
        index = details.get("forbid")
        shown = (
            render_expectation(case.forbids[index])
            if isinstance(index, int) and 0 <= index < len(case.forbids)
            else str(details.get("tool", "?"))
        )
        hits: Sequence[int] = details.get("calls") or ()
        lines = [f"  - forbidden {shown} was called{where}"]
        lines.extend(f"      at {_call_at(calls, p)}" for p in hits[:10])
        if len(hits) > 10:
            lines.append(f"      … and {len(hits) - 10} more")
        return lines
    if kind == "unexpected":
        positions: Sequence[int] = details.get("calls") or ()
        if len(positions) == 1:
            why = " and no allow matches it" if case.allows else ""
            return [
                f"  - unexpected call {_call_at(calls, positions[0])}: no expectation is paired with it{why}"
            ]
        return [f"  - {failure.message}"]
    if kind == "order":
        lines = [f"  - order broken{where}: {failure.message}"]
        matching: Sequence[int] = details.get("matching_calls") or ()
        for p in matching[:5]:
            lines.append(f"      matching call {_call_at(calls, p)}")
        return lines
    if kind == "no_tool_calls":
        every: Sequence[int] = details.get("calls") or ()
        lines = [f"  - expected no tool calls, got {len(every)}"]
        lines.extend(f"      {_call_at(calls, p)}" for p in every[:10])
        return lines
    if kind == "count":
        counted: Sequence[int] = details.get("calls") or ()
        lines = [f"  - {failure.message}{where}"]
        lines.extend(f"      counted {_call_at(calls, p)}" for p in counted[:10])
        if len(counted) > 10:
            lines.append(f"      … and {len(counted) - 10} more")
        return lines
    if kind == "threshold":
        return [f"  - {failure.message}"]
    return [f"  - {failure.message}{where}"]


def _order(failure: Failure) -> int:
    # The threshold line heads the list, followed by what explains it.
    return 0 if failure.kind == "threshold" else 1


def explain_run(
    case: Case,
    result: RunResult,
    calls: Sequence[ToolCall] | None = None,
    *,
    path: str | None = None,
) -> str:
    """Plain text saying why one run of ``case`` failed (or that it passed)."""
    score = "no score" if result.score is None else f"accuracy {result.score:.2f}"
    recorded = f"{result.calls} call{'' if result.calls == 1 else 's'} recorded"
    counts = f"{result.matched} of {result.expected} expected calls matched, {recorded}"
    if result.allowed:
        counts += f", {result.allowed} allowed"
    head = f'case "{case.name}" {_status_word(result.status)}: {score} ({counts})'
    if result.status == "error":
        head = f'case "{case.name}" could not be scored'
    lines = [head]
    for failure in sorted(result.failures, key=_order):
        lines.extend(_failure_lines(failure, case, calls, path))
    if calls is not None and result.status != "pass":
        if calls:
            lines.append(f"recorded calls ({len(calls)}):")
            lines.extend(f"  #{i + 1} {render_call(c)}" for i, c in enumerate(calls[:MAX_CALLS_LISTED]))
            if len(calls) > MAX_CALLS_LISTED:
                lines.append(f"  … and {len(calls) - MAX_CALLS_LISTED} more")
        else:
            lines.append("recorded calls: none")
    return inert("\n".join(visible(line) for line in lines))


def _status_word(status: str) -> str:
    return {"pass": "passed", "fail": "failed", "error": "could not be scored"}.get(status, status)


def explain_case(
    case: Case,
    result: CaseResult,
    *,
    path: str | None = None,
    runs: Sequence[Sequence[ToolCall]] = (),
) -> str:
    """Plain text saying why a case failed over its recorded runs.

    ``runs`` are the calls of the case's runs in scoring order, when kept: a failing run's
    calls are then shown with it.
    """
    lines: list[str] = []  # lines, and the already shown text of each failing run
    if result.runs > 1:
        mean = "-" if result.mean_score is None else f"{result.mean_score:.2f}"
        low = "-" if result.min_score is None else f"{result.min_score:.2f}"
        lines.append(
            visible(
                f'case "{case.name}" {_status_word(result.status)}: {result.passed} of {result.runs} '
                f"runs passed, mean accuracy {mean}, lowest {low}"
            )
        )
    for failure in result.failures:
        lines.append(visible(f"  - {failure.message}{_where(failure, path)}"))
    for number, run in result.kept_runs:
        calls = runs[number] if number < len(runs) else None
        text = explain_run(case, run, calls, path=path)
        if result.runs > 1:
            text = f"run #{number + 1}: " + text
        lines.append(text)
    if not lines:
        lines.append(visible(f'case "{case.name}" {_status_word(result.status)}'))
    return inert("\n".join(lines))
