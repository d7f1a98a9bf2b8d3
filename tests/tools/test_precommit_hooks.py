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
    """One try-repo run (it builds the hook environment afresh each time): the format hook
    rewrites the ugly files, keeping CRLF where a file has it, leaves the tidy CRLF file alone
    and says why it cannot rewrite the invalid file; the lint hook reports the invalid file at
    its position and nothing else."""
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

    run = _try_repo(repo, tmp_path / "home")
    report = run.stdout + run.stderr
    assert run.returncode == 1, report
    format_part, lint_part = report.split("toolexpect lint", 1)
    assert "toolexpect format" in format_part
    assert "files were modified by this hook" in format_part
    assert "error[P102]" in format_part and "invalid.expect" in format_part
    findings = [line for line in lint_part.splitlines() if ".expect:" in line]
    assert findings == ['specs/invalid.expect:1:33: P102 expected ")" or "," before end of input']
    assert (repo / "specs/ugly.expect").read_bytes() == TIDY.encode()
    assert (repo / "specs/windows-ugly.expect").read_bytes() == TIDY.replace("\n", "\r\n").encode()
    assert (repo / "specs/windows.expect").read_bytes() == files["specs/windows.expect"]
    assert (repo / "specs/invalid.expect").read_bytes() == INVALID.encode()
