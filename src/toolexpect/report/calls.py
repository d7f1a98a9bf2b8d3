"""What ``toolexpect calls`` prints: a plain-text table of recorded calls, or their JSON form.

JSON has no number for NaN or an infinity, which a log may hold (Python's ``json`` reads
``NaN``, ``Infinity`` and ``-Infinity``): the JSON form writes them as the strings
``"NaN"``, ``"Infinity"`` and ``"-Infinity"``, so that it is always valid JSON.

The table shows what a log holds with its control characters visible
(:func:`~toolexpect.lines.visible`), and neither form holds a workflow command.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.lines import visible
from toolexpect.report.github import inert, inert_json

__all__ = [
    "calls_json_chunks",
    "calls_table_chunks",
    "render_calls_json",
    "render_calls_table",
    "sample_json",
]

_MAX_ARGS = 80


def _arguments(call: ToolCall) -> str:
    if not call.valid_json:
        text = f"<invalid JSON> {call.raw_arguments or ''}"
    else:
        text = json.dumps(dict(call.arguments), ensure_ascii=False, sort_keys=False)
    text = visible(text)
    return text if len(text) <= _MAX_ARGS else text[: _MAX_ARGS - 3] + "..."


def render_calls_table(samples: Iterable[RecordedSample]) -> str:
    """One block per sample: a header line, then ``#  tool  kind  id  arguments`` rows."""
    blocks = [_block(number, sample) for number, sample in enumerate(samples, 1)]
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def calls_table_chunks(logs: Sequence[tuple[str, str]], samples: Iterable[RecordedSample]) -> Iterator[str]:
    """The table of ``calls``, a piece at a time: a line per log (``path: format``), then
    the blocks of :func:`render_calls_table`, each written as soon as its sample is read."""
    for path, fmt in logs:
        yield inert(visible(f"log {path}: {fmt}")) + "\n"
    for number, sample in enumerate(samples, 1):
        yield "\n" + _block(number, sample) + "\n"


def calls_json_chunks(logs: Sequence[tuple[str, str]], samples: Iterable[RecordedSample]) -> Iterator[str]:
    """``{"logs": [{"path", "format"}], "samples": [{"id", "calls"}]}`` as indented JSON, a
    sample at a time (the same text as :func:`render_calls_json` of the whole document)."""
    listed = [{"path": path, "format": fmt} for path, fmt in logs]
    head = _dumps({"logs": listed}, indent=2, ensure_ascii=False)
    yield head[:-2] + ',\n  "samples": ['
    separator = "\n    "
    for sample in samples:
        entry = sample_json(sample)
        yield separator + _dumps(entry, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        separator = ",\n    "
    yield "\n  ]\n}\n" if separator != "\n    " else "]\n}\n"


def sample_json(sample: RecordedSample) -> dict[str, Any]:
    """One sample in the JSON form of ``calls`` (:meth:`RecordedSample.to_json`)."""
    return sample.to_json()


def _block(number: int, sample: RecordedSample) -> str:
    """One sample's header line and rows."""
    title = f"sample {number}" + (f" {visible(repr(sample.id))}" if sample.id is not None else "")
    count = len(sample.calls)
    header = f"{title}: {count} call{'s' if count != 1 else ''}"
    if sample.error is not None:
        header = f"{title}: the request failed: {visible(json.dumps(sample.error, ensure_ascii=False))}"
    rows = [("#", "tool", "kind", "id", "arguments")]
    for index, call in enumerate(sample.calls, 1):
        rows.append(
            (str(index), visible(call.name), visible(call.kind), visible(call.id or "-"), _arguments(call))
        )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [header]
    if sample.calls:
        for row in rows:
            cells = [row[i].ljust(widths[i]) for i in range(4)]
            lines.append("  " + "  ".join([*cells, row[4]]).rstrip())
    return inert("\n".join(lines))


def render_calls_json(document: Any) -> str:
    """The ``calls --format json`` document (``logs.calls_to_json``) as indented JSON text."""
    return _dumps(document, indent=2, ensure_ascii=False)


def _dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)``, always valid JSON: a NaN or infinite float (a log may
    hold one) is written as the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``."""
    try:
        return inert_json(json.dumps(value, allow_nan=False, **options))
    except ValueError:
        return inert_json(json.dumps(_finite(value), allow_nan=False, **options))


def _finite(value: Any) -> Any:
    """A copy of JSON data with each non-finite float replaced by its name.

    Walked with an explicit stack, so that data nested as deep as a log may hold is fine.
    """
    holder = [value]
    stack: list[tuple[Any, Any]] = [(holder, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if isinstance(item, float):
            if not math.isfinite(item):
                container[key] = "NaN" if item != item else "Infinity" if item > 0 else "-Infinity"
        elif isinstance(item, dict):
            copy = dict(item)
            container[key] = copy
            stack.extend((copy, name) for name in copy)
        elif isinstance(item, list | tuple):
            items = list(item)
            container[key] = items
            stack.extend((items, index) for index in range(len(items)))
    return holder[0]
