"""The spec cache: a spec file read before is not parsed again, and nothing about the cache
ever changes a result (docs/cli.md, "The cache")."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main
from toolexpect.specfiles import cache, stages
from toolexpect.specfiles.stages import SpecFile, load_spec_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    p
    for folder in (ROOT / "specs", ROOT / "tests" / "cases")
    for p in folder.rglob("*")
    if p.is_file() and p.name.lower().endswith(stages.SPEC_SUFFIXES)
)

GOOD = 'case "weather" {\n    expect get_weather(city="Berlin")  # the city\n}\n'
LINTED = (
    'case "weather" {\n    expect get_weather(city ~ "(?<=x)y")\n'
    '    expect get_weather(city ~ "(?<=x)y")\n}\n'
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty cache folder for the test."""
    where = tmp_path / "cache"
    monkeypatch.setenv("TOOLEXPECT_CACHE_DIR", str(where))
    monkeypatch.delenv("TOOLEXPECT_NO_CACHE", raising=False)
    return where


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the pipeline parses from now on (a load the cache answers parses none)."""
    seen: list[str] = []
    real = stages.parse_spec_source

    def counting(text: str, *args: Any, **options: Any) -> SpecFile:
        seen.append(text)
        return real(text, *args, **options)

    monkeypatch.setattr(stages, "parse_spec_source", counting)
    return seen


def _entries(folder: Path) -> list[Path]:
    specs = folder / "specs"
    return sorted(p for p in specs.rglob("*") if p.is_file()) if specs.exists() else []


def _same(one: SpecFile, other: SpecFile) -> None:
    """Two loads of a spec file agree on everything a command reads of them."""
    assert (one.path, one.kind, one.text) == (other.path, other.kind, other.text)
    assert one.document == other.document
    assert one.diagnostics == other.diagnostics
    assert (one.comments, one.repeats, one.modelled, one.ok) == (
        other.comments,
        other.repeats,
        other.modelled,
        other.ok,
    )
    assert one.spec == other.spec
    assert one.formatted(100) == other.formatted(100)


def test_a_second_load_reads_the_cache_and_parses_nothing(
    tmp_path: Path, folder: Path, parses: list[str]
) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    first = load_spec_file(spec)
    assert parses == [GOOD]
    assert len(_entries(folder)) == 1
    second = load_spec_file(spec)
    assert parses == [GOOD]
    _same(first, second)
    assert second.ok and second.spec is not None and second.comments


def test_a_changed_byte_or_name_misses(tmp_path: Path, folder: Path, parses: list[str]) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    load_spec_file(spec)
    changed = GOOD.replace("Berlin", "Berlim")
    spec.write_text(changed, encoding="utf-8")
    assert load_spec_file(spec).text == changed
    assert parses == [GOOD, changed]
    # The same bytes under another stem name another implicit case: another entry.
    plain = 'expect get_weather(city="Berlin")\n'
    (tmp_path / "a.expect").write_text(plain, encoding="utf-8")
    (tmp_path / "b.expect").write_text(plain, encoding="utf-8")
    a, b = load_spec_file(tmp_path / "a.expect"), load_spec_file(tmp_path / "b.expect")
    assert parses[2:] == [plain, plain]
    assert [c["name"] for c in a.document["cases"]] == ["a"]  # type: ignore[index]
    assert [c["name"] for c in b.document["cases"]] == ["b"]  # type: ignore[index]


@pytest.mark.parametrize(
    "change",
    ["toolexpect version", "a dependency", "python", "grammar", "schema", "source", "format"],
)
def test_a_changed_version_key_misses(
    tmp_path: Path, folder: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    load_spec_file(spec)
    load_spec_file(spec)
    assert len(parses) == 1
    if change == "toolexpect version":
        monkeypatch.setattr(cache, "__version__", "99.0")
    elif change == "a dependency":  # lark, RE2, PyYAML, the validators
        monkeypatch.setattr(cache, "_dependencies", lambda: b"lark /elsewhere/lark/__init__.py 1 2")
    elif change == "python":
        monkeypatch.setattr(cache, "sys", types.SimpleNamespace(version="4.0.0"))
    elif change == "format":
        monkeypatch.setattr(cache, "FORMAT", cache.FORMAT + 1)
    else:
        real = Path.read_bytes
        target = {"grammar": "toolexpect.lark", "schema": "spec.schema.json"}.get(change)

        def read_bytes(self: Path) -> bytes:
            return real(self) + (b" " if self.name == target else b"")

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
        if change == "source":
            real_sources = cache._sources
            monkeypatch.setattr(cache, "_sources", lambda *given: [*real_sources(*given), "lint.py 1 2"])
    cache.environment_digest.cache_clear()
    try:
        load_spec_file(spec)
        assert len(parses) == 2
        load_spec_file(spec)
        assert len(parses) == 2
    finally:
        monkeypatch.undo()
        cache.environment_digest.cache_clear()


def test_the_same_bytes_at_another_path_report_at_that_path(
    tmp_path: Path, folder: Path, parses: list[str]
) -> None:
    first = tmp_path / "one" / "weather.expect"
    second = tmp_path / "two" / "weather.expect"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(LINTED, encoding="utf-8")
    one = load_spec_file(first)
    two = load_spec_file(second)
    assert len(parses) == 1
    assert one.diagnostics and {d.path for d in one.diagnostics} == {str(first)}
    assert {d.path for d in two.diagnostics} == {str(second)}
    assert [d.with_path("x") for d in one.diagnostics] == [d.with_path("x") for d in two.diagnostics]
    assert two.spec is None or two.spec.path == str(second)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_results_are_the_same_with_and_without_the_cache(
    path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = load_spec_file(path)
    warm = load_spec_file(path)
    monkeypatch.setenv("TOOLEXPECT_NO_CACHE", "1")
    uncached = load_spec_file(path)
    _same(cold, uncached)
    _same(warm, uncached)


def test_lint_output_is_the_same_with_and_without_the_cache(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(p) for p in EXAMPLES]
    outputs = []
    for extra in (["--no-cache"], [], [], ["--no-cache"]):
        code = main(["lint", "--format", "json", *paths, *extra])
        outputs.append((code, capsys.readouterr()))
    assert len({(code, out.out, out.err) for code, out in outputs}) == 1
    assert '"code"' in outputs[0][1].out


def test_score_output_is_the_same_with_and_without_the_cache(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = [str(p) for p in sorted((ROOT / "specs").glob("*.expect"))]
    log = str(ROOT / "specs" / "logs" / "run.jsonl")
    outputs = []
    for extra in (["--no-cache"], [], []):
        code = main(["score", *specs, "--log", log, "--format", "json", *extra])
        outputs.append((code, capsys.readouterr().out))
    assert len(set(outputs)) == 1
    assert '"cases"' in outputs[0][1]


def _run(*args: str, cache_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "TOOLEXPECT_NO_CACHE"}
    environment.update(TOOLEXPECT_CACHE_DIR=str(cache_dir), **env)
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *args],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        cwd=ROOT,
    )


_SNAPSHOT_OUT = "specs/weather.expect"
"""snapshot --update reads the spec it would rewrite (and writes nothing without --force)."""


@pytest.mark.parametrize(
    "how",
    [
        (["lint", "specs/weather.expect", "--no-cache"], {}),
        (["compile", "specs/weather.expect", "--no-cache"], {}),
        (["format", "--check", "specs/weather.expect", "--no-cache"], {}),
        (["score", "specs/weather.expect", "--log", "specs/logs/run.jsonl", "--no-cache"], {}),
        (["snapshot", "specs/logs/run.jsonl", "--update", "--out", _SNAPSHOT_OUT, "--no-cache"], {}),
        (["lint", "specs/weather.expect"], {"TOOLEXPECT_NO_CACHE": "1"}),
    ],
    ids=["lint", "compile", "format", "score", "snapshot", "TOOLEXPECT_NO_CACHE=1"],
)
def test_no_cache_reads_and_writes_nothing(tmp_path: Path, how: tuple[list[str], dict[str, str]]) -> None:
    args, env = how
    where = tmp_path / "cache"
    before = (ROOT / _SNAPSHOT_OUT).read_bytes()
    done = _run(*args, cache_dir=where, **env)
    assert done.returncode in (0, 1), done.stderr
    assert not where.exists()  # not even the folder: neither the parser nor a spec was kept
    plain = _run(*(a for a in args if a != "--no-cache"), cache_dir=where)
    assert (plain.returncode, plain.stdout) == (done.returncode, done.stdout)
    assert _entries(where)  # without the flag, the spec was kept
    assert (ROOT / _SNAPSHOT_OUT).read_bytes() == before


def test_no_cache_ignores_what_the_cache_holds(tmp_path: Path, folder: Path, parses: list[str]) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    load_spec_file(spec)
    assert main(["lint", "-q", str(spec), "--no-cache"]) == 0
    assert len(parses) == 2
    assert "TOOLEXPECT_NO_CACHE" not in os.environ  # only for the command
    assert main(["lint", "-q", str(spec)]) == 0
    assert len(parses) == 2


_WRITER = """
import sys
from toolexpect.specfiles.stages import load_spec_file
for path in sys.argv[1:]:
    assert load_spec_file(path).ok or True
