"""One meaning per exit code, for every command (the table in docs/cli.md and common.EXIT_CODES).

0: done, nothing found; 1: the command found what it checks for; 2: the command could not do
its job (usage error, invalid spec where one is used, unreadable input); 3: score --fail-under.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.cli.common import EXIT_CODES

ROOT = Path(__file__).resolve().parents[2]

FILES = {
    "ok.expect": 'case "a" {\n    expect t(x=1)\n}\n',
    "ugly.expect": 'case "a" {\n  expect   t( x=1)\n}\n',
    "broken.expect": "expect t(x=1\n",
    "findings.expect": 'case "a" {\n    question "q?"\n}\n',
    "latin1.expect": b'expect t(x="\xfc")\n',
    "empty.expect": "# nothing yet\n",
    "pass.jsonl": '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n',
    "fail.jsonl": '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 2}}]}\n',
    "two.expect": 'case "a" {\n    expect t(x=1)\n}\ncase "b" {\n    expect t(x=1)\n}\n',
    "half.jsonl": '{"id": "a", "tool_calls": [{"name": "t", "arguments": {"x": 1}}]}\n'
    '{"id": "b", "tool_calls": [{"name": "u", "arguments": {}}]}\n',
    "not-json.txt": "hello\n",
}

CASES = [
    # server: speaks LSP on stdin and stdout until told to exit (tests/server); here, a usage error
    ("server", ["server", "--port", "1"], 2),
    # lint: its job is finding problems, so an invalid spec is a finding (1)
    ("lint", ["lint", "ok.expect"], 0),
    ("lint", ["lint", "findings.expect"], 1),
    ("lint", ["lint", "broken.expect"], 1),
    ("lint", ["lint", "latin1.expect"], 2),
    ("lint", ["lint", "no-such-folder/"], 2),
    ("lint", ["lint", "--format", "nope"], 2),
    # format: it cannot rewrite a spec that does not parse (2)
    ("format", ["format", "--check", "ok.expect"], 0),
    ("format", ["format", "--check", "ugly.expect"], 1),
    ("format", ["format", "--diff", "ugly.expect"], 1),
    ("format", ["format", "broken.expect"], 2),
    ("format", ["format", "--line-length", "0"], 2),
    # compile
    ("compile", ["compile", "ok.expect"], 0),
    ("compile", ["compile", "broken.expect"], 2),
    ("compile", ["compile"], 2),
    # schema
    ("schema", ["schema"], 0),
    ("schema", ["schema", "--report"], 0),
    ("schema", ["schema", "--bogus"], 2),
    # score
    ("score", ["score", "ok.expect", "--log", "pass.jsonl"], 0),
    ("score", ["score", "ok.expect", "--log", "fail.jsonl"], 1),
    ("score", ["score", "broken.expect", "--log", "pass.jsonl"], 2),
    ("score", ["score", "empty.expect", "--log", "pass.jsonl"], 2),
    ("score", ["score", "ok.expect", "--log", "not-json.txt"], 2),
    ("score", ["score", "ok.expect"], 2),
    ("score", ["score", "two.expect", "--log", "half.jsonl", "--fail-under", "0.5"], 1),
    ("score", ["score", "ok.expect", "--log", "pass.jsonl", "--fail-under", "0.5"], 0),
    (
        "score",
        ["score", "two.expect", "--log", "half.jsonl", "--fail-under", "0.9", "--fail-on", "mean-only"],
        3,
    ),
    (
        "score",
        ["score", "two.expect", "--log", "half.jsonl", "--fail-under", "0.5", "--fail-on", "mean-only"],
        0,
    ),
    ("score", ["score", "two.expect", "--log", "half.jsonl", "--fail-on", "mean-only"], 2),
    ("score", ["score", "two.expect", "--log", "half.jsonl", "--fail-under", "2"], 2),
    # diff: a regression is what it checks for
    ("diff", ["diff", "pass.json", "pass.json"], 0),
    ("diff", ["diff", "pass.json", "fail.json"], 1),
    ("diff", ["diff", "pass.json", "not-json.txt"], 2),
    # snapshot: changes to review are what --update checks for (docs/snapshot.md)
    ("snapshot", ["snapshot", "pass.jsonl"], 0),
    ("snapshot", ["snapshot", "fail.jsonl", "--out", "ok.expect", "--update"], 1),
    ("snapshot", ["snapshot", "pass.jsonl", "--out", "ok.expect"], 2),
    ("snapshot", ["snapshot", "not-json.txt"], 2),
    # calls lists what it finds; it has nothing to find wrong
    ("calls", ["calls", "pass.jsonl"], 0),
    ("calls", ["calls", "not-json.txt"], 2),
    ("calls", ["calls"], 2),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A folder with good, ugly, invalid and unreadable specs, logs and two JSON reports."""
    for name, text in FILES.items():
        target = tmp_path / name
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for log in ("pass", "fail"):
        main(["score", "ok.expect", "--log", f"{log}.jsonl", "--format", "json", "-o", f"{log}.json"])
    capsys.readouterr()
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "code"),
    [pytest.param(argv, code, id=" ".join(argv)) for _, argv, code in CASES],
)
def test_each_command_exits_with_the_code_of_what_happened(
    folder: Path, capsys: pytest.CaptureFixture[str], argv: list[str], code: int
) -> None:
    """Every command gives 0, 1, 2 (and score 3) for the documented reasons only."""
    assert main(argv) == code, capsys.readouterr()


def test_every_command_is_covered() -> None:
    """The table above exercises every command of the parser, and each code has a meaning."""
    from toolexpect.cli.parser import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert commands is not None
    assert set(commands) <= {command for command, _, _ in CASES}
    assert sorted({code for _, _, code in CASES}) == sorted(EXIT_CODES)


def test_the_codes_are_documented_in_one_place() -> None:
    """docs/cli.md has one row per exit code, with the meaning common.EXIT_CODES gives it."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\d)` \| (.+?) \|$", text, flags=re.MULTILINE))
    assert {int(code): meaning for code, meaning in rows.items()} == EXIT_CODES


def test_fail_under_says_why_it_failed(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Below --fail-under, standard error says the mean accuracy and the threshold; a failing case
    still exits 1 (it comes first), and only --fail-on mean-only leaves the mean alone to decide."""
    argv = ["score", "two.expect", "--log", "half.jsonl", "--format", "json", "--fail-under", "0.75"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "the mean accuracy 0.5 is below --fail-under 0.75" in captured.err
    assert json.loads(captured.out)["summary"]["mean_accuracy"] == 0.5
    assert main([*argv, "--fail-on", "mean-only"]) == 3
