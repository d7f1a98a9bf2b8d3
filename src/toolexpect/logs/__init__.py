"""Recorded-log readers: every supported log format read into ``RecordedSample`` s.

``open_log(path)`` detects the format from the first records and returns a lazy
``LogReader``; ``samples_from_value(value)`` reads in-memory objects (dicts, lists, SDK
objects with ``model_dump()``). Non-fatal findings are ``Diagnostic`` s on the reader;
a log that cannot be read at all raises ``LogError``. See ``docs/logs.md``.

Formats (``LOG_FORMATS``): ``canonical``, ``openai-batch``, ``openai-responses``,
``openai-chat``, ``anthropic``, ``gemini``, ``otel``, ``mcp``, ``langsmith``,
``langchain``, ``adk``, ``bfcl``.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.diagnostics import Diagnostic
from toolexpect.logs._base import Context, LogError, LogRecords, Note, Record, accounted, noting
from toolexpect.logs._source import Source, open_source
from toolexpect.logs.detect import LOG_FORMATS, READERS, detect, fits
from toolexpect.logs.documents import concatenated, values
from toolexpect.logs.paths import log_paths

__all__ = [
    "LOG_FORMATS",
    "LogError",
    "LogReader",
    "LogRecords",
    "calls_to_json",
    "log_paths",
    "open_log",
    "open_logs",
    "samples_from_value",
]

_PROBE_RECORDS = 20
_MAX_DEPTH = 64


def _check_format(fmt: str, ctx: Context) -> None:
    if fmt != "auto" and fmt not in READERS:
        raise ctx.fatal(
            "R402",
            f"unknown log format {fmt!r}; known formats: auto, {', '.join(LOG_FORMATS)}",
            None,
        )


def _expand(value: Any) -> list[Any]:
    """Candidates for detection: the value, and for a list its first elements."""
    if isinstance(value, list):
        return [value, *value[:_PROBE_RECORDS]]
    return [value]


def _choose(fmt: str, probe: list[Any], ctx: Context, what: str) -> str:
    if fmt == "auto":
        found = detect(probe)
        if found is None:
            raise ctx.fatal(
                "R402",
                f"{what} fits no known log format (tried: {', '.join(LOG_FORMATS)})",
                None,
                help="convert it to the canonical form or pass the format explicitly",
            )
        return found
    if not fits(fmt, probe):
        raise ctx.fatal(
            "R402",
            f"{what} does not look like the {fmt!r} format",
            None,
            help=f"leave the format on auto, or check the log (known: {', '.join(LOG_FORMATS)})",
        )
    return fmt


class LogReader:
    """The samples of one log, read lazily; ``diagnostics`` fill as it is read.

    A regular file is read again from the start by each iteration; standard input or a pipe
    is read once, from the stream opened to detect its format (a second iteration raises
    ``LogError``).
    """

    def __init__(self, path: str, fmt: str, spread: bool, source: Source | None = None) -> None:
        self.path = path
        self.format = fmt
        self.diagnostics: list[Diagnostic] = source.ctx.diagnostics if source is not None else []
        self.spread = spread
        """Whether the log is one JSON list whose elements are read as records, one by one."""
        self._source = source
        self._ctx = Context(path, self.diagnostics)
        self._read = False
        self.splittable = source.splittable and not spread if source is not None else False
        """Whether ``score -j`` may cut the log at line starts (a plain regular file)."""

    def __iter__(self) -> Iterator[RecordedSample]:
        """Read the log (again) from the start; diagnostics restart with it."""
        return self.samples()

    def samples(self, note: Note | None = None) -> Iterator[RecordedSample]:
        """The samples, each with the facts ``note`` reads from its record (pairing)."""
        source = self._source
        if source is not None and not source.reopenable:
            if self._read:
                raise _once(self.path)
            self._read = True
            ctx = source.ctx  # it read the records the probe looked at
            ctx.note = note
        else:
            self.diagnostics.clear()
            ctx = Context(self.path, self.diagnostics, note)
            source = open_source(self.path, ctx)
        self._ctx = ctx
        records: Iterable[Record] = source.records()
        if source.lines:
            records = _spread_lines(records, self.format)
        elif self.spread and isinstance(source.document, list):
            records = ((1, item) for item in source.document)
        if note is not None and self.format != "canonical":  # canonical hands its records over itself
            records = noting(records, ctx)
        return READERS[self.format].read(accounted(records, ctx), ctx)  # type: ignore[no-any-return]

    @property
    def records(self) -> LogRecords:
        """What became of the records read so far (by the latest reading)."""
        return self._ctx.records()

    def __repr__(self) -> str:
        return f"LogReader({self.path!r}, format={self.format!r})"


def _spread_lines(records: Iterable[Record], fmt: str) -> Iterator[Record]:
    """Records, a list record read as a document is: whole when ``fmt`` takes it whole, else
    its elements in its place, at its line, when they fit ``fmt`` (a list written on one line)."""
    for line, value in records:
        if isinstance(value, list) and not fits(fmt, [value]) and fits(fmt, value[:_PROBE_RECORDS]):
            for item in value:
                yield (line, item)
        else:
            yield (line, value)


def _once(path: str) -> LogError:
    return Context(path).fatal(
        "R400", "this log was read already: standard input or a pipe can be read once", None
    )


def open_log(path: str | os.PathLike[str], fmt: str = "auto") -> LogReader:
    """Open a recorded log (``-``: standard input), detecting (or checking) its format;
    raises ``LogError``."""
    name = os.fspath(path)
    probe_ctx = Context(name)
    _check_format(fmt, probe_ctx)
    source = open_source(name, probe_ctx)
    spread = False
    try:
        if source.lines:
            probe = source.peek(_PROBE_RECORDS)
            if not probe:
                first = probe_ctx.diagnostics[0].message if probe_ctx.diagnostics else "no records"
                raise probe_ctx.fatal("R401", f"log has no readable JSON record ({first})", None)
            chosen, spread = _choose_records(fmt, probe, probe_ctx, "log")
        else:
            chosen, spread = _choose_records(fmt, [source.document], probe_ctx, "log")
    except LogError:
        source.close()
        raise
    if source.reopenable:
        source.close()
    return LogReader(name, chosen, spread, source)


def open_logs(paths: Iterable[str | os.PathLike[str]], fmt: str = "auto") -> list[LogReader]:
    """Every log named by ``paths`` (files, ``-``, folders, globs: see :func:`log_paths`)."""
    return [open_log(found, fmt) for given in paths for found in log_paths(os.fspath(given))]


def _choose_records(fmt: str, probe: list[Any], ctx: Context, what: str) -> tuple[str, bool]:
    """Format of a log from its first records (a document: its one record); ``spread`` when
    only the elements of its list records fit (a JSON document of conversations, pretty or
    written on one line as ``json.dump`` does)."""
    if fmt == "auto":
        found = detect(probe)
        if found is not None:
            return found, False
    elif fits(fmt, probe):
        return fmt, False
    items = [item for value in probe if isinstance(value, list) for item in value[:_PROBE_RECORDS]]
    if items:
        return _choose(fmt, items[:_PROBE_RECORDS], ctx, what), True
    return _choose(fmt, probe, ctx, what), False


def _plain(value: Any, depth: int = 0) -> Any:
    """SDK objects turned into plain dicts and lists (``model_dump``, ``to_dict``, ``dict``)."""
    if depth > _MAX_DEPTH:
        raise Context().fatal("R404", "value nested too deeply", None)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, dict):
        plain = {str(k): _plain(v, depth + 1) for k, v in value.items()}
        if len(plain) < len(value):  # 1 and "1": a value would be lost
            raise Context().fatal("R402", _same_text(value), None, help="give each key as distinct text")
        return plain
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, bytes | bytearray):  # e.g. a Gemini part's thought_signature
        return base64.b64encode(value).decode("ascii")
    for method in ("model_dump", "to_dict", "dict"):
        fn = getattr(value, method, None)
        if callable(fn):
            try:
                dumped = _dump(fn, method)
            except Exception as exc:
                raise (Context().fatal("R404", f"cannot read {type(value).__name__}: {exc}", None)) from None
            return _plain(dumped, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value), depth + 1)
    raise Context().fatal(
        "R402",
        f"cannot read a {type(value).__name__} as a log value",
        None,
        help="pass dicts, lists or SDK objects that have model_dump()",
    )


def _same_text(mapping: dict[Any, Any]) -> str:
    """The message for keys of ``mapping`` that become the same text."""
    seen: dict[str, Any] = {}
    for key in mapping:
        name = str(key)
        if name in seen:
            return f"keys {seen[name]!r} and {key!r} both become the key {name!r}"
        seen[name] = key
    return "two keys become the same text"


def _dump(fn: Any, method: str) -> Any:
    """An SDK object's plain form: pydantic's JSON mode without unset ``None`` fields where
    the method takes those options (``bytes`` as base64 text), else its plain call."""
    if method == "model_dump":
        try:
            return fn(mode="json", exclude_none=True)
        except TypeError:
            pass
    return fn()


def _text_value(text: str | bytes, ctx: Context) -> tuple[list[Record], bool]:
    """JSON text, or JSON Lines, decoded into records (``True`` when line-based)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ctx.fatal("R400", "log is not UTF-8 text", None) from None
    text = text.lstrip("\ufeff")
    try:
        return [(None, json.loads(text))], False
    except (ValueError, RecursionError):
        pass
    if concatenated(text):
        return list(values(text, ctx)), True
    records: list[Record] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append((lineno, json.loads(line)))
        except (ValueError, RecursionError):
            ctx.report("R401", "this line is not valid JSON; it was skipped", lineno)
    if not records:
        raise ctx.fatal("R401", "text is not JSON or JSON Lines", None)
    return records, True


