"""``--case-from`` on canonical logs: a sample's other fields name its case, as in every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.logs import open_log

SPEC = """
case "alpha" {
    expect get_weather(city="Berlin")
}
case "beta" {
    expect send_email
}
"""

CALL = {"name": "get_weather", "arguments": {"city": "Berlin"}}


def _log(tmp_path: Path, *records: dict[str, object]) -> str:
    log = tmp_path / "runs.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return str(log)


def _score(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    spec = tmp_path / "weather.expect"
    spec.write_text(SPEC, encoding="utf-8")
    code = main(["score", str(spec), *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "record",
    [
        {"id": "x1", "metadata": {"case": "alpha"}, "tool_calls": [CALL]},
        {"metadata": {"case": "alpha"}, "tool_calls": [CALL]},
    ],
    ids=["with-id", "without-id"],
)
def test_score_pairs_a_canonical_record_by_the_named_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: dict[str, object]
) -> None:
    """The field named with --case-from decides, over the record's own id or its lack of one."""
    code, out, err = _score(tmp_path, capsys, "--log", _log(tmp_path, record), "--case-from", "metadata.case")
    assert "weather.expect :: alpha  1.00" in out, err
    assert "unused" not in out
    assert "R402" not in err and "R420" not in err
    assert code == 1  # beta has no run


def test_calls_names_a_canonical_run_by_the_named_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``calls --case-from`` names each canonical sample after the field, with or without an id."""
    log = _log(
        tmp_path,
        {"id": "x1", "metadata": {"case": "alpha"}, "tool_calls": [CALL]},
        {"metadata": {"case": "beta"}, "tool_calls": [{"name": "send_email"}]},
        {"metadata": {"case": "beta"}, "tool_calls": []},
    )
    assert main(["calls", "--format", "json", "--case-from", "/metadata/case", log]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["logs"] == [{"path": log, "format": "canonical"}]
    assert [(s["id"], len(s["calls"])) for s in document["samples"]] == [
        ("alpha", 1),
        ("beta", 1),
        ("beta", 0),
    ]


def test_without_case_from_the_field_is_suggested(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Pairing by id, a canonical record without id whose field names a case gets R420's help."""
    log = _log(tmp_path, {"metadata": {"case": "alpha"}, "tool_calls": [CALL]})
    code, _, err = _score(tmp_path, capsys, "--log", log)
    assert code == 1
    help_line = "this run's field metadata.case equals the name of 1 case: use --case-from metadata.case"
    assert help_line in err


def test_a_provider_record_without_calls_is_not_taken_for_a_canonical_sample(tmp_path: Path) -> None:
    """Other fields are allowed beside canonical calls; a record that holds none and has other
    fields (a chat message that called nothing) is not canonical."""
    log = _log(tmp_path, {"role": "assistant", "content": "Hello!", "tool_calls": []})
    assert open_log(log).format != "canonical"
    log = _log(tmp_path, {"id": "a", "tool_calls": []}, {"metadata": {"case": "a"}, "tool_calls": []})
    assert open_log(log).format == "canonical"


def test_a_block_of_a_canonical_log_pairs_by_the_named_field_too(tmp_path: Path) -> None:
    """``score --dask`` and ``-j`` read canonical logs in blocks: there, too, the field named
    with --case-from decides, as in one process."""
    from toolexpect.api import parse_spec
    from toolexpect.pairing import PairingOptions
    from toolexpect.scale.blocks import numbered, score_block
    from toolexpect.scoring.partial import CompiledSpecs

    log = _log(
        tmp_path,
        {"id": "x1", "metadata": {"case": "alpha"}, "tool_calls": [CALL]},
        {"metadata": {"case": "beta"}, "tool_calls": [{"name": "send_email"}]},
    )
    compiled = CompiledSpecs.of([parse_spec(SPEC, "weather")])
    size = Path(log).stat().st_size
    partial = score_block(compiled, log, (0, size), (0,), pairing=PairingOptions(case_from="metadata.case"))
    assert partial is not None
    report = compiled.finish(numbered(partial))
    assert [(o.case.name, o.result.status) for o in report.cases] == [("alpha", "pass"), ("beta", "pass")]
    assert not report.unused
