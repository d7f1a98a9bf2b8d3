"""A snapshot of a log scores 1.0 on that log: every fixture log of every format."""

from __future__ import annotations

from pathlib import Path

import pytest
from snapshot_support import FIXTURES, run_cli, scored

from toolexpect.logs import LOG_FORMATS, open_log
from toolexpect.snapshot import group_runs

LOGS = sorted(path for path in FIXTURES.rglob("*") if path.is_file())


def test_the_fixtures_cover_every_log_format() -> None:
    """Each format toolexpect reads has fixture logs here, so the round trip covers them all."""
    assert {path.parent.name for path in LOGS} == set(LOG_FORMATS)


@pytest.mark.parametrize("log", LOGS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_snapshot_then_score_gives_one_for_every_case(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scoring a log against its snapshot passes every case with accuracy 1.0, and every
    recorded case is either written or named in a diagnostic; runs whose request failed are
    left out of it (S707), so they pair with no case."""
    spec = tmp_path / "snap.expect"
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec, "--name", "snap")
    groups, _ = group_runs(open_log(log), "snap")
    not_written = {group.name for group in groups if f"case {group.name!r} is not written" in err}
    assert "S705" not in err
    if not_written == {group.name for group in groups}:
        assert code == 1 and not spec.exists()
        return
    assert code == 0, err
    report = scored(capsys, spec, log)
    assert {case["case"] for case in report["cases"]} == {g.name for g in groups} - not_written
    for case in report["cases"]:
        assert case["status"] == "pass", case
        assert case["score"] in (1.0, None), case
    failed = {sample.id for sample in open_log(log) if sample.error is not None}
    assert {unused["id"] for unused in report["unused_samples"]} == failed
    code, out, _ = run_cli(capsys, "lint", spec)
    assert (code, out) == (0, "")
    code, _, _ = run_cli(capsys, "format", "--check", spec)
    assert code == 0


@pytest.mark.parametrize("log", LOGS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_closed_ordered_snapshot_passes_its_log_too(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --then and --require no-unexpected the snapshot still passes the log it came from."""
    spec = tmp_path / "snap.expect"
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec, "--then", "--require", "no-unexpected")
    assert "S705" not in err
    if not spec.exists():
        return
    assert code == 0, err
    report = scored(capsys, spec, log)
    assert report["cases"]
    assert all(case["status"] == "pass" for case in report["cases"])