def samples_from_value(value: Any, fmt: str = "auto") -> list[RecordedSample]:
    """Samples from an in-memory value in any known format; raises ``LogError``."""
    samples, _ = read_value(value, fmt)
    return samples


def read_value(value: Any, fmt: str = "auto") -> tuple[list[RecordedSample], list[Diagnostic]]:
    """Samples and diagnostics from an in-memory value; raises ``LogError``."""
    ctx = Context()
    _check_format(fmt, ctx)
    if isinstance(value, RecordedSample):
        return [value], []
    if isinstance(value, ToolCall):
        return [RecordedSample(None, (value,))], []
    if isinstance(value, list | tuple) and value and all(isinstance(v, RecordedSample) for v in value):
        return list(value), []
    if isinstance(value, list | tuple) and value and all(isinstance(v, ToolCall) for v in value):
        return [RecordedSample(None, tuple(value))], []
    if isinstance(value, str | bytes):
        records, lines = _text_value(value, ctx)
    else:
        records, lines = [(None, _plain(value))], False
    if lines:
        chosen = _choose(fmt, [v for _, v in records[:_PROBE_RECORDS]], ctx, "value")
    else:
        chosen, spread = _choose_records(fmt, [records[0][1]], ctx, "value")
        if spread:
            records = [(None, item) for item in records[0][1]]
    try:
        samples = list(READERS[chosen].read(records, ctx))
    except RecursionError:
        raise ctx.fatal("R404", "value nested too deeply", None) from None
    return samples, ctx.diagnostics


def calls_to_json(samples: Iterable[RecordedSample]) -> dict[str, Any]:
    """Samples as ``{"samples": [{"id", "calls": [...]}]}``, the JSON form of ``calls`` (with
    ``error`` for a request that failed)."""
    return {"samples": [sample.to_json() for sample in samples]}
