"""The HTML report as a file: one self-contained page, log text escaped, what is embedded capped."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_support import AFTER, BEFORE, SPEC, call, record, run_cli, score_to, write_log

from toolexpect.report import html

Capsys = pytest.CaptureFixture[str]
INJECTED = "<script>window.pwned=1</script>"


def _after_against(capsys: Capsys, tmp_path: Path, before: Path) -> str:
    """The HTML report of the run after (exit 1: a case fails), against the report ``before``."""
    log = write_log(tmp_path, "after.jsonl", AFTER)
    code, out, _ = run_cli(
        capsys, "score", str(tmp_path / "weather.expect"), "--log", str(log), "--baseline", str(before),
        "--format", "html",
    )  # fmt: skip
    assert code == 1
    return out


@pytest.fixture
def page(tmp_path: Path, capsys: Capsys) -> str:
    """The HTML report of the run after, against the run before as the baseline."""
    return _after_against(capsys, tmp_path, score_to(capsys, tmp_path, BEFORE, "before"))


def _data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert found
    loaded: dict[str, Any] = json.loads(found.group(1))
    return loaded


def test_the_page_is_one_file_without_network(page: str) -> None:
    """No stylesheet, script, image or frame is fetched: everything is inline, and the page's
    Content-Security-Policy allows no source but its own script."""
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "default-src 'none'" in page
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in page


def test_log_text_is_data_never_markup(page: str) -> None:
    """A ``<script>`` recorded in a tool argument is embedded only as escaped JSON text."""
    assert INJECTED not in page
    assert "window.pwned" in page
    assert page.count("</script>") == 2
    data = _data(page)
    breaks = next(case for case in data["cases"] if case["case"] == "breaks")
    closest = breaks["failures"][0]["failures"][1]["closest"]
    assert closest["args"][0]["got"] == json.dumps(INJECTED)


def test_the_page_carries_failures_sources_and_the_comparison(page: str) -> None:
    """Each failing case's failures, the spec lines they point at and the baseline's verdict."""
    data = _data(page)
    breaks = next(case for case in data["cases"] if case["case"] == "breaks")
    assert breaks["change"] == "newly failing"
    assert breaks["before"]["status"] == "pass"
    unmatched = breaks["failures"][0]["failures"][1]
    assert unmatched["kind"] == "unmatched"
    file = breaks["file"]
    assert data["sources"][file][str(unmatched["line"])] == SPEC.splitlines()[unmatched["line"] - 1].strip()
    flaky = next(case for case in data["cases"] if case["case"] == "flaky")
    assert (flaky["runs"], flaky["passed_runs"]) == (5, 4)
    assert [group["run"] for group in flaky["failures"]] == [5]
    assert data["comparison"]["regressed"] is True
    assert "Against the baseline: regressed" in page


def test_html_beside_another_format(tmp_path: Path, capsys: Capsys) -> None:
    """``--html FILE`` writes the page and leaves standard output to the chosen format."""
    log = write_log(tmp_path, "after.jsonl", AFTER)
    (tmp_path / "weather.expect").write_text(SPEC, encoding="utf-8")
    target = tmp_path / "report.html"
    code, out, _ = run_cli(
        capsys, "score", str(tmp_path / "weather.expect"), "--log", str(log), "--html", str(target)
    )
    assert code == 1
    assert ":: breaks" in out
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def _document(cases: int, failing_runs: int, text: str = "x") -> dict[str, Any]:
    """A report document of ``cases`` cases of ``failing_runs`` failing runs each."""

    def failure(n: int) -> dict[str, Any]:
        return {"kind": "unexpected", "message": f"{text} {n}", "line": 2, "column": 1, "details": {}}

    run = {"status": "fail", "score": 0.0, "matched": 0, "expected": 1, "precision": 0.0, "f1": 0.0}
    return {
        "cases": [
            {
                "file": "a.expect", "case": f"case {c}", "status": "fail", "score": 0.0, "lowest": 0.0,
                "pass_rate": 0.0, "matched": None, "expected": 1, "precision": None, "f1": None,
                "failures": [],
                "runs": [{**run, "failures": [failure(r)]} for r in range(failing_runs)],
            }
            for c in range(cases)
        ],
        "summary": {"cases": cases, "passed": 0, "failed": cases, "errors": 0},
    }  # fmt: skip


def test_what_is_embedded_is_capped_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most ``RUNS_PER_CASE`` failing runs per case and ``MAX_FAILURES`` failures in all are
    embedded; the page data counts the runs and cases left out."""
    monkeypatch.setattr(html, "MAX_FAILURES", 12)
    data = html.page_data(_document(cases=4, failing_runs=7), sources={"a.expect": "case\nexpect f()\n"})
    shown = [sum(len(g["failures"]) for g in case["failures"]) for case in data["cases"]]
    assert shown == [5, 5, 2, 0]
    assert [case["runs_cut"] for case in data["cases"]] == [2, 2, 5, 7]
    assert [case["cut"] for case in data["cases"]] == [False, False, False, True]
    assert data["cut"] == {"cases": 1, "runs": 16, "runs_per_case": 5, "max_failures": 12}
    assert data["sources"] == {"a.expect": {"2": "expect f()"}}


