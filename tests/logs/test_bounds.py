"""Reading a log is bounded: long lines, large documents and devices give an R4xx, never a hang."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.logs import LogError, _lines, _source, open_log

CALL = {"id": "w", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}


def _limited() -> None:
    """Cap the child's memory, so that an unbounded read fails fast instead of filling the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _toolexpect(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limited,
        check=False,
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("argv", [["calls", "/dev/zero"], ["score", "--log", "/dev/zero", "-"]])
def test_a_device_is_refused(argv: list[str], tmp_path: Path) -> None:
    """``calls /dev/zero`` and ``score --log /dev/zero`` say R400 and exit 2, without reading."""
    if argv[0] == "score":
        spec = tmp_path / "w.expect"
        spec.write_text("expect t\n", encoding="utf-8")
        argv = [*argv[:-1], str(spec)]
    done = _toolexpect(*argv)
    assert done.returncode == 2
    assert "error[R400]: cannot read log: not a regular file" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_is_read_once_and_line_by_line(tmp_path: Path) -> None:
    """A FIFO is opened once and read as its writer writes (see tests/logs/test_sources.py)."""
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    child = subprocess.Popen(
        [sys.executable, "-m", "toolexpect", "calls", str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limited,
    )
    with open(fifo, "w", encoding="utf-8") as writer:
        writer.write(json.dumps(CALL) + "\n")
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "sample 1 'w': 1 call" in out


def test_a_line_beyond_the_limit_stops_reading_at_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A JSON Lines line longer than MAX_LINE_BYTES is an R405 naming its line and the limit."""
    monkeypatch.setattr(_lines, "MAX_LINE_BYTES", 200)
    log = tmp_path / "log.jsonl"
    line = json.dumps(CALL)
    log.write_text(f"{line}\n{line}\n{'[' + ' ' * 300 + ']'}\n{line}\n", encoding="utf-8")
    with pytest.raises(LogError) as caught:
        list(open_log(log))
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "R405"
    assert diagnostic.span is not None and diagnostic.span.line == 3
    assert diagnostic.message == "this line of the log is longer than 200 bytes; reading stopped"
    assert diagnostic.help


def test_a_line_at_the_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line exactly MAX_LINE_BYTES long, its line break included, is read."""
    line = json.dumps(CALL) + "\n"
    monkeypatch.setattr(_lines, "MAX_LINE_BYTES", len(line))
    log = tmp_path / "log.jsonl"
    log.write_text(line * 3, encoding="utf-8")
    assert len(list(open_log(log))) == 3


def test_a_document_beyond_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON document larger than MAX_DOCUMENT_BYTES is an R405 and exit 2, not read whole."""
    monkeypatch.setattr(_source, "MAX_DOCUMENT_BYTES", 100)
    log = tmp_path / "log.json"
    log.write_text(json.dumps([CALL] * 10, indent=2), encoding="utf-8")
    assert main(["calls", str(log)]) == 2
    err = capsys.readouterr().err
    assert "error[R405]: log is larger than" in err
    assert "JSON Lines" in err


def test_a_line_without_end_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of one endless line (no line break at all) stops at the limit."""
    monkeypatch.setattr(_lines, "MAX_LINE_BYTES", 1000)
    monkeypatch.setattr(_source, "MAX_DOCUMENT_BYTES", 1000)
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"{" + b"0" * 5000)
    with pytest.raises(LogError) as caught:
        list(open_log(log))
    assert caught.value.diagnostic.code == "R405"


def test_an_integer_longer_than_python_reads_is_placed_and_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 5,000-digit integer is valid JSON that Python will not read: the line is skipped with
    R401 at the integer's line and column, saying why in toolexpect's words; in a one-document
    log the whole log is refused the same way."""
    huge = "1" * 5000
    line = '{"id": "w", "tool_calls": [{"name": "t", "arguments": {"x": ' + huge + "}}]}"
    lines = tmp_path / "run.jsonl"
    lines.write_text(json.dumps(CALL) + "\n" + line + "\n", encoding="utf-8")
    reader = open_log(lines)
    samples = list(reader)
    assert [s.id for s in samples] == ["w"]
    (finding,) = reader.diagnostics
    assert finding.code == "R401"
    assert (finding.span.line, finding.span.column) == (2, line.index(huge) + 1)
    assert "an integer of 5,000 digits; at most 4,300 digits are read" in finding.message
    assert "set_int_max_str_digits" not in finding.message
    document = tmp_path / "run.json"
    second = ' "tool_calls": [{"name": "t", "arguments": {"x": '
    document.write_text('{"id": "w",\n' + second + huge + "}}]}")
    with pytest.raises(LogError) as refused:
        list(open_log(document))
    assert refused.value.diagnostic.span is not None
    assert (refused.value.diagnostic.span.line, refused.value.diagnostic.span.column) == (2, len(second) + 1)
    assert "digits" in refused.value.diagnostic.message
