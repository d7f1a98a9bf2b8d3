"""The progress display: drawn on a terminal (a real pseudo-terminal here), never into a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

SPEC = 'case "a" {\n    expect t(x=1)\n}\n'
LOG = "".join(
    f'{{"id": "a", "tool_calls": [{{"name": "t", "arguments": {{"x": {i % 2}}}}}]}}\n' for i in range(600)
)


def _score(folder: Path, *extra: str, terminal: bool) -> tuple[str, bytes]:
    """Run score with standard error on a pseudo-terminal (or a pipe); standard output is a pipe.
    The report and what reached standard error."""
    (folder / "a.expect").write_text(SPEC, encoding="utf-8")
    (folder / "run.jsonl").write_text(LOG, encoding="utf-8")
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    argv = [sys.executable, "-m", "toolexpect", "score", "a.expect", "--log", "run.jsonl", *extra]
    if not terminal:
        done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, timeout=120, check=False)
        return done.stdout.decode(), done.stderr
    main, side = pty.openpty()
    try:
        process = subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=side)
        os.close(side)
        drawn = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the other end closed (EIO on Linux)
                break
            if not chunk:
                break
            drawn += chunk
        out = process.stdout.read().decode() if process.stdout else ""
        process.wait(timeout=120)
    finally:
        os.close(main)
    return out, drawn


def test_a_terminal_gets_the_progress_display(tmp_path: Path) -> None:
    """On a terminal, standard error shows the log being scored and the samples read, then erases it;
    the report on standard output is unchanged by it."""
    out, drawn = _score(tmp_path, terminal=True)
    text = drawn.decode("utf-8", "replace")
    assert "scoring run.jsonl" in text
    assert "line 600, 600 samples" in text
    assert "\x1b[" in text  # drawn with cursor movements, and erased at the end
    piped_out, _ = _score(tmp_path, terminal=False)
    assert out == piped_out


def test_a_pipe_never_gets_it(tmp_path: Path) -> None:
    """Standard error that is not a terminal holds no trace of the display."""
    _, err = _score(tmp_path, terminal=False)
    assert err == b""


def test_quiet_draws_nothing_on_a_terminal(tmp_path: Path) -> None:
    """-q keeps the terminal free of the display too."""
    _, drawn = _score(tmp_path, "-q", terminal=True)
    assert b"scoring" not in drawn


def test_with_jobs_the_display_shows_the_work_without_counts(tmp_path: Path) -> None:
    """-j N: the processes read the log, so the display names the work and counts nothing."""
    _, drawn = _score(tmp_path, "-j", "2", terminal=True)
    text = drawn.decode("utf-8", "replace")
    assert "scoring run.jsonl with up to 2 processes" in text
    assert "samples" not in text
