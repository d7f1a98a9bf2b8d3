"""A case the snapshot cannot check is ``S705`` at the log record of the run it is about."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from snapshot_support import write_log

from toolexpect.logs import open_log
from toolexpect.report.diagnostics import render
from toolexpect.snapshot import group_runs
from toolexpect.snapshot.build import CaseRuns
from toolexpect.snapshot.take import _checked

_BERLIN = {"name": "get_weather", "arguments": {"city": "Berlin"}}
_PARIS = {"name": "get_weather", "arguments": {"city": "Paris"}}


def _runs(tmp_path: Path) -> tuple[Path, CaseRuns]:
    """The runs of case "b", on lines 2 to 4 of a real JSON Lines log (line 1 is case "a")."""
    log = write_log(
        tmp_path / "runs.jsonl",
        [
            {"id": "a", "tool_calls": [_PARIS]},
            {"id": "b", "tool_calls": [_BERLIN]},
            {"id": "b", "tool_calls": [_PARIS]},
            {"id": "b", "tool_calls": [_BERLIN, _PARIS]},
        ],
    )
    groups, _ = group_runs(open_log(str(log)), "snap")
    return log, groups[1]


def _berlin(*require: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = {
        "name": "b",
        "expect": [{"tool": "get_weather", "args": [{"name": "city", "op": "eq", "value": "Berlin"}]}],
    }
    return {**node, "require": list(require)} if require else node


def test_a_run_scoring_below_one_is_s705_at_that_run(tmp_path: Path) -> None:
    """The fault names the lowest-scoring run's record: its file, line and column."""
    log, runs = _runs(tmp_path)
    case, found = _checked(_berlin(), runs)
    assert case is None
    assert render(found, "concise") == (
        f"{log}:3:1: S705 case 'b' is not written: a recorded run scores 0.0 against it"
    )


def test_runs_that_do_not_pass_is_s705_at_the_first_failing_run(tmp_path: Path) -> None:
    """A case its runs fail (here a forbid met by two runs) points at the first run that fails."""
    log, runs = _runs(tmp_path)
    forbid = {"tool": "get_weather", "args": [{"name": "city", "op": "eq", "value": "Paris"}]}
    node = {
        "name": "b",
        "expect": [{"tool": "get_weather"}],
        "forbid": [forbid],
        "require": [{"kind": "pass_rate", "threshold": 1.0}],
    }
    case, found = _checked(node, runs)
    assert case is None
    assert render(found, "concise") == (
        f"{log}:3:1: S705 case 'b' is not written: its recorded runs do not pass it"
    )


def test_text_that_does_not_read_back_is_s705_at_the_first_run(tmp_path: Path) -> None:
    """A case document the pipeline refuses points at the case's first run."""
    log, runs = _runs(tmp_path)
    node = _berlin({"kind": "pass_rate", "threshold": 2.0})
    case, found = _checked(node, runs)
    assert case is None
    [fault] = found
    assert fault.code == "S705"
    assert render(found, "concise").startswith(f"{log}:2:1: S705 case 'b' is not written: its text")
