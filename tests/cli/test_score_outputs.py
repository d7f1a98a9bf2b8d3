"""score in CI: several reports in one run, the overall figures, -q, capped lists, warnings."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from toolexpect.baseline.load import load_report
from toolexpect.cli import main

SPEC = 'case "a" {\n    expect t(x=1)\n}\n\ncase "b" {\n    expect t(x=1)\n    expect u\n}\n'
LINES = [
    '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}',
    '{"id": "b", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}',
    '{"id": "stray", "tool_calls": []}',
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """w.expect (case a passes, case b half), run.jsonl with one sample no case claims."""
    (tmp_path / "w.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "run.jsonl").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_console_report_and_every_file_report_in_one_run(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--junit/--json/--markdown/--html and -o FORMAT=FILE each write a report; the text report
    still goes to standard output."""
    code, out, _ = _run(
        capsys, "score", "w.expect", "--log", "run.jsonl",
        "--junit", "r.xml", "--json", "r.json", "--markdown", "r.md", "--html", "r.html",
        "-o", "github=r.github", "-o", "text=r.txt",
    )  # fmt: skip
    assert code == 1
    assert out.startswith("✓ w.expect :: a")
    assert (folder / "r.txt").read_text(encoding="utf-8") == out
    suite = ET.parse(folder / "r.xml").getroot()
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert load_report(folder / "r.json")["summary"]["mean_accuracy"] == 0.75
    assert "**1 passed, 1 failed; mean accuracy 0.75 over 2 cases" in (folder / "r.md").read_text()
    assert (folder / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "::notice title=toolexpect::1 passed, 1 failed; mean accuracy 0.75" in (
        folder / "r.github"
    ).read_text(encoding="utf-8")


def test_unused_samples_appear_in_every_format(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The sample no case claimed is in the text, json, junit, github, markdown and html reports."""
    outputs = {fmt: f"r.{fmt}" for fmt in ("text", "json", "junit", "github", "markdown", "html")}
    argv = ["score", "w.expect", "--log", "run.jsonl", "--format", "json"]
    for fmt, path in outputs.items():
        argv += ["-o", f"{fmt}={path}"]
    _run(capsys, *argv)
    for fmt, path in outputs.items():
        assert '"stray"' in (folder / path).read_text(encoding="utf-8").replace("&#34;", '"'), fmt
    github = (folder / "r.github").read_text(encoding="utf-8")
    assert '::warning title=toolexpect%3A unused sample::sample "stray": 1 run' in github
    junit = ET.parse(folder / "r.junit").getroot()
    assert 'unused sample "stray"' in (junit.findtext("system-out") or "")


def test_junit_carries_the_overall_figures_as_properties(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The suite's properties hold the mean accuracy, the cases it is over, precision and F1."""
    _run(capsys, "score", "w.expect", "--log", "run.jsonl", "--junit", "r.xml")
    properties = {
        p.get("name"): p.get("value") for p in ET.parse(folder / "r.xml").getroot().iter("property")
    }
    assert properties == {
        "mean_accuracy": "0.75",
        "accuracy_cases": "2",
        "mean_precision": "1.0",
        "mean_f1": str((1.0 + 2 / 3) / 2),
    }


def test_plain_output_file_replaces_standard_output_once(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-o FILE takes the --format report off standard output; a second -o FILE is a usage error."""
    code, out, _ = _run(capsys, "score", "w.expect", "--log", "run.jsonl", "--format", "json", "-o", "x.json")
    assert (code, out) == (1, "")
    assert load_report(folder / "x.json")["summary"]["cases"] == 2
    code, _, err = _run(capsys, "score", "w.expect", "--log", "run.jsonl", "-o", "x", "-o", "y")
    assert code == 2 and "-o FILE (the report in --format) was given more than once" in err


def test_quiet_shows_only_what_did_not_pass(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-q leaves the passing case out of the text report, keeps the failing one and the summary."""
    _, out, err = _run(capsys, "score", "w.expect", "--log", "run.jsonl", "-q")
    assert "w.expect :: a" not in out
    assert "✗ w.expect :: b" in out
    summary = (
        "1 passed, 1 failed; mean accuracy 0.75 over 2 cases with expected calls, precision 1.00, F1 0.83"
    )
    assert out.rstrip().endswith(summary)
    assert err == ""


def test_a_long_list_of_unused_samples_is_summed_up(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """More than 20 unused samples: 20 lines, then one line counting the rest and their runs."""
    extra = [json.dumps({"id": f"s{i}", "tool_calls": []}) for i in range(30) for _ in range(2)]
    (folder / "run.jsonl").write_text("\n".join(LINES + extra) + "\n", encoding="utf-8")
    _, out, _ = _run(capsys, "score", "w.expect", "--log", "run.jsonl", "-q")
    unused = [line for line in out.splitlines() if line.startswith("unused")]
    assert len(unused) == 20
    rest = out.splitlines()[out.splitlines().index(unused[-1]) + 1]
    assert rest == "... and 11 more unused samples (22 runs); the json report lists them all"
    _, out, _ = _run(capsys, "score", "w.expect", "--log", "run.jsonl", "--format", "json")
    assert len(json.loads(out)["unused_samples"]) == 31


def test_a_case_name_in_two_spec_files_is_a_warning(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same case name in two files: a warning naming both; the exit code is unchanged."""
    (folder / "again.expect").write_text('case "a" {\n    expect t\n}\n', encoding="utf-8")
    code, _, err = _run(capsys, "score", "w.expect", "again.expect", "--log", "run.jsonl")
    assert code == 1
    assert (
        'toolexpect: warning: case "a" is in both w.expect and again.expect; '
        "the samples with that id are scored against both"
    ) in err


def test_a_log_given_twice_is_read_once_with_a_warning(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """run.jsonl and ./run.jsonl are one file: a warning, and its runs are counted once."""
    code, out, err = _run(
        capsys, "score", "w.expect", "--log", "run.jsonl", "--log", "./run.jsonl", "--format", "json"
    )
    assert "toolexpect: warning: the log ./run.jsonl is given twice (as run.jsonl); it is read once" in err
    assert [c.get("runs") for c in json.loads(out)["cases"]] == [None, None]  # one run each
    assert code == 1


def test_fail_under_with_mean_only_gates_on_the_mean_alone(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --fail-on mean-only, mean accuracy 0.75 meets --fail-under 0.7 (exit 0) and misses
    0.8 (exit 3), a failing case or not."""
    argv = ["score", "w.expect", "--log", "run.jsonl", "--fail-on", "mean-only"]
    assert _run(capsys, *argv, "--fail-under", "0.7")[0] == 0
    code, _, err = _run(capsys, *argv, "--fail-under", "0.8")
    assert code == 3
    assert err.endswith("toolexpect: the mean accuracy 0.75 is below --fail-under 0.8\n")


def test_sample_ids_from_logs_never_become_markup(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unused sample id holding HTML is escaped in the markdown and html reports."""
    stray = json.dumps({"id": "<img src=x onerror=alert(1)>", "tool_calls": []})
    (folder / "run.jsonl").write_text("\n".join([*LINES[:2], stray]) + "\n", encoding="utf-8")
    _run(capsys, "score", "w.expect", "--log", "run.jsonl", "--markdown", "r.md", "--html", "r.html")
    markdown = (folder / "r.md").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in markdown and "<img" not in markdown
    assert "<img" not in (folder / "r.html").read_text(encoding="utf-8")
