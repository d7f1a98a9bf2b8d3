"""Every report of ``score``, ``diff`` and ``calls``, from a log holding what a hostile model
may write, is valid in its own format and safe on a terminal and a CI runner.

Each command runs in a real subprocess; its outputs are read as bytes and checked with real
parsers (see ``hostile_support``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_support import (
    BIG,
    HOSTILE,
    INJECTED,
    check_github,
    check_html,
    check_json,
    check_junit,
    check_text,
    commands,
)

SRC = Path(__file__).resolve().parents[2] / "src"

SPEC = """\
case "x\\n::error file=README.md::CASE\\u001b]0;T\\u0007" {
    expect get_weather(city="Berlin")
}

case "two cities" {
    expect get_weather(city="Berlin")
    expect get_weather(city="Paris")
    require accuracy >= 0.5
}

case "big" {
    expect get_weather(city="Berlin")
    expect lookup(q="a")
}
"""


def _records(big: bool) -> list[dict[str, object]]:
    calls = [{"name": text, "arguments": {text: text, "city": text}} for text in HOSTILE]
    records: list[dict[str, object]] = [
        {"id": "x\n::error file=README.md::CASE\u001b]0;T\u0007", "tool_calls": calls},
        {"id": "two cities", "tool_calls": [{"name": "get_weather", "arguments": {"city": INJECTED}}]},
        *({"id": text, "tool_calls": [{"name": "f", "arguments": {}}]} for text in HOSTILE),
    ]
    if big:
        records.append(
            {
                "id": "big",
                "tool_calls": [
                    {"name": "get_weather", "arguments": {"city": BIG}},
                    {"name": "lookup" + BIG, "arguments": {"q": BIG}},
                ],
            }
        )
        records.append({"id": BIG, "tool_calls": []})
    return records


def _write_log(path: Path, big: bool) -> Path:
    # ensure_ascii keeps the lone surrogates as escapes, which the readers decode back.
    path.write_text("".join(json.dumps(r) + "\n" for r in _records(big)), encoding="utf-8")
    return path


def _run(cwd: Path, *argv: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "FORCE_COLOR": "", "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv], cwd=cwd, env=env, capture_output=True, timeout=600
    )


def _text(data: bytes) -> str:
    return data.decode("utf-8")  # strict: every output is UTF-8


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A spec and two hostile logs: ``big.jsonl`` also holds 10 MB names, values and ids."""
    root = tmp_path_factory.mktemp("hostile")
    (root / "h.expect").write_text(SPEC, encoding="utf-8")
    _write_log(root / "run.jsonl", big=False)
    _write_log(root / "big.jsonl", big=True)
    return root


def test_every_score_format_is_valid_and_inert(folder: Path) -> None:
    """``score`` in every format, from a log with control characters, escapes, workflow
    commands, XML-forbidden characters, lone surrogates and 10 MB strings: the text and
    Markdown reports hold no raw control character, JUnit and JSON parse, the HTML closes
    every element, and only the ``github`` format holds workflow commands."""
    outputs = {fmt: f"out.{fmt}" for fmt in ("json", "junit", "github", "markdown", "html")}
    done = _run(
        folder,
        "score",
        "h.expect",
        "--log",
        "big.jsonl",
        "-v",
        *(part for fmt, name in outputs.items() for part in ("-o", f"{fmt}={name}")),
    )
    assert done.returncode == 1, done.stderr
    check_text(_text(done.stdout))
    check_text(_text(done.stderr))
    assert b"Traceback" not in done.stderr
    assert "\u241b]0;T\u2407" in _text(done.stdout)  # the escape is shown, not run
    read = {fmt: (folder / name).read_bytes() for fmt, name in outputs.items()}
    check_text(_text(read["markdown"]))
    document = check_json(_text(read["json"]))
    assert isinstance(document, dict)
    suite = check_junit(read["junit"])
    assert suite.tag == "testsuite" and len(suite.findall("testcase")) == 3
    check_html(_text(read["html"]))
    check_github(_text(read["github"]))


