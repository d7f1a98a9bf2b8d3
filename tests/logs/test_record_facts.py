"""Each record's calls and facts stay its own: none lost, moved to another run, or counted twice.

The conversations are made by ``tests/fixtures/pairing/make_conversations.py`` with the real
client SDKs (see ``tests/fixtures/README.md``); the one-line records by ``google.genai.types``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google.genai import types
from logs_support import FIXTURES, call, summary

from toolexpect.api import parse_spec
from toolexpect.calls import SampleFacts, ToolCall
from toolexpect.cli import main
from toolexpect.logs import LOG_FORMATS, open_log, open_logs
from toolexpect.logs._base import Context, dedupe
from toolexpect.logs.calllist import CallList
from toolexpect.pairing import PairingOptions, pair_runs

Runs = list[tuple[str | None, list[dict[str, Any]]]]
PAIRING = FIXTURES.parent / "pairing"


def _read(log: Path) -> tuple[str, list[Any], list[str]]:
    """Format, samples (read record by record, no pairing) and diagnostic codes of a log."""
    reader = open_log(log)
    samples = list(reader)
    return reader.format, samples, [d.code for d in reader.diagnostics]


def _runs(spec: str, logs: list[Path], options: PairingOptions) -> tuple[Runs, list[str]]:
    paired = pair_runs([parse_spec(spec, "cases")], open_logs([str(p) for p in logs]), options)
    runs = [(s.id, [c.to_json() for c in s.calls]) for s in paired]
    return runs, [d.code for d in paired.diagnostics]


def _gemini_response(rid: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A ``GenerateContentResponse`` with one call and no call id, in the REST camelCase."""
    response = types.GenerateContentResponse(
        response_id=rid,
        candidates=[
            types.Candidate(
                index=0,
                finish_reason=types.FinishReason.STOP,
                content=types.Content(
                    role="model", parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))]
                ),
            )
        ],
    )
    dumped: dict[str, Any] = response.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


ALPHA_BETA = (
    'case "alpha" {\n    expect get_weather(city="Berlin")\n}\n'
    'case "beta" {\n    expect get_time(tz="UTC")\n}\n'
)


def _alpha_beta(tmp_path: Path) -> Path:
    log = tmp_path / "gemini.jsonl"
    lines = [
        {
            "metadata": {"case": "alpha"},
            "response": _gemini_response("R1", "get_weather", {"city": "Berlin"}),
        },
        {"metadata": {"case": "beta"}, "response": _gemini_response("R2", "get_time", {"tz": "UTC"})},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return log


# --- 1. a record's facts are its own ------------------------------------------------------


def test_a_gemini_response_pairs_by_its_own_field(tmp_path: Path) -> None:
    """``--case-from metadata.case``: each Gemini response pairs by its own record's field, not by
    the next record's (the reader holds a response until the next record shows it complete)."""
    log = _alpha_beta(tmp_path)
    runs, codes = _runs(ALPHA_BETA, [log], PairingOptions(case_from="metadata.case"))
    assert runs == [
        ("alpha", [call("get_weather", {"city": "Berlin"})]),
        ("beta", [call("get_time", {"tz": "UTC"})]),
    ]
    assert codes == []


def test_score_case_from_pairs_each_gemini_response_with_its_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``toolexpect score --case-from metadata.case``: both cases pass, none without a sample."""
    spec = tmp_path / "cases.expect"
    spec.write_text(ALPHA_BETA, encoding="utf-8")
    code = main(["score", str(spec), "--log", str(_alpha_beta(tmp_path)), "--case-from", "metadata.case"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "2 passed, 0 failed" in out


AGENT = PAIRING / "gemini_agent_pairs.jsonl"
AGENT_CASES = (
    'case "berlin then mail" {\n    question "Weather in Berlin, then mail ops?"\n'
    '    expect get_weather(city="Berlin")\n    expect send_email(city="Berlin")\n}\n'
    'case "oslo and bergen" {\n    question "How cold is it in Oslo and Bergen?"\n'
    '    expect get_weather(city="Oslo")\n    expect get_weather(city="Bergen")\n'
    '    expect send_email(city="Oslo")\n}\n'
)
BERLIN_RUN = [
    call("get_weather", {"city": "Berlin"}),
    call("send_email", {"to": "ops@example.com", "city": "Berlin"}),
]
OSLO_RUN = [
    call("get_weather", {"city": "Oslo"}),
    call("get_weather", {"city": "Bergen"}),
    call("send_email", {"to": "ops@example.com", "city": "Oslo"}),
]


def test_gemini_request_response_pairs_by_question_are_one_run_per_conversation() -> None:
    """``--pair-by question``: each of the two three-turn conversations is one run of its case,
    its last record included, each call once."""
    runs, codes = _runs(AGENT_CASES, [AGENT], PairingOptions("question"))
    assert runs == [("berlin then mail", BERLIN_RUN), ("oslo and bergen", OSLO_RUN)]
    assert codes == []


# --- 2. pydantic-ai's client-made ids -------------------------------------------------------


def test_gemini_pairs_by_history_count_a_call_given_an_id_by_the_client_once() -> None:
    """By history alone (no case names the runs): one run per conversation, and a call that came
    back without an id is the same call as its history copy under ``pyd_ai_…``."""
    runs, _ = _runs('case "other" {\n    expect nothing()\n}\n', [AGENT], PairingOptions())
    assert runs == [("gA1", BERLIN_RUN), ("gB1", OSLO_RUN)]


def test_gemini_pairs_read_record_by_record_hold_the_history_then_the_response() -> None:
    """Read without pairing, each record is a sample: its history's calls (with the client's
    ids), then its response's (without)."""
    fmt, samples, codes = _read(AGENT)
    assert fmt == "gemini"
    pyd = "pyd_ai_{:04x}{:04x}{:04x}" + "0" * 20
    assert summary(samples)[:3] == [
        ("gA1", [call("get_weather", {"city": "Berlin"})]),
        (
            "gA2",
            [
                call("get_weather", {"city": "Berlin"}, pyd.format(1, 0, 0)),
                call("send_email", {"to": "ops@example.com", "city": "Berlin"}),
            ],
        ),
        (
            "gA3",
            [
                call("get_weather", {"city": "Berlin"}, pyd.format(1, 0, 0)),
                call("send_email", {"to": "ops@example.com", "city": "Berlin"}, pyd.format(1, 1, 0)),
            ],
        ),
    ]
    assert codes == []


