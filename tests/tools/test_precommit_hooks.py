"""The pre-commit hooks, run by the real pre-commit: the repository's manifest through
``pre-commit try-repo`` (both hooks, one run, as building a hook environment is what costs), and
the same commands as local hooks until they pass."""

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
EMPTY_IN = "expect get_weather(unit in [])\n"


def _repo(path: Path, files: dict[str, bytes]) -> Path:
    """A new git repository holding ``files``, all of them added (pre-commit skips the rest)."""
    path.mkdir()
    _git(path, "init", "-q")
    for name, data in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    _git(path, "add", "-A")
    return path


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "NO_COLOR": "1",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    return subprocess.run(
        [str(BIN / "pre-commit"), *args, "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_manifest_declares_both_hooks() -> None:
    """The manifest offers toolexpect-lint and toolexpect-format as python hooks matched by extension."""
    import yaml

    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = {h["id"]: h for h in yaml.safe_load(manifest)}
    assert set(hooks) == {"toolexpect-lint", "toolexpect-format"}
    assert hooks["toolexpect-lint"]["entry"] == "toolexpect lint --format concise"
    assert hooks["toolexpect-format"]["entry"] == "toolexpect format"
    assert {h["language"] for h in hooks.values()} == {"python"}
    assert hooks["toolexpect-lint"]["files"] == r"\.expect(\.json|\.ya?ml)?$"
    assert hooks["toolexpect-format"]["files"] == r"\.expect$"


def test_both_hooks_of_the_manifest_on_ugly_invalid_windows_and_good_files(tmp_path: Path) -> None:
    """One try-repo run of every hook of this repository's manifest (it builds the hook
    environment afresh each time): the format hook rewrites the ugly files, keeping CRLF where a
    file has it, leaves the tidy files alone and says why it cannot rewrite the invalid one; the
    lint hook reports each broken spec at its position and nothing else (not the good specs,
    not a text file holding spec text)."""
    files = {
        "specs/ugly.expect": UGLY.encode(),
        "specs/invalid.expect": INVALID.encode(),
        "specs/empty-in.expect": EMPTY_IN.encode(),
        "specs/good.expect": TIDY.encode(),
        "specs/windows.expect": TIDY.replace("\n", "\r\n").encode(),
        "specs/windows-ugly.expect": UGLY.replace("\n", "\r\n").encode(),
        "notes.txt": EMPTY_IN.encode(),
    }
    repo = _repo(tmp_path / "repo", files)

    run = _pre_commit(repo, tmp_path / "home", "try-repo", str(ROOT), "--all-files")
    report = run.stdout + run.stderr
    assert run.returncode == 1, report
    format_part, lint_part = report.split("toolexpect lint", 1)
    assert "toolexpect format" in format_part
    assert "files were modified by this hook" in format_part
    assert "error[P102]" in format_part and "invalid.expect" in format_part
    findings = sorted(line for line in lint_part.splitlines() if ":1:" in line)
    assert findings == [
        "specs/empty-in.expect:1:20: V206 the list after in is empty, so no value can match",
        'specs/invalid.expect:1:33: P102 expected ")" or "," before end of input',
    ]
    assert (repo / "specs/ugly.expect").read_bytes() == TIDY.encode()
    assert (repo / "specs/windows-ugly.expect").read_bytes() == TIDY.replace("\n", "\r\n").encode()
    for unchanged in ("specs/invalid.expect", "specs/good.expect", "specs/windows.expect", "notes.txt"):
        assert (repo / unchanged).read_bytes() == files[unchanged], unchanged


def test_local_hooks_lint_and_format_until_they_pass(tmp_path: Path) -> None:
    """The manifest's commands as local system hooks: format rewrites and fails, lint reports a
    YAML spec; once fixed, both pass and print nothing."""
    config = (
        "repos:\n"
        "- repo: local\n"
        "  hooks:\n"
        "  - id: toolexpect-format\n"
        "    name: toolexpect format\n"
        f"    entry: {BIN / 'toolexpect'} format\n"
        "    language: system\n"
        "    files: \\.expect$\n"
        "  - id: toolexpect-lint\n"
        "    name: toolexpect lint\n"
        f"    entry: {BIN / 'toolexpect'} lint --format concise\n"
        "    language: system\n"
        "    files: \\.expect(\\.json|\\.ya?ml)?$\n"
    )
    repo = _repo(
        tmp_path / "r",
        {
            ".pre-commit-config.yaml": config.encode(),
            "a.expect": UGLY.encode(),
            "b.expect.yaml": b"cases: [{name: x}]\n",
        },
    )
    home = tmp_path / "home"
    first = _pre_commit(repo, home, "run", "--all-files")
    assert first.returncode == 1
    assert "files were modified by this hook" in first.stdout
    assert "b.expect.yaml:1:9: L303" in first.stdout
    assert (repo / "a.expect").read_text(encoding="utf-8") == TIDY
    (repo / "b.expect.yaml").write_text("cases: [{name: x, forbid: [{tool: t}]}]\n", encoding="utf-8")
    _git(repo, "add", "-A")
    second = _pre_commit(repo, home, "run", "--all-files")
    assert second.returncode == 0, second.stdout
    assert "toolexpect lint" in second.stdout and "Passed" in second.stdout
    assert "- hook id" not in second.stdout
