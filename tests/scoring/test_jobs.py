"""`score --jobs N`: several processes give exactly what one gives, findings and errors included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from scoring_support import SPEC, random_line

from toolexpect.cli import main
from toolexpect.scale.blocks import blocks


def _log(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _lines(count: int = 600, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    return [random_line(rng) for _ in range(count)]


def _run(
    spec: Path, log: Path, jobs: int, fmt: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    code = main(["score", str(spec), "--log", str(log), "--format", fmt, "--jobs", str(jobs)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "s.expect"
    path.write_text(SPEC, encoding="utf-8")
    return path


_NOTE = "toolexpect: note: -j {jobs} scores in one process here: "


def _without_note(err: str, jobs: int) -> tuple[str, str | None]:
    """Standard error without the note that ``-j`` scored in one process, and that note's reason."""
    kept, why = [], None
    for line in err.splitlines(keepends=True):
        if line.startswith(_NOTE.format(jobs=jobs)):
            why = line.removeprefix(_NOTE.format(jobs=jobs)).strip()
        else:
            kept.append(line)
    return "".join(kept), why


def _same(spec: Path, log: Path, capsys: pytest.CaptureFixture[str], count: int = 2) -> str | None:
    """Several processes report what one reports; the reason they said they scored in one
    process, if they did (the note is all that differs)."""
    size = log.stat().st_size
    assert len(blocks(size, -(-size // count))) == count
    why = None
    for fmt in ("json", "text"):
        code, out, err = _run(spec, log, count, fmt, capsys)
        err, why = _without_note(err, count)
        assert (code, out, err) == _run(spec, log, 1, fmt, capsys)
    return why


@pytest.mark.parametrize("count", [2, 3])
def test_several_processes_report_what_one_reports(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], count: int
) -> None:
    """Runs in order, unused samples with their first line, failures: all the same."""
    _same(spec, _log(tmp_path, _lines()), capsys, count)


@pytest.mark.parametrize(
    "odd",
    [
        "not json",
        '{"name": "g", "arguments": {}}',
        '{"name": "g", "arguments": {}, "samples": "not a list"}',
        '{"id": "a", "tool_calls": [{"name": "g", "arguments": "{bad"}]}',
        '{"id": "a", "tool_calls": "nope"}',
        '[{"name": "f", "arguments": {"x": 1}}]',
        "",
    ],
)
@pytest.mark.parametrize("where", [0.25, 0.75])
def test_odd_records_in_any_block_give_the_same_report(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], odd: str, where: float
) -> None:
    """Bad lines, loose calls, bad arguments: same findings, in the same order, in any block; a
    log with loose calls is scored in one process, and -j says so."""
    lines = _lines()
    lines.insert(int(len(lines) * where), odd)
    lines.insert(int(len(lines) * where) + 7, odd)
    why = _same(spec, _log(tmp_path, lines), capsys)
    loose = '"name": "g"' in odd and "tool_calls" not in odd and 'samples": [' not in odd
    assert (why is not None) == loose
    if loose:
        assert why == "the log holds loose calls (one call per line), which form one sample of the whole log"


@pytest.mark.parametrize("where", [0.25, 0.75])
def test_a_log_that_is_not_utf8_fails_the_same(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], where: float
) -> None:
    """An unreadable line stops scoring with the same error, whichever block holds it."""
    lines = _lines()
    path = tmp_path / "log.jsonl"
    data = [line.encode() + b"\n" for line in lines]
    data.insert(int(len(data) * where), b'{"id": "a", "tool_calls": [], "x": "\xff"}\n')
    path.write_bytes(b"".join(data))
    one = _run(spec, path, 1, "json", capsys)
    assert one[0] == 2
    assert _run(spec, path, 2, "json", capsys) == one


def test_other_logs_are_scored_in_one_process(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON document log (not JSON Lines) gives the same report with several jobs, and -j
    says why it scored in one process."""
    path = tmp_path / "log.json"
    path.write_text("[" + ",\n".join(_lines(50)) + "]\n", encoding="utf-8")
    code, out, err = _run(spec, path, 2, "json", capsys)
    err, why = _without_note(err, 2)
    assert (code, out, err) == _run(spec, path, 1, "json", capsys)
    assert why is not None and why.startswith("only canonical JSON Lines in a plain file is cut into blocks")


def test_jobs_say_when_they_score_in_one_process(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-j N never falls back to one process in silence: with two logs it says why on stderr,
    and the report is the one of -j 1; --quiet leaves the note out."""
    first = _log(tmp_path, _lines(40))
    second = tmp_path / "more.jsonl"
    second.write_text("".join(line + "\n" for line in _lines(40, seed=5)), encoding="utf-8")
    command = ["score", str(spec), "--log", str(first), "--log", str(second), "--format", "json"]
    one = main([*command, "-j", "1"]), capsys.readouterr()
    two = main([*command, "-j", "3"]), capsys.readouterr()
    assert two[0] == one[0] and two[1].out == one[1].out
    assert (
        "toolexpect: note: -j 3 scores in one process here: it cuts one log into blocks, and 2 logs"
        in two[1].err
    )
    assert "note:" not in one[1].err
    quiet = main([*command, "-j", "3", "--quiet"]), capsys.readouterr()
    assert quiet[0] == one[0] and "note:" not in quiet[1].err


@pytest.mark.parametrize("bad", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    """-j 0, a negative count or a word is a usage error (exit 2)."""
    log = _log(tmp_path, _lines(5))
    code = main(["score", str(spec), "--log", str(log), "-j", bad])
    assert code == 2
    assert "jobs" in capsys.readouterr().err