def test_long_text_is_cut() -> None:
    """A message longer than ``MAX_TEXT`` is cut, saying how much was left out."""
    data = html.page_data(_document(cases=1, failing_runs=1, text="y" * 5_000))
    message = data["cases"][0]["failures"][0]["failures"][0]["message"]
    assert message.endswith(f"… ({5_002 - html.MAX_TEXT} more characters)")


def test_a_large_report_makes_a_page_of_bounded_size() -> None:
    """10,000 cases of 100 runs each, a tenth of them failing, make a page of bounded size
    (how long it takes is measured in bench/, not here)."""
    document = _document(cases=1_000, failing_runs=100)
    passing = {"file": "b.expect", "case": "ok", "status": "pass", "score": 1.0, "lowest": 1.0,
               "pass_rate": 1.0, "matched": None, "expected": 1, "precision": None, "f1": None,
               "failures": [], "runs": [{"status": "pass", "score": 1.0, "matched": 1, "expected": 1,
                                         "precision": 1.0, "f1": 1.0, "failures": []}] * 100}  # fmt: skip
    document["cases"] += [{**passing, "case": f"ok {n}"} for n in range(9_000)]
    page = html.render_html(document)
    assert len(page) < 15_000_000
    data = _data(page)
    assert len(data["cases"]) == 10_000
    assert data["cut"]["runs"] == 1_000 * 95


def test_an_unwritable_html_file_is_a_usage_error(tmp_path: Path, capsys: Capsys) -> None:
    """``--html`` into a missing folder: the message names the file, and the exit code is 2."""
    log = write_log(tmp_path, "after.jsonl", AFTER)
    (tmp_path / "weather.expect").write_text(SPEC, encoding="utf-8")
    target = tmp_path / "missing" / "report.html"
    spec = str(tmp_path / "weather.expect")
    code, _, err = run_cli(capsys, "score", spec, "--log", str(log), "--html", str(target))
    assert code == 2
    assert f"cannot write {target}" in err


def test_an_older_baseline_is_noted_in_the_page(tmp_path: Path, capsys: Capsys) -> None:
    """A baseline written before reports listed tools: the page says which calls changed cannot
    be told, and lists none."""
    before = score_to(capsys, tmp_path, BEFORE, "before")
    document = json.loads(before.read_text(encoding="utf-8"))
    for case in document["cases"]:
        case.pop("tools")
    before.write_text(json.dumps(document), encoding="utf-8")
    out = _after_against(capsys, tmp_path, before)
    assert '<p class="note" id="tools-unknown">Note: the baseline does not list the tools' in out
    flaky = next(case for case in _data(out)["cases"] if case["case"] == "flaky")
    assert not any(line.startswith("called now") for line in flaky["calls"])


def test_what_changed_in_a_case_is_capped(tmp_path: Path, capsys: Capsys) -> None:
    """A case that now calls 30 new tools shows the first lines of what changed and counts the rest."""
    spec = 'case "c" { expect f }\n'
    before = score_to(capsys, tmp_path, [record("c", call("f"))], "before", spec)
    many = record("c", call("f"), *(call(f"t{n:02d}") for n in range(30)))
    log = write_log(tmp_path, "after.jsonl", [many])
    code, out, _ = run_cli(
        capsys, "score", str(tmp_path / "weather.expect"), "--log", str(log), "--baseline", str(before),
        "--format", "html",
    )  # fmt: skip
    assert code == 1
    (case,) = _data(out)["cases"]
    assert len(case["calls"]) == html.CHANGES_PER_CASE + 1
    assert case["calls"][1] == "called now, not before: t00 (1 call in 1 run)"
    assert case["calls"][-1] == f"and {31 - html.CHANGES_PER_CASE} more (see toolexpect diff)"
