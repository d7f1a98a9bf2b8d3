"""The CI gate as a user runs it (a real ``python -m toolexpect`` process): --fail-under adds a
gate to the cases' verdicts, -o writes the format its file names, unknown settings are refused,
and a report written to a file still leaves its summary on the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

import toolexpect

SRC = Path(toolexpect.__file__).resolve().parents[1]

SPEC = 'case "a" {\n    expect t(x=1)\n}\n\ncase "b" {\n    expect t(x=1)\n    forbid u\n}\n'
RUN = (
    '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
    '{"id": "b", "tool_calls": [{"name": "t", "arguments": {"x": 1}}, {"name": "u", "arguments": {}}]}\n'
)
PASS = '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
SUMMARY = "1 passed, 1 failed; mean accuracy 1.00 over 2 cases with expected calls, precision 0.75, F1 0.83"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """w.expect (case b forbids u) and run.jsonl, where b calls u: every expected call is made."""
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "run.jsonl").write_text(RUN, encoding="utf-8")
    (tmp_path / "pass.jsonl").write_text(PASS, encoding="utf-8")
    return tmp_path


def _toolexpect(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m toolexpect ARGV`` in ``cwd``, as a user types it."""
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


# -- 1: --fail-under is a gate added to the cases' verdicts -----------------------------------------


def test_the_readme_ci_line_fails_on_a_forbidden_call(project: Path) -> None:
    """The README's CI line exits 1 on a broken forbid, though the mean accuracy (1.00) meets 0.9."""
    run = _toolexpect(
        project, "score", ".", "--log", "run.jsonl", "--junit", "report.xml", "--json", "report.json",
        "--fail-under", "0.9",
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert "✗ forbidden u matched call #2" in run.stdout
    assert "below --fail-under" not in run.stderr


def test_fail_under_from_settings_does_not_let_a_failing_case_pass(project: Path) -> None:
    """fail-under in [tool.toolexpect] is the same gate: a failing case still exits 1."""
    (project / "pyproject.toml").write_text("[tool.toolexpect]\nfail-under = 0.5\n", encoding="utf-8")
    assert _toolexpect(project, "score", "w.expect", "--log", "run.jsonl").returncode == 1


def test_below_the_threshold_a_failing_case_still_exits_1_and_both_are_said(project: Path) -> None:
    """A failing case exits 1 whatever the mean; the mean below the threshold is said on stderr."""
    (project / "miss.jsonl").write_text('{"id": "a", "tool_calls": []}\n', encoding="utf-8")
    run = _toolexpect(project, "score", "w.expect", "--log", "miss.jsonl", "--fail-under", "0.9")
    assert run.returncode == 1
    assert run.stderr.endswith("toolexpect: the mean accuracy 0 is below --fail-under 0.9\n")


def test_a_passing_run_below_the_threshold_exits_3(project: Path) -> None:
    """When every case passes (here at accuracy 0.5 >= its own 0.5), the mean below --fail-under
    exits 3, with a line saying both figures; at or above it, 0."""
    spec = 'case "a" {\n    expect t(x=1)\n    expect v\n    require accuracy >= 0.5\n}\n'
    (project / "one.expect").write_text(spec, encoding="utf-8")
    argv = ["score", "one.expect", "--log", "pass.jsonl"]
    below = _toolexpect(project, *argv, "--fail-under", "0.9")
    assert below.returncode == 3, below.stdout
    assert below.stderr == "toolexpect: the mean accuracy 0.5 is below --fail-under 0.9\n"
    assert _toolexpect(project, *argv, "--fail-under", "0.5").returncode == 0


def test_mean_only_asks_for_the_mean_alone(project: Path) -> None:
    """--fail-on mean-only (or fail-on in [tool.toolexpect]) leaves the cases' verdicts out;
    without --fail-under it is a usage error."""
    argv = ["score", "w.expect", "--log", "run.jsonl", "--fail-under", "0.9"]
    assert _toolexpect(project, *argv, "--fail-on", "mean-only").returncode == 0
    alone = _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "--fail-on", "mean-only")
    assert alone.returncode == 2
    assert alone.stderr == "toolexpect: --fail-on mean-only needs --fail-under X, the mean to gate on\n"
    (project / "pyproject.toml").write_text(
        '[tool.toolexpect]\nfail-under = 0.9\nfail-on = "mean-only"\n', encoding="utf-8"
    )
    assert _toolexpect(project, "score", "w.expect", "--log", "run.jsonl").returncode == 0


# -- 2: -o FILE writes the format its extension names ----------------------------------------------


def _is_html(text: str) -> bool:
    return text.startswith("<!DOCTYPE html>")


def _is_json(text: str) -> bool:
    return "cases" in json.loads(text)


def _is_junit(text: str) -> bool:
    return ET.fromstring(text.encode("utf-8")).tag == "testsuite"


def _is_markdown(text: str) -> bool:
    return text.startswith("### toolexpect\n")


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("report.html", _is_html),
        ("report.HTM", _is_html),
        ("report.json", _is_json),
        ("report.xml", _is_junit),
        ("report.md", _is_markdown),
    ],
)
def test_score_o_writes_the_format_the_extension_names(
    project: Path, name: str, check: Callable[[str], bool]
) -> None:
    """Without --format, ``-o report.html`` writes html, ``.json`` json, ``.xml`` junit, ``.md`` markdown."""
    run = _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "-o", name)
    assert (run.returncode, run.stdout) == (1, "")
    assert check((project / name).read_text(encoding="utf-8"))


