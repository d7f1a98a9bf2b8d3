"""`score --jobs 2`: two processes give exactly what one gives, findings and errors included."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.logs import split

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the split forks on Linux")

SPEC = """
case "a" {
    expect f(x=1)
    expect g
    require accuracy >= 0.5
}
case "b" {
    expect f(x="s", y=[1, 2])
    forbid h
}
case "c" {
    expect g(z ~ "^o")
    require no unexpected calls
}
"""


def _line(rng: random.Random) -> str:
    case = rng.choice(["a", "b", "c", "a", "b", "c", "nobody"])
    calls = []
    for _ in range(rng.randrange(5)):
        name = rng.choice("fghk")
        args = {"x": rng.choice([1, 1.0, "s", True]), "y": rng.choice([[1, 2], [1.0, 2]]), "z": "ok"}
        calls.append({"name": name, "arguments": args})
    record: dict[str, object] = {"tool_calls": calls}
    if rng.random() < 0.97:
        record["id"] = case
    return json.dumps(record)


def _log(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _lines(count: int = 600, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    return [_line(rng) for _ in range(count)]


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


@pytest.fixture(autouse=True)
def small_logs_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """Split even the small logs of these tests."""
    monkeypatch.setattr(split, "MIN_BYTES", 1)


def _same(spec: Path, log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert split.splittable(str(log), "canonical", 2) is not None
    for fmt in ("json", "text"):
        assert _run(spec, log, 2, fmt, capsys) == _run(spec, log, 1, fmt, capsys)


def test_two_processes_report_what_one_reports(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Runs in order, unused samples with their first line, failures: all the same."""
    merged: list[int] = []
    original = split.Scorer.merge

    def counted(self: split.Scorer, part: split.Part, line_offset: int = 0) -> None:
        merged.append(line_offset)
        original(self, part, line_offset)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(split.Scorer, "merge", counted)
        _same(spec, _log(tmp_path, _lines()), capsys)
    assert len(merged) == 2  # the worker's part was used, for the json and the text report
    assert merged[0] > 0


@pytest.mark.parametrize(
    "odd",
    [
        "not json",
        '{"name": "g", "arguments": {}}',
        '{"id": "a", "tool_calls": [{"name": "g", "arguments": "{bad"}]}',
        '{"id": "a", "tool_calls": "nope"}',
        '[{"name": "f", "arguments": {"x": 1}}]',
        "",
    ],
)
@pytest.mark.parametrize("where", [0.25, 0.75])
def test_odd_records_in_either_half_give_the_same_report(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], odd: str, where: float
) -> None:
    """Bad lines, loose calls, bad arguments: same findings, in the same order, either half."""
    lines = _lines()
    lines.insert(int(len(lines) * where), odd)
    lines.insert(int(len(lines) * where) + 7, odd)
    _same(spec, _log(tmp_path, lines), capsys)


@pytest.mark.parametrize("where", [0.25, 0.75])
def test_a_log_that_is_not_utf8_fails_the_same(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], where: float
) -> None:
    """An unreadable line stops scoring with the same error, whichever half holds it."""
    lines = _lines()
    path = tmp_path / "log.jsonl"
    data = [line.encode() + b"\n" for line in lines]
    data.insert(int(len(data) * where), b'{"id": "a", "tool_calls": [], "x": "\xff"}\n')
    path.write_bytes(b"".join(data))
    one = _run(spec, path, 1, "json", capsys)
    assert one[0] == 2
    assert _run(spec, path, 2, "json", capsys) == one
    with pytest.raises(ChildProcessError):  # the worker was reaped
        os.waitpid(-1, os.WNOHANG)


def test_small_logs_and_one_job_stay_in_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No cut below the size bound, with one job, or for another format."""
    log = _log(tmp_path, _lines(50))
    assert split.splittable(str(log), "canonical", 1) is None
    assert split.splittable(str(log), "openai-chat", 2) is None
    monkeypatch.setattr(split, "MIN_BYTES", 1 << 30)
    assert split.splittable(str(log), "canonical", 2) is None


def test_a_process_with_threads_stays_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No fork while other threads run."""
    log = _log(tmp_path, _lines(50))
    assert split.splittable(str(log), "canonical", 2) is not None
    monkeypatch.setattr(split.threading, "active_count", lambda: 2)
    assert split.splittable(str(log), "canonical", 2) is None


@pytest.mark.parametrize(
    ("cpus", "load", "jobs"),
    [
        ({0, 1}, 0.2, 2),
        ({0, 1}, 1.5, 2),
        ({0, 1}, 1.6, 1),
        ({0, 1}, 3.0, 1),
        ({0}, 0.0, 1),
        ({0, 1, 2, 3}, 2.5, 2),
    ],
)
def test_default_jobs_without_a_task_count_use_the_load_average(
    monkeypatch: pytest.MonkeyPatch, cpus: set[int], load: float, jobs: int
) -> None:
    """Where the running tasks cannot be counted: two processes when the machine is not busy."""
    from toolexpect import cli

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cpus)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(cli, "_running_tasks", lambda: None)
    assert cli._default_jobs() == jobs


@pytest.mark.parametrize(
    ("cpus", "running", "jobs"),
    [
        ({0, 1}, 1, 2),  # only this process: a CPU is free
        ({0, 1}, 2, 1),  # another task holds the second CPU
        ({0}, 1, 1),
        ({0, 1, 2, 3}, 3, 2),
        ({0, 1, 2, 3}, 4, 1),
    ],
)
def test_default_jobs_split_only_with_a_cpu_free_now(
    monkeypatch: pytest.MonkeyPatch, cpus: set[int], running: int, jobs: int
) -> None:
    """Without --jobs: two processes when a second CPU is there and free at this moment,
    whatever the 1-minute load average says."""
    from toolexpect import cli

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cpus)
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    monkeypatch.setattr(cli, "_running_tasks", lambda: running)
    assert cli._default_jobs() == jobs


def test_running_tasks_are_read_from_proc() -> None:
    """On Linux the count of running tasks comes from /proc/loadavg and includes this one."""
    from toolexpect import cli

    if not Path("/proc/loadavg").exists():
        assert cli._running_tasks() is None
        return
    running = cli._running_tasks()
    assert running is not None and running >= 1
