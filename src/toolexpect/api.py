"""The Python API: evaluate samples, parse and load specs, score calls, assert on them.

Exceptions::

    ValueError
     └── SpecError                 an invalid spec; carries the diagnostics
    AssertionError
     └── ToolCallAssertionError    a failed ``assert_*``; the message is the explanation

Wherever a :class:`~toolexpect.calls.ToolCall` is taken, a plain dict
``{"name": ..., "arguments": {...}}`` is accepted too (``arguments`` may be a JSON string).
"""

from __future__ import annotations

import functools
import io
import json
import os
import pickle
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias, cast

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.diagnostics import Diagnostic, Span
from toolexpect.matching import CompiledCase, RunResult, compile_case
from toolexpect.model import ArgMatcher, Case, Expectation, Json, Op, Pattern, Spec
from toolexpect.recording import Recording, to_json
from toolexpect.report.diagnostics import render
from toolexpect.report.explain import explain_run
from toolexpect.specfile import SpecFile, load_spec_file, parse_spec_source

__all__ = [
    "CallLike",
    "Evaluation",
    "Sample",
    "SpecError",
    "ToolCallAccuracyEvaluator",
    "ToolCallAssertionError",
    "as_call",
    "as_calls",
    "assert_tool_calls",
    "calls_from",
    "expectation_of",
    "load_spec",
    "parse_spec",
    "score",
]

CallLike: TypeAlias = ToolCall | Mapping[str, Any]
"""A recorded call: a ``ToolCall`` or a dict with ``name`` and ``arguments``."""

_CALL_KEYS = frozenset({"name", "arguments", "id", "args"})
_SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


class SpecError(ValueError):
    """A spec that does not parse, validate or lint; ``diagnostics`` says why."""

    def __init__(self, diagnostics: Sequence[Diagnostic], text: str | None = None) -> None:
        """Build the message from the diagnostics, with source excerpts when ``text`` is known."""
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__(render(self.diagnostics, "full", sources=lambda _path: text))


class ToolCallAssertionError(AssertionError):
    """A failed assertion on tool calls; the message explains what was expected and got."""


def as_call(value: CallLike) -> ToolCall:
    """A ``ToolCall`` from a ``ToolCall`` or a ``{"name", "arguments"}`` dict."""
    if isinstance(value, ToolCall):
        arguments = _plain_arguments(value.arguments)
        return value if arguments is value.arguments else replace(value, arguments=arguments)
    if type(value) is not dict and not isinstance(value, Mapping):
        raise TypeError(f"a tool call is a ToolCall or a dict with 'name'; got {type(value).__name__}")
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a tool call needs a non-empty string 'name'; got {value!r}")
    raw = value["arguments"] if "arguments" in value else value.get("args", {})
    if raw is None:
        raw = {}
    if isinstance(raw, str):
        try:
            decoded = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            return ToolCall(name, {}, raw_arguments=raw, valid_json=False)
        if not isinstance(decoded, dict):
            return ToolCall(name, {}, raw_arguments=raw, valid_json=False)
        return ToolCall(name, decoded, id=_id(value), raw_arguments=raw)
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise ValueError(f"the arguments of tool call {name!r} must be a dict; got {type(raw).__name__}")
    return ToolCall(name, _plain_arguments(raw), _id(value))


def _plain_arguments(arguments: Mapping[Any, Any]) -> Mapping[str, Json]:
    """Arguments in the one form the matcher takes (see :func:`~toolexpect.recording.to_json`):
    names as text, values as JSON values; the very mapping when it is that already.

    ``TypeError`` names the argument of a value with no JSON form, ``ValueError`` one that
    contains itself or nests deeper than the spec language allows.
    """
    plain: dict[str, Json] = {}
    changed = type(arguments) is not dict
    for name, item in arguments.items():
        if type(name) is not str:
            name = str.__str__(name) if isinstance(name, str) else str(name)
            changed = True
        if type(item) in _SCALARS:
            plain[name] = item
            continue
        converted = to_json(item, strict=True, argument=name)
        changed = changed or converted is not item
        plain[name] = converted
    return plain if changed else arguments


def _id(value: Mapping[str, Any]) -> str | None:
    found = value.get("id")
    return found if isinstance(found, str) else None


def as_calls(values: Iterable[CallLike]) -> list[ToolCall]:
    """A list of ``ToolCall`` from ``ToolCall`` s and dicts."""
    return [as_call(v) for v in values]


def _plain_calls(value: Any) -> bool:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        return False
    return all(
        ((type(v) is dict or isinstance(v, Mapping)) and "name" in v and set(v) <= _CALL_KEYS)
        or isinstance(v, ToolCall)
        for v in value
    )


