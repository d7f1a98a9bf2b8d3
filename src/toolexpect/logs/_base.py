"""Shared pieces of the log readers: the error, the reading context and call building.

Exception tree (the whole tree is drawn in :mod:`toolexpect.errors`)::

    ToolexpectError
     └── LogError      a log that cannot be read at all; carries ``.diagnostic``

Every reader module exposes ``NAME``, ``sniff(value) -> bool`` (does a first decoded
record look like this format) and ``read(records, ctx)`` (records to samples).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeAlias

from toolexpect.calls import LogRecords, RecordedSample, SampleFacts, ToolCall
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.errors import ToolexpectError
from toolexpect.logs.calllist import CallList

__all__ = [
    "Context",
    "Envelope",
    "LogError",
    "LogRecords",
    "Note",
    "Reader",
    "Record",
    "accounted",
    "dedupe",
    "envelope",
    "envelope_id",
    "is_dict",
    "noting",
    "repeated",
]

Record: TypeAlias = tuple[int | None, Any]
"""One decoded record: its 1-based line in the file (``None`` in memory) and its value."""

Note: TypeAlias = Callable[[Any, "str | None"], "SampleFacts | None"]
"""What pairing reads from the record of a sample: ``note(record, sample_id)``."""


class LogError(ToolexpectError):
    """A log that cannot be read at all; ``diagnostic`` says why and where."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class Reader(Protocol):
    """What a format module provides."""

    NAME: str

    def sniff(self, value: Any) -> bool:
        """Whether a first decoded record looks like this format."""
        ...

    def read(self, records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
        """Turn decoded records into samples."""
        ...


def is_dict(value: Any) -> bool:
    """Whether ``value`` is a JSON object."""
    return isinstance(value, dict)


def _id_text(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return None


@dataclass
class Context:
    """Where records come from and where findings go; what became of each record.

    While :func:`accounted` hands records to a reader, the context tells what became of the
    record being read: a call built (:meth:`call`, :meth:`holds_call`), a finding reported
    (:meth:`report`), or neither; :meth:`records` gives the counts.
    """

    path: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    note: Note | None = None
    """Set by pairing: the facts of each sample, read from the record it came from."""
    record: Any = None
    """The record being read, while ``note`` is set (see :func:`noting`)."""
    line: int | None = None
    """The line of the record being read (see :func:`accounted` and :func:`noting`)."""
    _open: bool = field(default=False, repr=False)
    _called: bool = field(default=False, repr=False)
    _noted: bool = field(default=False, repr=False)
    _counts: list[int] = field(default_factory=lambda: [0, 0, 0], repr=False)
    _quiet: dict[int, int] | None = field(default=None, repr=False)

    def defer(self) -> None:
        """Say that the reader builds some calls after reading their records (it gathers a
        trace, a tree of runs or a stream): from now on a record read without a call is
        remembered by its line, and counts as one with calls once a call is built at it."""
        if self._quiet is None:
            self._quiet = {}

    def _late(self, line: int | None) -> None:
        """A call built at ``line`` after its record was counted."""
        quiet = self._quiet
        if quiet and line is not None and (self.line != line or not self._open):
            bucket = quiet.pop(line, None)
            if bucket is not None:
                self._counts[bucket] -= 1
                self._counts[0] += 1

    def refused(self) -> None:
        """Count a record refused before it reached a reader (a line that is not JSON), its
        finding reported."""
        self._counts[2] += 1

    def close_record(self) -> None:
        """Count the record being read, if any, as what became of it."""
        if self._open:
            bucket = 0 if self._called else 2 if self._noted else 1
            self._counts[bucket] += 1
            if bucket and self._quiet is not None and self.line is not None:
                self._quiet[self.line] = bucket
            self._open = self._called = self._noted = False

    def open_record(self, line: int | None) -> None:
        """Start counting the record at ``line``."""
        self.close_record()
        self._open, self.line, self._called, self._noted = True, line, False, False

    def records(self) -> LogRecords:
        """What became of the records read so far."""
        with_calls, without_calls, reported = self._counts
        return LogRecords(self.path, with_calls, without_calls, reported)

    def span(self, line: int | None, column: int = 1) -> Span | None:
        """A point span at ``column`` (the start, by default) of ``line``."""
        return Span.point(line, column) if line is not None else None

    def report(
        self, code: str, message: str, line: int | None, help: str | None = None, *, column: int = 1
    ) -> None:
        """Record a non-fatal finding (about the record being read, if any)."""
        self._noted = True
        self.diagnostics.append(make(code, message, self.span(line, column), help=help, path=self.path))

    def fatal(
        self, code: str, message: str, line: int | None, help: str | None = None, *, column: int = 1
    ) -> LogError:
        """An error to raise for a log that cannot be read."""
        return LogError(make(code, message, self.span(line, column), help=help, path=self.path))

    def call(
        self,
        name: Any,
        arguments: Any,
        call_id: Any,
        line: int | None,
        kind: str = "function",
        raw: str | None = None,
    ) -> ToolCall | None:
        """A call from logged pieces; arguments given as text are decoded (R403 if invalid).

        Returns ``None`` (after an R404) when there is no usable tool name.
        """
        if not isinstance(name, str) or not name:
            self.report(
                "R404",
                f"a {kind} call without a tool name was skipped",
                line,
                help="each call needs a non-empty string name",
            )
            return None
        self._called = True
        if self._quiet:
            self._late(line)
        cid = call_id if call_id is None or type(call_id) is str else _id_text(call_id)
        if type(arguments) is dict:
            return ToolCall(name, arguments, cid, kind, raw, True, self.path, line)
        if arguments is None:
            return ToolCall(name, {}, cid, kind, raw, True, self.path, line)
        if isinstance(arguments, str):
            return self._decode(name, arguments, cid, kind, line)
        if isinstance(arguments, dict):
            return ToolCall(name, dict(arguments), cid, kind, raw, True, self.path, line)
        return self.invalid(name, json.dumps(arguments), cid, kind, line, "not an object")

    def _decode(self, name: str, text: str, cid: str | None, kind: str, line: int | None) -> ToolCall:
        if not text.strip():
            return ToolCall(name, {}, cid, kind, text, True, self.path, line)
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as exc:
            return self.invalid(name, text, cid, kind, line, str(exc))
        if type(value) is not dict:
            return self.invalid(name, text, cid, kind, line, "not a JSON object")
        return ToolCall(name, value, cid, kind, text, True, self.path, line)

    def invalid(
        self, name: str, text: str, cid: str | None, kind: str, line: int | None, why: str
    ) -> ToolCall:
        """Keep a call whose arguments cannot be decoded, with its raw text (R403)."""
        self._called = True
        self.report(
            "R403",
            f"arguments of call {name!r} are not a JSON object ({why}); kept as raw text",
            line,
            help="only an argument-less expectation can match this call",
        )
        return ToolCall(name, {}, cid, kind, text, False, self.path, line)

    def sample(
        self,
        sample_id: Any,
        calls: Iterable[ToolCall | None],
        line: int | None,
        record: Any = None,
    ) -> RecordedSample:
        """A sample from calls (``None`` entries dropped), each call counted once (a call
        logged twice under one id: an R410 note; see :class:`~toolexpect.logs.calllist.CallList`).

        ``record``: what the sample was read from, when it is not the record being read:
        a reader that gathers a sample over several records (stream chunks, a response
        merged once the next record shows it is complete, the spans of a trace) passes the
        record the sample began at (see :meth:`here`), or what stands for it (a trace's
        attributes). A sample of another line than the one being read, without its record,
        is a reader's mistake, refused (``RuntimeError``): it would pair by the facts of
        another record.
        """
        sid = _id_text(sample_id)
        note = self.note
        if note is None:
            return RecordedSample(sid, dedupe(calls, self), self.path, line)
        if record is None:
            if line is not None and self.line is not None and line != self.line:
                raise RuntimeError(f"a sample of line {line} was made at line {self.line} without its record")
            record = self.record
        facts = note(record, sid)
        return RecordedSample(sid, dedupe(calls, self), self.path, line, facts)

    def here(self) -> Any:
        """The record being read, for a reader that makes its sample later (``record=``)."""
        return self.record

    def failed(self, sample_id: Any, error: str, line: int | None) -> RecordedSample:
        """The sample of a request that failed (``error``: the provider's words for it): no
        calls, and an error of the case it pairs with (see ``RecordedSample.error``)."""
        return replace(self.sample(sample_id, (), line), error=error)


def noting(records: Iterable[Record], ctx: Context) -> Iterator[Record]:
    """``records``, each one kept in ``ctx.record`` (its line in ``ctx.line``) while a reader
    reads it."""
    for record in records:
        ctx.line, ctx.record = record
        yield record


def accounted(records: Iterable[Record], ctx: Context) -> Iterator[Record]:
    """``records``, each counted in ``ctx`` once the reader has read it (see
    :meth:`Context.records`); a finding reported while the next record is fetched is not the
    last one's."""
    found = iter(records)
    try:
        while True:
            ctx.close_record()
            record = next(found, None)
            if record is None:
                return
            ctx.open_record(record[0])
            yield record
    finally:
        ctx.close_record()


def dedupe(calls: Iterable[ToolCall | None], ctx: Context | None = None) -> tuple[ToolCall, ...]:
    """Calls in order, each call counted once (:class:`~toolexpect.logs.calllist.CallList`): a call
    logged again under its id is dropped with an R410 note in ``ctx``; another call under a
    used id, and every call without an id, is kept."""
    found = CallList()
    for call in calls:
        if call is None:
            continue
        earlier = found.add(call)
        if earlier is not None and ctx is not None:
            ctx.diagnostics.append(repeated(call, earlier))
    return tuple(found.calls)


def repeated(call: ToolCall, earlier: ToolCall) -> Diagnostic:
    """The R410 note of ``call``, dropped as a repeat of ``earlier``, at its file and line."""
    before = f" (first at line {earlier.line})" if earlier.line is not None else ""
    return make(
        "R410",
        f"call {call.name!r} with id {call.id!r} is logged again{before}; counted once",
        Span.point(call.line, 1) if call.line is not None else None,
        help="the same tool, arguments and id twice in one run is one call",
        path=call.path,
    )


def first(mapping: Mapping[str, Any], *keys: str) -> Any:
    """The value of the first of ``keys`` present in ``mapping`` (camelCase / snake_case)."""
    for key in keys:
        if key in mapping:
            return mapping[key]
    return None


ENVELOPE_IDS = ("id", "custom_id", "case", "key", "conversation_id", "session_id")
"""Fields of a wrapper record that name its run, the first present wins."""

ENVELOPE_PAYLOADS = ("response", "message", "output")
"""Fields of a wrapper record that hold the provider's object."""


@dataclass(frozen=True, slots=True)
class Envelope:
    """A record wrapping one provider object: ``{"id", "request"?, "response"}`` and kin.

    ``id`` is the wrapper's id field (``None`` when it has none), ``payload`` the provider's
    object, ``request`` the request logged beside it (``None`` when there is none).
    """

    id: Any
    payload: dict[str, Any]
    request: dict[str, Any] | None


def envelope(value: Any, accepts: Callable[[Any], bool]) -> Envelope | None:
    """``value`` as a wrapper of an object ``accepts`` takes, else ``None``.

    Wrappers are what gateways, proxies and batch tools write around a provider's response:
    an id field (:data:`ENVELOPE_IDS`), the object under one of :data:`ENVELOPE_PAYLOADS`,
    and optionally the ``request`` that produced it. Other fields (time, latency, model) are
    ignored.
    """
    if type(value) is not dict:
        return None
    for key in ENVELOPE_PAYLOADS:
        inner = value.get(key)
        if type(inner) is dict and accepts(inner):
            request = value.get("request")
            return Envelope(envelope_id(value), inner, request if type(request) is dict else None)
    return None


def envelope_id(value: dict[str, Any]) -> Any:
    """The id field of a wrapper record (:data:`ENVELOPE_IDS`, the first present), else ``None``."""
    return next((value[k] for k in ENVELOPE_IDS if _id_text(value.get(k)) is not None), None)
