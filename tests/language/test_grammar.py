"""The grammar: conflict-free in strict mode, found from a checkout and from a wheel, cached
in the user's cache folder under a name that says what the file holds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import lark
import pytest

import toolexpect
from toolexpect.language import grammar as _grammar

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
        "from toolexpect.language import grammar as _grammar\n"
        "from toolexpect.specfiles.stages import parse_spec_source\n"
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
    monkeypatch.delenv("TOOLEXPECT_CACHE_DIR", raising=False)
    text = _grammar.grammar_text()
    first = _grammar.cache_path(text)
    assert first is not None
    assert first.startswith(str(tmp_path / "toolexpect"))
    python = f"{sys.version_info[0]}{sys.version_info[1]}"
    assert f"toolexpect{toolexpect.__version__}-lark{lark.__version__}-py{python}" in first
    assert _grammar.cache_path(text) == first
    assert _grammar.cache_path(text + "\n// changed\n") != first
    monkeypatch.setitem(_grammar._OPTIONS, "propagate_positions", True)
    assert _grammar.cache_path(text) != first
    monkeypatch.setenv("TOOLEXPECT_NO_CACHE", "1")
    assert _grammar.cache_path(text) is None


_PARSE_ONE = (
    "import sys, toolexpect\n"
    "from toolexpect.specfiles.stages import parse_spec_source\n"
    "r = parse_spec_source('expect get_weather(city=\"Berlin\")  # c\\n')\n"
    "assert r.ok and r.spec is not None, r.diagnostics\n"
    "bad = parse_spec_source('expect get_weather(city=\"Berlin\"\\n')\n"
    "assert [d.code for d in bad.diagnostics] == ['P102'], bad.diagnostics\n"
    "print(toolexpect.__file__)\n"
)


def _install_copy(into: Path, stamp: float) -> Path:
    """A copy of the installed package as a wheel lays it out (grammar inside), its files
    dated ``stamp``: another install of the same version."""
    package = Path(toolexpect.__file__).resolve().parent
    target = into / "toolexpect"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "grammar").mkdir(exist_ok=True)
    shutil.copyfile(_grammar.grammar_path(), target / "grammar" / "toolexpect.lark")
    for path in [target, *target.rglob("*")]:
        os.utime(path, (stamp, stamp))
    return target


def _files(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Each file under ``folder`` with its inode, modification time and size."""
    return {
        str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.stat().st_size)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _parse_in(install: Path, cache: Path) -> None:
    left_out = ("PYTHONPATH", "TOOLEXPECT_NO_CACHE", "TOOLEXPECT_CACHE_DIR")
    environment = {k: v for k, v in os.environ.items() if k not in left_out}
    environment.update(PYTHONPATH=str(install.parent), XDG_CACHE_HOME=str(cache), PYTHONDONTWRITEBYTECODE="1")
    output = _run(sys.executable, "-c", _PARSE_ONE, cwd=install.parent.parent, env=environment)
    assert Path(output.strip()).parent == install


def test_two_installs_share_one_cache_without_rewriting_it(tmp_path: Path) -> None:
    """Two installs of the same version (a project venv and pre-commit's, say) read the one cache
    file the first wrote, and neither writes anything inside its package."""
    first = _install_copy(tmp_path / "a" / "site", 1_600_000_000)
    second = _install_copy(tmp_path / "b" / "site", 1_700_000_000)
    packages = {first: _files(first), second: _files(second)}
    cache = tmp_path / "cache"
    _parse_in(first, cache)
    written = _files(cache)
    assert written
    for install in (second, first, second):
        _parse_in(install, cache)
        assert _files(cache) == written
    for install, files in packages.items():
        assert _files(install) == files


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path) -> None:
    """A cache file cut short or overwritten with garbage is replaced by a good one, which the
    next run reads without writing; parsing works throughout."""
    install = _install_copy(tmp_path / "site", 1_600_000_000)
    cache = tmp_path / "cache"
    _parse_in(install, cache)
    (path,) = (cache / "toolexpect").iterdir()
    good = path.read_bytes()
    for damage in (good[: len(good) // 2], b"not a cache", b""):
        path.write_bytes(damage)
        _parse_in(install, cache)
        rebuilt = _files(cache)
        assert path.read_bytes() != damage
        _parse_in(install, cache)
        assert _files(cache) == rebuilt
    assert [p.name for p in (cache / "toolexpect").iterdir()] == [path.name]