"""


def test_concurrent_writers_leave_a_readable_cache(tmp_path: Path, folder: Path, parses: list[str]) -> None:
    specs = []
    for index in range(12):
        path = tmp_path / f"spec{index}.expect"
        path.write_text(GOOD.replace("Berlin", f"City {index}"), encoding="utf-8")
        specs.append(str(path))
    environment = {**os.environ, "TOOLEXPECT_CACHE_DIR": str(folder)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, *(specs[n:] + specs[:n])],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for n in range(0, 12, 2)
    ]
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0, errors.decode()
    entries = _entries(folder)
    assert len(entries) == len(specs)
    assert not [p for p in entries if p.name.endswith(".tmp")]
    uncached = [stages.parse_spec_source(Path(p).read_text(), name=Path(p).stem) for p in specs]
    parses.clear()
    for path, expected in zip(specs, uncached, strict=True):
        assert load_spec_file(path).document == expected.document
    assert parses == []


def _entry_of(spec: Path, folder: Path) -> Path:
    (entry,) = _entries(folder)
    return entry


@pytest.mark.parametrize(
    "damage",
    ["truncated", "garbage", "empty", "flipped byte", "another key", "foreign entry", "wrong shape"],
)
def test_a_damaged_entry_is_ignored_and_rewritten(
    tmp_path: Path, folder: Path, parses: list[str], damage: str
) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(LINTED, encoding="utf-8")
    expected = load_spec_file(spec)
    entry = _entry_of(spec, folder)
    good = entry.read_bytes()
    head = len(cache.MAGIC) + 32 + 16
    if damage == "truncated":
        bad = good[: len(good) // 2]
    elif damage == "garbage":
        bad = b"not an entry at all"
    elif damage == "empty":
        bad = b""
    elif damage == "flipped byte":
        bad = good[:-3] + bytes([good[-3] ^ 1]) + good[-2:]
    elif damage == "another key":
        bad = cache.MAGIC + bytes(32) + good[len(cache.MAGIC) + 32 :]
    else:
        other = tmp_path / "other.expect"
        other.write_text(GOOD, encoding="utf-8")
        load_spec_file(other)
        if damage == "foreign entry":  # another spec's whole entry under this one's name
            (foreign,) = [p for p in _entries(folder) if p != entry]
            bad = foreign.read_bytes()
        else:  # a whole, well-digested entry that holds something else
            payload = pickle.dumps({"document": None}, protocol=5)
            key = good[len(cache.MAGIC) : len(cache.MAGIC) + 32]
            bad = cache.MAGIC + key + hashlib.blake2b(payload, digest_size=16).digest() + payload
        assert len(bad) > head
    entry.write_bytes(bad)
    parses.clear()
    again = load_spec_file(spec)
    _same(expected, again)
    assert parses == [LINTED]  # ignored: parsed again ...
    assert entry.read_bytes() == good  # ... and written afresh
    load_spec_file(spec)
    assert parses == [LINTED]


class _Planted:
    """What an attacker would plant: unpickling it would make a folder."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


