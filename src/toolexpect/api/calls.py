"""Recorded and expected calls as the Python API takes them, turned into the stages' types.

Wherever a :class:`~toolexpect.calls.ToolCall` is taken, a plain dict
``{"name": ..., "arguments": {...}}`` is accepted too (``arguments`` may be a JSON string);
:func:`calls_from` also reads the SDK objects and messages the log readers know.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeAlias, cast

from toolexpect.api.recording import Recording, argument_names, to_json
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.model import ArgMatcher, Expectation, Json, Op, Pattern

__all__ = ["CallLike", "as_call", "as_calls", "calls_from", "expectation_of", "recorded_calls"]

CallLike: TypeAlias = ToolCall | Mapping[str, Any]
"""A recorded call: a ``ToolCall`` or a dict with ``name`` and ``arguments``."""

_CALL_KEYS = frozenset({"name", "arguments", "id", "args"})
_SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


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
    """Arguments in the one form the matcher takes (see :func:`~toolexpect.api.recording.to_json`):
    names as text, values as JSON values; the very mapping when it is that already.

    ``TypeError`` names the argument of a value with no JSON form (a set too), ``ValueError``
    one that contains itself or nests deeper than the spec language allows, and two names
    that become the same text (``1`` and ``"1"``).
    """
    plain: dict[str, Json] = {}
    changed = type(arguments) is not dict
    for name, item in arguments.items():
        if type(name) is not str:
            name = str.__str__(name) if isinstance(name, str) else str(name)
            changed = True
            if name in plain or name in arguments:
                argument_names(arguments)  # raises the ValueError naming both
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


def recorded_calls(recorded: Any) -> tuple[ToolCall, ...]:
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
        return _sample_calls(value)
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
    return _sample_calls(samples[0])


def _sample_calls(sample: RecordedSample) -> list[ToolCall]:
    """The calls of ``sample``; ``ValueError`` for a request that failed (``sample.error``),
    a run that never happened rather than one without calls."""
    if sample.error is not None:
        raise ValueError(
            f"the recorded request failed ({json.dumps(sample.error, ensure_ascii=False)}): "
            "the run never happened, so it has no calls to score"
        )
    return list(sample.calls)


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
