"""Reading JSON Lines: the per-line fast decoding gives what ``json.loads`` gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolexpect.logs import LogError
from toolexpect.logs._base import Context
from toolexpect.logs._source import read_lines

LINES = [
    b'{"a": 1}\n',
    b'{"a": 1}   \t\r\n',
    b'[1, 2.5, "x", null, true]\n',
    b'{"s": "\\ud800", "t": "\\u00fc", "u": "\xc3\xbc"}\n',
    b'{"a": 1} {"b": 2}\n',
    b'{"a": 1} x\n',
    b'{"a": \n',
    b"[1e400, -0.0, 12345678901234567890123]\n",
    b'{"a": NaN, "b": Infinity}\n',
    b"{}",
    b"[]\n",
    b'  {"lead": 1}\n',
    b"[" * 50 + b"]" * 50 + b"\n",
]


def _reference(raw: bytes) -> tuple[bool, object]:
    try:
        return True, json.loads(raw)
    except json.JSONDecodeError as exc:
        # The place in the log's line: json's own offset, a cut record just after its end.
        return False, (exc.msg, min(exc.pos, len(raw.decode().rstrip("\r\n"))) + 1)
    except ValueError as exc:
        return False, (str(exc), 1)


def test_each_line_reads_as_json_loads_reads_it(tmp_path: Path) -> None:
    """Values of good lines equal json.loads; bad lines are R401 with json's reason, at the
    line and column of the log where json stopped."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"".join(line if line.endswith(b"\n") else line + b"\n" for line in LINES))
    ctx = Context(str(log))
    records = dict(read_lines(str(log), ctx))
    messages = {d.span.line if d.span else None: d.message for d in ctx.diagnostics}
    columns = {d.span.line if d.span else None: d.span.column if d.span else None for d in ctx.diagnostics}
    for number, raw in enumerate(LINES, 1):
        ok, expected = _reference(raw)
        if ok:
            assert number in records
            assert json.dumps(records[number]) == json.dumps(expected)
        else:
            assert number not in records
            reason, column = expected  # type: ignore[misc]
            assert "is not valid JSON" in messages[number]
            assert str(reason)[:40] in messages[number]
            assert "line 1 column" not in messages[number]  # json's own place, not the log's
            assert columns[number] == column


def test_invalid_utf8_in_a_line_is_a_fatal_error(tmp_path: Path) -> None:
    """A line that is not UTF-8 stops reading with R400 at its line."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(b'{"a": 1}\n{"a": "\xff"}\n')
    with pytest.raises(LogError) as caught:
        list(read_lines(str(log), Context(str(log))))
    assert caught.value.diagnostic.code == "R400"
    assert caught.value.diagnostic.span is not None
    assert caught.value.diagnostic.span.line == 2


def test_a_utf16_looking_line_is_decoded_as_json_loads_does(tmp_path: Path) -> None:
    """A NUL second byte sends the line through json.loads' encoding detection."""
    for raw in ('{"a": 1}'.encode("utf-16-le") + b"\n", '{"a": 12}'.encode("utf-16-le") + b"\x00\n"):
        log = tmp_path / "log.jsonl"
        log.write_bytes(raw)
        ctx = Context(str(log))
        try:
            expected = json.loads(raw)
        except UnicodeDecodeError:
            with pytest.raises(LogError):
                list(read_lines(str(log), ctx))
            continue
        except ValueError:
            assert list(read_lines(str(log), ctx)) == []
            assert ctx.diagnostics
            continue
        assert list(read_lines(str(log), ctx)) == [(1, expected)]


def test_r401_points_at_the_place_in_the_log_line(tmp_path: Path) -> None:
    """R401 names the line and the column of the log where the record stops being JSON, after a
    server-sent-event prefix too, and never json's own "line 1 column N"."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(b'{"a": 1}\n{"a": 1 "b": 2}\ndata: {"a": 1 "b"}\n{"cut": \n')
    ctx = Context(str(log))
    list(read_lines(str(log), ctx))
    places = [(d.span.line, d.span.column) for d in ctx.diagnostics if d.span is not None]
    assert places == [(2, 9), (3, 15), (4, 9)]
    assert all("line 1 column" not in d.message for d in ctx.diagnostics)
