"""The command line and the file system: paths as given, writes that never cut a file, output errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolexpect.cli import main
from toolexpect.cli.common import write_text

CALL = '{"id": "w", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}\n'


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding one tidy spec, ``w.expect``, and its log."""
    (tmp_path / "w.expect").write_text('expect get_weather(city="Berlin")\n', encoding="utf-8")
    (tmp_path / "log.jsonl").write_text(CALL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("path", [".", "./", "", None])
def test_the_current_folder_is_a_path_like_any_other(
    folder: Path, capsys: pytest.CaptureFixture[str], path: str | None
) -> None:
    """``.``, ``./``, the folder's own path and no path at all all mean the current folder."""
    given = [] if path is None else [path or str(folder)]
    assert _run(capsys, "lint", *given) == (0, "", "1 file, no findings\n")
    assert _run(capsys, "format", "--check", *given) == (0, "", "")
    code, out, _ = _run(capsys, "score", *given, "--log", "log.jsonl")
    assert code == 0
    assert "w.expect :: w" in out


def test_a_folder_given_twice_is_read_once(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Overlapping paths load each spec file once."""
    code, out, _ = _run(capsys, "score", ".", "w.expect", "--log", "log.jsonl")
    assert code == 0
    assert out.count("w.expect :: w") == 1


def test_format_keeps_the_file_mode(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reformatted file keeps its permission bits."""
    spec = folder / "w.expect"
    spec.write_text('expect   get_weather( city = "Berlin" )\n', encoding="utf-8")
    spec.chmod(0o640)
    assert _run(capsys, "format", "w.expect")[0] == 0
    assert spec.read_text(encoding="utf-8") == 'expect get_weather(city="Berlin")\n'
    assert spec.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


def test_a_failed_format_write_leaves_the_file_whole(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the new text cannot be put in place (a full disk), the original file is untouched,
    no temporary file is left behind, and the command says so and exits 2."""
    messy = 'expect   get_weather( city = "Berlin" )\n'
    (folder / "w.expect").write_text(messy, encoding="utf-8")

    def full_disk(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    code, out, err = _run(capsys, "format", "w.expect")
    assert (code, out) == (2, "")
    assert "cannot write w.expect: No space left on device; the file is unchanged" in err
    assert "reformatted" not in err
    assert (folder / "w.expect").read_text(encoding="utf-8") == messy
    assert sorted(p.name for p in folder.iterdir()) == ["log.jsonl", "w.expect"]


def test_write_text_reports_a_folder_it_cannot_write_to(tmp_path: Path) -> None:
    """A missing folder is a reason, not an exception."""
    assert write_text(str(tmp_path / "no" / "such.expect"), "x") is not None


@pytest.mark.parametrize(
    "argv",
    [["schema"], ["compile", "specs/weather.expect"], ["lint", "specs", "--format", "json"]],
)
def test_output_to_a_full_device_is_a_clean_error(argv: list[str]) -> None:
    """Writing to /dev/full gives one line on stderr and exit 2, never a traceback."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    root = Path(__file__).resolve().parents[2]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "toolexpect", *argv],
            cwd=root,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "toolexpect: cannot write the output: No space left on device\n"


def _full_disk(source: object, target: object) -> None:
    raise OSError(28, "No space left on device")


def test_a_failed_score_output_leaves_the_file_whole(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score -o FILE`` on a full disk keeps FILE's old content, leaves no temporary file,
    says so in one line and exits 2."""
    (folder / "report.txt").write_text("old report\n", encoding="utf-8")
    monkeypatch.setattr(os, "replace", _full_disk)
    code, out, err = _run(capsys, "score", "w.expect", "--log", "log.jsonl", "-o", "report.txt")
    assert (code, out) == (2, "")
    assert err == "toolexpect: cannot write report.txt: No space left on device; the file is unchanged\n"
    assert (folder / "report.txt").read_text(encoding="utf-8") == "old report\n"
    assert sorted(p.name for p in folder.iterdir()) == ["log.jsonl", "report.txt", "w.expect"]


def test_a_failed_new_score_output_leaves_nothing_behind(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new ``-o`` file that cannot be put in place leaves neither it nor a temporary file."""
    monkeypatch.setattr(os, "replace", _full_disk)
    code, _, err = _run(
        capsys, "score", "w.expect", "--log", "log.jsonl", "-o", "new.json", "--format", "json"
    )
    assert code == 2
    assert "cannot write new.json: No space left on device" in err
    assert sorted(p.name for p in folder.iterdir()) == ["log.jsonl", "w.expect"]


def test_a_failed_html_output_leaves_the_file_whole(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--html FILE`` goes through the same replacement: a failure keeps FILE and exits 2."""
    (folder / "r.html").write_text("old", encoding="utf-8")
    monkeypatch.setattr(os, "replace", _full_disk)
    code, _, err = _run(capsys, "score", "w.expect", "--log", "log.jsonl", "--html", "r.html")
    assert code == 2
    assert "cannot write r.html: No space left on device; the file is unchanged" in err
    assert (folder / "r.html").read_text(encoding="utf-8") == "old"


def test_score_output_modes(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new ``-o`` file gets the umask's permissions, as ``open`` gives; an existing one keeps its mode."""
    old = os.umask(0o027)
    try:
        assert _run(capsys, "score", "w.expect", "--log", "log.jsonl", "-o", "new.txt")[0] == 0
    finally:
        os.umask(old)
    assert (folder / "new.txt").stat().st_mode & 0o777 == 0o640
    kept = folder / "kept.txt"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o604)
    assert _run(capsys, "score", "w.expect", "--log", "log.jsonl", "-o", "kept.txt")[0] == 0
    assert kept.stat().st_mode & 0o777 == 0o604
    assert "w.expect :: w" in kept.read_text(encoding="utf-8")


def test_score_output_through_a_link_and_to_a_device(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o`` through a symbolic link replaces the file it points to; ``-o /dev/null`` works."""
    (folder / "real.txt").write_text("old", encoding="utf-8")
    (folder / "link.txt").symlink_to("real.txt")
    assert _run(capsys, "score", "w.expect", "--log", "log.jsonl", "-o", "link.txt")[0] == 0
    assert (folder / "link.txt").is_symlink()
    assert "w.expect :: w" in (folder / "real.txt").read_text(encoding="utf-8")
    if os.path.exists("/dev/null"):
        code, out, err = _run(capsys, "score", "w.expect", "--log", "log.jsonl", "-o", os.devnull)
        assert (code, out) == (0, "")
        assert err.endswith(f"; report written to {os.devnull}\n")


@pytest.mark.parametrize("value", ["0", "-3", "wide"])
def test_a_line_length_below_one_is_a_usage_error(
    folder: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    """format --line-length takes a whole number of at least 1; anything else exits 2, unwritten."""
    code, out, err = _run(capsys, "format", "--line-length", value, ".")
    assert (code, out) == (2, "")
    assert "--line-length" in err
