"""Pairing recorded runs with cases: by id, by question, by file, by a named field.

The fixtures under ``tests/fixtures/pairing`` were made with the OpenAI SDK (see
``make_chat_runs.py``): a three-turn agent per case, saved per turn as users save it.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from logs_support import FIXTURES, call

from toolexpect.api import parse_spec
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.cli import main
from toolexpect.logs import open_log, open_logs
from toolexpect.pairing import PairingOptions, field_path, pair_runs
from toolexpect.pairing.facts import trace_id
from toolexpect.scoring.partial import score

PAIRING = FIXTURES.parent / "pairing"

SPEC = (PAIRING / "weather.expect").read_text(encoding="utf-8")
"""The cases of the pairing fixtures: each states the question its runs ask."""

CASES = ["berlin tomorrow", "lisbon weekend", "oslo today"]


def _runs(specs_text: str, logs: list[str | Path], options: PairingOptions) -> tuple[list[Any], list[Any]]:
    spec = parse_spec(specs_text, "weather")
    paired = pair_runs([spec], open_logs([str(p) for p in logs]), options)
    runs = [(s.id, [(c.name, dict(c.arguments), c.id) for c in s.calls]) for s in paired]
    return runs, paired.diagnostics


def _expected(number: int, city: str) -> list[tuple[str, dict[str, Any], str]]:
    return [
        ("get_weather", {"city": city}, f"call_{number:04d}"),
        ("send_summary", {"to": "ops@example.com", "city": city}, f"call_{number + 1:04d}"),
    ]


PAIRED = [
    ("berlin tomorrow", _expected(1, "Berlin")),
    ("lisbon weekend", _expected(4, "Lisbon")),
    ("oslo today", _expected(7, "Oslo")),
]


def _score_text(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    spec = tmp_path / "weather.expect"
    spec.write_text(SPEC, encoding="utf-8")
    code = main(["score", str(spec), *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_by_question_a_growing_conversation_is_one_run_per_case() -> None:
    """Each record holds the conversation so far: the records of one conversation form one run
    (calls counted once), named after the case whose question its first user message asks."""
    runs, diagnostics = _runs(SPEC, [PAIRING / "conversations.jsonl"], PairingOptions("question"))
    assert runs == PAIRED
    assert diagnostics == []


def test_by_a_named_field_dotted_or_json_pointer() -> None:
    """``--case-from metadata.case`` and ``/metadata/case`` read the same field of each record."""
    for path in ("metadata.case", "/metadata/case"):
        runs, diagnostics = _runs(SPEC, [PAIRING / "conversations.jsonl"], PairingOptions(case_from=path))
        assert runs == PAIRED
        assert diagnostics == []


def test_by_file_the_turns_of_a_file_are_one_run() -> None:
    """One ``chat.completion`` per model turn, one file per case: each file is one run of the
    case it is named after (``berlin-tomorrow.jsonl`` for "berlin tomorrow")."""
    runs, diagnostics = _runs(SPEC, [PAIRING / "by_file"], PairingOptions("file"))
    assert runs == PAIRED
    assert diagnostics == []


def test_by_id_the_provider_ids_pair_with_nothing_and_the_finding_suggests_the_file() -> None:
    """By id, each ``chatcmpl-`` response is a run of its own: R420 lists what was left over and
    which cases found none, and its help names the option that pairs them."""
    runs, diagnostics = _runs(SPEC, [PAIRING / "by_file"], PairingOptions())
    assert [sid for sid, _ in runs] == [f"chatcmpl-PAIR{n:04d}" for n in range(1, 10)]
    [finding] = diagnostics
    assert finding.code == "R420"
    assert finding.message.startswith("9 recorded runs paired with no case ('chatcmpl-PAIR0001'")
    assert "3 cases found none ('berlin tomorrow', 'lisbon weekend', 'oslo today')" in finding.message
    assert finding.help == (
        'these 9 runs\' log file names equal the names of 3 cases: use PairingOptions(by="file")'
    )
    assert finding.path is not None and finding.path.endswith("berlin-tomorrow.jsonl")
    assert finding.line == 1


def test_by_id_conversations_without_ids_suggest_the_question() -> None:
    """Records without an id and a spec of several cases: the help says to pair by question."""
    runs, diagnostics = _runs(SPEC, [PAIRING / "conversations.jsonl"], PairingOptions())
    assert [sid for sid, _ in runs] == [None, None, None]
    assert [calls for _, calls in runs] == [calls for _, calls in PAIRED]
    [finding] = diagnostics
    assert "3 recorded runs paired with no case (3 without an id)" in finding.message
    assert finding.help == (
        'these 3 runs\' user questions equal the questions of 3 cases: use PairingOptions(by="question")'
    )


def test_a_field_naming_the_cases_is_suggested_when_pairing_by_file() -> None:
    """Runs left over under --pair-by file, whose records name their case in a field: the help
    names that field for --case-from."""
    _runs_found, diagnostics = _runs(
        SPEC.replace("question", "# question"), [PAIRING / "conversations.jsonl"], PairingOptions("file")
    )
    [finding] = diagnostics
    assert finding.help == (
        "these 3 runs' field metadata.case equal the names of 3 cases: "
        'use PairingOptions(case_from="metadata.case")'
    )


def test_a_question_that_two_cases_ask_pairs_with_neither(tmp_path: Path) -> None:
    """Two cases with one question: the runs asking it pair with neither, and R421 says why."""
    spec = SPEC.replace("How cold is it in Oslo today?", "Wie wird das Wetter morgen in Berlin?")
    runs, diagnostics = _runs(spec, [PAIRING / "conversations.jsonl"], PairingOptions("question"))
    assert [sid for sid, _ in runs] == [None, "lisbon weekend", None]
    codes = [d.code for d in diagnostics]
    assert codes == ["R421", "R420"]
    assert "'berlin tomorrow', 'oslo today'" in diagnostics[0].message


def test_a_one_case_spec_pairs_with_a_response_whatever_its_id() -> None:
    """One ``ChatCompletion`` scored against a one-case spec pairs, though its id is no case."""
    spec = 'case "weather" {\n    expect get_weather(city="Berlin")\n}\n'
    runs, diagnostics = _runs(spec, [PAIRING / "by_file" / "berlin-tomorrow.jsonl"], PairingOptions())
    assert [sid for sid, _ in runs] == ["weather", "weather", "weather"]
    assert diagnostics == []


@pytest.mark.parametrize(
    ("argv", "code", "summary"),
    [
        (["--log", str(PAIRING / "conversations.jsonl"), "--pair-by", "question"], 0, "3 passed, 0 failed"),
        (
            ["--log", str(PAIRING / "conversations.jsonl"), "--case-from", "metadata.case"],
            0,
            "3 passed, 0 failed",
        ),
        (["--log", str(PAIRING / "by_file"), "--pair-by", "file"], 0, "3 passed, 0 failed"),
        (["--log", str(PAIRING / "by_file" / "*.jsonl"), "--pair-by", "file"], 0, "3 passed, 0 failed"),
        (["--log", str(PAIRING / "by_file")], 1, "0 passed, 0 failed, 3 errors"),
    ],
    ids=["question", "case-from", "file-folder", "file-glob", "id"],
)
def test_score_with_each_pairing_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], code: int, summary: str
) -> None:
    """``toolexpect score`` pairs every case with one option, and says what to use without it."""
    found, out, err = _score_text(capsys, tmp_path, *argv)
    assert found == code, err
    assert summary in out
    if code:
        assert "warning[R420]" in err
        assert "help: these 9 runs' log file names equal the names of 3 cases: use --pair-by file" in err


def test_pairing_is_read_from_pyproject(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pair-by`` and ``case-from`` in ``[tool.toolexpect]`` work as the options; the options win."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolexpect]\ncase-from = "metadata.case"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    code, out, _ = _score_text(capsys, tmp_path, "--log", str(PAIRING / "conversations.jsonl"))
    assert code == 0 and "3 passed" in out
    code, out, _ = _score_text(capsys, tmp_path, "--log", str(PAIRING / "by_file"), "--pair-by", "file")
    assert code == 1  # case-from from the file still decides: no record of these has metadata
    (tmp_path / "pyproject.toml").write_text('[tool.toolexpect]\npair-by = "file"\n', encoding="utf-8")
    code, out, _ = _score_text(capsys, tmp_path, "--log", str(PAIRING / "by_file"))
    assert code == 0 and "3 passed" in out
    (tmp_path / "pyproject.toml").write_text('[tool.toolexpect]\npair-by = "name"\n', encoding="utf-8")
    code, _, err = _score_text(capsys, tmp_path, "--log", str(PAIRING / "by_file"))
    assert code == 2
    assert "[tool.toolexpect] pair-by must be one of id, question, file, not 'name'" in err


def test_calls_shows_the_runs_of_a_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    """``calls --case-from`` puts the records of one conversation together under the field."""
    assert (
        main(
            [
                "calls",
                "--format",
                "json",
                "--case-from",
                "metadata.case",
                str(PAIRING / "conversations.jsonl"),
            ]
        )
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    assert document["logs"] == [{"path": str(PAIRING / "conversations.jsonl"), "format": "openai-chat"}]
    assert [(s["id"], [c["name"] for c in s["calls"]]) for s in document["samples"]] == [
        (case, ["get_weather", "send_summary"]) for case in CASES
    ]


def test_a_conversation_restarted_under_one_key_is_a_new_run(tmp_path: Path) -> None:
    """Two runs of one case logged with the same field: a record whose history continues no
    earlier record starts a new run (repeated runs), and each run keeps its own calls."""
    lines = (PAIRING / "conversations.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    log = tmp_path / "twice.jsonl"
    log.write_text("\n".join(lines + lines) + "\n", encoding="utf-8")
    runs, _ = _runs(SPEC, [log], PairingOptions(case_from="metadata.case"))
    assert runs == [PAIRED[0], PAIRED[0]]


def test_interleaved_conversations_are_told_apart_by_history(tmp_path: Path) -> None:
    """Turns of concurrent conversations, interleaved in the log, are joined by history."""
    lines = (PAIRING / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    mixed = [lines[i] for i in (0, 3, 6, 1, 4, 7, 2, 5, 8)]
    log = tmp_path / "mixed.jsonl"
    log.write_text("\n".join(mixed) + "\n", encoding="utf-8")
    runs, _ = _runs(SPEC, [log], PairingOptions("question"))
    assert runs == PAIRED


def _otel_line(trace: str, span: str, start: int, name: str, arguments: dict[str, Any]) -> str:
    attributes = [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
        {"key": "gen_ai.tool.name", "value": {"stringValue": name}},
        {"key": "gen_ai.tool.call.id", "value": {"stringValue": f"call_{span}"}},
        {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": json.dumps(arguments)}},
        {"key": "app.case", "value": {"stringValue": "berlin tomorrow"}},
    ]
    span_record = {
        "traceId": trace,
        "spanId": span,
        "name": f"execute_tool {name}",
        "startTimeUnixNano": str(start),
        "attributes": attributes,
    }
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span_record]}]}]})


HEX = "5b8efff798038103d269b633813fc60c"


def test_an_otel_trace_id_spelled_three_ways_is_one_run(tmp_path: Path) -> None:
    """Spans of one trace written with a hex, a ``0x`` and a base64 trace id, in two files,
    are one run, its id the lowercase hex."""
    b64 = base64.b64encode(bytes.fromhex(HEX)).decode()
    assert trace_id(b64) == trace_id("0x" + HEX.upper()) == trace_id(HEX) == HEX
    (tmp_path / "a.jsonl").write_text(
        _otel_line(HEX, "01", 1, "get_weather", {"city": "Berlin"})
        + "\n"
        + _otel_line("0x" + HEX.upper(), "02", 2, "send_summary", {"to": "ops@example.com", "city": "Berlin"})
        + "\n",
        encoding="utf-8",
    )
    (tmp_path / "b.jsonl").write_text(
        _otel_line(b64, "03", 3, "send_summary", {"city": "Berlin", "again": True}) + "\n", encoding="utf-8"
    )
    spec = SPEC.replace('case "berlin tomorrow"', f'case "{HEX}"')
    runs, _ = _runs(spec, [tmp_path / "a.jsonl", tmp_path / "b.jsonl"], PairingOptions())
    assert [(sid, [c[0] for c in calls]) for sid, calls in runs] == [
        (HEX, ["get_weather", "send_summary", "send_summary"])
    ]
    by_attribute, _ = _runs(
        SPEC, [tmp_path / "a.jsonl", tmp_path / "b.jsonl"], PairingOptions(case_from="app.case")
    )
    assert [sid for sid, _ in by_attribute] == ["berlin tomorrow"]


def test_case_from_reads_an_otel_resource_attribute(tmp_path: Path) -> None:
    """An attribute of the trace's resource names the case as a span attribute does; a span's
    own attribute of the same name wins."""
    record = json.loads(_otel_line(HEX, "01", 1, "get_weather", {"city": "Berlin"}))
    resource_spans = record["resourceSpans"][0]
    span = resource_spans["scopeSpans"][0]["spans"][0]
    span["attributes"] = [a for a in span["attributes"] if a["key"] != "app.case"]
    resource_spans["resource"] = {
        "attributes": [
            {"key": "service.name", "value": {"stringValue": "weather-agent"}},
            {"key": "app.case", "value": {"stringValue": "berlin tomorrow"}},
        ]
    }
    log = tmp_path / "trace.jsonl"
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    runs, _ = _runs(SPEC, [log], PairingOptions(case_from="app.case"))
    assert runs == [("berlin tomorrow", [("get_weather", {"city": "Berlin"}, "call_01")])]
    span["attributes"].append({"key": "app.case", "value": {"stringValue": "oslo today"}})
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    runs, _ = _runs(SPEC, [log], PairingOptions(case_from="app.case"))
    assert [name for name, _ in runs] == ["oslo today"]


def test_canonical_samples_pass_through_by_id_as_they_are_read() -> None:
    """Pairing by id hands canonical samples on unchanged and in order (no grouping)."""
    spec = parse_spec('case "a" {\n    expect f\n}\ncase "b" {\n    expect f\n}\n', "s")
    same = [RecordedSample("a", (ToolCall("f"),)), RecordedSample("a", (ToolCall("g"),))]
    paired = pair_runs([spec], [same])
    assert list(paired) == same
    report = score([spec], pair_runs([spec], [same]))
    assert [len(outcome.runs) for outcome in report.cases] == [2, 0]


def test_field_paths_and_options_are_checked() -> None:
    """A field path is dotted or a JSON Pointer (``~1`` for ``/``); bad options are ValueError."""
    assert field_path("extra.metadata.case") == ("extra", "metadata", "case")
    assert field_path("/a~1b/c") == ("a/b", "c")
    for bad in ("", "a..b", "/"):
        with pytest.raises(ValueError):
            field_path(bad)
    with pytest.raises(ValueError):
        PairingOptions("name")  # type: ignore[arg-type]


def test_reading_one_log_with_pairing_keeps_its_calls() -> None:
    """Reading through pairing gives the calls the reader gives (only ids and grouping change)."""
    reader = open_log(PAIRING / "completions.json")
    plain = [[c.to_json() for c in s.calls] for s in reader]
    assert plain[0] == [call("get_weather", {"city": "Berlin"}, "call_0001", raw='{"city": "Berlin"}')]
    paired = [[c.to_json() for c in s.calls] for s in pair_runs([], [open_log(PAIRING / "completions.json")])]
    assert paired == plain


pytest_plugins = ["pytester"]


def test_the_pytest_plugin_pairs_with_the_same_options(pytester: pytest.Pytester) -> None:
    """``--toolexpect-pair-by question`` pairs the plugin's items as ``score`` pairs them."""
    pytester.makefile(".expect", weather=SPEC)
    log = str(PAIRING / "conversations.jsonl")
    given = ("--toolexpect-specs", "weather.expect", "--toolexpect-log", log)
    pytester.runpytest(*given).assert_outcomes(failed=3)
    pytester.runpytest(*given, "--toolexpect-pair-by", "question").assert_outcomes(passed=3)
    pytester.runpytest(*given, "--toolexpect-case-from", "metadata.case").assert_outcomes(passed=3)
    empty = pytester.runpytest(*given, "--toolexpect-case-from", "")
    assert empty.ret == pytest.ExitCode.USAGE_ERROR
    empty.stderr.fnmatch_lines(["*'' is not a field path*"])


