"""Recorded tool calls and samples: what a log holds once a reader has decoded it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolexpect.model import Json

__all__ = ["CallList", "LogRecords", "RecordedSample", "SampleFacts", "ToolCall", "same_call"]


@dataclass(slots=True)
class ToolCall:
    """One call an agent made: the tool's name and its decoded arguments.

    ``raw_arguments`` keeps the argument text as logged when it arrived as a string;
    ``valid_json`` is false when that text could not be decoded (``arguments`` is then
    empty, and only an argument-less expectation can match the call). ``kind`` tells a
    function call from a provider-executed one (``mcp_call``, ``web_search_call``, ...).
    ``path`` and ``line`` say where in the log the call was read, when known.
    """

    name: str
    arguments: Mapping[str, Json] = field(default_factory=dict)
    id: str | None = None
    kind: str = "function"
    raw_arguments: str | None = None
    valid_json: bool = True
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The call in the canonical log form, with the extra fields ``calls`` prints."""
        return {
            "name": self.name,
            "arguments": dict(self.arguments),
            "id": self.id,
            "kind": self.kind,
            "raw_arguments": self.raw_arguments,
            "valid_json": self.valid_json,
        }

    def __post_init__(self) -> None:
        """Refuse a name that is not a non-empty string and arguments that are not a mapping.

        Only cheap type checks: a ``ToolCall`` is built for every call of a log.
        """
        if type(self.name) is not str and not isinstance(self.name, str):
            raise TypeError(f"ToolCall name must be a str; got {type(self.name).__name__}")
        if not self.name:
            raise ValueError("ToolCall name must not be empty")
        if type(self.arguments) is not dict and not isinstance(self.arguments, Mapping):
            raise TypeError(
                f"ToolCall arguments must be a mapping of argument names to values; "
                f"got {type(self.arguments).__name__}"
            )


@dataclass(frozen=True, slots=True)
class SampleFacts:
    """What the record of a sample says beyond its calls, for pairing it with a case.

    ``question``: the conversation's first user message, whitespace normalised; ``key``: the
    value of the field named with ``--case-from``; ``history``: one digest per prefix of the
    request's messages (empty when the record holds no request), so that a later record whose
    history begins with this one's is known to continue it; ``names``: places in the record
    (``(path, value)``) whose text is a case name, kept only for a record that pairs with no
    case, to suggest a pairing option; ``asks``: the place in ``history`` of the first user
    message (``None`` when there is none), by which records of one conversation are told apart
    from others that share its opening (a system prompt).
    """

    question: str | None = None
    key: str | None = None
    history: tuple[int, ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    asks: int | None = None


@dataclass(frozen=True, slots=True)
class RecordedSample:
    """The ordered calls of one recorded run, with the id that pairs it with a case.

    ``facts`` is set when the sample was read for pairing (see ``toolexpect.pairing``).
    ``error`` is set for a request that failed, as its provider worded the failure (a batch
    request that errored, expired or was canceled): the run never happened, so the sample
    holds no calls, and the case it pairs with is an error whatever it requires; ``snapshot``
    leaves it out.
    """

    id: str | None
    calls: tuple[ToolCall, ...]
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    facts: SampleFacts | None = field(default=None, compare=False)
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The sample in the JSON form of ``calls``: ``{"id", "calls"}``, and ``error`` for a
        request that failed."""
        entry: dict[str, Any] = {"id": self.id, "calls": [call.to_json() for call in self.calls]}
        if self.error is not None:
            entry["error"] = self.error
        return entry


def same_call(a: ToolCall, b: ToolCall) -> bool:
    """Whether ``a`` and ``b`` are one call logged twice: the same kind, tool and arguments
    (equal with their types; the same raw text when it could not be decoded), and the same id or one of them
    without an id (a client gives its own id to a call that came back without one, and
    sends that id back in the next request's history)."""
    return (
        a.name == b.name
        and a.kind == b.kind
        and (a.id == b.id or a.id is None or b.id is None)
        and a.valid_json == b.valid_json
        and (a.valid_json or a.raw_arguments == b.raw_arguments)
        and a.arguments == b.arguments
        and _strictly_equal(a.arguments, b.arguments)
    )


def _strictly_equal(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Arguments equal with their types (``1`` is not ``True``, nor ``1.0``): the nested rule of
    :func:`toolexpect.matching.values.strict_equal`."""
    from toolexpect.matching.values import strict_equal  # matching imports this module

    return strict_equal(dict(first), dict(second))


class CallList:
    """Calls gathered in order, each call counted once: the one rule of every reader and of
    the runs put together from several records.

    A call whose id names a call held already is that call again only when it is the same
    call (:func:`same_call`); another call under a used id (a server that numbers its ids per
    response, ``call_0`` in each) is another call, and is kept. Calls without an id are all
    kept.
    """

    __slots__ = ("_ids", "calls")

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []
        self._ids: dict[tuple[str, str], list[ToolCall]] = {}

    def add(self, call: ToolCall) -> ToolCall | None:
        """Add ``call``; ``None`` when it was added, else the held call it repeats (dropped)."""
        if call.id is not None:
            key = (call.kind, call.id)
            held = self._ids.get(key)
            if held is not None:
                for earlier in held:
                    if same_call(earlier, call):
                        return earlier
                held.append(call)
            else:
                self._ids[key] = [call]
        self.calls.append(call)
        return None

    def extend(self, calls: tuple[ToolCall, ...], replays: bool = True) -> list[tuple[ToolCall, ToolCall]]:
        """Add the calls of a record that may log the calls held so far again (``replays``: it
        holds its request's history or the conversation so far) before its own: when its first
        calls are the held ones, one by one the same call (:func:`same_call`), only the rest
        are added; the others, and every call of a record that holds no history (a response
        alone: the same call made again is another call), are added one by one. Gives the
        dropped calls, each with the held call it repeats."""
        held = len(self.calls)
        if replays and held and len(calls) >= held and all(map(same_call, self.calls, calls[:held])):
            for earlier, copy in zip(self.calls, calls[:held], strict=True):
                if earlier.id is None and copy.id is not None:
                    self._ids.setdefault((copy.kind, copy.id), []).append(earlier)
            calls = calls[held:]
        dropped = []
        for call in calls:
            repeated = self.add(call)
            if repeated is not None:
                dropped.append((call, repeated))
        return dropped


@dataclass(frozen=True, slots=True)
class LogRecords:
    """What became of the records of one log: each ends in exactly one of three counts.

    ``with_calls``: records that hold calls (or pieces of a streamed call); ``without_calls``:
    records read whole that hold none (a user turn, a tool result, a text answer);
    ``reported``: records that could not be read or were skipped, each with a diagnostic at
    its line. A record of JSON Lines is a line that is not blank; a JSON document is one
    record, or each element of it when its elements are read one by one.
    """

    path: str | None
    with_calls: int = 0
    without_calls: int = 0
    reported: int = 0

    @property
    def records(self) -> int:
        """How many records the log held."""
        return self.with_calls + self.without_calls + self.reported

    def then(self, other: LogRecords) -> LogRecords:
        """The counts of both (two blocks of one log), named after this one."""
        return LogRecords(
            self.path,
            self.with_calls + other.with_calls,
            self.without_calls + other.without_calls,
            self.reported + other.reported,
        )
