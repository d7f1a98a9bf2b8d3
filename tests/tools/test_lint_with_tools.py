"""`toolexpect lint --tools` and the `[tool.toolexpect] tools` setting catch spec mistakes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolexpect.cli import main

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "specs" / "tools.json"


def test_misspelled_argument_is_caught_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelled argument is reported at its line and column, naming the tool's parameters."""
    spec = tmp_path / "w.expect"
    spec.write_text('case "c" {\n    expect get_weather(citty="Berlin")\n}\n', encoding="utf-8")
    assert main(["lint", "--tools", str(CATALOGUE), "--format", "json", str(spec)]) == 1
    findings = json.loads(capsys.readouterr().out)
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [("T501", 2, 24)]
    assert "city" in findings[0]["message"] or "city" in (findings[0]["help"] or "")


def test_ne_value_the_schema_rejects_is_caught_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`unit != 42` on a string parameter is T502 at the argument, like an `=` value."""
    spec = tmp_path / "w.expect"
    spec.write_text('expect get_weather(city="Berlin", unit != 42)\n', encoding="utf-8")
    assert main(["lint", "--tools", str(CATALOGUE), "--format", "json", str(spec)]) == 1
    findings = json.loads(capsys.readouterr().out)
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [("T502", 1, 35)]
    assert findings[0]["message"].startswith("`!=` value 42 of argument 'unit'")


def test_pattern_no_enum_value_matches_is_caught_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`unit ~ "^K"` where the unit is one of "celsius", "fahrenheit" is T502 at the argument."""
    spec = tmp_path / "w.expect"
    spec.write_text('expect get_weather(city="Berlin", unit ~ "^K")\n', encoding="utf-8")
    assert main(["lint", "--tools", str(CATALOGUE), "--format", "concise", str(spec)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        f"{spec}:1:35: T502 no value the schema allows for argument 'unit' of 'get_weather'"
        ' satisfies this matcher: `unit ~ "^K"` matches none of the 2 strings the schema lists'
    )


def test_setting_in_pyproject_needs_no_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With tools set in [tool.toolexpect] of pyproject.toml, plain `lint` checks against it."""
    (tmp_path / "tools.json").write_text(CATALOGUE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.toolexpect]\ntools = "tools.json"\n', encoding="utf-8")
    spec = tmp_path / "specs" / "w.expect"
    spec.parent.mkdir()
    spec.write_text('expect get_weathr(city="Berlin")\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--format", "json", "specs"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)
    assert finding["code"] == "T500"
    assert "get_weather" in (finding["help"] or "")


def test_unreadable_catalogue_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A catalogue that cannot be read is a usage error with the reason."""
    spec = tmp_path / "w.expect"
    spec.write_text("expect get_weather\n", encoding="utf-8")
    assert main(["lint", "--tools", str(tmp_path / "nope.json"), str(spec)]) == 2
    assert "T505" in capsys.readouterr().err


def test_example_specs_are_clean_against_their_catalogue() -> None:
    """Every example spec lints clean against specs/tools.json."""
    assert main(["lint", "--tools", str(CATALOGUE), str(ROOT / "specs")]) == 0


@pytest.mark.parametrize("command", [["lint"], ["score", "--log", "run.jsonl"]])
def test_a_missing_catalogue_names_where_its_path_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """T505's help for a missing catalogue points at --tools, or at ``tools`` in the
    pyproject.toml that named it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.expect").write_text("expect get_weather\n", encoding="utf-8")
    (tmp_path / "run.jsonl").write_text('{"id": "w", "tool_calls": []}\n', encoding="utf-8")
    assert main([*command, "--tools", "nope.json", "w.expect"]) == 2
    assert "help: check the path given to --tools" in capsys.readouterr().err
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.toolexpect]\ntools = "gone.json"\n', encoding="utf-8")
    assert main([*command, "w.expect"]) == 2
    err = capsys.readouterr().err
    assert "T505" in err and "gone.json" in err
    assert f"help: check tools in [tool.toolexpect] of {pyproject}" in err
    assert "--tools" not in err


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_catalogue_nested_100000_deep_is_t505_without_a_traceback(tmp_path: Path, suffix: str) -> None:
    """A tools file nested 100,000 deep is T505 naming the depth limit, exit 2, no traceback."""
    deep = tmp_path / f"deep{suffix}"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    spec = tmp_path / "w.expect"
    spec.write_text("expect get_weather()\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "toolexpect", "lint", "--tools", str(deep), str(spec)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert "T505" in done.stdout + done.stderr
    assert "deeper than 128 levels" in done.stdout + done.stderr


def test_a_catalogue_nested_to_the_limit_is_read(tmp_path: Path) -> None:
    """A tool schema nested as deep as the limit allows is read and checks a spec."""
    schema: dict[str, object] = {"type": "string"}
    for _ in range(60):  # 120 levels of the schema, 5 of the tools list around it
        schema = {"type": "object", "properties": {"x": schema}}
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"type": "function", "function": {"name": "t", "parameters": schema}}]))
    spec = tmp_path / "w.expect"
    spec.write_text("expect t(x={x: {x: 1}})\n", encoding="utf-8")
    assert main(["lint", "--tools", str(tools), str(spec)]) == 1  # a schema finding, not T505
