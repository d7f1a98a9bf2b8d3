"""Recorded runs to case documents: what a snapshot writes for each case.

Pure: takes the runs of each case (samples already paired with case names) and returns the
canonical document of each case, with the diagnostics of what could not be written as
recorded. The one writer of text is :mod:`toolexpect.language.format`.

One run gives one ``expect`` per call, its arguments written exactly as recorded. Several
runs of one case (repeated runs) keep what every run agrees on: a call is expected as often
as every run made it (calls lined up by tool, then by how many argument values they share,
then by order), an argument is kept when every lined-up call has it, with its value when all
values are equivalent and ``in [...]`` of the recorded values (or ``=any``, by choice) when
they differ. With ``counts``, each tool the runs called also gets the bounds of how often they
called it (:func:`count_bounds`). The calls of the tools in ``allow`` are no expectations:
each such tool the runs called is written ``allow TOOL`` instead. The pass rate is added
later, from scoring the written case (:mod:`toolexpect.snapshot.write`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.matching.values import value_key
from toolexpect.pairing.advice import naming_help
from toolexpect.pairing.facts import question_count
from toolexpect.snapshot.values import as_document_value, unwritable_name, unwritable_value
from toolexpect.spelling import BY_ID, BY_QUESTION, PYTHON, Setting, Spelling

__all__ = ["CaseRuns", "Options", "build_case", "count_bounds"]

Differing = Literal["in", "any"]


@dataclass(frozen=True, slots=True)
class Options:
    """What a snapshot writes beyond the recorded calls.

    ``only``: when not ``None``, the only argument names written; ``ignore``: argument names
    left out; ``any_args``: argument names written ``=any``; ``then``: the calls as one ordered
    chain; ``no_unexpected``: close each case with ``require no unexpected calls``;
    ``differing``: how an argument whose value differs between runs is written; ``counts``:
    add ``require ... calls of TOOL`` for each tool called, from how often each run called it;
    ``allow``: tools whose calls are written ``allow TOOL`` rather than expected.
    """

    only: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    any_args: frozenset[str] = frozenset()
    then: bool = False
    no_unexpected: bool = False
    differing: Differing = "in"
    counts: bool = False
    allow: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class CaseRuns:
    """The recorded runs of one case, in log order, and the question they answered if known."""

    name: str
    runs: tuple[RecordedSample, ...]
    question: str | None = None


@dataclass(slots=True)
class _Slot:
    """One expected call: the call of each run lined up with it (run order)."""

    calls: list[ToolCall]
    position: int  # in the first run
    tool: str = field(init=False)

    def __post_init__(self) -> None:
        self.tool = self.calls[0].name


def _where(call: ToolCall, sample: RecordedSample) -> tuple[str | None, Span | None]:
    line = call.line or sample.line
    return call.path or sample.path, Span.point(line, 1) if line else None


def _shared(first: ToolCall, other: ToolCall) -> int:
    """How many argument values two calls share (equivalent values of the same name)."""
    count = 0
    for name, value in first.arguments.items():
        if name in other.arguments and unwritable_value(value) is None:
            try:
                same = value_key(value) == value_key(other.arguments[name])
            except TypeError:  # a value that is no JSON value; the writer reports it
                same = False
            count += same
    return count


def _line_up(runs: Sequence[RecordedSample]) -> list[_Slot]:
    """The calls every run made, each lined up with one call of every run."""
    slots = [_Slot([call], position) for position, call in enumerate(runs[0].calls)]
    for run in runs[1:]:
        by_tool: dict[str, list[int]] = {}
        for index, call in enumerate(run.calls):
            by_tool.setdefault(call.name, []).append(index)
        pairs: list[tuple[int, int, int, int]] = []
        for number, slot in enumerate(slots):
            for index in by_tool.get(slot.tool, ()):
                shared = _shared(slot.calls[0], run.calls[index])
                pairs.append((-shared, abs(index - slot.position), number, index))
        pairs.sort()
        taken_slots: dict[int, int] = {}
        taken_calls: set[int] = set()
        for _, _, number, index in pairs:
            if number in taken_slots or index in taken_calls:
                continue
            taken_slots[number] = index
            taken_calls.add(index)
        kept = []
        for number, slot in enumerate(slots):
            if number in taken_slots:
                slot.calls.append(run.calls[taken_slots[number]])
                kept.append(slot)
        slots = kept
    return slots


def _argument(
    name: str, calls: Sequence[ToolCall], options: Options, case: str, found: list[Diagnostic]
) -> dict[str, Any] | None:
    """The argument node for ``name``, present in each of ``calls``; ``None`` to leave it out."""
    if name in options.any_args:
        return {"name": name, "op": "any"}
    values: list[Any] = []
    keys: set[Hashable] = set()
    for call in calls:
        value = call.arguments[name]
        problem = unwritable_value(value)
        if problem is None:
            try:
                key = value_key(value)
            except TypeError:
                problem = f"a {type(value).__name__}, which is not a JSON value"
        if problem is not None:
            path = call.path
            found.append(
                make(
                    "S700",
                    f'argument "{name}" of {call.name} in case "{case}" holds {problem}; written {name}=any',
                    Span.point(call.line, 1) if call.line else None,
                    help="the language cannot hold this value; check the recording, or edit the spec",
                    path=path,
                )
            )
            return {"name": name, "op": "any"}
        if key not in keys:
            keys.add(key)
            values.append(value)
    if len(values) == 1:
        return {"name": name, "op": "eq", "value": as_document_value(values[0])}
    if options.differing == "any" or any(unwritable_value(v, depth=1) for v in values):
        return {"name": name, "op": "any"}
    return {"name": name, "op": "in", "values": [as_document_value(v) for v in values]}


def _expectation(slot: _Slot, options: Options, case: str, found: list[Diagnostic]) -> dict[str, Any]:
    first = slot.calls[0]
    node: dict[str, Any] = {"tool": first.name}
    args: list[dict[str, Any]] = []
    for name in first.arguments:
        if name in options.ignore or (options.only is not None and name not in options.only):
            continue
        if not all(name in call.arguments for call in slot.calls):
            continue
        problem = unwritable_name(name)
        if problem is not None:
            found.append(
                make(
                    "S701",
                    f"an argument of {first.name} in case {case!r} has {problem}; left out",
                    Span.point(first.line, 1) if first.line else None,
                    help="the language cannot write this name",
                    path=first.path,
                )
            )
            continue
        arg = _argument(name, slot.calls, options, case, found)
        if arg is not None:
            args.append(arg)
    if args:
        node["args"] = args
    return node


def count_bounds(runs: Sequence[RecordedSample]) -> list[dict[str, Any]]:
    """A count requirement for each tool the runs called (in the order first called), bounded
    by the fewest and the most calls of it one run made: ``exactly N`` when every run made N,
    ``at most MAX`` when a run made none, else ``between MIN and MAX``."""
    tallies: dict[str, list[int]] = {}
    for number, run in enumerate(runs):
        for call in run.calls:
            tally = tallies.setdefault(call.name, [0] * len(runs))
            tally[number] += 1
    found: list[dict[str, Any]] = []
    for tool, tally in tallies.items():
        if unwritable_name(tool) is not None:  # said where its calls are left out
            continue
        low, high = min(tally), max(tally)
        node: dict[str, Any] = {"kind": "count", "at_most": high, "call": {"tool": tool}}
        if low > 0:
            node["at_least"] = low
        found.append(node)
    return found


def _allowed_tools(runs: Sequence[RecordedSample], allow: frozenset[str]) -> list[dict[str, Any]]:
    """An ``allow`` call for each tool of ``allow`` that the runs called, in the order first
    called (a name the language cannot write is said where its calls are left out)."""
    tools = dict.fromkeys(call.name for run in runs for call in run.calls if call.name in allow)
    return [{"tool": tool} for tool in tools if unwritable_name(tool) is None]


def build_case(
    runs: CaseRuns,
    options: Options,
    *,
    paired: Setting = BY_ID,
    spelling: Spelling = PYTHON,
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """The case document of ``runs`` (without a pass rate), or ``None`` when nothing in it can
    be checked, and the diagnostics of what was written otherwise than recorded (``paired``:
    how the runs were paired, to say which other pairing would name their cases, spelled as
    ``spelling`` says)."""
    found: list[Diagnostic] = []
    samples = runs.runs
    problem = unwritable_name(runs.name)
    if problem is not None:
        first = samples[0] if samples else None
        span = Span.point(first.line, 1) if first is not None and first.line else None
        found.append(
            make(
                "S701",
                f"case {runs.name!r} has {problem}; the case is not written",
                span,
                help="the language cannot write this case name: give the runs another id",
                path=first.path if first is not None else None,
            )
        )
        return None, found
    allows = _allowed_tools(samples, options.allow) if options.allow else []
    if options.allow:  # the calls of allowed tools are no expectations
        expected = tuple(
            replace(sample, calls=tuple(c for c in sample.calls if c.name not in options.allow))
            for sample in samples
        )
    else:
        expected = samples
    for sample in expected:
        for call in sample.calls:
            if not call.valid_json:
                path, span = _where(call, sample)
                found.append(
                    make(
                        "S702",
                        f"the arguments of {call.name} in case {runs.name!r} are not JSON; "
                        f"written as {call.name} without arguments",
                        span,
                        help="only an expectation without arguments matches such a call",
                        path=path,
                    )
                )
    slots = []
    for slot in _line_up(expected):
        problem = unwritable_name(slot.tool)
        if problem is None:
            slots.append(slot)
            continue
        path, span = _where(slot.calls[0], samples[0])
        found.append(
            make(
                "S701",
                f"a tool called in case {runs.name!r} has {problem}; the call is left out",
                span,
                help="the language cannot write this name",
                path=path,
            )
        )
    case: dict[str, Any] = {"name": runs.name}
    if runs.question is not None and unwritable_name(runs.question) is None:
        case["question"] = runs.question
    requirements: list[dict[str, Any]] = []
    if slots:
        case["expect"] = [_expectation(slot, options, runs.name, found) for slot in slots]
        if options.then and len(slots) > 1:
            case["chains"] = [list(range(len(slots)))]
        if options.no_unexpected:
            requirements.append({"kind": "no_unexpected_calls"})
        if options.counts:
            requirements.extend(count_bounds(samples))
    elif allows and all(not sample.calls for sample in expected):
        # Only allowed tools were called: the case checks that nothing else is.
        requirements.append({"kind": "no_unexpected_calls"})
        if options.counts:
            requirements.extend(count_bounds(samples))
    elif all(not sample.calls for sample in samples):
        requirements.append({"kind": "no_tool_calls"})
    else:
        path, span = samples[0].path, Span.point(samples[0].line, 1) if samples[0].line else None
        what = "the recorded run calls" if len(samples) == 1 else f"the {len(samples)} recorded runs share"
        asked = question_count(samples)
        if asked > 1 and paired != BY_QUESTION:
            hint = naming_help(len(samples), asked, paired, spelling)
        else:
            hint = (
                "snapshot the runs separately (give them ids of their own, or "
                f"{naming_help(len(samples), 0, paired, spelling)}), or write this case by hand"
            )
        found.append(
            make(
                "S703",
                f"case {runs.name!r} is not written: {what} no call a spec can hold",
                span,
                help=hint,
                path=path,
            )
        )
        return None, found
    if allows:
        case["allow"] = allows
    if requirements:
        case["require"] = requirements
    return case, found
