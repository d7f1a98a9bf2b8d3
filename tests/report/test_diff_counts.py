"""A count requirement that newly fails is a regression, for ``toolexpect diff`` and ``score
--baseline`` (a real ``python -m toolexpect`` process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from report_support import call, record

import toolexpect

SRC = Path(toolexpect.__file__).resolve().parents[1]

# The case fails in both runs (summarize is never called) with the same figures: only the count
# of search(query="old") tells the runs apart.
SPEC = """\
case "research" {
    expect search
    expect search
    expect summarize
    require at most 1 call of search(query="old")
}

case "quick" {
    expect search
    require at most 2 calls
}
"""
BEFORE = [
    record("research", call("search", query="new"), call("search", query="old")),
    record("quick", call("search", query="x")),
]
AFTER = [
    record("research", call("search", query="old"), call("search", query="old")),
    record("quick", call("search", query="x"), call("search", query="y"), call("search", query="z")),
]


def _toolexpect(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m toolexpect ARGV`` in ``cwd``."""
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": path}
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """c.expect, the logs before and after, and before.json, the report of the run before."""
    (tmp_path / "c.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "before.jsonl").write_text("\n".join(BEFORE) + "\n", encoding="utf-8")
    (tmp_path / "after.jsonl").write_text("\n".join(AFTER) + "\n", encoding="utf-8")
    for name in ("before", "after"):
        done = _toolexpect(tmp_path, "score", "c.expect", "--log", f"{name}.jsonl", "-o", f"{name}.json")
        assert done.returncode in (0, 1), done.stderr
    return tmp_path


def test_diff_json_calls_a_newly_failing_count_a_regression(project: Path) -> None:
    """A case failing before and after with the same figures is worse when a count requirement it
    met now fails; a case that passed and fails on a count is newly failing; both name the count."""
    done = _toolexpect(project, "diff", "before.json", "after.json", "--format", "json")
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["regressed"] is True
    cases = {case["case"]: case for case in data["cases"]}
    research = cases["research"]
    assert (research["change"], research["regressed"]) == ("worse", True)
    assert research["score_delta"] == 0.0
    assert research["counts"] == {
        "newly_failing": ['require at most 1 call of search(query="old")'],
        "met_again": [],
    }
    assert cases["quick"]["change"] == "newly_failing"
    assert cases["quick"]["counts"]["newly_failing"] == ["require at most 2 calls"]


def test_diff_text_names_the_count_and_the_way_back_is_better(project: Path) -> None:
    """The text form names the count newly failing under its case; compared the other way, the
    count met again makes the case better and nothing regressed (exit 0)."""
    done = _toolexpect(project, "diff", "before.json", "after.json")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    worse = next(i for i, line in enumerate(lines) if line.startswith("↓ worse") and ":: research" in line)
    assert lines[worse + 1] == '      count newly failing: require at most 1 call of search(query="old")'
    assert "      count newly failing: require at most 2 calls" in lines
    assert lines[-1] == "1 newly failing, 1 worse: regressed"
    back = _toolexpect(project, "diff", "after.json", "before.json")
    assert back.returncode == 0, back.stderr
    assert '      count met again: require at most 1 call of search(query="old")' in back.stdout.splitlines()
    assert back.stdout.splitlines()[-1] == "1 newly passing, 1 better: no regression"


def test_score_baseline_fails_on_a_newly_failing_count(project: Path) -> None:
    """``score --baseline`` exits 1 when a count requirement newly fails, and its comparison (on
    standard error beside a JSON report) names the count."""
    done = _toolexpect(project, "score", "c.expect", "--log", "after.jsonl", "--baseline", "before.json")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert '      count newly failing: require at most 1 call of search(query="old")' in lines
    as_json = _toolexpect(
        project, "score", "c.expect", "--log", "after.jsonl", "--baseline", "before.json", "--format", "json"
    )
    assert as_json.returncode == 1, as_json.stderr
    json.loads(as_json.stdout)
    assert "count newly failing: require at most 2 calls" in as_json.stderr
    same = _toolexpect(project, "score", "c.expect", "--log", "before.jsonl", "--baseline", "before.json")
    assert same.returncode == 0, same.stderr