@pytest.mark.parametrize(
    "record",
    [
        {
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": " Rain  in\nOslo? "},
            ]
        },
        {
            "request": {
                "model": "m",
                "messages": [{"role": "user", "content": [{"type": "text", "text": "Rain in Oslo?"}]}],
            }
        },
        {"request": {"input": "Rain in Oslo?"}, "response": {"id": "resp_1"}},
        {
            "input": [
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "Rain in Oslo?"}],
                }
            ]
        },
        {"contents": [{"role": "user", "parts": [{"text": "Rain in"}, {"text": "Oslo?"}]}]},
        {"inputs": {"messages": [{"type": "human", "data": {"content": "Rain in Oslo?"}}]}},
        {
            "messages": [
                {
                    "lc": 1,
                    "type": "constructor",
                    "id": ["x", "HumanMessage"],
                    "kwargs": {"content": "Rain in Oslo?"},
                }
            ]
        },
        {
            "gen_ai.input.messages": json.dumps(
                [{"role": "user", "parts": [{"type": "text", "content": "Rain in Oslo?"}]}]
            )
        },
        {"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Rain in Oslo?"},
    ],
    ids=[
        "chat",
        "anthropic-request",
        "responses-text",
        "responses-items",
        "gemini",
        "langsmith",
        "lc",
        "otel",
        "openllmetry",
    ],
)
def test_the_question_is_read_from_each_providers_request(record: dict[str, Any]) -> None:
    """The first user message, whitespace normalised, from each provider's request shape."""
    from toolexpect.pairing.facts import facts_of

    assert facts_of(record, None).question == "Rain in Oslo?"


