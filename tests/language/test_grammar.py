"""The grammar: conflict-free in strict mode, found from a checkout and from a wheel."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from toolexpect import _grammar

ROOT = Path(__file__).resolve().parents[2]


def _run(*command: str | Path, **kwargs: object) -> str:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, done.stderr
    return str(done.stdout)


def test_grammar_builds_in_strict_mode() -> None:
    """The LALR grammar has no conflicts and no terminal collisions."""
    parser = _grammar.build(strict=True)
    assert parser.parse("expect t(x=1)\n") is not None


def test_editable_install_reads_the_repository_grammar() -> None:
    """From a checkout or an editable install the grammar is the repository's grammar/ copy."""
    assert _grammar.grammar_path() == ROOT / "grammar" / "toolexpect.lark"
    assert _grammar.grammar_text().startswith("// toolexpect.lark")


def test_wheel_carries_and_finds_its_grammar(tmp_path: Path) -> None:
    """A wheel installed into a fresh environment parses specs with its packaged grammar."""
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, ROOT)
    (wheel,) = dist.glob("toolexpect-*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    _run(sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", site, wheel)
    # The dependencies (lark, jsonschema, ...) come from this environment, without a network.
    (Path(site) / "toolexpect-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    script = (
        "import toolexpect, sys\n"
        "from toolexpect import _grammar\n"
        "from toolexpect.specfile import parse_spec_source\n"
        "r = parse_spec_source('expect get_weather(city=\"Berlin\") then send(to=any)\\n')\n"
        "assert r.ok and r.spec is not None, r.diagnostics\n"
        "print(toolexpect.__file__)\n"
        "print(_grammar.grammar_path())\n"
    )
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    environment["TOOLEXPECT_NO_CACHE"] = "1"
    output = _run(python, "-c", script, cwd=tmp_path, env=environment)
    package, grammar = (Path(line) for line in output.splitlines())
    assert package.is_relative_to(site), package
    assert grammar == Path(site) / "toolexpect" / "grammar" / "toolexpect.lark"
    assert grammar.read_text(encoding="utf-8") == _grammar.grammar_text()


def test_the_parser_cache_is_keyed_by_grammar_and_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change of the grammar text or of how the parser is built gives another cache file."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TOOLEXPECT_NO_CACHE", raising=False)
    text = _grammar.grammar_text()
    first = _grammar.cache_path(text)
    assert first is not None
    assert first.startswith(str(tmp_path / "toolexpect"))
    assert _grammar.cache_path(text) == first
    assert _grammar.cache_path(text + "\n// changed\n") != first
    monkeypatch.setattr(_grammar, "_BUILD_OPTIONS", _grammar._BUILD_OPTIONS + " other")
    assert _grammar.cache_path(text) != first
    monkeypatch.setenv("TOOLEXPECT_NO_CACHE", "1")
    assert _grammar.cache_path(text) is None
