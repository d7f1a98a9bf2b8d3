"""Recorded tool calls and samples: what a log holds once a reader has decoded it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolexpect.model import Json

__all__ = ["LogRecords", "RecordedSample", "SampleFacts", "ToolCall"]


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
