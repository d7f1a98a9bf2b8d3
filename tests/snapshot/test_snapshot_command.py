"""`toolexpect snapshot`: where specs go, never overwriting by surprise, and --update."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from snapshot_support import run_cli, scored, write_log


def _calls(*pairs: tuple[str, dict[str, object]]) -> list[dict[str, object]]:
    return [{"name": name, "arguments": arguments} for name, arguments in pairs]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A log of two cases, one of them run twice."""
    return write_log(
        tmp_path / "good.jsonl",
        [
            {"id": "berlin", "tool_calls": _calls(("get_weather", {"city": "Berlin", "days": 1}))},
            {"id": "small talk", "tool_calls": []},
            {"id": "berlin", "tool_calls": _calls(("get_weather", {"city": "Berlin", "days": 2}))},
        ],
    )


def test_without_out_the_spec_is_printed(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With no --out the spec goes to standard output and nothing is written."""
    code, out, err = run_cli(capsys, "snapshot", log)
    assert code == 0, err
    assert out == (
        'case "berlin" {\n    expect get_weather(city="Berlin", days in [1, 2])\n}\n\n'
        'case "small talk" {\n    require no tool calls\n}\n'
    )


def test_out_file_holds_every_case_and_passes_its_log(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--out NAME.expect writes one file with every case; the log scores 1.0 against it."""
    spec = tmp_path / "specs" / "weather.expect"
    code, out, err = run_cli(capsys, "snapshot", log, "--out", spec)
    assert (code, out) == (0, "") and "wrote 2 cases" in err
    report = scored(capsys, spec, log)
    assert report["exit_code"] == 0
    assert [(c["case"], c["status"]) for c in report["cases"]] == [("berlin", "pass"), ("small talk", "pass")]


def test_out_folder_gets_one_file_per_case(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Any other --out is a folder with one file per case, named after the case."""
    folder = tmp_path / "specs"
    code, _, err = run_cli(capsys, "snapshot", log, "--out", folder)
    assert code == 0, err
    assert sorted(p.name for p in folder.iterdir()) == ["berlin.expect", "small_talk.expect"]
    assert (folder / "small_talk.expect").read_text() == 'case "small talk" {\n    require no tool calls\n}\n'
    assert scored(capsys, folder, log)["exit_code"] == 0


def test_file_names_of_cases_that_meet_are_numbered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two case names that give one file name get -2; a name of nothing but symbols is 'case'."""
    log = write_log(
        tmp_path / "l.jsonl",
        [{"id": name, "tool_calls": _calls(("t", {}))} for name in ("a b", "a/b", "???")],
    )
    folder = tmp_path / "specs"
    assert run_cli(capsys, "snapshot", log, "--out", folder)[0] == 0
    assert sorted(p.name for p in folder.iterdir()) == ["a_b-2.expect", "a_b.expect", "case.expect"]


def test_an_existing_spec_is_never_overwritten_without_force(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A spec that exists stays as it is (exit 2) unless --force is given."""
    spec = tmp_path / "weather.expect"
    spec.write_text('case "mine" {\n    expect x\n}\n')
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec)
    assert code == 2 and "exists" in err and "--force" in err
    assert spec.read_text() == 'case "mine" {\n    expect x\n}\n'
    assert run_cli(capsys, "snapshot", log, "--out", spec, "--force")[0] == 0
    assert spec.read_text().startswith('case "berlin" {')


def test_update_shows_the_diff_and_writes_only_with_force(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--update rewrites only the cases the new runs fail, adds new ones, keeps the rest of
    the file (comments, hand edits) as it was; it shows the diff and writes with --force."""
    spec = tmp_path / "weather.expect"
    assert run_cli(capsys, "snapshot", log, "--out", spec)[0] == 0
    edited = "# weather checks\n" + spec.read_text().replace(
        'case "small talk" {', '# hand-written\ncase "small talk" {  # keep me'
    )
    spec.write_text(edited)
    newer = write_log(
        tmp_path / "newer.jsonl",
        [
            {"id": "berlin", "tool_calls": _calls(("get_weather", {"city": "Munich", "days": 1}))},
            {"id": "small talk", "tool_calls": []},
            {"id": "rome", "tool_calls": _calls(("get_weather", {"city": "Rome"}))},
        ],
    )
    code, out, err = run_cli(capsys, "snapshot", newer, "--out", spec, "--update")
    assert code == 1 and "--force" in err
    assert "cases: 1 rewritten, 1 added, 1 kept" in err
    assert '-    expect get_weather(city="Berlin", days in [1, 2])' in out
    assert '+    expect get_weather(city="Munich", days=1)' in out
    assert spec.read_text() == edited
    code, _, err = run_cli(capsys, "snapshot", newer, "--out", spec, "--update", "--force")
    assert code == 0, err
    assert spec.read_text() == (
        "# weather checks\n"
        'case "berlin" {\n    expect get_weather(city="Munich", days=1)\n}\n\n'
        '# hand-written\ncase "small talk" {  # keep me\n    require no tool calls\n}\n\n'
        'case "rome" {\n    expect get_weather(city="Rome")\n}\n'
    )
    assert scored(capsys, spec, newer)["exit_code"] == 0
    code, out, err = run_cli(capsys, "snapshot", newer, "--out", spec, "--update")
    assert (code, out) == (0, "") and "up to date" in err


def test_update_of_a_folder_adds_files_and_rewrites_the_case_where_it_is(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a folder the failing case is rewritten in whichever file holds it."""
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "mixed.expect").write_text(
        'case "berlin" {\n    expect get_weather(city="Paris")\n}\n\ncase "other" {\n    expect x\n}\n'
    )
    code, _, err = run_cli(capsys, "snapshot", log, "--out", folder, "--update", "--force")
    assert code == 0, err
    assert (folder / "mixed.expect").read_text() == (
        'case "berlin" {\n    expect get_weather(city="Berlin", days in [1, 2])\n}\n\n'
        'case "other" {\n    expect x\n}\n'
    )
    assert sorted(p.name for p in folder.iterdir()) == ["mixed.expect", "small_talk.expect"]


def test_update_refuses_specs_with_errors(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A spec that does not parse is reported and left alone."""
    spec = tmp_path / "bad.expect"
    spec.write_text("expect get_weather(city=\n")
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec, "--update", "--force")
    assert code == 2 and "P10" in err
    assert spec.read_text() == "expect get_weather(city=\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--update"], "--update needs --out"),
        (["--out", "x.expect.json"], "text specs"),
        (["--line-length", "0"], "at least 1"),
    ],
)
def test_usage_errors_exit_2(
    log: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Options that cannot work together are refused before anything is read."""
    code, _, err = run_cli(capsys, "snapshot", log, *argv)
    assert code == 2 and message in err


def test_an_unreadable_log_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log that cannot be read is a positioned diagnostic and exit code 2."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    code, out, err = run_cli(capsys, "snapshot", bad)
    assert (code, out) == (2, "") and "R402" in err


def test_options_reach_the_spec(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--ignore-args, --differing, --then and --require are applied."""
    code, out, _ = run_cli(
        capsys, "snapshot", log, "--ignore-args", "days", "--require", "no-unexpected", "--then"
    )
    assert code == 0
    assert out.startswith(
        'case "berlin" {\n    expect get_weather(city="Berlin")\n    require no unexpected calls\n}\n'
    )
    code, out, _ = run_cli(capsys, "snapshot", log, "--differing", "any", "--only", "days")
    assert out.startswith('case "berlin" {\n    expect get_weather(days=any)\n}\n')


def test_samples_without_ids_name_their_case_after_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log of id-less samples is one case, named after the log or by --name."""
    log = tmp_path / "checkout-flow.json"
    log.write_text('[{"name": "pay", "arguments": {"amount": 10}}]')
    assert run_cli(capsys, "snapshot", log)[1] == 'case "checkout-flow" {\n    expect pay(amount=10)\n}\n'
    assert run_cli(capsys, "snapshot", log, "--name", "pay")[1].startswith('case "pay" {')


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("weather.expect", 'expect get_weather(city="Paris")\n'),
        ("weather.expect.json", '{"cases": [{"name": "weather", "expect": [{"tool": "get_weather"}]}]}'),
    ],
)
def test_update_leaves_a_case_it_cannot_rewrite_in_place(
    name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failing case outside a block, or in a JSON spec, is reported (S706), not rewritten."""
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / name).write_text(text)
    log = write_log(tmp_path / "l.jsonl", [{"id": "weather", "tool_calls": _calls(("get_time", {}))}])
    code, out, err = run_cli(capsys, "snapshot", log, "--out", folder, "--update", "--force")
    assert (code, out) == (1, "") and "S706" in err
    assert (folder / name).read_text() == text
    assert sorted(p.name for p in folder.iterdir()) == [name]


