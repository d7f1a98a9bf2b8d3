"""The spec commands of the CLI: lint on folders, format, compile and schema."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from language_support import run_cli

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"

MESSY = (
    "# top\n"
    'case "a" {   # header\n'
    "  expect   t( x = 1 ,y in [1,2,] )  # trailing\n"
    "\n"
    "\n"
    "  # leading\n"
    "  forbid u\n"
    "}\n"
    "# tail\n"
)
TIDY = (
    "# top\n"
    'case "a" {  # header\n'
    "    expect t(x=1, y in [1, 2])  # trailing\n"
    "\n"
    "    # leading\n"
    "    forbid u\n"
    "}\n"
    "\n"
    "# tail\n"
)


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


_run = run_cli


def test_lint_recurses_into_folders_and_reads_only_spec_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder is searched recursively for the spec endings; other files and dot-folders are left out."""
    (tmp_path / "deep" / "deeper").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "a.expect").write_text("expect t(x in [])\n", encoding="utf-8")
    (tmp_path / "deep" / "b.expect.json").write_text('{"cases": [], "x": 1}', encoding="utf-8")
    (tmp_path / "deep" / "deeper" / "c.expect.yml").write_text("cases: 5\n", encoding="utf-8")
    (tmp_path / "deep" / "deeper" / "d.EXPECT.YAML").write_text(
        "cases: [{name: d, expect: [{tool: t}]}]\n", encoding="utf-8"
    )
    (tmp_path / "notes.txt").write_text("expect (((\n", encoding="utf-8")
    (tmp_path / "x.expect.bak").write_text("expect (((\n", encoding="utf-8")
    (tmp_path / ".hidden" / "e.expect").write_text("expect (((\n", encoding="utf-8")
    code, out, _ = _run(capsys, "lint", "--format", "concise", str(tmp_path))
    assert code == 1
    codes = sorted(
        (Path(line.split(":")[0]).name, line.split(": ")[1].split()[0]) for line in out.splitlines()
    )
    assert codes == [("a.expect", "V206"), ("b.expect.json", "V201"), ("c.expect.yml", "V202")]


def test_lint_of_a_folder_without_specs_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder holding no spec file is reported on stderr with exit code 2."""
    (tmp_path / "readme.md").write_text("hi\n", encoding="utf-8")
    code, out, err = _run(capsys, "lint", str(tmp_path))
    assert (code, out) == (2, "")
    assert "no spec files" in err


def test_all_example_specs_lint_clean(capsys: pytest.CaptureFixture[str]) -> None:
    """Every file in specs/ lints without any diagnostic."""
    assert _run(capsys, "lint", "-q", str(SPECS)) == (0, "", "")


def test_all_example_specs_are_canonically_formatted(capsys: pytest.CaptureFixture[str]) -> None:
    """format --check finds nothing to change in specs/."""
    assert sorted(SPECS.glob("*.expect"))
    assert _run(capsys, "format", "--check", str(SPECS)) == (0, "", "")


def test_format_keeps_comments_and_is_idempotent_on_the_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Formatting copies of specs/ keeps every comment and changes nothing, twice over."""
    copy = tmp_path / "specs"
    shutil.copytree(SPECS, copy)
    for _ in range(2):
        code, _, _ = _run(capsys, "format", str(copy))
        assert code == 0
        for original in SPECS.glob("*.expect"):
            assert (copy / original.name).read_text(encoding="utf-8") == original.read_text(encoding="utf-8")
    comments = [line for p in SPECS.glob("*.expect") for line in p.read_text().splitlines() if "#" in line]
    assert comments


def test_format_check_then_format_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--check exits 1 on a file that would change and 0 once it has been formatted."""
    spec = tmp_path / "messy.expect"
    spec.write_text(MESSY, encoding="utf-8")
    code, out, err = _run(capsys, "format", "--check", str(spec))
    assert (code, out) == (1, "")
    assert f"would reformat {spec}" in err
    assert spec.read_text(encoding="utf-8") == MESSY
    code, _, err = _run(capsys, "format", str(spec))
    assert code == 0
    assert err == f"reformatted {spec}\n"
    assert spec.read_text(encoding="utf-8") == TIDY
    assert _run(capsys, "format", "--check", str(spec)) == (0, "", "")


def test_format_diff_prints_a_diff_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--diff prints a unified diff from the file to its formatted text and leaves the file alone."""
    spec = tmp_path / "messy.expect"
    spec.write_bytes(MESSY.encode("utf-8"))
    code, out, _ = _run(capsys, "format", "--diff", str(spec))
    assert code == 1
    assert out.startswith(f"--- {spec}\n+++ {spec}\n@@ ")
    assert "-  expect   t( x = 1 ,y in [1,2,] )  # trailing\n" in out
    assert "+    expect t(x=1, y in [1, 2])  # trailing\n" in out
    assert spec.read_bytes() == MESSY.encode("utf-8")