def test_a_planted_pickle_runs_nothing(tmp_path: Path, folder: Path, parses: list[str]) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    expected = load_spec_file(spec)
    entry = _entry_of(spec, folder)
    marker = tmp_path / "planted"
    payload = pickle.dumps(_Planted(marker), protocol=5)
    pickle.loads(payload)  # what an unrestricted unpickler would do
    assert marker.is_dir()
    marker.rmdir()
    key = entry.read_bytes()[len(cache.MAGIC) : len(cache.MAGIC) + 32]
    entry.write_bytes(cache.MAGIC + key + hashlib.blake2b(payload, digest_size=16).digest() + payload)
    parses.clear()
    again = load_spec_file(spec)
    assert not marker.exists()
    assert parses == [GOOD]
    _same(expected, again)
    with pytest.raises(pickle.UnpicklingError, match=r"holds no posix\.mkdir"):
        cache._Unpickler(io.BytesIO(payload)).load()
    for function in (eval, exec, getattr, __import__, os.system, subprocess.run, stages.load_spec_file):
        with pytest.raises(pickle.UnpicklingError, match="the spec cache holds no"):
            cache._Unpickler(io.BytesIO(pickle.dumps(function))).load()


def test_an_unwritable_cache_folder_changes_nothing(tmp_path: Path, folder: Path, parses: list[str]) -> None:
    folder.parent.mkdir(exist_ok=True)
    folder.write_text("a file where the folder should be", encoding="utf-8")
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    first, second = load_spec_file(spec), load_spec_file(spec)
    _same(first, second)
    assert parses == [GOOD, GOOD]


