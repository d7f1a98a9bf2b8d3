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
    assert (code, err) == (0, f"reformatted {path}\n")
    assert path.read_text(encoding="utf-8") == formatted
    assert _format(capsys, path, "--check")[0] == 0


def test_format_check_of_a_spec_with_lint_findings_reports_only_the_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """format --check says "would reformat", never the lint error that lint already reports."""
    path = tmp_path / "wip.expect"
    path.write_text('question  "q"\n', encoding="utf-8")
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


# -- issue 15.4: the file's line ending and byte order mark are kept ------------------------------

TIDY = 'case "a" {\n    expect t(x=1)  # why\n\n    forbid u\n}\n'


@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_format_check_accepts_a_tidy_windows_checkout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bom: str
) -> None:
    """A formatted spec checked out with CRLF (and a BOM) passes format --check and is left alone."""
    path = tmp_path / "win.expect"
    data = (bom + TIDY.replace("\n", "\r\n")).encode()
    path.write_bytes(data)
    assert _format(capsys, path, "--check")[0] == 0
    assert _format(capsys, path)[0] == 0
    assert path.read_bytes() == data


def test_format_writes_crlf_and_bom_as_the_file_had_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reformatting a CRLF file with a BOM writes CRLF on every line and keeps the BOM."""
    path = tmp_path / "win.expect"
    messy = '\ufeffcase "a" {\r\n  expect t( x=1 )  # why\r\n\r\n\r\n  forbid u\r\n}\r\n'
    path.write_bytes(messy.encode())
    assert _format(capsys, path)[0] == 0
    assert path.read_bytes() == ("\ufeff" + TIDY.replace("\n", "\r\n")).encode()


def test_format_uses_the_line_ending_of_the_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file of mixed line endings gets the one its first line uses, on every line."""
    path = tmp_path / "mixed.expect"
    path.write_bytes(b'case "a" {\n    expect t(x=1)  # why\r\n\r\n    forbid u\r\n}\n')
    assert _format(capsys, path)[0] == 0
    assert path.read_bytes() == TIDY.encode()


# -- issue 15.6: JSON and YAML become text without stray blank lines ------------------------------

MULTI_LINE = {
    "cases": [
        {
            "name": "y",
            "question": "where?",
            "expect": [{"tool": "a", "args": [{"name": "x", "op": "eq", "value": 1}]}, {"tool": "b"}],
            "forbid": [{"tool": "c"}],
            "require": [{"kind": "order"}],
        },
        {"name": "z", "expect": [{"tool": "d"}]},
    ]
}
AS_TEXT = (
    'case "y" {\n    question "where?"\n    expect a(x=1)\n    expect b\n    forbid c\n    require order\n}\n'
    '\ncase "z" {\n    expect d\n}\n'
)


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_a_multi_line_json_or_yaml_spec_becomes_text_without_blank_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """JSON or YAML written over many lines prints as text with no blank line inside a case."""
    yaml = pytest.importorskip("yaml")
    path = tmp_path / f"s.expect.{kind}"
    source = json.dumps(MULTI_LINE, indent=2) if kind == "json" else yaml.safe_dump(MULTI_LINE)
    path.write_text(source, encoding="utf-8")
    code, out, _ = _format(capsys, path)
    assert (code, out) == (0, AS_TEXT)


# -- issue 15.5: comments stay where they stood; long statements wrap at a width ------------------

COMMENTED_CALL = (
    'case "trip" {\n'
    "    expect search_flights(\n"
    '        from="BER",  # first\n'
    "        # own line inside call\n"
    '        to="LIS"\n'
    "    ) then  # after the call\n"
    "           book_flight(flight=any)\n"
    "}\n"
)
COMMENTED_CALL_FORMATTED = COMMENTED_CALL.replace('to="LIS"\n', 'to="LIS",\n')


def test_comments_inside_a_call_stay_where_they_stood(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment after an argument stays after it, one on its own line inside the call stays there."""
    path = tmp_path / "trip.expect"
    path.write_text(COMMENTED_CALL, encoding="utf-8")
    assert _format(capsys, path)[0] == 0
    assert path.read_text(encoding="utf-8") == COMMENTED_CALL_FORMATTED
    assert _format(capsys, path, "--check")[0] == 0


LONG_CHAIN = (
    'expect search_flights(from="BER", to="LIS", date ~ "^2027-05-12", passengers=2) '
    "then book_flight(flight=any, passengers=2) then pay(amount=any)\n"
)


def test_a_long_chain_is_written_one_call_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chain longer than 100 characters breaks after each ``then``, later calls under the first."""
    path = tmp_path / "chain.expect"
    path.write_text(LONG_CHAIN, encoding="utf-8")
    assert _format(capsys, path)[0] == 0
    assert path.read_text(encoding="utf-8") == (
        'expect search_flights(from="BER", to="LIS", date ~ "^2027-05-12", passengers=2) then\n'
        "       book_flight(flight=any, passengers=2) then\n"
        "       pay(amount=any)\n"
    )
    assert _format(capsys, path, "--check")[0] == 0


@pytest.mark.parametrize(
    ("source", "formatted"),
    [
        ("expect a then b(  # c\n)\n", "expect a then b  # c\n"),
        ("expect a then b(\n    # c\n)\n", "expect a then b  # c\n"),
        ("expect a(  # c\n) then b\n", "expect a then  # c\n       b\n"),
        ("expect a then b(x=1  # c\n)\n", "expect a then\n       b(\n           x=1,  # c\n       )\n"),
    ],
)
def test_a_comment_in_the_parentheses_of_a_chain_call_is_formatted_once_for_all(
    source: str, formatted: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment alone in the parentheses of a chain's call goes after that call; the chain
    breaks only where the comment would stand before code, and formatting again changes nothing."""
    path = tmp_path / "chain.expect"
    path.write_text(source, encoding="utf-8")
    assert _format(capsys, path)[0] == 0
    assert path.read_text(encoding="utf-8") == formatted
    assert _format(capsys, path, "--check")[0] == 0


def test_a_long_call_is_written_one_argument_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A call longer than the width gets one argument per line, a trailing comma, ``)`` alone."""
    path = tmp_path / "call.expect"
    path.write_text(
        f'case "c" {{\n    forbid delete_user(id=1, reason="{"x" * 80}")  # never\n}}\n', encoding="utf-8"
    )
    assert _format(capsys, path)[0] == 0
    assert path.read_text(encoding="utf-8") == (
        f'case "c" {{\n    forbid delete_user(\n        id=1,\n'
        f'        reason="{"x" * 80}",\n    )  # never\n}}\n'
    )
    assert _format(capsys, path, "--check")[0] == 0


def test_line_length_comes_from_the_option_then_pyproject(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--line-length`` sets the width; without it ``line-length`` of ``[tool.toolexpect]`` does."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "w.expect"
    short = 'expect get_weather(city="Berlin", unit="c")\n'
    wrapped = 'expect get_weather(\n    city="Berlin",\n    unit="c",\n)\n'
    path.write_text(short, encoding="utf-8")
    assert _format(capsys, path, "--check")[0] == 0
    (tmp_path / "pyproject.toml").write_text("[tool.toolexpect]\nline-length = 30\n", encoding="utf-8")
    assert _format(capsys, path, "--check")[0] == 1
    assert _format(capsys, path, "--check", "--line-length", "100")[0] == 0
    assert _format(capsys, path)[0] == 0
    assert path.read_text(encoding="utf-8") == wrapped
