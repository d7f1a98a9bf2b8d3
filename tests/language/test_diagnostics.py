"""Diagnostics of the spec pipeline: golden renderings, formats and exit codes.

Each file in ``tests/cases/diagnostics`` is named ``<CODE>-<slug>`` and has a ``.golden``
file beside it with the exact output of ``toolexpect lint`` (full format, no colour).
Regenerate the goldens on purpose with ``TOOLEXPECT_UPDATE_GOLDEN=1 pytest`` and review
the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.diagnostics import CODES, Severity
from toolexpect.language.layout import MAX_DEPTH
from toolexpect.specfiles import stages as specfile

FIXTURES = Path(__file__).resolve().parents[1] / "cases" / "diagnostics"
UPDATE = os.environ.get("TOOLEXPECT_UPDATE_GOLDEN") == "1"
UNREADABLE = {"P105", "P106", "P107"}


def _fixtures() -> list[Path]:
    return sorted(p for p in FIXTURES.iterdir() if p.suffix != ".golden")


def _lint(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["lint", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


@pytest.mark.parametrize("fixture", _fixtures(), ids=lambda p: p.name)
def test_golden_rendering(
    fixture: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """lint renders the fixture's diagnostic exactly as its golden file says, and exits 1 on an error
    or a warning, 0 on a note alone."""
    monkeypatch.chdir(FIXTURES)
    code, out, _err = _lint(capsys, fixture.name)
    expected_code = fixture.name.split("-", 1)[0]
    golden = fixture.with_name(fixture.name + ".golden")
    if UPDATE:
        golden.write_text(out, encoding="utf-8")
    assert golden.exists(), f"no golden file for {fixture.name}; run with TOOLEXPECT_UPDATE_GOLDEN=1"
    assert out == golden.read_text(encoding="utf-8")
    assert f"[{expected_code}]" in out.splitlines()[0]
    notes_only = CODES[expected_code].severity is Severity.NOTE
    assert code == (2 if expected_code in UNREADABLE else 0 if notes_only else 1)


def test_every_golden_has_its_fixture() -> None:
    """No golden file is left behind without the spec it renders."""
    for golden in FIXTURES.glob("*.golden"):
        assert os.path.lexists(golden.with_suffix("")), golden.name


def test_every_spec_code_has_a_fixture() -> None:
    """Each P, V and L code of the code table has at least one golden fixture."""
    covered = {p.name.split("-", 1)[0] for p in _fixtures()}
    wanted = {code for code in CODES if code[0] in "PVL"}
    assert wanted - covered == set()


def test_fixture_names_use_known_codes() -> None:
    """Fixture names start with a code of the table."""
    for fixture in _fixtures():
        assert fixture.name.split("-", 1)[0] in CODES, fixture.name


def test_nesting_fixture_is_just_over_the_limit() -> None:
    """The nesting fixture nests one level deeper than MAX_DEPTH, and MAX_DEPTH levels parse."""
    text = (FIXTURES / "P104-nesting-too-deep.expect").read_text(encoding="utf-8")
    assert text.count("[") == MAX_DEPTH + 1
    ok = "expect t(x=" + "[" * MAX_DEPTH + "]" * MAX_DEPTH + ")\n"
    assert specfile.parse_spec_source(ok).ok


def test_file_over_the_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A spec file larger than MAX_SPEC_BYTES is not read: P105 and exit code 2."""
    big = tmp_path / "big.expect"
    line = "expect t(x=1)\n"
    big.write_text(line * (specfile.MAX_SPEC_BYTES // len(line) + 1), encoding="utf-8")
    assert big.stat().st_size > specfile.MAX_SPEC_BYTES
    code, out, _ = _lint(capsys, "--format", "concise", str(big))
    assert code == 2
    assert out.strip() == (
        f"{big}: P105 spec file is {big.stat().st_size:,} bytes; the limit is {specfile.MAX_SPEC_BYTES:,}"
    )


def test_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    """A spec of exactly MAX_SPEC_BYTES is read and linted."""
    spec = tmp_path / "edge.expect"
    head = "expect t(x=1)\n# "
    spec.write_text(head + "x" * (specfile.MAX_SPEC_BYTES - len(head) - 1) + "\n", encoding="utf-8")
    assert spec.stat().st_size == specfile.MAX_SPEC_BYTES
    assert [d.code for d in specfile.load_spec_file(spec).diagnostics] == []


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path that does not exist is unreadable input: P107 and exit code 2."""
    code, out, _ = _lint(capsys, "--format", "concise", str(tmp_path / "nope.expect"))
    assert code == 2
    assert "P107" in out


def test_clean_file_exits_0_saying_what_was_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A clean spec lints with exit code 0, nothing on stdout, and what was checked on stderr."""
    spec = tmp_path / "ok.expect"
    spec.write_text("expect t(x=1)\n", encoding="utf-8")
    assert _lint(capsys, str(spec)) == (0, "", "1 file, no findings\n")


def test_warning_only_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning is a finding: lint exits 1."""
    monkeypatch.chdir(FIXTURES)
    code, out, _ = _lint(capsys, "--format", "concise", "L306-duplicate-requirement.expect")
    assert code == 1
    assert (
        out
        == "L306-duplicate-requirement.expect:3:1: L306 require order is written twice (first at line 2)\n"
    )


def test_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown --format value is a usage error with exit code 2."""
    code, _out, err = _lint(capsys, "--format", "xml", "x.expect")
    assert code == 2
    assert "invalid choice" in err


def test_concise_format(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """concise prints path:line:col: CODE message, one line per diagnostic."""
    monkeypatch.chdir(FIXTURES)
    code, out, _ = _lint(
        capsys, "--format", "concise", "P102-end-of-input-no-newline.expect", "L301-duplicate-argument.expect"
    )
    assert code == 1
    assert out.splitlines() == [
        'P102-end-of-input-no-newline.expect:1:33: P102 expected ")" or "," before end of input',
        'L301-duplicate-argument.expect:1:45: L301 argument "city" is given twice in this call to '
        "get_weather (first at line 1, column 20)",
    ]


def test_github_format(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """github prints workflow commands with file, line, col, endColumn and title."""
    monkeypatch.chdir(FIXTURES)
    code, out, _ = _lint(
        capsys, "--format", "github", "V206-empty-in.expect", "L306-duplicate-requirement.expect"
    )
    assert code == 1
    assert out.splitlines() == [
        "::error file=V206-empty-in.expect,line=1,col=20,endColumn=30,title=V206 empty-choice-list::"
        "the list after in is empty, so no value can match. Help: list at least one value, or use name=any",
        "::warning file=L306-duplicate-requirement.expect,line=3,col=1,endColumn=14,"
        "title=L306 duplicate-requirement::require order is written twice (first at line 2). "
        "Help: remove the repeated requirement",
    ]


def test_json_format(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """json prints a list of objects with path, line, column, code, severity and message."""
    monkeypatch.chdir(FIXTURES)
    code, out, _ = _lint(
        capsys, "--format", "json", "V201-unknown-top-level-key.expect.json", "P107-dangling-link.expect"
    )
    assert code == 2
    found = json.loads(out)
    assert isinstance(found, list)
    assert [(d["path"], d["line"], d["column"], d["code"], d["severity"]) for d in found] == [
        ("V201-unknown-top-level-key.expect.json", 5, 3, "V201", "error"),
        ("P107-dangling-link.expect", None, None, "P107", "error"),
    ]
    assert found[0]["message"] == 'unknown key "extra" in the document'
    assert found[0]["name"] == "unknown-key"


def test_json_format_on_clean_input_is_an_empty_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """json prints [] when there is nothing to report, so tools can always parse the output."""
    spec = tmp_path / "ok.expect"
    spec.write_text("expect t\n", encoding="utf-8")
    code, out, _ = _lint(capsys, "--format", "json", str(spec))
    assert (code, json.loads(out)) == (0, [])


def test_colour_only_when_forced(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """FORCE_COLOR adds ANSI codes to the full format; NO_COLOR wins over it."""
    monkeypatch.chdir(FIXTURES)
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, coloured, _ = _lint(capsys, "V206-empty-in.expect")
    assert "\x1b[" in coloured
    monkeypatch.setenv("NO_COLOR", "")
    _, plain, _ = _lint(capsys, "V206-empty-in.expect")
    assert "\x1b[" not in plain


def test_diagnostics_from_several_files_are_summed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full format ends with one summary line counting errors, warnings and files."""
    monkeypatch.chdir(FIXTURES)
    code, out, _ = _lint(capsys, "V206-empty-in.expect", "L306-duplicate-requirement.expect")
    assert code == 1
    assert out.endswith("\nFound 1 error and 1 warning in 2 files.\n")