def test_snapshot_names_its_cases_through_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    """``snapshot --case-from`` writes one case per conversation, named by the field, with the
    calls of all its records."""
    assert main(["snapshot", "--case-from", "metadata.case", str(PAIRING / "conversations.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.count("case ") == 3
    assert (
        'case "lisbon weekend" {\n    question "Will it rain in Lisbon this weekend?"\n'
        '    expect get_weather(city="Lisbon")\n'
    ) in out
    assert '    expect send_summary(to="ops@example.com", city="Lisbon")\n}' in out


def test_an_id_that_names_no_case_is_left_over_even_with_one_case(tmp_path: Path) -> None:
    """With a one-case spec, a made-up provider id pairs with the case; a name does not."""
    spec = parse_spec('case "weather" {\n    expect get_weather\n}\n', "s")
    made_up = RecordedSample("chatcmpl-B9x", (ToolCall("get_weather"),))
    named = RecordedSample("paris then mail", (ToolCall("get_weather"),))
    assert [s.id for s in pair_runs([spec], [[made_up, named]])] == ["weather", "paris then mail"]


@pytest.mark.parametrize(
    "options",
    [PairingOptions(by="question"), PairingOptions(by="file"), PairingOptions(case_from="metadata.case")],
)
def test_a_run_whose_own_id_names_a_case_is_not_reported_as_left_over(options: PairingOptions) -> None:
    """A run that the chosen option does not pair keeps its id; when that id names a case, the
    scorer pairs it, so no R420 says that the run and the case found nothing."""
    spec = parse_spec(SPEC, "weather")
    samples = [RecordedSample(name, (ToolCall("get_weather", {"city": "x"}),)) for name in CASES]
    paired = pair_runs([spec], [samples], options)
    report = score([spec], paired)
    assert [len(outcome.runs) for outcome in report.cases] == [1, 1, 1]
    assert not report.unused
    assert paired.diagnostics == []


def test_ids_naming_the_cases_are_suggested_when_pairing_by_file(tmp_path: Path) -> None:
    """A canonical log whose ids are the case names, scored with --pair-by file from a file named
    after no case: R420's help says that pairing by id pairs them."""
    log = tmp_path / "run.jsonl"
    log.write_text(
        "".join(json.dumps({"id": name, "tool_calls": []}) + "\n" for name in CASES), encoding="utf-8"
    )
    runs, diagnostics = _runs(SPEC, [log], PairingOptions("file"))
    assert [sid for sid, _ in runs] == ["run", "run", "run"]
    [finding] = diagnostics
    assert finding.help == 'these 3 runs\' ids equal the names of 3 cases: use PairingOptions(by="id")'
    log.write_text(json.dumps({"id": "oslo today", "tool_calls": []}) + "\n", encoding="utf-8")
    [finding] = _runs(SPEC, [log], PairingOptions("file"))[1]
    assert finding.help == 'this run\'s id equals the name of 1 case: use PairingOptions(by="id")'


def test_an_empty_case_from_is_refused_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--case-from ''`` is a usage error naming the path, not pairing by id in silence."""
    log = str(PAIRING / "conversations.jsonl")
    code, out, err = _score_text(capsys, tmp_path, "--log", log, "--case-from", "")
    assert code == 2
    assert out == ""
    assert "'' is not a field path" in err


def test_the_fallback_help_names_only_the_other_options(tmp_path: Path) -> None:
    """When no option would pair the runs left over, R420's help lists the options not in use."""
    log = tmp_path / "run.jsonl"
    log.write_text(json.dumps({"id": "nobody", "tool_calls": []}) + "\n", encoding="utf-8")
    [by_question] = _runs(SPEC, [log], PairingOptions("question"))[1]
    assert by_question.help == (
        'name each run after its case, or pair with PairingOptions(by="id") (the runs\' ids), '
        'PairingOptions(by="file") (the log files\' names) or PairingOptions(case_from=PATH) '
        "(a field of each record)"
    )
    [by_id] = _runs(SPEC, [log], PairingOptions())[1]
    assert by_id.help == (
        'name each run after its case, or pair with PairingOptions(by="question") (the cases\' '
        'question statements), PairingOptions(by="file") (the log files\' names) or '
        "PairingOptions(case_from=PATH) (a field of each record)"
    )


def test_the_same_call_made_again_in_a_later_response_is_another_call(tmp_path: Path) -> None:
    """Two Gemini responses of one run (joined by a named field, no history), each calling
    ``get_status(job=1)`` without an id: two calls, not one (a response holds no earlier call)."""
    response = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "get_status", "args": {"job": 1}}}],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "responseId": "R",
    }
    lines = [{"metadata": {"case": "poll"}, "response": dict(response, responseId=f"R{n}")} for n in (1, 2)]
    log = tmp_path / "poll.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    spec = parse_spec('case "poll" {\n    expect get_status(job=1)\n}\n', "poll")
    paired = pair_runs([spec], [open_log(log)], PairingOptions(case_from="metadata.case"))
    assert [(run.id, [(c.name, dict(c.arguments)) for c in run.calls]) for run in paired] == [
        ("poll", [("get_status", {"job": 1}), ("get_status", {"job": 1})])
    ]


def test_a_call_under_a_used_id_with_arguments_of_another_type_is_another_call() -> None:
    """``search(query=1)`` and ``search(query=True)`` under one id are two calls: arguments are
    the same only with their types (Python's ``1 == True`` is no reason to drop one)."""
    from toolexpect.logs.calllist import CallList

    calls = CallList()
    first = ToolCall("search", {"query": 1}, "call_0")
    assert calls.extend((first,)) == []
    assert calls.extend((first, ToolCall("search", {"query": True}, "call_0")), replays=True) == []
    assert [dict(call.arguments) for call in calls.calls] == [{"query": 1}, {"query": True}]
    again = ToolCall("search", {"query": 1}, "call_0")
    assert calls.extend((again,), replays=False) == [(again, first)]