def _recorded_calls(recorded: Any) -> tuple[ToolCall, ...]:
    """The calls of ``Sample.tool_calls``: ``ToolCall`` s and call dicts, else whatever
    :func:`calls_from` reads (SDK objects, a message, its ``tool_calls``); the error of the
    first reading when neither fits."""
    try:
        return tuple(as_calls(recorded))
    except (TypeError, ValueError) as error:
        if isinstance(recorded, Iterator):
            raise  # read once already
        try:
            return tuple(calls_from(recorded))
        except ValueError:
            raise error from None


def calls_from(value: Any) -> list[ToolCall]:
    """The tool calls held by ``value``: a list of calls, a ``Recording``, a sample, or a log.

    A log is any in-memory object the log readers know, SDK objects included without
    dumping them: an OpenAI, Anthropic or Gemini response, ``response.choices[0].message``
    or its ``tool_calls``, a bare assistant message dict, Anthropic content blocks, Gemini
    ``function_calls``, LangChain messages and their ``tool_calls``, an MCP ``CallToolRequest``;
    it must hold exactly one sample. ``ValueError`` when nothing fits.
    """
    if isinstance(value, Recording):
        return list(value.calls)
    if isinstance(value, RecordedSample):
        return list(value.calls)
    if isinstance(value, ToolCall):
        return [value]
    if _plain_calls(value):
        return as_calls(value)
    from toolexpect.logs import LogError, samples_from_value

    try:
        samples = samples_from_value(value)
    except LogError as error:
        raise ValueError(f"cannot read tool calls from a {type(value).__name__}: {error}") from None
    if len(samples) != 1:
        raise ValueError(f"expected the calls of one run; the value holds {len(samples)} samples")
    return list(samples[0].calls)


