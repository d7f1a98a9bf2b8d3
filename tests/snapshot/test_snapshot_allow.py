"""``snapshot --allow TOOL``: the calls of TOOL written as ``allow TOOL`` instead of expectations,
in a spec that lints clean and passes on the runs it came from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from snapshot_support import run_cli, write_log
from test_snapshot_properties import SETTINGS, _read_back

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.matching import evaluate
from toolexpect.model import Expectation
from toolexpect.snapshot import CaseRuns, Options, spec_text, take_snapshot

Capsys = pytest.CaptureFixture[str]
DOC = Path(__file__).resolve().parents[2] / "docs" / "snapshot.md"


def _call(tool: str, **arguments: object) -> dict[str, object]:
    return {"name": tool, "arguments": arguments}


RUNS = [
    {
        "id": "research",
        "tool_calls": [
            _call("think", mode="fast"),
            _call("search", query="toolexpect"),
            _call("list_files", dir="/"),
            _call("think", mode="slow"),
        ],
    },
    {"id": "research", "tool_calls": [_call("search", query="toolexpect")]},
    {"id": "browse", "tool_calls": [_call("list_files", dir="/"), _call("list_files", dir="/src")]},
    {"id": "plain", "tool_calls": [_call("search", query="x")]},
    {"id": "quiet", "tool_calls": []},
]
WRITTEN = """\
case "research" {
    expect search(query="toolexpect")
    allow think
    allow list_files
    require no unexpected calls
}

case "browse" {
    allow list_files
    require no unexpected calls
}

case "plain" {
    expect search(query="x")
    require no unexpected calls
}

case "quiet" {
    require no tool calls
}
"""


def test_allowed_tools_are_written_as_allow_and_the_spec_lints_clean_and_passes(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each case whose runs called an allowed tool gets ``allow TOOL`` and no expectation of it;
    ``lint`` finds nothing in the written spec and ``score`` passes every case on its log."""
    monkeypatch.chdir(tmp_path)
    write_log(tmp_path / "good.jsonl", RUNS)
    argv = ["snapshot", "good.jsonl", "--allow", "think", "--allow", "list_files"]
    argv += ["--require", "no-unexpected"]
    code, out, err = run_cli(capsys, *argv, "--out", "good.expect")
    assert code == 0, err
    assert (tmp_path / "good.expect").read_text(encoding="utf-8") == WRITTEN
    assert run_cli(capsys, "lint", "good.expect")[0] == 0
    code, out, _ = run_cli(capsys, "score", "good.expect", "--log", "good.jsonl", "--format", "json")
    assert code == 0, out
    assert [case["status"] for case in json.loads(out)["cases"]] == ["pass"] * 4


def test_without_allow_the_calls_are_expected(tmp_path: Path, capsys: Capsys) -> None:
    """Allows are written only on request: without ``--allow`` every call every run made is expected."""
    write_log(tmp_path / "good.jsonl", RUNS[2:3])
    code, out, err = run_cli(capsys, "snapshot", str(tmp_path / "good.jsonl"))
    assert code == 0, err
    assert "allow" not in out
    assert 'expect list_files(dir="/")' in out


def test_allow_with_counts_still_counts_the_allowed_calls(tmp_path: Path, capsys: Capsys) -> None:
    """With ``--counts`` an allowed tool is still counted: its calls are bounded as any tool's."""
    write_log(tmp_path / "good.jsonl", RUNS[:2])
    code, out, err = run_cli(capsys, "snapshot", str(tmp_path / "good.jsonl"), "--allow", "think", "--counts")
    assert code == 0, err
    assert "    allow think\n" in out
    assert "require at most 2 calls of think" in out
    assert "expect think" not in out


def test_the_documented_example_is_what_snapshot_writes(tmp_path: Path, capsys: Capsys) -> None:
    """docs/snapshot.md's --allow example is the output for runs that call think around a search."""
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index("## Allowed tools") :].split("```", 2)[1]
    command, _, written = block.strip("\n").partition("\n")
    argv = command.removeprefix("$ toolexpect ").split()
    log = tmp_path / "good.jsonl"
    thinking = {"id": "research", "tool_calls": [_call("think"), _call("search", query="toolexpect")]}
    write_log(log, [RUNS[1], thinking])
    argv[1] = str(log)
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert out == written + "\n"


_TOOLS = st.sampled_from(["think", "search", "list_files", "allow", "of"])


@SETTINGS
@given(
    runs=st.lists(
        st.lists(st.builds(ToolCall, name=_TOOLS, arguments=st.just({})), max_size=5), min_size=1, max_size=4
    ),
    allowed=st.frozensets(_TOOLS, max_size=2),
    no_unexpected=st.booleans(),
)
def test_allows_read_back_clean_and_every_run_passes_them(
    runs: list[list[ToolCall]], allowed: frozenset[str], no_unexpected: bool
) -> None:
    """Whatever the runs and the allowed tools, the spec written reads back without a diagnostic,
    allows exactly the allowed tools the runs called and expects none of them; no call of an
    allowed tool is unexpected, and a single run has no unexpected call at all."""
    samples = tuple(RecordedSample("case", tuple(calls)) for calls in runs)
    snapshot = take_snapshot([CaseRuns("case", samples)], Options(no_unexpected=no_unexpected, allow=allowed))
    if not snapshot.cases:
        return
    (case,) = _read_back(spec_text(snapshot.cases)).cases
    called = {call.name for sample in samples for call in sample.calls}
    assert set(case.allows) == {Expectation(tool) for tool in called & allowed}
    assert not {e.tool for e in case.expectations} & allowed
    for sample in samples:
        unexpected = [f for f in evaluate(case, sample.calls).failures if f.kind == "unexpected"]
        assert not {tool for f in unexpected for tool in f.details["tools"]} & allowed
        if len(samples) == 1:  # what one run called is expected or allowed
            assert unexpected == []
