"""The pre-commit hooks, run by the real pre-commit tool against a temporary repository."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PRE_COMMIT = str(BIN / "pre-commit")
GOOD = 'case "ok" {\n    expect get_weather(city="Berlin")\n}\n'
BAD = "expect get_weather(unit in [])\n"
UNFORMATTED = 'case "ok" {\n  expect   get_weather( city = "Berlin" )\n}\n'


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One PRE_COMMIT_HOME for the module, so the hook environment is built once."""
    yield tmp_path_factory.mktemp("pre-commit-home")


def _repo(path: Path, files: dict[str, str]) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=path, check=True)
    return path


def _pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.update(
        PRE_COMMIT_HOME=str(home),
        NO_COLOR="1",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    return subprocess.run(
        [PRE_COMMIT, *args, "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_manifest_declares_both_hooks() -> None:
    """The manifest offers toolexpect-lint and toolexpect-format as python hooks matched by extension."""
    import yaml

    hooks = {
        h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    }
    assert set(hooks) == {"toolexpect-lint", "toolexpect-format"}
    assert hooks["toolexpect-lint"]["entry"] == "toolexpect lint --format concise"
    assert hooks["toolexpect-format"]["entry"] == "toolexpect format"
    assert {h["language"] for h in hooks.values()} == {"python"}
    assert hooks["toolexpect-lint"]["files"] == r"\.expect(\.json|\.ya?ml)?$"


def test_try_repo_lint_fails_on_a_bad_spec_and_passes_on_good_ones(tmp_path: Path, home: Path) -> None:
    """pre-commit try-repo with toolexpect-lint fails showing the diagnostic, then passes once fixed."""
    repo = _repo(tmp_path / "r", {"specs/bad.expect": BAD, "specs/good.expect": GOOD, "notes.txt": BAD})
    failed = _pre_commit(repo, home, "try-repo", str(ROOT), "toolexpect-lint", "--all-files")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "specs/bad.expect:1:20: V206 the list after in is empty" in failed.stdout
    assert "good.expect" not in failed.stdout.split("Failed", 1)[1]
    (repo / "specs" / "bad.expect").write_text(GOOD, encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    passed = _pre_commit(repo, home, "try-repo", str(ROOT), "toolexpect-lint", "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "toolexpect lint" in passed.stdout and "Passed" in passed.stdout


def test_local_hooks_lint_and_format(tmp_path: Path, home: Path) -> None:
    """The same commands as a local system hook: format rewrites and fails, then both pass."""
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
        {".pre-commit-config.yaml": config, "a.expect": UNFORMATTED, "b.expect.yaml": "cases: [{name: x}]\n"},
    )
    first = _pre_commit(repo, home, "run", "--all-files")
    assert first.returncode == 1
    assert "files were modified by this hook" in first.stdout
    assert "b.expect.yaml:1:9: L303" in first.stdout
    assert (repo / "a.expect").read_text(encoding="utf-8") == GOOD
    (repo / "b.expect.yaml").write_text("cases: [{name: x, forbid: [{tool: t}]}]\n", encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    second = _pre_commit(repo, home, "run", "--all-files")
    assert second.returncode == 0, second.stdout
    assert "- hook id" not in second.stdout
