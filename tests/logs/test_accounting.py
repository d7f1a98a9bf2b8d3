"""Every record of a log is accounted for: it holds calls, holds none, or is reported at its line.

``LogReader.records`` counts them as the log is read; ``calls -v`` and ``score -v`` print the
counts per log, and the JSON report carries them (``logs``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from logs_support import FIXTURES

from toolexpect.baseline.load import load_report
from toolexpect.cli import main
from toolexpect.logs import LogRecords, open_log

EVERY_FIXTURE = sorted(
    path.relative_to(FIXTURES).as_posix() for path in FIXTURES.rglob("*") if path.is_file()
)

MIXED = (
    '{"id": "a", "tool_calls": [{"name": "f", "arguments": {}}]}\n'
    '{"id": "b", "tool_calls": []}\n'
    "not json\n"
    "\n"
    '{"id": "c", "tool_calls": [{"name": "g", "arguments": {"x": 1}}]}\n'
    '{"hello": 1}\n'
)
"""Two records with calls, one without, a line that is not JSON and a record of no known shape."""

SPEC = 'case "a" {\n    expect f()\n}\ncase "c" {\n    expect g(x=1)\n}\n'


def _independent_count(path: Path, spread: bool) -> int:
    """The records of a log counted without its reader: each line that is not blank (server-sent
    events: each ``data:`` line but ``[DONE]``) of JSON Lines, else the one document, or each
    element of a list document read element by element."""
    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    try:
        document = json.loads(text)
    except ValueError:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if any(line.startswith(("data:", "event:")) for line in lines):
            return sum(line.startswith("data:") and line != "data: [DONE]" for line in lines)
        return len(lines)
    return len(document) if spread else 1


@pytest.mark.parametrize("name", EVERY_FIXTURE)
def test_every_record_of_every_fixture_ends_in_exactly_one_count(name: str) -> None:
    """Read whole, each fixture's records add up to an independent count of its records, and a
    log whose samples hold calls has records with calls, and a reported record its finding."""
    path = FIXTURES / name
    reader = open_log(path)
    samples = list(reader)
    counted = reader.records
    assert counted.records == _independent_count(path, reader.spread)
    assert counted.with_calls + counted.without_calls + counted.reported == counted.records
    assert (counted.with_calls > 0) == any(sample.calls for sample in samples)
    assert counted.reported <= len(reader.diagnostics)  # each reported record has its finding


def test_records_with_calls_without_and_reported_are_counted_apart(tmp_path: Path) -> None:
    """Blank lines are no records; a line that is not JSON and a record of no known shape are
    reported, each with its diagnostic at its line."""
    log = tmp_path / "run.jsonl"
    log.write_text(MIXED, encoding="utf-8")
    reader = open_log(log)
    assert [sample.id for sample in reader] == ["a", "b", "c"]
    assert reader.records == LogRecords(str(log), with_calls=2, without_calls=1, reported=2)
    assert [(d.code, d.span.line if d.span else None) for d in reader.diagnostics] == [
        ("R401", 3),
        ("R404", 6),
    ]


def test_reading_again_counts_again(tmp_path: Path) -> None:
    """Each reading of a file counts its records from the start."""
    log = tmp_path / "run.jsonl"
    log.write_text(MIXED, encoding="utf-8")
    reader = open_log(log)
    list(reader)
    list(reader)
    assert reader.records.records == 5


def test_a_stream_counts_its_chunks_and_the_calls_they_begin() -> None:
    """A streamed completion's chunks are records; the chunk that begins a call holds it."""
    reader = open_log(FIXTURES / "openai-chat" / "stream.jsonl")
    samples = list(reader)
    counted = reader.records
    assert counted.records == 18
    assert counted.with_calls >= 1
    assert counted.reported == 0
    assert sum(len(sample.calls) for sample in samples) >= 1


def test_calls_verbose_prints_the_counts_of_each_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``calls -v`` ends with one line per log on standard error."""
    log = tmp_path / "run.jsonl"
    log.write_text(MIXED, encoding="utf-8")
    assert main(["calls", "-v", str(log)]) == 0
    err = capsys.readouterr().err
    assert f"toolexpect: {log}: 5 records: 2 with calls, 1 without, 2 reported\n" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_score_verbose_and_the_json_report_carry_the_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    """``score -v`` prints the counts per log, with one process or several, and the JSON report
    holds them under ``logs`` (valid against the report's schema)."""
    log = tmp_path / "run.jsonl"
    log.write_text(MIXED * 50, encoding="utf-8")
    spec = tmp_path / "s.expect"
    spec.write_text(SPEC, encoding="utf-8")
    report = tmp_path / "report.json"
    argv = ["score", str(spec), "--log", str(log), "-v", "-j", jobs, "--json", str(report)]
    assert main(argv) == 1  # records were reported
    err = capsys.readouterr().err
    assert f"toolexpect: {log}: 250 records: 100 with calls, 50 without, 100 reported\n" in err
    document = load_report(str(report))
    assert document["logs"] == [
        {"path": str(log), "records": 250, "with_calls": 100, "without_calls": 50, "reported": 100}
    ]