def expectation_of(value: CallLike | Expectation) -> Expectation:
    """An expectation of plain equality for every argument of a call (or the expectation)."""
    if isinstance(value, Expectation):
        return value
    call = as_call(value)
    if not call.valid_json:
        raise ValueError(f"the arguments of expected call {call.name!r} are not valid JSON")
    return Expectation(
        call.name,
        tuple(ArgMatcher(name, Op.EQ, value=cast(Pattern, arg)) for name, arg in call.arguments.items()),
    )


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of evaluating one run: a named score and the matcher's verdict.

    ``value`` is the accuracy (``None`` only for a case without expectations);
    ``result`` the matcher's ``RunResult`` (failures, pairs, precision, f1). Evaluations
    made by the evaluator and :func:`score` work out a failing run's ``result.failures``
    (and so ``explanation``) when first asked for: reading ``value`` or ``passed`` does not
    pay for them, and they are the same as when made at once.
    """

    name: str
    value: float | None
    result: RunResult
    case: Case
    calls: tuple[ToolCall, ...] | None
    path: str | None = field(default=None, compare=False)

    @property
    def passed(self) -> bool:
        """True when the run meets every requirement of its case."""
        return self.result.status == "pass"

    @property
    def explanation(self) -> str:
        """Plain text saying why the run failed (or that it passed)."""
        return explain_run(self.case, self.result, self.calls, path=self.path)


@dataclass(frozen=True, slots=True)
class Sample:
    """What an evaluator looks at: the expected calls and the calls an agent made.

    ``tool_calls`` is ``None`` when nothing was recorded (an error to evaluate); an empty
    list is a run that called no tools (it scores 0.0).
    """

    expected_tool_calls: Sequence[CallLike | Expectation]
    tool_calls: Sequence[CallLike] | None
    question: str | None = None


class ToolCallAccuracyEvaluator:
    """Tool Call Accuracy: the share of expected calls the recorded calls match."""

    name = "Tool Call Accuracy"

    def evaluate(self, sample: Sample) -> Evaluation:
        """Score ``sample``; ``ValueError`` without expected calls or without recorded calls.

        A failing sample's explanation (``result.failures``, ``explanation``) is worked out
        when first asked for, so that reading ``value`` alone does not pay for it.
        """
        expected = sample.expected_tool_calls
        if type(expected) is not list and type(expected) is not tuple:
            if isinstance(expected, str | bytes | Mapping | ToolCall | Expectation):
                raise TypeError(
                    "expected_tool_calls must be a list of expected calls; "
                    f"got a single {type(expected).__name__}"
                )
            try:
                expected = tuple(expected)  # any iterable, read once
            except TypeError:
                raise TypeError(
                    f"expected_tool_calls must be a list of expected calls; got {type(expected).__name__}"
                ) from None
        if not expected:
            raise ValueError("Tool Call Accuracy needs at least one expected tool call; the sample has none")
        recorded = sample.tool_calls
        if recorded is None:
            raise ValueError(
                "Tool Call Accuracy needs the recorded tool calls; the sample has tool_calls=None "
                "(nothing was recorded). Pass an empty list for a run that called no tools"
            )
        compiled = _compiled(sample.question, expected)
        calls = _recorded_calls(recorded)
        result = compiled.evaluate(calls, explain_later=True)
        return Evaluation(self.name, result.score, result, compiled.case, calls)


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


def _compiled(question: str | None, expected: Sequence[CallLike | Expectation]) -> CompiledCase:
    """The compiled case of an evaluator's sample, reused for samples with the same expectations.

    Most samples of a data set share their expectations, and compiling is the larger part
    of scoring a small sample. Expected calls given as plain dicts are keyed as they are,
    before any conversion; others (``ToolCall``, ``Expectation``, dict subclasses) by the
    case they make.
    """
    if len(expected) > _CACHED_EXPECTATIONS:
        return CompiledCase(_sample_case(question, expected))
    key = _key(("sample", question, expected))
    if key is not None:
        return _compile_keyed(_Keyed(key, functools.partial(_sample_case, question, expected)))
    case = _sample_case(question, expected)
    key = _case_key(case)
    return _compile_keyed(_Keyed(key, lambda: case)) if key is not None else CompiledCase(case)


def _checked(loaded: SpecFile) -> Spec:
    if not loaded.ok or loaded.spec is None:
        raise SpecError(loaded.diagnostics, loaded.text)
    return loaded.spec


def parse_spec(text: str, name: str = "spec") -> Spec:
    """Parse spec text; ``name`` names its implicit case. ``SpecError`` when invalid."""
    if not isinstance(text, str):
        raise TypeError(f"parse_spec() takes the spec text as a str; got {type(text).__name__}")
    if not isinstance(name, str):
        raise TypeError(f"parse_spec() takes the case name as a str; got {type(name).__name__}")
    return _checked(parse_spec_source(text, "text", name=name))


def load_spec(path: str | os.PathLike[str]) -> Spec:
    """Load a spec file (text, JSON or YAML form). ``SpecError`` when invalid or unreadable."""
    return _checked(load_spec_file(path))


def _case(spec_or_case: Spec | Case | str, case: str | None) -> tuple[Case, str | None]:
    if not isinstance(spec_or_case, Spec | Case | str):
        raise TypeError(
            f"spec_or_case must be a Spec, a Case or spec text; got {type(spec_or_case).__name__}"
        )
    if case is not None and not isinstance(case, str):
        raise TypeError(f"case must be a case name (str); got {type(case).__name__}")
    if isinstance(spec_or_case, str):
        spec_or_case = parse_spec(spec_or_case)
    if isinstance(spec_or_case, Case):
        if case is not None and case != spec_or_case.name:
            raise ValueError(f"case {case!r} asked for, but the case given is {spec_or_case.name!r}")
        return spec_or_case, None
    if case is not None:
        try:
            return spec_or_case.case(case), spec_or_case.path
        except KeyError:
            names = ", ".join(repr(c.name) for c in spec_or_case.cases)
            raise ValueError(f"the spec has no case {case!r}; its cases: {names}") from None
    if len(spec_or_case.cases) != 1:
        names = ", ".join(repr(c.name) for c in spec_or_case.cases)
        raise ValueError(f"the spec has {len(spec_or_case.cases)} cases ({names}); say which with case=")
    return spec_or_case.cases[0], spec_or_case.path


def score(spec_or_case: Spec | Case | str, calls: Any, *, case: str | None = None) -> Evaluation:
    """Score recorded calls against a case (a spec of one case, or ``case=`` picks one).

    ``spec_or_case`` may be spec text; ``calls`` anything :func:`calls_from` takes, or
    ``None`` for "nothing recorded" (an error result, never a score).
    """
    chosen, path = _case(spec_or_case, case)
    kept = None if calls is None else tuple(calls_from(calls))
    result = compile_case(chosen).evaluate(kept, explain_later=True)
    return Evaluation("Tool Call Accuracy", result.score, result, chosen, kept, path=path)


def assert_tool_calls(calls: Any, spec_or_text: Spec | Case | str, *, case: str | None = None) -> Evaluation:
    """Assert that ``calls`` pass the case; ``ToolCallAssertionError`` explains a failure."""
    __tracebackhide__ = True
    if calls is None:
        raise TypeError(
            "assert_tool_calls() needs the recorded calls; got None (pass [] for a run that called no tools)"
        )
    evaluation = score(spec_or_text, calls, case=case)
    if not evaluation.passed:
        raise ToolCallAssertionError(evaluation.explanation)
    return evaluation
