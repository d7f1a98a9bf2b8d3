"""A log that shrinks while it is read (logrotate's ``copytruncate``) is an R406 and ``score``
fails; a log that grows while it is read is read as usual."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main
from toolexpect.logs import LogError, _lines, open_log
from toolexpect.logs._base import Context
from toolexpect.logs._source import read_lines
from toolexpect.scale.blocks import blocks

RUNS = 3000
"""Runs of the log: about 350 KiB, several times what a first read of it takes in."""

SPEC = 'case "a" {\n    expect get_weather(city="Berlin")\n}\n'


def _line(number: int) -> str:
    return json.dumps(
        {"id": "a", "n": number, "tool_calls": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}
    )


def _write_log(path: Path) -> list[int]:
    """Write the log; the byte offset of each line's end."""
    ends, at = [], 0
    with path.open("w", encoding="utf-8") as handle:
        for number in range(RUNS):
            text = _line(number) + "\n"
            handle.write(text)
            at += len(text)
            ends.append(at)
    return ends


def _after_decoding(monkeypatch: pytest.MonkeyPatch, count: int, then: Callable[[], None]) -> None:
    """Run ``then`` once, after the reader has decoded ``count`` lines."""
    decode = _lines._decode
    seen = [0]

    def counted(raw: bytes, brackets: int) -> Any:
        seen[0] += 1
        if seen[0] == count:
            then()
        return decode(raw, brackets)

    monkeypatch.setattr(_lines, "_decode", counted)


def _copytruncate(path: Path) -> None:
    """What logrotate's ``copytruncate`` does to the log: emptied in place, and the writer
    goes on appending to it."""
    os.truncate(path, 0)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(_line(RUNS) + "\n")


def _score(tmp_path: Path, log: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str, str]:
    spec = tmp_path / "w.expect"
    spec.write_text(SPEC, encoding="utf-8")
    code = main(["score", str(spec), "--log", str(log), *more])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_log_emptied_while_read_lazily_is_an_r406_at_the_line_reached(tmp_path: Path) -> None:
    """Read through the API, emptied after its first runs: the runs before are given, then a
    LogError R406 at the line where reading stopped, saying the log shrank."""
    log = tmp_path / "run.jsonl"
    _write_log(log)
    read = 0
    with pytest.raises(LogError) as caught:
        for _sample in open_log(log):
            read += 1
            if read == 10:
                _copytruncate(log)
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.name) == ("R406", "log-shrank")
    assert diagnostic.path == str(log)
    assert "shrank while it was read" in diagnostic.message
    assert 10 <= read < RUNS
    assert diagnostic.line == read + 1


def test_score_fails_on_a_log_cut_at_a_line_end_while_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score``, the log cut to its first 100 lines while the reader is at line 50: exit 2
    and the R406, not a green report of the runs read."""
    log = tmp_path / "run.jsonl"
    ends = _write_log(log)
    _after_decoding(monkeypatch, 50, lambda: os.truncate(log, ends[99]))
    code, out, err = _score(tmp_path, log, capsys)
    assert code == 2
    assert "R406" in err and "shrank while it was read" in err
    assert "passed" not in out


def test_score_fails_on_a_log_rotated_with_copytruncate_while_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score``, the log emptied in place and written on while it is read: exit 2, R406."""
    log = tmp_path / "run.jsonl"
    _write_log(log)
    _after_decoding(monkeypatch, 50, lambda: _copytruncate(log))
    code, _, err = _score(tmp_path, log, capsys)
    assert code == 2
    assert "R406" in err


def test_score_reads_a_log_that_grows_while_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines appended while the log is read lose nothing: exit 0, no finding."""
    log = tmp_path / "run.jsonl"
    _write_log(log)

    def append() -> None:
        with log.open("a", encoding="utf-8") as handle:
            handle.writelines(_line(RUNS + number) + "\n" for number in range(100))

    _after_decoding(monkeypatch, 50, append)
    code, out, err = _score(tmp_path, log, capsys)
    assert code == 0, err
    assert "R406" not in err
    assert "1 passed, 0 failed" in out


def test_score_in_processes_fails_on_a_log_that_shrinks_once_cut_into_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score -j 2``: the log cut to its first half at a line end once its blocks are cut from
    its size: exit 2 and the R406, as in one process."""
    log = tmp_path / "run.jsonl"
    ends = _write_log(log)

    def cut_then_shrink(size: int, blocksize: int) -> list[tuple[int, int]]:
        cut = blocks(size, blocksize)
        os.truncate(log, ends[RUNS // 2])
        return cut

    monkeypatch.setattr("toolexpect.scale.processes.blocks", cut_then_shrink)
    code, out, err = _score(tmp_path, log, capsys, "--jobs", "2")
    assert code == 2
    assert "R406" in err and "shrank while it was read" in err
    assert "passed" not in out


def test_a_block_of_a_log_that_shrank_since_it_was_cut_is_an_r406(tmp_path: Path) -> None:
    """A block (``score -j``, ``--dask``, any engine) that ends before its last byte: R406."""
    log = tmp_path / "run.jsonl"
    ends = _write_log(log)
    first, last = blocks(ends[-1], -(-ends[-1] // 2))
    os.truncate(log, ends[RUNS * 3 // 4])
    ctx = Context(str(log))
    assert len(list(read_lines(str(log), ctx, *first))) > 0
    with pytest.raises(LogError) as caught:
        list(read_lines(str(log), ctx, *last))
    assert caught.value.diagnostic.code == "R406"
    assert f"held {last[1]:,} bytes at least when it was cut into blocks" in caught.value.diagnostic.message


def test_a_shard_of_a_log_that_shrank_since_it_was_surveyed_reports_r406(tmp_path: Path) -> None:
    """On any engine (``score --dask``, Spark, Ray): the shards of a log surveyed, then the
    log cut to a quarter; its last shard is a partial score without runs whose finding is the
    R406, which makes the report's log unreadable."""
    from toolexpect.model import Spec
    from toolexpect.scale.shards import numbered, score_shard, survey_log
    from toolexpect.scoring.partial import CompiledSpecs
    from toolexpect.specfiles.stages import parse_spec_source

    log = tmp_path / "run.jsonl"
    ends = _write_log(log)
    shards = survey_log(str(log), 0, blocksize=ends[-1] // 2 + 1)
    assert [shard.block is not None for shard in shards] == [True, True]
    os.truncate(log, ends[RUNS // 4])
    spec = parse_spec_source(SPEC, "text", name="w.expect").spec
    assert isinstance(spec, Spec)
    compiled = CompiledSpecs.of([spec])
    partial = compiled.empty()
    for shard in shards:
        found = score_shard(compiled, shard)
        assert found is not None
        partial = partial.merge(found.partial)
    report = compiled.finish(numbered(partial))
    assert report.unreadable_partitions == 1
    [finding] = report.log_diagnostics
    assert (finding.code, finding.path) == ("R406", str(log))
