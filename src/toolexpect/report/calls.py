"""The plain-text table of recorded calls that ``toolexpect calls`` prints."""

from __future__ import annotations

import json
from collections.abc import Iterable

from toolexpect.calls import RecordedSample, ToolCall

__all__ = ["render_calls_table"]

_MAX_ARGS = 80


def _arguments(call: ToolCall) -> str:
    if not call.valid_json:
        text = f"<invalid JSON> {call.raw_arguments or ''}"
    else:
        text = json.dumps(dict(call.arguments), ensure_ascii=False, sort_keys=False)
    text = text.replace("\n", "\\n")
    return text if len(text) <= _MAX_ARGS else text[: _MAX_ARGS - 3] + "..."


def render_calls_table(samples: Iterable[RecordedSample]) -> str:
    """One block per sample: a header line, then ``#  tool  kind  id  arguments`` rows."""
    blocks: list[str] = []
    for number, sample in enumerate(samples, 1):
        title = f"sample {number}" + (f" {sample.id!r}" if sample.id is not None else "")
        count = len(sample.calls)
        header = f"{title}: {count} call{'s' if count != 1 else ''}"
        rows = [("#", "tool", "kind", "id", "arguments")]
        for index, call in enumerate(sample.calls, 1):
            rows.append((str(index), call.name, call.kind, call.id or "-", _arguments(call)))
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        lines = [header]
        if sample.calls:
            for row in rows:
                cells = [row[i].ljust(widths[i]) for i in range(4)]
                lines.append("  " + "  ".join([*cells, row[4]]).rstrip())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")