def test_format_refuses_a_file_with_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A spec that does not parse is reported and left untouched, exit code 2."""
    spec = tmp_path / "bad.expect"
    spec.write_text("expect t(\n", encoding="utf-8")
    code, _, err = _run(capsys, "format", str(spec))
    assert code == 2
    assert "P102" in err
    assert spec.read_text(encoding="utf-8") == "expect t(\n"


def test_format_keeps_crlf_and_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file with a BOM and CRLF line endings keeps both; only the layout changes."""
    spec = tmp_path / "win.expect"
    spec.write_bytes("\ufeffexpect t( x=1 )  # c\r\n".encode())
    assert _run(capsys, "format", str(spec))[0] == 0
    assert spec.read_bytes() == "\ufeffexpect t(x=1)  # c\r\n".encode()


def test_format_of_a_json_spec_prints_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """format of a JSON spec prints the text form and leaves the JSON file as it is."""
    spec = tmp_path / "w.expect.json"
    body = json.dumps(
        {
            "cases": [
                {
                    "name": "c",
                    "expect": [
                        {
                            "tool": "t",
                            "args": [{"name": "x", "op": "partial", "value": {"$partial": {"a": 1}}}],
                        }
                    ],
                }
            ]
        }
    )
    spec.write_text(body, encoding="utf-8")
    code, out, _ = _run(capsys, "format", str(spec))
    assert code == 0
    assert out == 'case "c" {\n    expect t(x={"a": 1, ...})\n}\n'
    assert spec.read_text(encoding="utf-8") == body


def test_compile_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    """compile prints the canonical document with spans, and without them on --no-spans."""
    code, out, _ = _run(capsys, "compile", str(SPECS / "weather.expect"))
    assert code == 0
    document = json.loads(out)
    assert document["version"] == 1
    first = document["cases"][0]
    assert first["name"] == "berlin tomorrow"
    assert first["span"]["line"] == 3
    assert first["expect"][0]["args"][0] == {
        "name": "city",
        "op": "eq",
        "value": "Berlin",
        "span": {"line": 5, "column": 24, "end_line": 5, "end_column": 37},
    }
    code, out, _ = _run(capsys, "compile", "--no-spans", str(SPECS / "weather.expect"))
    assert code == 0
    assert '"span"' not in out
    assert json.loads(out)["cases"][0]["expect"][0]["args"][2] == {"name": "days", "op": "eq", "value": 1}


def test_compile_of_a_bad_spec_reports_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compile prints diagnostics on stderr, nothing on stdout and exits 2 for an invalid spec."""
    spec = tmp_path / "bad.expect"
    spec.write_text("expect t(x in [])\n", encoding="utf-8")
    code, out, err = _run(capsys, "compile", str(spec))
    assert (code, out) == (2, "")
    assert "V206" in err
    assert _run(capsys, "compile", str(tmp_path / "missing.expect"))[0] == 2


def test_schema_is_a_valid_draft_2020_12_schema(capsys: pytest.CaptureFixture[str]) -> None:
    """schema prints JSON that is a valid Draft 2020-12 schema and accepts compiled specs."""
    code, out, _ = _run(capsys, "schema")
    assert code == 0
    published = json.loads(out)
    assert published["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(published)
    validator = Draft202012Validator(published)
    for spec in sorted(SPECS.glob("*.expect")):
        assert _run(capsys, "compile", str(spec))[0] == 0
    _, compiled, _ = _run(capsys, "compile", str(SPECS / "travel.expect"))
    assert list(validator.iter_errors(json.loads(compiled))) == []
    assert list(validator.iter_errors({"cases": [{"name": "a", "nope": 1}]}))


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """No command, or lint without a path, is a usage error."""
    assert _run(capsys)[0] == 2
    assert _run(capsys, "lint")[0] == 2