def test_a_format_that_contradicts_the_extension_is_refused(project: Path) -> None:
    """``--format text -o report.html`` exits 2, says why and what to do, and writes nothing;
    ``-o text=report.html`` still puts the text report under that name."""
    run = _toolexpect(
        project, "score", "w.expect", "--log", "run.jsonl", "--format", "text", "-o", "report.html"
    )
    assert run.returncode == 2
    assert run.stderr == (
        "toolexpect score: error: --format text contradicts -o report.html, whose extension .html "
        "names the html format: drop --format to write html, or write -o text=FILE to give the "
        "text report any name\n"
    )
    assert not (project / "report.html").exists()
    assert (
        _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "-o", "text=report.html").returncode
        == 1
    )
    assert (project / "report.html").read_text(encoding="utf-8").startswith("✓ w.expect :: a")
    same = _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "--format", "json", "-o", "r.json")
    assert same.returncode == 1 and _is_json((project / "r.json").read_text(encoding="utf-8"))


def test_diff_o_writes_the_format_the_extension_names(project: Path) -> None:
    """``diff -o changes.json`` writes json, ``.md`` markdown; ``.html`` (no such diff format) and a
    contradicting --format are refused with exit 2."""
    assert _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "-o", "r.json").returncode == 1
    assert _toolexpect(project, "diff", "r.json", "r.json", "-o", "changes.json").returncode == 0
    assert json.loads((project / "changes.json").read_text(encoding="utf-8"))["regressed"] is False
    assert _toolexpect(project, "diff", "r.json", "r.json", "-o", "changes.md").returncode == 0
    assert (project / "changes.md").read_text(encoding="utf-8").startswith("### toolexpect")
    html = _toolexpect(project, "diff", "r.json", "r.json", "-o", "changes.html")
    assert html.returncode == 2
    assert html.stderr.startswith("toolexpect diff: error: -o changes.html: diff writes no html report")
    contradicts = _toolexpect(project, "diff", "r.json", "r.json", "--format", "text", "-o", "changes.md")
    assert contradicts.returncode == 2
    assert contradicts.stderr == (
        "toolexpect diff: error: --format text contradicts -o changes.md, whose extension .md names "
        "the markdown format: drop --format to write markdown\n"
    )


# -- 3: an unknown key of [tool.toolexpect] is an error naming the closest one ----------------------


def test_an_unknown_setting_names_its_line_and_the_closest_setting(project: Path) -> None:
    """``fail_under`` and ``speks`` stop every command with exit 2, each with its line and a
    did-you-mean, as ruff does; a key holding a control character is shown escaped."""
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.toolexpect]\nfail_under = 0.9\n"speks" = ["specs"]\n'
        '"\\u001b[31m" = 1\n',
        encoding="utf-8",
    )
    for argv in (["score", "w.expect", "--log", "run.jsonl"], ["lint"], ["format", "--check"]):
        run = _toolexpect(project, *argv)
        assert (run.returncode, run.stdout) == (2, ""), argv
        path = project / "pyproject.toml"
        assert run.stderr == (
            f"toolexpect: {path}:5: [tool.toolexpect] has no setting 'fail_under'; did you mean "
            "'fail-under'?\n"
            f"toolexpect: {path}:6: [tool.toolexpect] has no setting 'speks'; did you mean 'specs'?\n"
            f"toolexpect: {path}:7: [tool.toolexpect] has no setting '\\x1b[31m'; the settings are "
            "case-from, fail-on, fail-under, line-length, lint-format, log-format, logs, outputs, "
            "pair-by, score-format, specs, tools, tools-format\n"
        )


def test_every_documented_setting_is_known(project: Path) -> None:
    """The [tool.toolexpect] example of docs/cli.md holds only known settings, all of them."""
    from toolexpect.settings import KNOWN_KEYS

    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    example = docs.split("```toml\n[tool.toolexpect]\n", 1)[1].split("```", 1)[0]
    keys = [line.split("=", 1)[0].strip() for line in example.splitlines() if "=" in line]
    assert sorted(keys) == sorted(KNOWN_KEYS)


# -- 4: quiet success, quiet writes ----------------------------------------------------------------


def test_a_report_written_to_a_file_leaves_its_summary_on_stderr(project: Path) -> None:
    """``score --format html -o report.html`` says the summary and where the report went."""
    run = _toolexpect(
        project, "score", "w.expect", "--log", "run.jsonl", "--format", "html", "-o", "report.html"
    )
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == f"{SUMMARY}; report written to report.html\n"
    both = _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "-o", "r.md", "--junit", "r.xml")
    assert both.stderr == f"{SUMMARY}; reports written to r.md, r.xml\n"


def test_lint_says_what_it_checked(project: Path) -> None:
    """A clean lint says how many files it checked on stderr; -q leaves that out."""
    (project / "z.expect").write_text("expect t(x=1)\n", encoding="utf-8")
    run = _toolexpect(project, "lint", ".")
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "2 files, no findings\n")
    quiet = _toolexpect(project, "lint", "-q", "w.expect")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_format_names_each_file_it_changed_escaped(project: Path) -> None:
    """format says ``reformatted PATH`` per file it rewrote; a control character in a name is escaped."""
    odd = "a\x1b[31m.expect"
    (project / odd).write_text("expect   t( x=1)\n", encoding="utf-8")
    (project / "b.expect").write_text("expect   t( x=2)\n", encoding="utf-8")
    run = _toolexpect(project, "format", odd, "b.expect", "w.expect")
    assert run.returncode == 0
    assert run.stderr == "reformatted a\u241b[31m.expect\nreformatted b.expect\n"
    assert "\x1b" not in run.stderr
    out = _toolexpect(project, "score", "w.expect", "--log", "run.jsonl", "-o", "r\x1b.json")
    assert out.stderr == f"{SUMMARY}; report written to r\u241b.json\n"
