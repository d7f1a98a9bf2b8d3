"""The text report of ``score`` as a newcomer reads it: fitted to the terminal, the failing runs
of a passing case under ``-v``, the threshold a case met and what the mean is over."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

LONG = "what is the weather in the city where the longest river of the continent " * 3
"""A case name of 222 characters, as ``snapshot --pair-by question`` makes them."""

SPEC = f"""\
case "two cities" {{
    expect get_weather(city="Berlin")
    expect get_weather(city="Paris")
    require accuracy >= 0.5
}}

case "flaky" {{
    expect get_weather(city="Lima")
    require pass rate >= 0.5
}}

case "{LONG.strip()}" {{
    expect get_weather(city="Rome")
}}

case "no calls" {{
    require no tool calls
}}
"""


def _call(city: str) -> dict[str, object]:
    return {"name": "get_weather", "arguments": {"city": city}}


RECORDS = [
    {"id": "two cities", "tool_calls": [_call("Berlin")]},
    *[{"id": "flaky", "tool_calls": [_call("Lima")]}] * 4,
    {"id": "flaky", "tool_calls": [_call("Lim")]},
    {"id": LONG.strip(), "tool_calls": [_call("Rome")]},
    {"id": "no calls", "tool_calls": []},
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A spec of four passing cases (one with five runs, one failing) and their log."""
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return tmp_path


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}
    return {**env, "PYTHONPATH": str(SRC), "NO_COLOR": "1", **extra}


def _score(folder: Path, *options: str, **env: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "toolexpect", "score", "w.expect", "--log", "run.jsonl", *options]
    return subprocess.run(argv, cwd=folder, env=_env(**env), capture_output=True, text=True, timeout=120)


def _case_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(("✓", "✗", "!"))]


def test_lines_fit_the_default_width_when_not_a_terminal(folder: Path) -> None:
    """Written to a pipe, the text report fits 100 columns: a long name is cut with ``…``, and
    short names are not padded to the longest one."""
    done = _score(folder)
    assert done.returncode == 0, done.stderr
    lines = _case_lines(done.stdout)
    single = [line for line in lines if "runs passed" not in line]
    assert single and all(len(line) <= 100 for line in single)
    (long_line,) = [line for line in lines if "what is the weather" in line]
    assert "…" in long_line and LONG.strip() not in done.stdout
    assert max(len(line) for line in lines) < len(LONG)


def test_columns_sets_the_width(folder: Path) -> None:
    """``COLUMNS`` sets the width the report fits (as a terminal's width would)."""
    done = _score(folder, COLUMNS="70")
    assert all(len(line) <= 70 for line in _case_lines(done.stdout) if "runs passed" not in line)


def test_lines_fit_the_terminal(folder: Path) -> None:
    """On a terminal 60 columns wide the report fits 60 columns (names cut with ``…``)."""
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
    argv = [sys.executable, "-m", "toolexpect", "score", "w.expect", "--log", "run.jsonl"]
    process = subprocess.Popen(argv, cwd=folder, env=_env(), stdout=secondary, stderr=subprocess.DEVNULL)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert process.wait(timeout=120) == 0
    os.close(primary)
    out = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    lines = _case_lines(out)
    assert len(lines) == 4
    assert all(len(line) <= 60 for line in lines if "runs passed" not in line)
    assert any("…" in line for line in lines)


def test_verbose_explains_the_failing_run_of_a_passing_case(folder: Path) -> None:
    """With ``-v`` a passing case with a failing run (4/5 passed) says why that run failed;
    without it, the case is one line. ``-v`` still counts each log's records on stderr."""
    plain = _score(folder)
    assert "run 5:" not in plain.stdout
    done = _score(folder, "-v")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    (flaky,) = [n for n, line in enumerate(lines) if ":: flaky" in line]
    assert "4/5 runs passed" in lines[flaky]
    assert lines[flaky + 1].strip().startswith("✗ run 5: accuracy 0/1")
    assert any('expected "Lima", got "Lim"' in line for line in lines[flaky + 1 : flaky + 5])
    assert "run.jsonl: 8 records: 7 with calls, 1 without, 0 reported" in done.stderr


def test_the_threshold_and_the_mean_say_what_they_are(folder: Path) -> None:
    """A case that passes below 1 shows the threshold it met (``0.50 ≥ 0.5``), a case with
    runs its pass rate against the one required, and the mean says what cases it is over."""
    done = _score(folder)
    (two,) = [line for line in done.stdout.splitlines() if ":: two cities" in line]
    assert two.split("two cities")[1].strip() == "0.50 ≥ 0.5  (1/2 expected calls)"
    (flaky,) = [line for line in done.stdout.splitlines() if ":: flaky" in line]
    assert flaky.endswith("4/5 runs passed, pass rate 0.80 ≥ 0.5")
    summary = done.stdout.rstrip().splitlines()[-1]
    assert summary.startswith("4 passed, 0 failed; mean accuracy 0.77 over 3 cases with expected calls")


def test_a_failing_case_shows_the_threshold_it_missed(folder: Path) -> None:
    """A case that fails its accuracy threshold shows it (``0.00 < 0.5``)."""
    records = [{"id": "two cities", "tool_calls": []}]
    (folder / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    done = _score(folder)
    (two,) = [line for line in done.stdout.splitlines() if ":: two cities" in line]
    assert two.split("two cities")[1].strip() == "0.00 < 0.5  (0/2 expected calls)"


def test_ascii_output_writes_the_comparison_in_ascii(folder: Path) -> None:
    """Where the output cannot hold ``≥``, the report writes ``>=``."""
    done = _score(folder, PYTHONIOENCODING="ascii")
    (two,) = [line for line in done.stdout.splitlines() if ":: two cities" in line]
    assert "0.50 >= 0.5" in two
