"""``toolexpect diff`` and ``score --baseline``: what changed between two scored runs, and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_support import AFTER, BEFORE, BREAKS_LINE, SPEC, call, record, run_cli, score_to, write_log

Capsys = pytest.CaptureFixture[str]


@pytest.fixture
def reports(tmp_path: Path, capsys: Capsys) -> tuple[Path, Path]:
    """The JSON reports of the run before and the run after."""
    return score_to(capsys, tmp_path, BEFORE, "before"), score_to(capsys, tmp_path, AFTER, "after")


def _changes(out: str) -> dict[str, str]:
    """Case name -> change, from ``diff --format json``."""
    return {case["case"]: case["change"] for case in json.loads(out)["cases"]}


def test_diff_names_each_change(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """A newly failing case, lower scores and pass rates, and a newly passing case are listed; the
    case that did not change is not."""
    code, out, _ = run_cli(capsys, "diff", *map(str, reports), "--format", "json")
    assert code == 1
    assert _changes(out) == {
        "breaks": "newly_failing",
        "drifts": "worse",
        "flaky": "worse",
        "heals": "newly_passing",
    }
    data = json.loads(out)
    assert data["regressed"] is True
    assert data["counts"]["unchanged"] == 1
    flaky = next(c for c in data["cases"] if c["case"] == "flaky")
    assert flaky["old"]["pass_rate"] == 1.0
    assert flaky["new"]["pass_rate"] == 0.8
    drifts = next(c for c in data["cases"] if c["case"] == "drifts")
    assert drifts["score_delta"] == -0.5


def test_diff_text_shows_failures_and_calls(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """The text form shows why a case newly fails and which expected calls were no longer made."""
    code, out, _ = run_cli(capsys, "diff", *map(str, reports))
    assert code == 1
    lines = out.splitlines()
    breaks = next(i for i, line in enumerate(lines) if line.startswith("✗ newly failing"))
    assert "pass → fail" in lines[breaks]
    assert any('expected call no longer made: get_weather(city="Rome")' in line for line in lines[breaks:])
    assert any(":: heals" in line and "fail → pass" in line for line in lines)
    assert lines[-1] == "1 newly failing, 2 worse, 1 newly passing, 1 unchanged: regressed"


def test_unexpected_calls_that_appear_are_named(tmp_path: Path, capsys: Capsys) -> None:
    """A call the case does not expect, made only in the new run, is named as a new unexpected call."""
    spec = 'case "strict" {\n    expect get_weather(city="Rome")\n    require no unexpected calls\n}\n'
    calm = [record("strict", call("get_weather", city="Rome"))]
    chatty = [record("strict", call("get_weather", city="Rome"), call("delete_all", really=True))]
    old = score_to(capsys, tmp_path, calm, "calm", spec)
    new = score_to(capsys, tmp_path, chatty, "chatty", spec)
    code, out, _ = run_cli(capsys, "diff", str(old), str(new))
    assert code == 1
    assert "new unexpected call: delete_all" in out
    code, out, _ = run_cli(capsys, "diff", str(new), str(old), "--format", "json")
    assert code == 0
    assert json.loads(out)["cases"][0]["calls"]["unexpected_removed"] == ["delete_all"]


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [("regression", 0), ("any-failure", 1)],
)
def test_fail_on_when_nothing_regressed(
    reports: tuple[Path, Path], capsys: Capsys, fail_on: str, expected: int
) -> None:
    """Comparing the new run with itself: no regression (exit 0), but a case still fails (exit 1
    with ``--fail-on any-failure``)."""
    _, new = reports
    code, out, _ = run_cli(capsys, "diff", str(new), str(new), "--fail-on", fail_on)
    assert code == expected
    assert "no case changed" in out


def test_improvement_alone_is_not_a_regression(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """Going from the new run back to the old one only improves cases, apart from ``heals``."""
    before, after = reports
    code, out, _ = run_cli(capsys, "diff", str(after), str(before), "--format", "json")
    assert _changes(out) == {
        "heals": "newly_failing",
        "breaks": "newly_passing",
        "drifts": "better",
        "flaky": "better",
    }
    assert code == 1


def test_cases_that_appear_or_vanish(tmp_path: Path, capsys: Capsys) -> None:
    """A new case that fails counts as newly failing (a regression); a vanished case does not."""
    old = score_to(capsys, tmp_path, BEFORE, "old")
    grown = SPEC + '\ncase "added" {\n    expect get_weather(city="Quito")\n}\n'
    added = record("added", call("get_weather", city="Lima"))
    new = score_to(capsys, tmp_path, [*BEFORE, added], "new", grown)
    code, out, _ = run_cli(capsys, "diff", str(old), str(new), "--format", "json")
    assert code == 1
    assert _changes(out) == {"added": "newly_failing"}
    assert json.loads(out)["cases"][0]["old"] is None
    code, out, _ = run_cli(capsys, "diff", str(new), str(old), "--format", "json")
    assert code == 0
    assert _changes(out) == {"added": "vanished"}


def test_markdown_for_a_pull_request(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """Markdown: a verdict, a table of the changed cases, details with log text made harmless."""
    code, out, _ = run_cli(capsys, "diff", *map(str, reports), "--format", "markdown")
    assert code == 1
    assert out.startswith("### toolexpect: changes against the baseline\n")
    assert "❌ **1 newly failing, 2 worse, 1 newly passing, 1 unchanged**: regressed" in out
    assert "| | change | file | case | status | score | pass rate |" in out
    assert "| newly failing |" in out
    assert "| breaks | pass → fail | 1.00 → 0.00 (-1.00) |" in out
    assert "| flaky | pass | 1.00 → 0.80 (-0.20) | 1.00 → 0.80 (-0.20) |" in out
    assert "<details><summary>What changed</summary>" in out
    assert "<script>" not in out
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in out


def test_github_annotations_on_spec_lines(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """An error annotation at the spec line of the newly failing case, warnings for lower figures."""
    before, after = reports
    code, out, _ = run_cli(capsys, "diff", str(before), str(after), "--format", "github")
    assert code == 1
    spec = str(after.parent / "weather.expect")
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1
    props, message = errors[0][len("::error ") :].split("::", 1)
    assert props.split(",")[:2] == [f"file={spec}", f"line={BREAKS_LINE}"]
    assert "title=toolexpect%3A newly failing%3A breaks" in props
    assert message.startswith("pass → fail")
    warnings = [line for line in out.splitlines() if line.startswith("::warning ")]
    assert len(warnings) == 2
    assert out.splitlines()[-1].startswith("::notice title=toolexpect diff::")


def test_paths_are_compared_as_paths(tmp_path: Path, capsys: Capsys) -> None:
    """``./x.expect`` and ``x.expect`` are the same spec file."""
    one = score_to(capsys, tmp_path, BEFORE, "one")
    document = json.loads(one.read_text(encoding="utf-8"))
    for case in document["cases"]:
        case["file"] = "./sub/../" + Path(case["file"]).name
    other = tmp_path / "other.json"
    other.write_text(json.dumps(document), encoding="utf-8")
    for case in document["cases"]:
        case["file"] = Path(case["file"]).name
    (tmp_path / "plain.json").write_text(json.dumps(document), encoding="utf-8")
    code, out, _ = run_cli(capsys, "diff", str(other), str(tmp_path / "plain.json"))
    assert code == 0
    assert "no case changed" in out


def test_diff_writes_to_a_file(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """``-o FILE`` writes the comparison there and nothing to standard output."""
    target = reports[0].parent / "diff.md"
    code, out, _ = run_cli(capsys, "diff", *map(str, reports), "--format", "markdown", "-o", str(target))
    assert (code, out) == (1, "")
    assert target.read_text(encoding="utf-8").startswith("### toolexpect")


# ---- score --baseline ----------------------------------------------------------------------------


def _score(capsys: Capsys, folder: Path, *extra: str) -> tuple[int, str, str]:
    log = write_log(folder, "again.jsonl", AFTER)
    return run_cli(capsys, "score", str(folder / "weather.expect"), "--log", str(log), *extra)


def test_baseline_appends_the_comparison(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """With ``--baseline`` the text report is followed by the comparison; a regression exits 1."""
    before, _ = reports
    code, out, _ = _score(capsys, before.parent, "--baseline", str(before))
    assert code == 1
    report, _, comparison = out.partition(f"toolexpect diff {before} → this run\n")
    assert ":: breaks" in report
    assert "✗ newly failing" in comparison
    assert comparison.rstrip().endswith("regressed")


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [(None, 0), ("regression", 0), ("any-failure", 1)],
)
def test_baseline_exit_codes(
    reports: tuple[Path, Path], capsys: Capsys, fail_on: str | None, expected: int
) -> None:
    """Scored against its own report, a run with a failing case has not regressed: exit 0 by
    default and with ``--fail-on regression``, 1 with ``--fail-on any-failure``."""
    _, after = reports
    extra = ["--fail-on", fail_on] if fail_on else []
    code, _, _ = _score(capsys, after.parent, "--baseline", str(after), *extra)
    assert code == expected


def test_baseline_keeps_json_output_a_report(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """With ``--format json`` standard output is the same report as without a baseline; the
    comparison goes to standard error."""
    before, _ = reports
    code, out, err = _score(capsys, before.parent, "--format", "json", "--baseline", str(before))
    assert code == 1
    plain_code, plain, _ = _score(capsys, before.parent, "--format", "json")
    assert plain_code == 1
    assert out == plain
    assert "✗ newly failing" in err


def test_baseline_github_annotates_only_changes(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """``--format github`` with a baseline annotates what changed, not every failure."""
    before, _ = reports
    code, out, _ = _score(capsys, before.parent, "--format", "github", "--baseline", str(before))
    assert code == 1
    assert out.count("::error ") == 1
    assert "newly failing%3A breaks" in out


def test_fail_on_regression_needs_a_baseline(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """``score --fail-on regression`` without ``--baseline`` is a usage error."""
    code, out, err = _score(capsys, reports[0].parent, "--fail-on", "regression")
    assert (code, out) == (2, "")
    assert "--fail-on regression needs --baseline" in err


# ---- refusing what is not a report ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "code", "words"),
    [
        ("not json at all", "B600", "not a JSON file"),
        ('{"results": []}', "B601", "not a toolexpect score report"),
        ('{"cases": [{"case": 3}], "summary": {}}', "B601", "not a valid toolexpect score report"),
        ('{"version": 2, "cases": [], "summary": {}}', "B602", "report version 2"),
    ],
    ids=["not-json", "other-json", "breaks-schema", "future-version"],
)
def test_what_is_not_a_report_is_refused(
    reports: tuple[Path, Path], capsys: Capsys, content: str, code: str, words: str
) -> None:
    """diff and score --baseline refuse the file with a diagnostic naming it, and exit 2."""
    before, _ = reports
    bad = before.parent / "bad.json"
    bad.write_text(content, encoding="utf-8")
    for argv in (["diff", str(bad), str(before)], ["diff", str(before), str(bad)]):
        status, out, err = run_cli(capsys, *argv)
        assert (status, out) == (2, "")
        assert f"error[{code}]" in err
        assert words in err
        assert str(bad) in err
        assert "help:" in err
    status, out, err = _score(capsys, before.parent, "--baseline", str(bad))
    assert (status, out) == (2, "")
    assert f"error[{code}]" in err


def test_a_newer_report_asks_for_an_upgrade(reports: tuple[Path, Path], capsys: Capsys) -> None:
    """A report of a later version says that a newer toolexpect wrote it."""
    before, _ = reports
    document = json.loads(before.read_text(encoding="utf-8"))
    future = before.parent / "future.json"
    future.write_text(json.dumps({"version": 7, **document}), encoding="utf-8")
    code, _, err = run_cli(capsys, "diff", str(future), str(before))
    assert code == 2
    assert "upgrade toolexpect" in err


def test_a_missing_report_is_refused(tmp_path: Path, capsys: Capsys) -> None:
    """A report that does not exist is B600 and exit 2."""
    code, _, err = run_cli(capsys, "diff", str(tmp_path / "nowhere.json"), str(tmp_path / "nowhere.json"))
    assert code == 2
    assert "error[B600]: cannot read the report" in err


def test_a_report_that_is_not_json_is_refused_at_the_place_of_the_error(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A cut or hand-broken report is B600 at the line and column where the JSON breaks."""
    bad = tmp_path / "cut.json"
    bad.write_text('{"cases": [\n  {"case": "a",\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "diff", str(bad), str(bad))
    assert code == 2
    expected = "error[B600]: not a JSON file: Expecting property name enclosed in double quotes"
    assert f"{expected}\n --> {bad}:3:1" in err


def test_markdown_keeps_links_images_and_emphasis_of_a_log_as_text(tmp_path: Path, capsys: Capsys) -> None:
    """A recorded value written as Markdown (a link, an image, emphasis, a code span) is escaped
    in the pull-request comment, so it shows as the text it is."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "c" {\n    expect f(x="ok")\n}\n', encoding="utf-8")
    value = "[a](https://e.x) ![i](v) **b** `c` ~~s~~ a\\_b"
    reports = []
    for name, x in (("old", "ok"), ("new", value)):
        log = tmp_path / f"{name}.jsonl"
        log.write_text(json.dumps({"id": "c", "tool_calls": [{"name": "f", "arguments": {"x": x}}]}) + "\n")
        reports.append(str(tmp_path / f"{name}.json"))
        run_cli(capsys, "score", str(spec), "--log", str(log), "--format", "json", "-o", reports[-1])
    code, out, _ = run_cli(capsys, "diff", *reports, "--format", "markdown")
    assert code == 1
    (line,) = [line for line in out.splitlines() if "not matched" in line]
    escaped = r'"\[a\](https://e.x) !\[i\](v) \*\*b\*\* \`c\` \~\~s\~\~ a\\\\\_b"'
    assert line.endswith(f"got {escaped}")
