"""Both pre-commit hooks of the repository, run by the real pre-commit on a temporary repository:
a badly formatted file, an invalid file and a file with Windows line endings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

TIDY = 'case "ok" {\n    expect get_weather(city="Berlin")\n}\n'
UGLY = 'case "ok" {\n  expect   get_weather( city = "Berlin" )\n}\n'
INVALID = 'expect get_weather(city="Berlin"\n'
FIXED = 'expect get_weather(city="Berlin")\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _try_repo(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """``pre-commit try-repo`` of this repository, every hook of its manifest, on every file."""
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "NO_COLOR": "1",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    return subprocess.run(
        [str(BIN / "pre-commit"), "try-repo", str(ROOT), "--all-files", "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_both_hooks_on_ugly_invalid_and_windows_files(tmp_path: Path) -> None:
    """The format hook rewrites the ugly file (keeping CRLF where the file has it) and leaves the
    tidy CRLF file alone; both hooks fail on the invalid file with its position; once it is
    fixed, both pass and every CRLF file still has CRLF."""
    repo = tmp_path / "repo"
    (repo / "specs").mkdir(parents=True)
    _git(repo, "init", "-q")
    files = {
        "specs/ugly.expect": UGLY.encode(),
        "specs/invalid.expect": INVALID.encode(),
        "specs/windows.expect": TIDY.replace("\n", "\r\n").encode(),
        "specs/windows-ugly.expect": UGLY.replace("\n", "\r\n").encode(),
    }
    for name, data in files.items():
        (repo / name).write_bytes(data)
    _git(repo, "add", "-A")

    first = _try_repo(repo, tmp_path / "home")
    report = first.stdout + first.stderr
    assert first.returncode == 1, report
    assert "toolexpect format" in report and "toolexpect lint" in report
    assert "files were modified by this hook" in report
    assert "specs/invalid.expect:1:33: P102" in report  # lint, concise
    assert "error[P102]" in report  # format cannot rewrite what does not parse, and says why
    assert (repo / "specs/ugly.expect").read_bytes() == TIDY.encode()
    assert (repo / "specs/windows-ugly.expect").read_bytes() == TIDY.replace("\n", "\r\n").encode()
    assert (repo / "specs/windows.expect").read_bytes() == files["specs/windows.expect"]
    assert (repo / "specs/invalid.expect").read_bytes() == INVALID.encode()

    (repo / "specs/invalid.expect").write_text(FIXED, encoding="utf-8")
    _git(repo, "add", "-A")
    second = _try_repo(repo, tmp_path / "home")
    assert second.returncode == 0, second.stdout + second.stderr
    assert second.stdout.count("Passed") == 2
    assert (repo / "specs/windows.expect").read_bytes() == files["specs/windows.expect"]
    assert (repo / "specs/windows-ugly.expect").read_bytes() == TIDY.replace("\n", "\r\n").encode()
