"""The ``markdown`` formats of ``score`` and ``diff`` escape text from logs one way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.report.markdown import escape

VALUE = "[a](https://e.x) ![i](v) **b** `c` ~~s~~ a\\_b <b>x</b> | y"
ESCAPED = r"\[a\](https://e.x) !\[i\](v) \*\*b\*\* \`c\` \~\~s\~\~ a\\\_b &lt;b&gt;x&lt;/b&gt; \| y"


def test_escape_leaves_no_markup() -> None:
    """Links, images, emphasis, code spans, HTML and cell breaks are escaped; a line break or
    another control character is shown as a visible character."""
    assert escape(VALUE) == ESCAPED
    assert escape("a\nb\r\nc\x1b]0;T\x07") == "a␊b␍␊c␛\\]0;T␇"


def test_score_markdown_shows_a_logged_value_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failing run's recorded value and an unused sample id written as Markdown show as text
    in ``score --format markdown``, escaped as ``diff --format markdown`` escapes them."""
    spec = tmp_path / "s.expect"
    spec.write_text('case "c" {\n    expect f(x="ok")\n}\n', encoding="utf-8")
    log = tmp_path / "run.jsonl"
    records = [
        {"id": "c", "tool_calls": [{"name": "f", "arguments": {"x": VALUE}}]},
        {"id": "**[stray](https://e.x)**", "tool_calls": []},
    ]
    log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["score", str(spec), "--log", str(log), "--format", "markdown"]) == 1
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if "not matched" in line]
    assert escape(json.dumps(VALUE)[:-1]) in line  # long values are cut before their end
    assert "[a](https://e.x)" not in out and "<b>" not in out
    (stray,) = [line for line in out.splitlines() if "stray" in line]
    assert stray.startswith(r'- sample "\*\*\[stray\](https://e.x)\*\*": 1 run')
