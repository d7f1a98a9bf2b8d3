"""Runs spread over several logs, scored one log per partition and joined by a group-by on
their run key, as an engine joins them.

Each log is scored alone (``score_shard``): its runs given as read, and its held records
(records that records of other logs may join). The held records are grouped by run key and
each group is joined on its own, its records sorted back by the places they carry
(``toolexpect.scale.grouped``, the steps the Dask shuffle runs, here over lists). The report is
the one of one process reading every log, byte for byte, whatever the order in which the shards
and the records arrive, and conversations that share only an opening (a system prompt) are
groups of their own.
"""

from __future__ import annotations

import itertools
import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolexpect.api import parse_spec
from toolexpect.logs import open_logs
from toolexpect.pairing import PairingOptions
from toolexpect.pairing.groups import Held
from toolexpect.report.score import FORMATS, render
from toolexpect.scale.grouped import groups_of, score_grouped
from toolexpect.scale.partition import score_read
from toolexpect.scale.shards import score_shard, survey_log
from toolexpect.scoring.partial import CompiledSpecs, ScoreReport

ROOT = Path(__file__).resolve().parents[2]
PAIRING = ROOT / "tests" / "fixtures" / "pairing"
OTEL = ROOT / "tests" / "fixtures" / "logs" / "otel" / "traces.json"
SPEC = (PAIRING / "weather.expect").read_text(encoding="utf-8")


def _engine(
    spec: str, logs: list[Path], options: PairingOptions, order: list[int] | None = None, seed: int = 0
) -> tuple[ScoreReport, int]:
    """The report of scoring each log alone, in ``order``, then its held records grouped by run
    key (in a shuffled order) and joined group by group; and how many groups there were."""
    compiled = CompiledSpecs.of([parse_spec(spec, "weather")])
    shards = [shard for number, log in enumerate(logs) for shard in survey_log(str(log), number)]
    total = compiled.empty()
    held: list[Held] = []
    for number in order if order is not None else range(len(shards)):
        scored = score_shard(compiled, shards[number], pairing=options)
        assert scored is not None
        total = total.merge(scored.partial)
        held.extend(scored.held)
    random.Random(seed).shuffle(held)
    total = score_grouped(compiled, total, held, len(logs), pairing=options)
    return compiled.finish(total), len(groups_of(held, options))


def _one_process(spec: str, logs: list[Path], options: PairingOptions) -> ScoreReport:
    compiled = CompiledSpecs.of([parse_spec(spec, "weather")])
    readers = open_logs([str(log) for log in logs])
    return compiled.finish(score_read(compiled, readers, at=(0,), pairing=options))


