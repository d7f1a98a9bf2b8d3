"""``toolexpect format`` on the specs a user has in hand: work in progress, Windows checkouts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolexpect.cli import main


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


def _format(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> tuple[int, str, str]:
    code = main(["format", *options, str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- issue 15.3: a spec that parses is formatted, lint findings or not -----------------------------


@pytest.mark.parametrize(
    ("source", "formatted"),
    [
        # L303: a question without expectations yet (work in progress).
        ('case "c" {\n  question   "where?"\n}\n', 'case "c" {\n    question "where?"\n}\n'),
        # L301: one argument given twice; both stay.
        ("expect t( x=1,x=2 )\n", "expect t(x=1, x=2)\n"),
        # L308 of a requirement: the document holds both, so both stay.
        ("expect t\nrequire  order\nrequire order\n", "expect t\nrequire order\nrequire order\n"),
        # L304: a forbid identical to an expect.
        ("expect t(x=1)\nforbid   t(x=1)\n", "expect t(x=1)\nforbid t(x=1)\n"),
    ],
)
def test_format_rewrites_a_spec_with_lint_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, formatted: str
) -> None:
    """A spec that parses but has lint findings is formatted (exit 0) and nothing is reported."""
    path = tmp_path / "wip.expect"
    path.write_text(source, encoding="utf-8")
    code, _, err = _format(capsys, path)
    assert (code, err) == (0, "reformatted 1 file\n")
    assert path.read_text(encoding="utf-8") == formatted
    assert _format(capsys, path, "--check")[0] == 0


def test_format_check_of_a_spec_with_lint_findings_reports_only_the_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """format --check says "would reformat", never the lint error that lint already reports."""
    path = tmp_path / "wip.expect"
    path.write_text("question  \"q\"\n", encoding="utf-8")
    code, _, err = _format(capsys, path, "--check")
    assert code == 1
    assert err == f"would reformat {path}\n"


def test_format_refuses_a_json_chain_that_text_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON chain naming expectations out of order (L307) would change meaning: refused, exit 2."""
    path = tmp_path / "c.expect.json"
    document = {"cases": [{"name": "c", "expect": [{"tool": "a"}, {"tool": "b"}], "chains": [[1, 0]]}]}
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = _format(capsys, path)
    assert code == 2 and out == ""
    assert "L307" in err
