"""The pairing findings are about the whole input, read in one go or in partitions.

Each partition's pairing gives notes; joined in input order, in any grouping, they word the
findings (``R420`` to ``R423``) exactly as pairing the whole input in one go words them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from logs_support import FIXTURES

from toolexpect.api import parse_spec
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs import open_logs
from toolexpect.pairing import PairingOptions, pair_runs
from toolexpect.pairing.advice import MAX_LEFT_IDS, PairingNotes, noted
from toolexpect.pairing.counts import best_option
from toolexpect.scoring.partial import CompiledSpecs
from toolexpect.spelling import Setting

PAIRING = FIXTURES.parent / "pairing"
SPEC = (PAIRING / "weather.expect").read_text(encoding="utf-8")
BY_FILE = sorted((PAIRING / "by_file").glob("*.jsonl"))
ALL_FILES = [*BY_FILE, PAIRING / "conversations.jsonl"]
AMBIGUOUS = SPEC.replace("How cold is it in Oslo today?", "Wie wird das Wetter morgen in Berlin?")
ONE_CASE = """
case "berlin tomorrow" {
    expect get_weather(city="Berlin")
}
"""


def _wrapped_responses(folder: Path) -> list[Path]:
    """The three responses of the Berlin run, one file each, each carrying its case in a field."""
    logs = []
    for number, line in enumerate((PAIRING / "by_file" / "berlin-tomorrow.jsonl").read_text().splitlines()):
        log = folder / f"turn-{number}.jsonl"
        record = {"metadata": {"case": "berlin tomorrow"}, "response": json.loads(line)}
        log.write_text(json.dumps(record) + "\n", encoding="utf-8")
        logs.append(log)
    return logs


def _whole(spec: str, logs: list[Path], options: PairingOptions) -> list[object]:
    paired = pair_runs([parse_spec(spec, "weather")], open_logs([str(log) for log in logs]), options)
    list(paired)
    return paired.diagnostics


def _in_parts(spec: str, logs: list[Path], options: PairingOptions) -> tuple[list[PairingNotes], list[str]]:
    """Each log paired on its own, and the notes of its stages in input order."""
    parsed = parse_spec(spec, "weather")
    notes: list[PairingNotes] = []
    for log in logs:
        paired = pair_runs([parsed], open_logs([str(log)]), options)
        list(paired)
        notes.extend(paired.notes(stage) for stage in ("read", "traces", "runs"))
    return notes, [case.name for case in parsed.cases]


CASES = {
    "R420 and R421 over four files": (AMBIGUOUS, "by-file+conversations", PairingOptions("question")),
    "R420 over four files, by id": (SPEC, "by-file+conversations", PairingOptions()),
    "R423 over three files": (ONE_CASE, "wrapped", PairingOptions()),
}


@pytest.mark.parametrize("name", list(CASES))
def test_notes_of_each_file_joined_word_the_findings_of_all_files_read_in_one_go(
    name: str, tmp_path: Path
) -> None:
    """Paired one file at a time, the joined notes give the very findings of one pairing of all
    the files, and joining them in any grouping gives the same."""
    spec, which, options = CASES[name]
    logs = _wrapped_responses(tmp_path) if which == "wrapped" else ALL_FILES
    whole = _whole(spec, logs, options)
    notes, names = _in_parts(spec, logs, options)
    joined = noted(notes)
    assert joined is not None
    assert joined.findings(names) == whole
    assert whole, "each case gives findings"
    halves = noted([noted(notes[:5]) or joined, noted(notes[5:]) or joined])
    assert halves is not None and halves.findings(names) == whole
    assert {d.code for d in whole} <= {"R420", "R421", "R423"}


def test_the_r421_and_r420_findings_of_an_ambiguous_question_are_given_once() -> None:
    """The same ambiguous question in several files is one R421; R420 counts the runs of all."""
    notes, names = _in_parts(AMBIGUOUS, ALL_FILES, PairingOptions("question"))
    joined = noted(notes)
    assert joined is not None
    codes = [d.code for d in joined.findings(names)]
    assert codes == ["R421", "R420"]


def _left_over(ids: list[str], at: int) -> PairingNotes:
    samples = [RecordedSample(sid, (ToolCall("f", {}),), "log.jsonl", at + n) for n, sid in enumerate(ids)]
    paired = pair_runs([parse_spec(ONE_CASE.replace("berlin tomorrow", "a"), "s")], [samples])
    list(paired)
    return paired.notes("read")


@given(st.lists(st.lists(st.sampled_from(["x", "y", "z", "w"]), max_size=4), min_size=1, max_size=5))
def test_left_over_runs_join_in_input_order_in_any_grouping(parts: list[list[str]]) -> None:
    """The ids of left-over runs keep their input order and counts whatever the partitioning."""
    notes = [_left_over(ids, 1) for ids in parts]
    whole = _left_over([sid for ids in parts for sid in ids], 1)
    left = noted(notes)
    assert left is not None
    assert left.left.runs == whole.left.runs
    assert (left.left.ids, left.left.options) == (whole.left.ids, whole.left.options)
    for cut in range(1, len(notes)):
        first, second = noted(notes[:cut]), noted(notes[cut:])
        assert first is not None and second is not None
        assert first.then(second).left == left.left


def test_beyond_the_cap_the_ids_are_the_first_ones_and_the_count_is_said_as_a_bound() -> None:
    """Over a thousand distinct left-over ids: the first are kept in input order, the message says
    'over N more' (the exact number of distinct ids is not kept), the run count stays exact."""
    ids = [f"run-{n}" for n in range(MAX_LEFT_IDS + 20)]
    notes = noted([_left_over(ids[:600], 1), _left_over(ids[600:], 601)])
    assert notes is not None
    assert notes.left.ids == tuple(ids[:MAX_LEFT_IDS]) and notes.left.capped
    [finding] = notes.findings(["a"])
    assert finding.message.startswith(f"{len(ids):,} recorded runs paired with no case ('run-0', ")
    assert f"and over {MAX_LEFT_IDS - 5:,} more" in finding.message


def test_a_tie_between_options_is_broken_by_a_fixed_order_not_by_reading_order() -> None:
    """Which option R420 suggests does not depend on which run was read first."""
    field, by_file = Setting("case-from", "meta.case"), Setting("pair-by", "file")
    by_question = Setting("pair-by", "question")
    assert best_option(((field, 2), (by_file, 2))) == (by_file, 2)
    assert best_option(((by_file, 2), (by_question, 2))) == (by_question, 2)
    first, second = Setting("case-from", "a"), Setting("case-from", "b")
    assert best_option(((second, 3), (first, 3))) == (first, 3)


def test_the_finished_report_words_the_notes_of_its_parts() -> None:
    """Scored in partitions, the report's log findings end with the pairing findings of all."""
    from toolexpect.scale.partition import score_read

    spec = parse_spec(SPEC, "weather")
    compiled = CompiledSpecs.of([spec])
    logs = ALL_FILES
    partial = compiled.empty()
    for number, log in enumerate(logs):
        partial = partial.merge(score_read(compiled, open_logs([str(log)]), at=(number,)))
    whole = compiled.finish(score_read(compiled, open_logs([str(log) for log in logs]), at=(0,)))
    assert compiled.finish(partial).log_diagnostics == whole.log_diagnostics
    assert [d.code for d in whole.log_diagnostics] == ["R420"]
