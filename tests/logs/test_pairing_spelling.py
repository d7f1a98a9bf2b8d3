"""Each surface spells the pairing options its findings suggest its own way, from one table."""

from __future__ import annotations

import re

import pytest
from logs_support import FIXTURES

from toolexpect.api import parse_spec
from toolexpect.logs import open_logs
from toolexpect.pairing import PairingOptions, pair_runs
from toolexpect.spelling import COMMAND_LINE, PYTEST, PYTHON, Setting, Spelling

PAIRING = FIXTURES.parent / "pairing"


@pytest.mark.parametrize(
    ("spelling", "by_file", "field", "spaced", "any_field"),
    [
        (
            COMMAND_LINE,
            "--pair-by file",
            "--case-from metadata.case",
            "--case-from 'app case'",
            "--case-from PATH",
        ),
        (
            PYTEST,
            "--toolexpect-pair-by file",
            "--toolexpect-case-from metadata.case",
            "--toolexpect-case-from 'app case'",
            "--toolexpect-case-from PATH",
        ),
        (
            PYTHON,
            'PairingOptions(by="file")',
            'PairingOptions(case_from="metadata.case")',
            'PairingOptions(case_from="app case")',
            "PairingOptions(case_from=PATH)",
        ),
    ],
    ids=lambda value: value.surface if isinstance(value, Spelling) else None,
)
def test_each_surface_spells_a_setting_as_it_reads_it(
    spelling: Spelling, by_file: str, field: str, spaced: str, any_field: str
) -> None:
    """A setting's value is quoted as the surface reads it (a shell word, a Python string)."""
    assert spelling(Setting("pair-by", "file")) == by_file
    assert spelling(Setting("case-from", "metadata.case")) == field
    assert spelling(Setting("case-from", "app case")) == spaced
    assert spelling(Setting("case-from")) == any_field


def test_the_python_hint_is_python_that_pairs_the_runs() -> None:
    """``pair_runs`` findings spell the option as Python takes it, and that code pairs the runs."""
    spec = parse_spec((PAIRING / "weather.expect").read_text(encoding="utf-8"), "weather")
    paired = pair_runs([spec], open_logs([str(PAIRING / "conversations.jsonl")]))
    list(paired)
    [finding] = paired.diagnostics
    assert 'pairing with PairingOptions(by="id")' in finding.message
    found = re.search(r"use (PairingOptions\(.*\))$", finding.help or "")
    assert found is not None, finding.help
    options = eval(found.group(1), {"PairingOptions": PairingOptions})  # the finding's own code
    again = pair_runs([spec], open_logs([str(PAIRING / "conversations.jsonl")]), options)
    assert [run.id for run in again] == ["berlin tomorrow", "lisbon weekend", "oslo today"]
    assert again.diagnostics == []


def test_the_command_line_findings_spell_the_command_line_options() -> None:
    """The same finding asked for with the command line's spelling names ``--pair-by``."""
    spec = parse_spec((PAIRING / "weather.expect").read_text(encoding="utf-8"), "weather")
    paired = pair_runs([spec], open_logs([str(PAIRING / "conversations.jsonl")]), spelling=COMMAND_LINE)
    list(paired)
    [finding] = paired.diagnostics
    assert finding.message.endswith("pairing with --pair-by id")
    assert finding.help == (
        "these 3 runs' user questions equal the questions of 3 cases: use --pair-by question"
    )


def test_the_naming_help_of_a_snapshot_never_suggests_the_pairing_in_use() -> None:
    """Runs that ask questions are told to pair by question; else by file or by a field, less
    the one in use."""
    from toolexpect.pairing.advice import naming_help

    by_id, by_file = Setting("pair-by", "id"), Setting("pair-by", "file")
    assert naming_help(4, 2, by_id, COMMAND_LINE) == (
        "these 4 runs' user questions name 2 cases: use --pair-by question"
    )
    assert naming_help(1, 0, by_id, PYTEST) == (
        "name each run after its case with --toolexpect-pair-by file (the log files' names) or "
        "--toolexpect-case-from PATH (a field of each record)"
    )
    assert naming_help(3, 0, by_file, COMMAND_LINE) == (
        "name each run after its case with --case-from PATH (a field of each record)"
    )
    assert naming_help(3, 0, Setting("case-from", "metadata.case"), PYTHON) == (
        'name each run after its case with PairingOptions(by="file") (the log files\' names)'
    )
