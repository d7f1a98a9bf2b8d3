"""One-case specs and bare responses of one agent run: the ``R423`` note names the option that
would score them as one run, instead of each response failing alone without a word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from logs_support import FIXTURES

from toolexpect.api import parse_spec
from toolexpect.cli import main
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.logs import open_logs
from toolexpect.pairing import PairingOptions, pair_runs

BERLIN = FIXTURES.parent / "pairing" / "by_file" / "berlin-tomorrow.jsonl"

SPEC = """
case "berlin tomorrow" {
    expect get_weather(city="Berlin")
    expect send_summary(city="Berlin")
}
"""


def _pair(
    spec: str, log: Path, options: PairingOptions | None = None
) -> tuple[list[str | None], list[Diagnostic]]:
    paired = pair_runs([parse_spec(spec, "s")], open_logs([str(log)]), options)
    return [sample.id for sample in paired], paired.diagnostics


def test_three_responses_of_one_run_get_one_note_naming_pair_by_file() -> None:
    """Three ``chat.completion`` records of one run, in a file named after the only case, pair
    with it by their made-up ids as three runs; one note says that pairing by file joins them
    (``PairingOptions(by="file")``, as Python takes it)."""
    ids, diagnostics = _pair(SPEC, BERLIN)
    assert ids == ["berlin tomorrow"] * 3
    [note] = diagnostics
    assert (note.code, note.severity, note.path, note.span and note.span.line) == (
        "R423",
        Severity.NOTE,
        str(BERLIN),
        1,
    )
    assert note.message == (
        "3 recorded runs paired with the only case 'berlin tomorrow' because a provider made up "
        "their ids ('chatcmpl-PAIR0001', 'chatcmpl-PAIR0002', 'chatcmpl-PAIR0003'); each response "
        "without its request is scored as a run of its own"
    )
    assert note.help == (
        'if they are the turns of one run, use PairingOptions(by="file"): these 3 runs\' log file '
        "is named after the case, and they would be scored as 1 run"
    )


def test_the_option_named_pairs_them_as_one_run_without_a_note() -> None:
    """With --pair-by file the three records are one run, and nothing is said."""
    ids, diagnostics = _pair(SPEC, BERLIN, PairingOptions("file"))
    assert (ids, diagnostics) == (["berlin tomorrow"], [])


def test_no_note_when_no_option_would_join_them(tmp_path: Path) -> None:
    """A file named after no case, or a single response: no option helps, nothing is said."""
    spec = SPEC.replace("berlin tomorrow", "weather")
    assert _pair(spec, BERLIN)[1] == []
    single = tmp_path / "berlin-tomorrow.jsonl"
    single.write_text(BERLIN.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert _pair(SPEC, single)[1] == []


def test_a_field_naming_the_case_is_the_option_when_the_file_is_not(tmp_path: Path) -> None:
    """Wrapped responses carrying the case in a field: the note names --case-from that field."""
    log = tmp_path / "runs.jsonl"
    lines = BERLIN.read_text(encoding="utf-8").splitlines()
    wrapped = [{"metadata": {"case": "berlin tomorrow"}, "response": json.loads(line)} for line in lines]
    log.write_text("".join(json.dumps(record) + "\n" for record in wrapped), encoding="utf-8")
    [note] = _pair(SPEC, log)[1]
    assert note.code == "R423"
    assert note.help is not None and note.help.startswith(
        'if they are the turns of one run, use PairingOptions(case_from="metadata.case"): these 3 '
        "runs' field metadata.case names the case"
    )
    assert _pair(SPEC, log, PairingOptions(case_from="metadata.case")) == (["berlin tomorrow"], [])


def test_score_shows_the_note_and_keeps_its_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``score`` prints the note on standard error and puts it in the JSON report; the failing
    runs still fail (exit 1), and the note alone never does."""
    spec = tmp_path / "weather.expect"
    spec.write_text(SPEC, encoding="utf-8")
    assert main(["score", str(spec), "--log", str(BERLIN), "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert "note[R423]" in captured.err
    assert "help: if they are the turns of one run, use --pair-by file" in captured.err
    found = json.loads(captured.out)["log_diagnostics"]
    assert [(d["code"], d["severity"]) for d in found] == [("R423", "note")]
    assert main(["score", str(spec), "--log", str(BERLIN), "--pair-by", "file"]) == 0
    assert "R423" not in capsys.readouterr().err
