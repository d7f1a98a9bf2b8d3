"""JSON outputs stay valid JSON when a log holds NaN or an infinity."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main

LOG = (
    '{"id": "a", "tool_calls": [{"name": "t", '
    '"arguments": {"x": NaN, "y": [Infinity, {"z": -Infinity}], "w": 1.5}}]}\n'
)


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_calls_json_writes_non_finite_numbers_as_strings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``calls --format json`` writes NaN, Infinity and -Infinity as strings, at any depth."""
    log = tmp_path / "log.jsonl"
    log.write_text(LOG, encoding="utf-8")
    assert main(["calls", "--format", "json", str(log)]) == 0
    document = _strict(capsys.readouterr().out)
    arguments = document["samples"][0]["calls"][0]["arguments"]
    assert arguments == {"x": "NaN", "y": ["Infinity", {"z": "-Infinity"}], "w": 1.5}


def test_score_report_of_non_finite_values_is_valid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The JSON score report shows such values as text (``"got": "NaN"``), never as a number."""
    log = tmp_path / "log.jsonl"
    log.write_text(LOG, encoding="utf-8")
    spec = tmp_path / "a.expect"
    spec.write_text('case "a" {\n  expect t(x=1, w=1.5)\n}\n', encoding="utf-8")
    main(["score", str(spec), "--log", str(log), "--format", "json"])
    report = _strict(capsys.readouterr().out)
    closest = report["cases"][0]["failures"][1]["details"]["closest"][0]["args"]
    assert {"name": "x", "got": "NaN"}.items() <= closest[0].items()
