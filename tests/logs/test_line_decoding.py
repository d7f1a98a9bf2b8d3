"""Each line of a JSON Lines log is read as ``json.loads`` reads it: the same value, types and
key order included, or the same finding (orjson decodes where it gives the same)."""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolexpect.logs._base import Context
from toolexpect.logs._source import read_lines

TRICKY = [
    b'{"a": 1, "a": 2}',
    b'{"a": 1, "b": 2, "a": {"x": 3}}',
    b'{"k": {"x": 1}, "k": [2], "j": 0, "k": null}',
    b"[-0.0, -0, 0.0, 0, -0e0, 0E-0]",
    b"[1, 1.0, 1e0, 100, 1e2, 1E+2]",
    b"[9223372036854775807, -9223372036854775808, 18446744073709551615]",
    b"[9223372036854775808, -9223372036854775809, 18446744073709551616]",
    b"[100000000000000000000, 12345678901234567890123]",
    b'{"big": ' + b"1" * 400 + b"}",
    b'{"s": "1234567890123456789"}',
    b"[1e400, -1e400, 1.7976931348623159e308]",
    b"[1.7976931348623157e308, 5e-324, 2.4703282292062328e-324, 1e-400, -1e-400]",
    b"[0.1000000000000000055511151231257827, 9007199254740993.0, 2e23]",
    b"[NaN, Infinity, -Infinity]",
    b'{"a": NaN}',
    b'["\\ud800"]',
    b'["\\udc00\\ud800", "x"]',
    b'["\\ud83d\\ude00", "\\u00e9", "\xc3\xa9", "\\/", "\\u0000", "\\"", "\\\\"]',
    b'{"\\u00e9": 1, "\xc3\xa9": 2}',
    b'{"a": "\xed\xa0\x80"}',
    b'["a\x7fb"]',
    b'["a\tb"]',
    b"[1,]",
    b'{"a": 1,}',
    b"[01]",
    b"[1.]",
    b"[.5]",
    b"[tru]",
    b'{"a": 1} {"b": 2}',
    b'{"a": 1} x',
    b'{"a": 1}\x0c',
    b'{"a": 1}   \t\r',
    b'{"a": ',
    b"[" * 400 + b"]" * 400,
    b"[" * 600 + b"]" * 600,
    b"[" * 1100 + b"]" * 1100,
    b'{"x": [' + b"{}, " * 700 + b"{}]}",
    b"{}",
    b"[]",
    b'{"id": "c", "tool_calls": [{"name": "t", "arguments": {"n": 5, "f": 5.0, "z": -0.0}}]}',
]


def _records(path: Path) -> tuple[list[tuple[int, str]], list[tuple[Any, ...]]]:
    """The records (values by ``repr``: types, signs and key order show) and findings."""
    ctx = Context(str(path))
    records = [(line, repr(value)) for line, value in read_lines(str(path), ctx)]
    findings = [(d.code, d.message, d.span.line if d.span else None) for d in ctx.diagnostics]
    return records, findings


def _as_json_reads(lines: list[bytes]) -> tuple[list[tuple[int, str]], list[int]]:
    """What ``json.loads`` gives line by line: the values, and the lines it refuses."""
    values, refused = [], []
    for number, raw in enumerate(lines, 1):
        try:
            values.append((number, repr(json.loads(raw))))
        except (ValueError, RecursionError):
            refused.append(number)
    return values, refused


def _write(lines: list[bytes]) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in lines))
        yield path


def test_tricky_lines_read_as_json_loads_reads_them(tmp_path: Path) -> None:
    """Duplicate keys, signs of zero, big integers and floats, NaN, surrogates, deep nesting
    and broken lines: json's values, and an R401 for each line json refuses."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in TRICKY))
    records, findings = _records(path)
    values, refused = _as_json_reads(TRICKY)
    assert records == values
    assert [(code, line) for code, _, line in findings] == [("R401", n) for n in refused]


def test_each_tricky_line_alone_reads_as_json_loads_reads_it(tmp_path: Path) -> None:
    """Each line as a log of its own (the first line also decides the log's form)."""
    for raw in TRICKY:
        path = tmp_path / "one.jsonl"
        path.write_bytes(raw + b"\n")
        with contextlib.suppress(ValueError, RecursionError):
            assert _records(path)[0] == [(1, repr(json.loads(raw)))], raw


def test_a_line_with_an_integer_beyond_64_bits_keeps_it_exact(tmp_path: Path) -> None:
    """Lines with 19 digits in a row or deep nesting read as json reads them (orjson would
    widen such an integer to a float, or refuse the depth)."""
    lines = [b"[18446744073709551616]", b'["1234567890123456789"]', b"[" * 600 + b"]" * 600, b"[1]"]
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    records = list(read_lines(str(path), Context(str(path))))
    assert records[0] == (1, [18446744073709551616])
    assert type(records[0][1][0]) is int
    assert [(n, repr(v)) for n, v in records] == _as_json_reads(lines)[0]


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([0.0, -0.0, 5e-324, 1.7976931348623157e308, 2e23, 1e22])
    | st.text()
    | st.text(st.characters(blacklist_categories=()), max_size=4)  # lone surrogates too
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_VALUES, max_size=4) | st.dictionaries(st.text(max_size=5), _VALUES), max_size=6))
def test_any_json_value_reads_as_json_loads_reads_it(values: list[Any]) -> None:
    """Values written by json.dumps (surrogates escaped or raw, big integers) read back as
    json.loads reads them."""
    lines = [
        json.dumps(v, ensure_ascii=i % 2 == 0).encode("utf-8", "surrogatepass") for i, v in enumerate(values)
    ]
    for path in _write(lines):
        expected = [(n, repr(json.loads(raw))) for n, raw in enumerate(lines, 1)]
        assert _records(path) == (expected, [])
