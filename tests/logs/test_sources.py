"""Where logs come from: standard input, FIFOs, folders, globs, gzip and zstd, JSON documents
written back to back; ``calls`` names each log's format and writes as it reads."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import zstandard
from logs_support import FIXTURES

from toolexpect.cli import main
from toolexpect.logs import LogError, log_paths, open_log, open_logs, samples_from_value

PAIRING = FIXTURES.parent / "pairing"
SAMPLES = [
    {"id": "a", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]},
    {"id": "b", "tool_calls": [{"name": "send_summary", "arguments": {"to": "ops@example.com"}}]},
]
TEXT = "".join(json.dumps(sample) + "\n" for sample in SAMPLES)
EXPECTED = [("a", ["get_weather"]), ("b", ["send_summary"])]


def _read(path: str | Path) -> list[tuple[str | None, list[str]]]:
    return [(s.id, [c.name for c in s.calls]) for s in open_log(path)]


def test_standard_input_is_read_with_a_dash() -> None:
    """``calls -`` reads the log from standard input."""
    done = subprocess.run(
        [sys.executable, "-m", "toolexpect", "calls", "--format", "json", "-"],
        input=TEXT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["logs"] == [{"path": "-", "format": "canonical"}]
    assert [s["id"] for s in document["samples"]] == ["a", "b"]


def test_score_reads_standard_input(tmp_path: Path) -> None:
    """``score --log -`` scores what comes on standard input."""
    spec = tmp_path / "w.expect"
    spec.write_text('case "a" {\n    expect get_weather(city="Berlin")\n}\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "toolexpect", "score", str(spec), "--log", "-"],
        input=TEXT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "1 passed, 0 failed" in done.stdout
    assert 'unused sample "b": 1 run, no case has this name (first at -:2)' in done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_is_opened_once_and_read_while_written(tmp_path: Path) -> None:
    """A FIFO (as ``<(zcat log.gz)`` gives) is opened once: its format is detected from what
    was read, and reading goes on from there; a second reading says it can be read once."""
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as writer:
            writer.write(TEXT)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        reader = open_log(fifo)
        assert reader.format == "canonical"
        assert [(s.id, [c.name for c in s.calls]) for s in reader] == EXPECTED
    finally:
        writer.join(timeout=30)
    with pytest.raises(LogError) as caught:
        list(reader)
    assert caught.value.diagnostic.code == "R400"
    assert "can be read once" in caught.value.diagnostic.message


def test_a_folder_is_read_in_sorted_order(tmp_path: Path) -> None:
    """``--log folder/`` reads the log files under it (also in subfolders), sorted; other
    files and hidden ones are left out."""
    (tmp_path / "b.jsonl").write_text(json.dumps(SAMPLES[1]) + "\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.json").write_text(json.dumps({**SAMPLES[0], "id": "c"}), encoding="utf-8")
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress((json.dumps(SAMPLES[0]) + "\n").encode()))
    (tmp_path / "notes.md").write_text("not a log\n", encoding="utf-8")
    (tmp_path / ".hidden.jsonl").write_text("not a log\n", encoding="utf-8")
    assert [Path(p).name for p in log_paths(str(tmp_path))] == ["a.jsonl.gz", "b.jsonl", "c.json"]
    samples = [s.id for reader in open_logs([tmp_path]) for s in reader]
    assert samples == ["a", "b", "c"]


def test_a_glob_is_expanded_and_an_empty_one_is_an_error(tmp_path: Path) -> None:
    """``--log 'runs/*.jsonl'`` reads the matches in order; a pattern that matches nothing is
    an R400 naming it."""
    for name, sample in zip(("x1.jsonl", "x2.jsonl"), SAMPLES, strict=True):
        (tmp_path / name).write_text(json.dumps(sample) + "\n", encoding="utf-8")
    assert [s.id for r in open_logs([str(tmp_path / "x*.jsonl")]) for s in r] == ["a", "b"]
    with pytest.raises(LogError) as caught:
        open_logs([str(tmp_path / "nothing*.jsonl")])
    assert caught.value.diagnostic.code == "R400"
    assert "no log files in pattern" in caught.value.diagnostic.message


def test_gzip_and_zstd_are_read_by_extension(tmp_path: Path) -> None:
    """``.gz`` and ``.zst`` logs are decompressed as they are read, each line numbered."""
    packed = tmp_path / "log.jsonl.gz"
    packed.write_bytes(gzip.compress(TEXT.encode()))
    squeezed = tmp_path / "log.jsonl.zst"
    squeezed.write_bytes(zstandard.ZstdCompressor().compress((TEXT + "{broken\n").encode()))
    assert _read(packed) == EXPECTED
    reader = open_log(squeezed)
    assert [(s.id, [c.name for c in s.calls]) for s in reader] == EXPECTED
    assert [(d.code, d.line) for d in reader.diagnostics] == [("R401", 3)]
    pretty = tmp_path / "one.json.gz"
    pretty.write_bytes(gzip.compress(json.dumps({"samples": SAMPLES}, indent=2).encode()))
    assert _read(pretty) == EXPECTED


def test_a_damaged_compressed_log_is_an_r400(tmp_path: Path) -> None:
    """A file that is not what its extension says, or cut short, is an R400, not a traceback."""
    fake = tmp_path / "log.jsonl.gz"
    fake.write_text(TEXT, encoding="utf-8")
    with pytest.raises(LogError) as caught:
        open_log(fake)
    assert caught.value.diagnostic.code == "R400"
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress((TEXT * 2000).encode())[:-200])
    with pytest.raises(LogError) as caught:
        list(open_log(cut))
    assert caught.value.diagnostic.code == "R400"


def test_concatenated_documents_are_a_stream_of_values() -> None:
    """``completion.to_json()`` appended once per response: each document is a record, and its
    sample is placed at the line the document starts on."""
    reader = open_log(PAIRING / "completions.json")
    samples = list(reader)
    assert reader.format == "openai-chat"
    assert [s.id for s in samples] == [f"chatcmpl-PAIR{n:04d}" for n in range(1, 10)]
    text = (PAIRING / "completions.json").read_text(encoding="utf-8")
    starts = [number for number, line in enumerate(text.split("\n"), 1) if line == "{"]
    assert [s.line for s in samples] == starts
    assert reader.diagnostics == []


def test_a_broken_document_among_others_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    """A document that is not valid JSON is an R401 at its line and column; the documents
    after it are read."""
    documents = [json.dumps(sample, indent=2) for sample in SAMPLES]
    broken = '{\n  "id": "x",\n  "tool_calls": oops\n}'
    log = tmp_path / "log.json"
    log.write_text("\n".join([documents[0], broken, documents[1]]) + "\n", encoding="utf-8")
    reader = open_log(log)
    assert [(s.id, [c.name for c in s.calls]) for s in reader] == EXPECTED
    [finding] = reader.diagnostics
    first_lines = documents[0].count("\n") + 1
    assert (finding.code, finding.line, finding.column) == ("R401", first_lines + 3, 17)
    assert finding.message.startswith(f"the JSON value at line {first_lines + 1} is not valid JSON")


def test_calls_names_each_format_in_its_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``calls`` starts with one line per log: its path and the format detected."""
    log = tmp_path / "log.jsonl"
    log.write_text(TEXT, encoding="utf-8")
    other = PAIRING / "by_file" / "oslo-today.jsonl"
    assert main(["calls", str(log), str(other)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"log {log}: canonical\nlog {other}: openai-chat\n\nsample 1 'a': 1 call\n")
    assert "sample 5 'chatcmpl-PAIR0009': 0 calls" in out


def test_calls_writes_its_first_sample_before_the_log_ends() -> None:
    """``calls`` streams: the first sample is out while the writer of a pipe still writes."""
    first_seen = threading.Event()
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "toolexpect", "calls", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    stdin = process.stdin

    def write() -> None:
        stdin.write(TEXT * 2_000)  # more than the probe reads
        stdin.flush()
        first_seen.wait(timeout=60)
        stdin.write(TEXT)
        stdin.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        first = process.stdout.readline()
        sample = process.stdout.readline() + process.stdout.readline()
        assert not process.stdin.closed  # the log is not over yet
        first_seen.set()
        rest = process.stdout.read()
    finally:
        first_seen.set()
        writer.join(timeout=60)
        process.wait(timeout=60)
    assert first == "log -: canonical\n"
    assert sample == "\nsample 1 'a': 1 call\n"
    assert rest.count("sample ") == 4_001


def test_concatenated_documents_in_memory_read_the_same() -> None:
    """``samples_from_value`` of the text of documents back to back gives the same samples."""
    text = (PAIRING / "completions.json").read_text(encoding="utf-8")
    assert [s.id for s in samples_from_value(text)] == [s.id for s in open_log(PAIRING / "completions.json")]


def test_a_compressed_log_cut_short_is_reported_at_the_line_reached(tmp_path: Path) -> None:
    """A gzip log cut in the middle: the runs before the damage are read, and the R400 points at
    the line where reading stopped."""
    text = "".join(
        json.dumps({"id": f"run {n}", "tool_calls": [{"name": "f", "arguments": {"n": n * 7919 % 10007}}]})
        + "\n"
        for n in range(20000)
    )
    packed = gzip.compress(text.encode())
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    read = 0
    with pytest.raises(LogError) as caught:
        for _sample in open_log(cut):
            read += 1
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "R400"
    assert "damaged" in diagnostic.message
    assert 1000 < read < 20000
    assert diagnostic.line == read + 1