def _rotated(folder: Path) -> list[Path]:
    """The three conversations of the pairing fixtures logged into files rotated mid-way, with
    another conversation (same system prompt, its own question) in a file between them."""
    records = (PAIRING / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    other = [
        line.replace("Wie wird das Wetter morgen in Berlin?", "Und in Hamburg?").replace(
            '"berlin tomorrow"', '"hamburg"'
        )
        for line in records[:3]
    ]
    files = {
        "rot-0.jsonl": records[0:4],  # Berlin whole, Lisbon's first record
        "other.jsonl": other,  # a conversation of its own
        "rot-1.jsonl": records[4:7],  # Lisbon's last records, Oslo's first
        "rot-2.jsonl": records[7:9],  # Oslo's last records
    }
    logs = []
    for name, lines in files.items():
        log = folder / name
        log.write_text("\n".join(lines) + "\n", encoding="utf-8")
        logs.append(log)
    return logs


@pytest.mark.parametrize(
    "options",
    [PairingOptions(), PairingOptions("question"), PairingOptions(case_from="metadata.case")],
    ids=["id", "question", "case-from"],
)
def test_conversations_across_rotated_logs_are_joined_as_one_process_joins_them(
    options: PairingOptions, tmp_path: Path
) -> None:
    """Records of one conversation in two or three files: its records are one group, the
    conversation is one run, and the report is the one process's in every format, in any order
    of arrival."""
    logs = _rotated(tmp_path)
    single = _one_process(SPEC, logs, options)
    for seed, order in enumerate((None, [3, 1, 0, 2])):
        report, groups = _engine(SPEC, logs, options, order, seed)
        assert groups == 4, "Berlin, Lisbon, Oslo and the conversation of its own"
        assert report == single
        for fmt in FORMATS:
            assert render(report, fmt) == render(single, fmt)
    runs = {outcome.case.name: outcome.result.runs for outcome in single.cases}
    if options.by == "id" and options.case_from is None:
        assert runs == {"berlin tomorrow": 0, "lisbon weekend": 0, "oslo today": 0}
    else:
        assert runs == {"berlin tomorrow": 1, "lisbon weekend": 1, "oslo today": 1}
        assert single.passed == 3


def test_conversations_that_share_only_a_system_prompt_are_groups_of_their_own(tmp_path: Path) -> None:
    """Every conversation opens with the same system prompt; with no request of that prompt
    alone logged, each conversation is a group of its own."""
    records = (PAIRING / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    logs = []
    for number in range(3):
        log = tmp_path / f"whole-{number}.jsonl"
        log.write_text("\n".join(records[3 * number : 3 * number + 3]) + "\n", encoding="utf-8")
        logs.append(log)
    options = PairingOptions("question")
    report, groups = _engine(SPEC, logs, options)
    assert groups == 3
    assert report == _one_process(SPEC, logs, options)
    assert report.passed == 3


def test_the_spans_of_one_trace_in_two_exports_are_one_run(tmp_path: Path) -> None:
    """Two OpenTelemetry traces whose spans were exported into two files (each file holds some
    of each): each trace is one run, as one process makes it."""
    document = json.loads(OTEL.read_text(encoding="utf-8"))
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    logs = []
    for number, part in enumerate((spans[0::2], spans[1::2])):
        copy = json.loads(json.dumps(document))
        copy["resourceSpans"][0]["scopeSpans"][0]["spans"] = part
        log = tmp_path / f"export-{number}.json"
        log.write_text(json.dumps(copy), encoding="utf-8")
        logs.append(log)
    spec = "expect get_weather\n"
    single = _one_process(spec, logs, PairingOptions())
    report, groups = _engine(spec, logs, PairingOptions())
    assert groups == 2, "one group a trace"
    assert report == single
    assert single.cases[0].result.runs == 2
    alone = [_one_process(spec, [log], PairingOptions()).cases[0].result.runs for log in logs]
    assert alone == [2, 2], "scored file by file, each trace would be two runs"


def _conversation(number: int, system: str | None, user: str | None, turns: list[str]) -> list[dict]:
    """The messages of one conversation: an opening, then a tool call and its result per turn."""
    messages: list[dict] = []
    if system is not None:
        messages.append({"role": "system", "content": system})
    if user is not None:
        messages.append({"role": "user", "content": user})
    for turn, tool in enumerate(turns):
        call = f"call_{number}_{turn}"
        function = {"name": tool, "arguments": "{}"}
        calls = [{"id": call, "type": "function", "function": function}]
        messages.append({"role": "assistant", "tool_calls": calls})
        messages.append({"role": "tool", "tool_call_id": call, "content": "ok"})
    return messages


_OPENINGS = st.tuples(st.sampled_from(["You help.", "You plan.", None]), st.sampled_from(["Hi", "Go", None]))


@settings(max_examples=60)
@given(
    conversations=st.lists(
        st.tuples(_OPENINGS, st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=3)),
        min_size=1,
        max_size=4,
    ),
    data=st.data(),
    options=st.sampled_from(
        [PairingOptions(), PairingOptions("question"), PairingOptions(case_from="meta.case")]
    ),
)
def test_any_records_in_any_files_give_the_one_process_report(
    conversations: list[tuple[tuple[str | None, str | None], list[str]]],
    data: st.DataObject,
    options: PairingOptions,
) -> None:
    """Conversations sharing openings or not, with or without a user message, their records
    (each the conversation so far, some logged twice) in any order and cut into any files:
    scored a log at a time and linked, the report is the one of one process reading every
    file; the records arrive at the grouping in any order."""
    records = []
    for number, ((system, user), turns) in enumerate(conversations):
        messages = _conversation(number, system, user, turns)
        ends = [index + 1 for index, message in enumerate(messages) if message["role"] == "tool"]
        for end in ends:
            records.append({"meta": {"case": f"c{number % 2}"}, "messages": messages[:end]})
    records += data.draw(st.lists(st.sampled_from(records), max_size=2))  # a record logged twice
    records = data.draw(st.permutations(records))
    inner = st.integers(1, max(1, len(records) - 1))
    cuts = sorted(data.draw(st.lists(inner, max_size=min(3, len(records) - 1), unique=True)))  # none empty
    spec = 'case "c0" {\n    expect a\n}\ncase "c1" {\n    expect b\n}\n'
    if options == PairingOptions():
        spec = "expect a\n"
    with tempfile.TemporaryDirectory() as folder:
        logs = []
        for number, (start, stop) in enumerate(itertools.pairwise([0, *cuts, len(records)])):
            log = Path(folder) / f"part-{number}.jsonl"
            lines = "".join(json.dumps(record) + "\n" for record in records[start:stop])
            log.write_text(lines, encoding="utf-8")
            logs.append(log)
        single = _one_process(spec, logs, options)
        report, _ = _engine(spec, logs, options, seed=data.draw(st.integers(0, 1000)))
        assert render(report, "json") == render(single, "json")
        assert report == single


def test_an_opening_logged_alone_ties_the_conversations_it_opens_into_one_group(tmp_path: Path) -> None:
    """A request holding only the system prompt (an opening) is continued by the first later
    conversation with that prompt, in whichever file: the conversations it opens are one group,
    and the report is the one process's."""
    opening = {"meta": {"case": "c0"}, "messages": [{"role": "system", "content": "You help."}]}
    first = _conversation(1, "You help.", "Hi", ["a"])
    second = _conversation(2, "You help.", "Go", ["b"])
    alone = _conversation(3, "You plan.", "Hi", ["a"])
    records = [opening, *({"meta": {"case": "c0"}, "messages": m} for m in (alone, first, second))]
    logs = []
    for number, lines in enumerate((records[:2], records[2:3], records[3:])):
        log = tmp_path / f"part-{number}.jsonl"
        log.write_text("".join(json.dumps(record) + "\n" for record in lines), encoding="utf-8")
        logs.append(log)
    spec = "expect a\n"
    report, groups = _engine(spec, logs, PairingOptions())
    assert groups == 2, "the opening with both conversations it opens, and the other prompt's"
    assert render(report, "json") == render(_one_process(spec, logs, PairingOptions()), "json")


def _response(call: str) -> dict[str, object]:
    """An OpenAI chat completion logged without its request (no history), for ``--case-from``."""
    function = {"name": "a", "arguments": "{}"}
    message = {"role": "assistant", "tool_calls": [{"id": call, "type": "function", "function": function}]}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "metadata": {"case": "c0"},
        "choices": [{"index": 0, "message": message}],
    }


