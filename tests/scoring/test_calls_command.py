"""`toolexpect calls`: the calls found in a log, as the scorer sees them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolexpect.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_calls_json_is_the_canonical_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--format json prints samples with each call's name, arguments, id, kind, raw text and flag."""
    log = tmp_path / "chat.json"
    log.write_text(
        json.dumps(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {
                            "role": "assistant",
                            "content": None,
                            "tool_calls": [
                                {
                                    "id": "call_1",
                                    "type": "function",
                                    "function": {"name": "get_weather", "arguments": '{"city": "Berlin"}'},
                                },
                                {
                                    "id": "call_2",
                                    "type": "function",
                                    "function": {"name": "get_weather", "arguments": '{"city": '},
                                },
                            ],
                        },
                        "finish_reason": "tool_calls",
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    assert main(["calls", str(log), "--format", "json"]) == 0
    captured = capsys.readouterr()
    calls = json.loads(captured.out)["samples"][0]["calls"]
    assert calls[0] == {
        "name": "get_weather",
        "arguments": {"city": "Berlin"},
        "id": "call_1",
        "kind": "function",
        "raw_arguments": '{"city": "Berlin"}',
        "valid_json": True,
    }
    assert calls[1]["valid_json"] is False
    assert calls[1]["raw_arguments"] == '{"city": '
    assert "R403" in captured.err


def test_calls_table_lists_every_sample(capsys: pytest.CaptureFixture[str]) -> None:
    """The table shows each sample of the example log with its calls."""
    assert main(["calls", str(ROOT / "specs/logs/run.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "berlin tomorrow" in out
    assert "github.create_issue" in out


def test_forced_format_that_does_not_fit_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """--log-format NAME forces a reader; a log that does not fit it is a clear error, exit 2."""
    assert main(["calls", str(ROOT / "specs/logs/run.jsonl"), "--log-format", "anthropic"]) == 2
    assert "R402" in capsys.readouterr().err


PAIRING = ROOT / "tests" / "fixtures" / "pairing"
QUESTIONS = [
    "Wie wird das Wetter morgen in Berlin?",
    "Will it rain in Lisbon this weekend?",
    "How cold is it in Oslo today?",
]


def test_pair_by_question_groups_and_names_each_run_by_its_question(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without specs, --pair-by question joins the records of each conversation into one run and
    names it by its user question, as snapshot names its cases; nothing is left to warn about."""
    log = str(PAIRING / "conversations.jsonl")
    assert main(["calls", log, "--pair-by", "question", "--format", "json"]) == 0
    captured = capsys.readouterr()
    samples = json.loads(captured.out)["samples"]
    assert [s["id"] for s in samples] == QUESTIONS
    assert [[c["name"] for c in s["calls"]] for s in samples] == [["get_weather", "send_summary"]] * 3
    assert captured.err == ""
    assert main(["calls", log, "--pair-by", "question"]) == 0
    table = capsys.readouterr().out
    assert "sample 2 'Will it rain in Lisbon this weekend?': 2 calls" in table


def test_pair_by_question_runs_without_a_question_keep_their_ids_and_say_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bare responses hold no question: each keeps its own id, and one R422 warning says why and
    what to pair by instead; the calls are still listed (exit 0)."""
    log = str(PAIRING / "completions.json")
    assert main(["calls", log, "--pair-by", "question", "--format", "json"]) == 0
    captured = capsys.readouterr()
    ids = [s["id"] for s in json.loads(captured.out)["samples"]]
    assert ids == [f"chatcmpl-PAIR000{n}" for n in range(1, 10)]
    assert captured.err.startswith(
        "warning[R422]: 9 recorded runs hold no user question to be named by, pairing with"
        " --pair-by question; they keep their own ids\n"
    )
    assert f" --> {log}:1:1\n" in captured.err
    assert "help: a run's question is the first user message of its request" in captured.err