@pytest.mark.parametrize("options", [(), ("-q",), ("-v",), ("--format", "junit"), ("--format", "json")])
def test_score_on_standard_output_is_inert(folder: Path, options: tuple[str, ...]) -> None:
    """``score`` (also ``-q``, ``-v``, JUnit and JSON on standard output) writes what a log
    holds with its control characters shown and no workflow command."""
    done = _run(folder, "score", "h.expect", "--log", "run.jsonl", *options)
    assert done.returncode == 1, done.stderr
    out = _text(done.stdout)
    if "junit" in options:
        check_junit(done.stdout)
    elif "json" in options:
        check_json(out)
    else:
        check_text(out)
    check_text(_text(done.stderr))


def test_baseline_and_diff_are_inert(folder: Path) -> None:
    """``score --baseline`` and ``diff`` in every format of a hostile report: text and
    Markdown hold no raw control character, JSON parses, only ``github`` holds commands."""
    done = _run(folder, "score", "h.expect", "--log", "run.jsonl", "--format", "json", "-o", "old.json")
    assert done.returncode == 1, done.stderr
    # The new run differs: other hostile values, so every case changes.
    records = [
        {"id": r["id"], "tool_calls": [{"name": INJECTED + "2", "arguments": {INJECTED: HOSTILE[3]}}]}
        for r in _records(big=False)
    ]
    (folder / "new.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    for fmt in ("text", "markdown", "github", "json", "junit"):
        done = _run(
            folder, "score", "h.expect", "--log", "new.jsonl", "--baseline", "old.json", "--format", fmt
        )
        assert done.returncode in (0, 1), done.stderr
        check_text(_text(done.stderr))
        out = _text(done.stdout)
        {"text": check_text, "markdown": check_text, "github": check_github, "json": check_json}.get(
            fmt, lambda text: check_junit(text.encode("utf-8"))
        )(out)
    done = _run(folder, "score", "h.expect", "--log", "new.jsonl", "--format", "json", "-o", "new.json")
    for fmt in ("text", "markdown", "github", "json"):
        done = _run(folder, "diff", "old.json", "new.json", "--format", fmt)
        assert done.returncode in (0, 1), done.stderr
        out = _text(done.stdout)
        {"text": check_text, "markdown": check_text, "github": check_github, "json": check_json}[fmt](out)
        if fmt == "text":
            assert "\u241b]0;T\u2407" in out


def test_calls_table_and_json_are_inert(folder: Path) -> None:
    """``calls`` shows each hostile tool name, argument and id with its control characters
    visible, and its JSON form parses; neither holds a workflow command."""
    done = _run(folder, "calls", "run.jsonl", "-v")
    assert done.returncode == 0, done.stderr
    out = _text(done.stdout)
    check_text(out)
    check_text(_text(done.stderr))
    assert "x\u240a::error file=README.md::INJECTED\u241b]0;T\u2407" in out
    done = _run(folder, "calls", "run.jsonl", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = check_json(_text(done.stdout))
    assert isinstance(document, dict)
    assert document["samples"][0]["calls"][0]["name"] == INJECTED


def test_a_log_path_that_is_a_command_is_inert(tmp_path: Path) -> None:
    """A log whose path starts with ``::`` or holds ``##[`` (named by whoever runs the job)
    gives no command in ``score -v``, ``calls`` or the reports that name the log."""
    (tmp_path / "h.expect").write_text(SPEC, encoding="utf-8")
    folder = tmp_path / "::error::x"
    folder.mkdir()
    _write_log(folder / "run.jsonl", big=False)
    _write_log(tmp_path / "##[error]x.jsonl", big=False)
    for argv in (
        ("score", "h.expect", "--log", "::error::x/run.jsonl", "-v"),
        ("calls", "::error::x/run.jsonl"),
        ("score", "h.expect", "--log", "##[error]x.jsonl", "-v"),
        ("calls", "##[error]x.jsonl", "-v"),
    ):
        done = _run(tmp_path, *argv)
        assert b"Traceback" not in done.stderr
        assert commands(_text(done.stdout)) == []
        assert commands(_text(done.stderr)) == []