def rotated_repeats(folder: Path) -> list[Path]:
    """Two logs, each with a call logged twice for one key, then a line that is not JSON."""
    logs = []
    for number, call in enumerate(("x", "y")):
        log = folder / f"part-{number}.jsonl"
        lines = [json.dumps(_response(call)), json.dumps(_response(call)), "{not json"]
        log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        logs.append(log)
    return logs


def test_a_call_logged_twice_is_noted_among_its_logs_findings_where_one_process_notes_it(
    tmp_path: Path,
) -> None:
    """Responses joined by key, a call logged twice in each log: the R410 note the joining
    makes comes before the log's later findings (the line that is not JSON), as in one process."""
    logs = rotated_repeats(tmp_path)
    options = PairingOptions(case_from="metadata.case")
    spec = 'case "c0" {\n    expect a\n}\n'
    report, _ = _engine(spec, logs, options)
    single = _one_process(spec, logs, options)
    found = [(d.code, Path(d.path or "").name) for d in single.log_diagnostics]
    assert found == [
        ("R410", "part-0.jsonl"),
        ("R401", "part-0.jsonl"),
        ("R410", "part-1.jsonl"),
        ("R401", "part-1.jsonl"),
    ]
    for fmt in FORMATS:
        assert render(report, fmt) == render(single, fmt)