def test_update_keeps_a_byte_order_mark_and_crlf_line_endings(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rewritten case takes the file's line endings, and the file keeps its byte order mark."""
    spec = tmp_path / "w.expect"
    spec.write_bytes(b'\xef\xbb\xbfcase "berlin" {\r\n    expect get_weather(city="X")\r\n}\r\n')
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec, "--update", "--force")
    assert code == 0, err
    assert spec.read_bytes() == (
        b'\xef\xbb\xbfcase "berlin" {\r\n    expect get_weather(city="Berlin", days in [1, 2])\r\n}\r\n\r\n'
        b'case "small talk" {\r\n    require no tool calls\r\n}\r\n'
    )


def test_pair_by_question_names_each_case_by_its_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --pair-by question each case is named by its user question and states it, and the
    log scores 1.0 against the written spec when paired the same way."""
    log = Path(__file__).resolve().parents[1] / "fixtures" / "pairing" / "conversations.jsonl"
    spec = tmp_path / "asked.expect"
    code, _, err = run_cli(capsys, "snapshot", log, "--pair-by", "question", "--out", spec)
    assert code == 0, err
    text = spec.read_text(encoding="utf-8")
    assert 'case "Will it rain in Lisbon this weekend?" {\n' in text
    assert '    question "Will it rain in Lisbon this weekend?"\n' in text
    assert text.count("question ") == 3
    code, out, err = run_cli(capsys, "score", spec, "--log", log, "--pair-by", "question", "--format", "json")
    assert code == 0, err
    assert [case["score"] for case in json.loads(out)["cases"]] == [1.0, 1.0, 1.0]


def _exchange(case: str, question: str, city: str, n: int) -> dict[str, object]:
    """A gateway's request/response record of one OpenAI chat completion."""
    call = {
        "id": f"call_{n}",
        "type": "function",
        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    response = {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
    }
    request = {"model": "m", "messages": [{"role": "user", "content": question}]}
    return {"id": case, "request": request, "response": response}


def test_a_case_states_the_question_its_runs_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Named by id, a case states the question its runs answered (whitespace normalised); runs
    that answered different questions state none."""
    log = write_log(
        tmp_path / "gateway.jsonl",
        [
            _exchange("lisbon", "Will it  rain in Lisbon?", "Lisbon", 1),
            _exchange("lisbon", "Will it rain in Lisbon?", "Lisbon", 2),
            _exchange("north", "Cold in Oslo?", "Oslo", 3),
            _exchange("north", "Cold in Bergen?", "Oslo", 4),
        ],
    )
    code, out, err = run_cli(capsys, "snapshot", log)
    assert code == 0, err
    assert 'case "lisbon" {\n    question "Will it rain in Lisbon?"\n' in out
    assert 'case "north" {\n    expect get_weather(city="Oslo")\n' in out


def test_a_spec_larger_than_toolexpect_reads_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A snapshot into one file that lint would refuse (P105) writes nothing and says to give
    --out a folder; one file per case is written and scores 1.0."""
    from toolexpect.specfiles.stages import MAX_SPEC_BYTES

    text = "x" * 400
    count = MAX_SPEC_BYTES // 400 + 10
    log = write_log(
        tmp_path / "many.jsonl",
        [{"id": f"case {n}", "tool_calls": _calls(("note", {"text": text}))} for n in range(count)],
    )
    spec = tmp_path / "all.expect"
    code, _, err = run_cli(capsys, "snapshot", log, "--out", spec)
    assert code == 2
    assert f"more than toolexpect reads from a spec ({MAX_SPEC_BYTES:,})" in err
    assert "give --out a folder" in err and not spec.exists()
    code, out, err = run_cli(capsys, "snapshot", log)
    assert code == 1 and out.startswith('case "case 0"') and "give --out a folder" in err
    folder = tmp_path / "specs"
    assert run_cli(capsys, "snapshot", log, "--out", folder)[0] == 0
    assert len(list(folder.iterdir())) == count
    assert scored(capsys, folder, log)["exit_code"] == 0


def _differing_runs(tmp_path: Path, count: int = 10_000) -> Path:
    """``count`` runs of one case whose request ids all differ: too large for one spec file."""
    return write_log(
        tmp_path / "many-runs.jsonl",
        [
            {
                "id": "berlin",
                "tool_calls": _calls(
                    (
                        "get_weather",
                        {"city": "Berlin", "request_id": f"req-2026-12-04-{n:05d}-a1b2c3", "days": n % 3},
                    )
                ),
            }
            for n in range(count)
        ],
    )


def test_a_case_too_large_for_its_own_file_names_what_makes_it_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """10,000 runs with differing values into a folder: the refusal names the argument whose
    values the case lists and the options that make it fit (not "give --out a folder", which it
    is), and each of those options, given as written, writes a case the log passes."""
    import subprocess
    import sys

    log = _differing_runs(tmp_path)
    folder = tmp_path / "specs"
    done = subprocess.run(
        [sys.executable, "-m", "toolexpect", "snapshot", str(log), "--out", f"{folder}/"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "give --out a folder" not in done.stderr
    assert (
        "toolexpect snapshot: case 'berlin' is too large on its own: it lists the 10,000 values its "
        "runs gave request_id of get_weather; write differing values =any with --differing any, this "
        "argument with --any-args request_id, or leave it out with --ignore-args request_id\n"
    ) in done.stderr
    assert done.stderr.endswith("toolexpect snapshot: nothing written\n")
    assert not folder.exists()
    for option in (["--differing", "any"], ["--any-args", "request_id"], ["--ignore-args", "request_id"]):
        code, _, err = run_cli(capsys, "snapshot", log, "--out", folder, "--force", *option)
        assert code == 0, (option, err)
        assert scored(capsys, folder, log)["cases"][0]["score"] == 1.0


def test_several_cases_too_large_together_are_told_to_take_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Printed or in one file, cases that each fit alone are told to take one file per case."""
    from toolexpect.specfiles.stages import MAX_SPEC_BYTES

    text = "x" * 400
    log = write_log(
        tmp_path / "many.jsonl",
        [
            {"id": f"case {n}", "tool_calls": _calls(("note", {"text": text}))}
            for n in range(MAX_SPEC_BYTES // 400)
        ],
    )
    code, _, err = run_cli(capsys, "snapshot", log, "--out", tmp_path / "all.expect")
    assert code == 2
    assert "each case fits in a file of its own: give --out a folder for one file per case" in err


_ASKED = [
    ("Weather in Berlin?", "get_weather", {"city": "Berlin"}),
    ("Send the summary to Bob", "send_mail", {"to": "bob"}),
    ("What time is it in Oslo?", "get_time", {"tz": "Europe/Oslo"}),
]


def _gateway(path: Path, ids: list[str | None], response_ids: str) -> Path:
    """A gateway log of one request/response record per question of ``_ASKED``: the record's
    own id from ``ids``, the response's id made up by the provider (``response_ids`` + n)."""
    records = []
    for n, ((question, tool, arguments), own) in enumerate(zip(_ASKED, ids, strict=True)):
        record = _exchange("x", question, "x", n)
        record["response"]["id"] = f"{response_ids}{n}"  # type: ignore[index]
        call = record["response"]["choices"][0]["message"]["tool_calls"][0]  # type: ignore[index]
        call["function"] = {"name": tool, "arguments": json.dumps(arguments)}
        if own is None:
            del record["id"]
        else:
            record["id"] = own
        records.append(record)
    return write_log(path, records)


def test_runs_sharing_one_id_are_told_to_pair_by_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three conversations logged under one session id share no call: S703 says that their
    questions name three cases and which option names them, and that option writes them."""
    import subprocess
    import sys

    log = _gateway(tmp_path / "session.jsonl", ["session-1"] * 3, "chatcmpl-0abc")
    done = subprocess.run(
        [sys.executable, "-m", "toolexpect", "snapshot", str(log)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert (
        "warning[S703]: case 'session-1' is not written: the 3 recorded runs share no call a spec can hold\n"
        f" --> {log}:1:1\n"
        "help: these 3 runs' user questions name 3 cases: use --pair-by question\n"
    ) in done.stderr
    spec = tmp_path / "asked.expect"
    code, _, err = run_cli(capsys, "snapshot", log, "--pair-by", "question", "--out", spec)
    assert code == 0, err
    assert spec.read_text(encoding="utf-8").count("question ") == 3


def test_cases_named_after_made_up_ids_are_told_how_to_be_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Runs whose only ids are the provider's (chatcmpl-…) become cases no later run pairs
    with: S708 names the option that names them by question; the spec written with it pairs
    with the next recording, whose ids are new."""
    log = _gateway(tmp_path / "today.jsonl", [None] * 3, "chatcmpl-0abc")
    code, out, err = run_cli(capsys, "snapshot", log)
    assert code == 0
    assert 'case "chatcmpl-0abc0" {' in out
    assert (
        'warning[S708]: 3 cases are named after ids a provider made up ("chatcmpl-0abc0", '
        '"chatcmpl-0abc1", "chatcmpl-0abc2"): runs recorded later have ids of their own and '
        "pair with none of them\n"
    ) in err
    assert "help: these 3 runs' user questions name 3 cases: use --pair-by question\n" in err
    spec = tmp_path / "asked.expect"
    assert run_cli(capsys, "snapshot", log, "--pair-by", "question", "--out", spec)[0] == 0
    tomorrow = _gateway(tmp_path / "tomorrow.jsonl", [None] * 3, "chatcmpl-9xyz")
    code, out, err = run_cli(
        capsys, "score", spec, "--log", tomorrow, "--pair-by", "question", "--format", "json"
    )
    assert code == 0, err
    assert [case["score"] for case in json.loads(out)["cases"]] == [1.0, 1.0, 1.0]


def test_made_up_ids_without_questions_are_told_the_file_or_a_field(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bare responses hold no question: S708 names pairing by file or by a field instead."""
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "pairing" / "by_file"
    code, _, err = run_cli(capsys, "snapshot", folder)
    assert code == 0
    assert "warning[S708]: 9 cases are named after ids a provider made up" in err
    assert (
        "help: name each run after its case with --pair-by file (the log files' names) or "
        "--case-from PATH (a field of each record)\n"
    ) in err


def test_one_case_of_a_made_up_id_and_pairing_hints_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One case named after a made-up id pairs with any later run by id (a one-case spec):
    no S708. Pairing by question runs that hold none gives R422, as `calls` does."""
    log = _gateway(tmp_path / "one.jsonl", [None] * 3, "chatcmpl-0abc")
    log.write_text(log.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "snapshot", log)
    assert (code, "S708" in err) == (0, False)
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "pairing" / "by_file"
    code, _, err = run_cli(capsys, "snapshot", folder, "--pair-by", "question")
    assert "warning[R422]: " in err and "pairing with --pair-by question" in err
    assert "S708" not in err