# --- 3. ids numbered per response -------------------------------------------------------------


NUMBERED = PAIRING / "chat_numbered_ids.jsonl"
STREAMED = PAIRING / "gemini_stream_pairs.jsonl"
PLAN = '{"days": 3}'
SOUP = '{"query": "lentil soup"}'


def test_a_reused_call_id_naming_another_call_is_another_call() -> None:
    """``call_0`` in each response: the second record's history copy of ``plan_meals`` and its
    own ``search_recipes`` are both kept, without a diagnostic."""
    fmt, samples, codes = _read(NUMBERED)
    assert fmt == "openai-chat"
    assert summary(samples) == [
        ("chatcmpl-N1", [call("plan_meals", {"days": 3}, "call_0", raw=PLAN)]),
        (
            "chatcmpl-N2",
            [
                call("plan_meals", {"days": 3}, "call_0", raw=PLAN),
                call("search_recipes", {"query": "lentil soup"}, "call_0", raw=SOUP),
            ],
        ),
    ]
    assert codes == []


def test_calls_shows_both_calls_of_a_conversation_whose_ids_repeat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``toolexpect calls``: the two records are one run (by history) of two calls."""
    assert main(["calls", "--format", "json", str(NUMBERED)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [(s["id"], [(c["name"], c["id"]) for c in s["calls"]]) for s in document["samples"]] == [
        ("chatcmpl-N1", [("plan_meals", "call_0"), ("search_recipes", "call_0")])
    ]


def _tool_call(name: str, args: dict[str, Any], cid: str | None, line: int) -> ToolCall:
    return ToolCall(name, args, cid, line=line, path="log.jsonl")


def test_a_call_logged_twice_under_its_id_is_dropped_with_an_r410_note() -> None:
    """The same tool, arguments and id twice: one call, and an R410 note at the repeat's line."""
    ctx = Context("log.jsonl")
    first = _tool_call("plan_meals", {"days": 3}, "call_0", 1)
    other = _tool_call("search_recipes", {"query": "soup"}, "call_0", 2)
    again = _tool_call("plan_meals", {"days": 3}, "call_0", 3)
    assert dedupe([first, other, again], ctx) == (first, other)
    [note] = ctx.diagnostics
    assert (note.code, note.line, note.path, note.severity.value) == ("R410", 3, "log.jsonl", "note")
    assert "'plan_meals'" in note.message and "'call_0'" in note.message and "line 1" in note.message


def test_the_runs_rule_keeps_a_call_under_a_used_id_and_merges_a_history_copy() -> None:
    """One rule for records and runs: a later record's history copy (under the client's id) is
    the held call; another tool, or other arguments, under a held id is another call."""
    held = CallList()
    response = _tool_call("get_weather", {"city": "Berlin"}, None, 1)
    assert held.extend((response,)) == []
    copy = _tool_call("get_weather", {"city": "Berlin"}, "pyd_ai_1", 2)
    mail = _tool_call("send_email", {"to": "ops"}, "call_0", 2)
    assert held.extend((copy, mail)) == []
    assert held.calls == [response, mail]
    again = _tool_call("get_weather", {"city": "Berlin"}, "pyd_ai_1", 3)
    other = _tool_call("send_email", {"to": "dev"}, "call_0", 3)
    assert held.extend((other, again)) == [(again, response)]
    assert held.calls == [response, mail, other]


# --- 5. a stream's chunks as the response of a record ------------------------------------------