def test_the_folder_is_pruned_past_its_bound(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    monkeypatch.setattr(cache, "_PRUNED", set())
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    load_spec_file(spec)
    (entry,) = _entries(folder)
    for index in range(6):
        shutil.copyfile(entry, entry.with_name(f"{index:064x}"))
        os.utime(entry.with_name(f"{index:064x}"), (1_000_000 + index, 1_000_000 + index))
    stale = entry.parent.parent / "0000000000000000"
    stale.mkdir()
    (stale / "old").write_bytes(b"x")
    os.utime(stale, (1_000_000, 1_000_000))
    monkeypatch.setattr(cache, "_PRUNED", set())
    spec.write_text(GOOD.replace("Berlin", "Paris"), encoding="utf-8")
    load_spec_file(spec)
    assert len(_entries(folder)) <= 4
    assert entry.exists()  # the newest stay
    assert not stale.exists()


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The spec files checked against a catalogue from now on (the cache answers the others)."""
    import toolexpect.toolcheck

    seen: list[str | None] = []
    real = toolexpect.toolcheck.check_spec_file

    def counting(loaded: SpecFile, catalogue: Any) -> list[Any]:
        seen.append(loaded.path)
        return real(loaded, catalogue)

    monkeypatch.setattr(toolexpect.toolcheck, "check_spec_file", counting)
    return seen


def _lint_tools(paths: list[str], tools: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code = main(["lint", "--format", "json", "--tools", str(tools), *paths, *extra])
    assert code in (0, 1)
    return capsys.readouterr().out


def test_lint_tools_reads_the_cache_and_a_changed_catalogue_misses(
    tmp_path: Path, folder: Path, checks: list[str | None], capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(
        'case "weather" {\n    expect get_weather(city="Berlin", unit="kelvin")\n'
        "    expect get_wether()\n}\n",
        encoding="utf-8",
    )
    tools = tmp_path / "tools.json"
    shutil.copyfile(ROOT / "specs" / "tools.json", tools)
    uncached = _lint_tools([str(spec)], tools, capsys, "--no-cache")
    assert checks == [str(spec)]
    assert '"T500"' in uncached  # get_wether is not in the catalogue
    cold = _lint_tools([str(spec)], tools, capsys)
    warm = _lint_tools([str(spec)], tools, capsys)
    assert checks == [str(spec), str(spec)]  # the warm run checked nothing
    assert uncached == cold == warm
    # Another catalogue (one changed description) is another key.
    changed = tools.read_text(encoding="utf-8").replace("Current weather", "Weather")
    tools.write_text(changed, encoding="utf-8")
    assert _lint_tools([str(spec)], tools, capsys) == uncached
    assert len(checks) == 3
    # The same bytes at another path: the catalogue's findings are placed there.
    other = tmp_path / "elsewhere" / "weather.expect"
    other.parent.mkdir()
    shutil.copyfile(spec, other)
    moved = _lint_tools([str(other)], tools, capsys)
    assert len(checks) == 3
    assert moved == uncached.replace(str(spec), str(other))
    assert str(spec) not in moved


@pytest.mark.parametrize("path", sorted((ROOT / "specs").glob("*.expect")), ids=lambda p: p.name)
def test_lint_tools_is_the_same_with_and_without_the_cache(
    path: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = ROOT / "specs" / "tools.json"
    runs = [_lint_tools([str(path)], tools, capsys, *extra) for extra in (("--no-cache",), (), ())]
    assert runs[0] == runs[1] == runs[2]


def test_parse_spec_of_the_same_text_reads_the_cache(folder: Path, parses: list[str]) -> None:
    from toolexpect import SpecError, parse_spec

    first = parse_spec(GOOD)
    second = parse_spec(GOOD)
    assert parses == [GOOD]
    assert first == second and first.path is None
    parse_spec(GOOD, name="other")  # another implicit case's name: another entry
    assert len(parses) == 2
    broken = 'expect get_weather(city="Berlin"\n'
    for _ in range(2):
        with pytest.raises(SpecError) as raised:
            parse_spec(broken)
        assert [d.code for d in raised.value.diagnostics] == ["P102"]
        assert {d.path for d in raised.value.diagnostics} == {None}
    assert parses[2:] == [broken]


def test_a_cache_folder_removed_while_running_is_made_again(
    tmp_path: Path, folder: Path, parses: list[str]
) -> None:
    spec = tmp_path / "weather.expect"
    spec.write_text(GOOD, encoding="utf-8")
    load_spec_file(spec)
    shutil.rmtree(folder)
    for _ in range(3):  # a miss, a miss that keeps the entry, a hit
        load_spec_file(spec)
    assert len(parses) == 3
    assert len(_entries(folder)) == 1
