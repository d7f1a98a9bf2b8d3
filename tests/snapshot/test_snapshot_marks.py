"""``snapshot`` of recorded values spelt like the document's marks: an object whose only key is
``$match`` (or ``$partial``) is written so that it means itself, and the spec passes its run."""

from __future__ import annotations

from pathlib import Path

import pytest
from snapshot_support import run_cli, scored, write_log


def test_a_recorded_object_spelt_like_a_match_list_is_written_as_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A recorded ``{"$match": [...]}`` and ``{"k": {"$match": [...]}}`` are values, not
    matchers: the snapshot holds them literally and scores 1 against the log it came from,
    and 0 against a call whose value differs."""
    recorded = {"meta": {"$match": [{"op": "any"}]}, "deep": {"k": {"$match": [{"op": "absent"}]}}}
    log = write_log(
        tmp_path / "log.jsonl", [{"id": "c", "tool_calls": [{"name": "t", "arguments": recorded}]}]
    )
    spec = tmp_path / "c.expect"
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec)
    assert code == 0, err
    report = scored(capsys, spec, log)
    assert report["exit_code"] == 0, report
    assert [case["score"] for case in report["cases"]] == [1.0]
    other = write_log(
        tmp_path / "other.jsonl",
        [{"id": "c", "tool_calls": [{"name": "t", "arguments": {"meta": {"x": 1}, "deep": {"k": {}}}}]}],
    )
    assert [case["score"] for case in scored(capsys, spec, other)["cases"]] == [0.0]