def test_a_gemini_stream_logged_as_the_response_of_a_request_is_read_merged() -> None:
    """``{"request", "response": [chunk, ...]}``: the chunks merged as for a bare stream array,
    the request's calls first."""
    fmt, samples, codes = _read(STREAMED)
    assert fmt == "gemini"
    assert summary(samples) == [
        ("gS1", [call("get_weather", {"city": "Lisbon"})]),
        (
            "gS2",
            [
                call("get_weather", {"city": "Lisbon"}),
                call("send_email", {"to": "ops@example.com", "city": "Lisbon"}),
            ],
        ),
    ]
    assert codes == []


def test_a_gemini_stream_conversation_is_one_run_of_its_case() -> None:
    """Paired by question, the two streamed turns are one run, each call once."""
    spec = 'case "lisbon" {\n    question "Rain in Lisbon?"\n    expect get_weather(city="Lisbon")\n}\n'
    runs, codes = _runs(spec, [STREAMED], PairingOptions("question"))
    assert runs == [
        (
            "lisbon",
            [
                call("get_weather", {"city": "Lisbon"}),
                call("send_email", {"to": "ops@example.com", "city": "Lisbon"}),
            ],
        )
    ]
    assert codes == []


# --- the facts of every sample come from its own record ---------------------------------------


GATHERED = {"otel", "langsmith"}
"""Formats whose samples gather many records: they hand over what stands for the record."""

LINE_LOGS = [
    path
    for path in sorted(FIXTURES.rglob("*.jsonl"))
    if path.parent.name in LOG_FORMATS and path.parent.name not in GATHERED
] + sorted(PAIRING.rglob("*.jsonl"))


@pytest.mark.parametrize("log", LINE_LOGS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_sample_is_noted_with_the_record_at_its_line(log: Path) -> None:
    """Read for pairing, every sample of every JSON Lines fixture gets the facts of the record
    at its own line (a stream's first chunk, a held response's own record)."""
    lines = log.read_text(encoding="utf-8").splitlines()
    noted: list[Any] = []

    def note(record: Any, sample_id: str | None) -> SampleFacts:
        noted.append(record)
        return SampleFacts()

    for sample in open_log(log).samples(note):
        if not noted:  # a reader that reads no facts (canonical, MCP)
            continue
        assert sample.line is not None
        record = json.loads(lines[sample.line - 1])
        assert all(seen == record for seen in noted), sample
        noted.clear()


def test_a_sample_of_an_earlier_line_without_its_record_is_refused() -> None:
    """A reader that makes a sample of another line than the one it reads must hand over that
    line's record: without it the sample would pair by another record's facts."""
    ctx = Context("log.jsonl", note=lambda record, sid: SampleFacts())
    ctx.line, ctx.record = 2, {"metadata": {"case": "beta"}}
    with pytest.raises(RuntimeError, match="a sample of line 1 was made at line 2 without its record"):
        ctx.sample(None, [], 1)
    assert ctx.sample(None, [], 1, {"metadata": {"case": "alpha"}}).line == 1


def _completion(cid: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A ``ChatCompletion`` with one call numbered ``call_0``, as the SDK dumps it."""
    from openai.types.chat import ChatCompletion

    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        ],
    }
    completion = ChatCompletion.model_validate(
        {
            "id": cid,
            "object": "chat.completion",
            "created": 1764720000,
            "model": "qwen3",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        }
    )
    dumped: dict[str, Any] = completion.model_dump(mode="json")
    return dumped


def test_responses_joined_by_field_keep_another_call_under_a_used_id_and_note_a_repeat(
    tmp_path: Path,
) -> None:
    """Bare responses joined under one ``--case-from`` value: ``call_0`` naming another call is
    kept; the same call under ``call_0`` again is counted once, with an R410 note at its line."""
    log = tmp_path / "planner.jsonl"
    lines = [
        {"metadata": {"case": "planner"}, "response": _completion("c1", "plan_meals", {"days": 3})},
        {"metadata": {"case": "planner"}, "response": _completion("c2", "search_recipes", {"query": "soup"})},
        {"metadata": {"case": "planner"}, "response": _completion("c3", "plan_meals", {"days": 3})},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    spec = 'case "planner" {\n    expect plan_meals(days=3)\n}\n'
    reader = open_log(log)
    paired = pair_runs([parse_spec(spec, "cases")], [reader], PairingOptions(case_from="metadata.case"))
    runs = [(s.id, [c.to_json() for c in s.calls]) for s in paired]
    assert runs == [
        (
            "planner",
            [
                call("plan_meals", {"days": 3}, "call_0", raw='{"days": 3}'),
                call("search_recipes", {"query": "soup"}, "call_0", raw='{"query": "soup"}'),
            ],
        )
    ]
    [note] = reader.diagnostics
    assert (note.code, note.line, note.path) == ("R410", 3, str(log))
    assert "'plan_meals' with id 'call_0' is logged again (first at line 1)" in note.message
