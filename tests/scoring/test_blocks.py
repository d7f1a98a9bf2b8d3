"""A canonical JSON Lines log read once, in blocks of a fixed size: every line is read by exactly
one block, each block numbers its lines from 1 and says how many it read, and the numbers are
moved once every block of the log is in. On a real LocalCluster of two workers, through fsspec
URLs and with ``-j 3``, the report is the one of one process, byte for byte, with log findings,
unclaimed ids, schema findings (``--tools``) and pairing findings (``R420``) in late blocks."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from pathlib import Path

import pytest
from distributed import Client
from hypothesis import given
from hypothesis import strategies as st
from scoring_support import SPEC, TOOLS

from toolexpect.catalogue import Catalogue, load_catalogue
from toolexpect.cli import main
from toolexpect.cli.common import load_all
from toolexpect.diagnostics import Span, make
from toolexpect.logs import LogError, open_log
from toolexpect.logs._base import Context, Record
from toolexpect.logs._source import read_lines
from toolexpect.model import Spec
from toolexpect.pairing.advice import LeftOver, PairingNotes
from toolexpect.pairing.split import Split
from toolexpect.report.score import FORMATS, MAX_RUNS_SHOWN, render
from toolexpect.scale import dask as on_dask
from toolexpect.scale.blocks import blocks, numbered, score_block
from toolexpect.scale.partition import score_read
from toolexpect.scale.shards import survey_log
from toolexpect.scoring.partial import CompiledSpecs, Part, SampleFinding, ScoreReport, Unclaimed
from toolexpect.spelling import Setting
from toolexpect.toolcheck.calls import CallFinding

# --- cutting -------------------------------------------------------------------------------


def _read(path: str, start: int = 0, stop: int | None = None) -> tuple[list[Record], int]:
    """The records of the lines that begin in bytes ``start`` to ``stop``, and how many lines."""
    reader = read_lines(path, Context(path), start, stop)
    records = []
    while True:
        try:
            records.append(next(reader))
        except StopIteration as end:
            return records, end.value


def _in_blocks(path: str, blocksize: int) -> tuple[list[Record], int]:
    """The records of every block of the log, their lines moved by the lines of the blocks
    before, and the lines read in all."""
    records: list[Record] = []
    before = 0
    for start, stop in blocks(os.path.getsize(path), blocksize):
        found, count = _read(path, start, stop)
        records.extend((line + before if line is not None else None, value) for line, value in found)
        before += count
    return records, before


LINE = st.one_of(st.just(""), st.just("   "), st.integers().map(str), st.text(max_size=40).map(json.dumps))


@given(
    lines=st.lists(st.tuples(LINE, st.sampled_from([b"\n", b"\r\n"])), max_size=25),
    final=st.booleans(),
    blocksize=st.integers(1, 120),
)
def test_blocks_read_each_line_once_and_their_counts_number_it(
    lines: list[tuple[str, bytes]], final: bool, blocksize: int
) -> None:
    """For any lines (blank ones, CRLF endings, with or without a final line break) and any
    block size, the blocks' lines, each moved by the lines of the blocks before it, are exactly
    the file's lines read whole, each once, with its number."""
    data = b"".join(text.encode() + end for text, end in lines)
    if not final and lines:
        data = data[: -len(lines[-1][1])]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "log.jsonl")
        Path(path).write_bytes(data)
        whole, count = _read(path)
        assert count == data.count(b"\n") + (not data.endswith(b"\n") and bool(data))
        assert _in_blocks(path, blocksize) == (whole, count)


DATA = b"1\n22\r\n333\n4444"  # lines at bytes 0, 2, 6 and 10, the last without a line break


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ((0, 2), ([(1, 1)], 1)),  # the first block starts at byte 0
        ((2, 6), ([(1, 22)], 1)),  # a line that begins exactly at the block's first byte is its own
        ((1, 2), ([], 0)),  # a block whose bytes are the end of a line: no line
        ((3, 5), ([], 0)),  # inside a line, no line begins in it
        ((5, 8), ([(1, 333)], 1)),  # starting inside a CRLF: the next line is the first
        ((6, 7), ([(1, 333)], 1)),  # a block ends with the line that holds its last byte
        ((7, 14), ([(1, 4444)], 1)),  # the last line, without a line break
        ((11, 14), ([], 0)),
    ],
    ids=[
        "start",
        "at-line-start",
        "line-end",
        "mid-line",
        "in-crlf",
        "read-past-end",
        "no-final-break",
        "last",
    ],
)
def test_a_block_reads_the_lines_that_begin_in_it(
    tmp_path: Path, block: tuple[int, int], expected: tuple[list[Record], int]
) -> None:
    """A block starts at byte 0 or after the first line break at or after the byte before it,
    and reads to the end of the line holding its last byte, numbering its lines from 1."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(DATA)
    assert _read(str(log), *block) == expected


def test_a_log_is_cut_from_its_size_alone() -> None:
    """Blocks of B bytes from 0 to the size, one at least (an empty file is one empty block)."""
    assert blocks(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert blocks(8, 4) == [(0, 4), (4, 8)]
    assert blocks(0, 4) == [(0, 0)]


# --- moving line numbers ---------------------------------------------------------------------

LINED = {"unused", "diagnostics", "call_findings", "pairing"}
"""The fields of a part that hold log line numbers (runs, tallies and counts hold none)."""


def test_every_line_number_a_part_holds_is_moved() -> None:
    """Unclaimed samples, log findings (start and end line), schema findings and every place
    the pairing notes keep are moved; nothing else a part holds is a log line."""
    notes = PairingNotes(
        Setting("pair-by", "id"),
        left=LeftOver(runs=1, ids=("x",), first=("log", 4)),
        unnamed=1,
        unnamed_first=("log", 5),
        split=Split("a", runs=2, ids=("c1", "c2"), path="log", line=6),
    )
    finding = make("R401", "this line is not valid JSON", Span(2, 3, 3, 1), path="log")
    part = Part(
        (0, 1),
        (),
        (),
        (Unclaimed("x", 1, "log", 4), Unclaimed(None, 1, None, None)),
        (finding, make("R400", "cannot read log", path="log")),
        call_findings=(SampleFinding("a", "log", 7, CallFinding(0, "f", "x", "wrong type")),),
        pairing=notes,
        lines=9,
    )
    moved = part.moved(100)
    assert [entry.line for entry in moved.unused] == [104, None]
    assert [d.span for d in moved.diagnostics] == [Span(102, 3, 103, 1), None]
    assert [found.line for found in moved.call_findings] == [107]
    assert moved.pairing is not None and moved.pairing.split is not None
    assert (moved.pairing.left.first, moved.pairing.unnamed_first, moved.pairing.split.line) == (
        ("log", 104),
        ("log", 105),
        106,
    )
    assert moved.lines is None
    unmoved = {f.name for f in dataclasses.fields(Part)} - LINED
    assert {name: getattr(moved, name) for name in unmoved - {"lines"}} == {
        name: getattr(part, name) for name in unmoved - {"lines"}
    }
    assert unmoved == {"at", "runs", "tallies", "untracked", "unreadable", "records", "lines"}


def test_a_report_refuses_blocks_whose_lines_were_not_numbered(tmp_path: Path) -> None:
    """Finishing a partial score that still holds a block's own numbering is an error, never a
    report with wrong lines."""
    log = tmp_path / "log.jsonl"
    log.write_text('{"id": "a", "tool_calls": []}\n', encoding="utf-8")
    compiled = CompiledSpecs.of(_specs(tmp_path))
    partial = score_block(compiled, str(log), (0, 100), (0, 0))
    assert partial is not None
    with pytest.raises(ValueError, match="not numbered"):
        compiled.finish(partial)
    assert compiled.finish(numbered(partial)).cases


# --- the report of one process ---------------------------------------------------------------

GOOD = [
    {"id": "a", "tool_calls": [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]},
    {"id": "b", "tool_calls": [{"name": "f", "arguments": {"x": 2, "y": [1, 2]}}]},
    {"id": "c", "tool_calls": [{"name": "g", "arguments": {"y": [3]}}]},
]

LATE = [
    "{not json",
    json.dumps({"id": "nobody", "tool_calls": [{"name": "f", "arguments": {"x": 1}}]}),
    json.dumps({"id": "a", "tool_calls": [{"name": "f", "arguments": {"x": "s"}}]}),
    json.dumps({"id": "b", "tool_calls": [{"name": "k", "arguments": {"z": 1}}]}),
    json.dumps({"id": "c", "tool_calls": "nope"}),
    "",
    json.dumps({"id": "other", "tool_calls": []}),
]

EARLY_LINES = 120


def _write_log(folder: Path) -> tuple[Path, int]:
    """A canonical log whose first 120 lines are good (some with CRLF endings), then findings,
    unclaimed ids and calls that break the catalogue, a line far longer than a block, and no
    final line break; and the byte at which its eighth line starts."""
    lines = [json.dumps(GOOD[n % 3]) + ("\r\n" if n % 7 == 6 else "\n") for n in range(EARLY_LINES)]
    long_line = json.dumps(
        {"id": "a", "tool_calls": [{"name": "f", "arguments": {"x": 1}}], "pad": "p" * 4000}
    )
    for n in range(200):
        lines.append((LATE[n % len(LATE)] if n % 3 else json.dumps(GOOD[n % 3])) + "\n")
        if n == 50:
            lines.append(long_line + "\r\n")
    data = "".join(lines).rstrip("\n")
    log = folder / "runs.jsonl"
    log.write_bytes(data.encode())
    return log, len("".join(lines[:7]).encode())


def _specs(folder: Path) -> list[Spec]:
    spec = folder / "blocks.expect"
    spec.write_text(SPEC + 'case "d" {\n    expect f(x=9)\n}\n', encoding="utf-8")
    files, _ = load_all([str(spec)])
    return [f.spec for f in files.values() if f.spec is not None]


def _one(specs: list[Spec], log: Path, tools: Catalogue | None, explained: int | None) -> ScoreReport:
    """The report of one process (what ``toolexpect score`` computes)."""
    compiled = CompiledSpecs.of(specs)
    found = score_read(compiled, [open_log(str(log))], at=(0,), explained=explained, tools=tools)
    return compiled.finish(found)


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Spec], Path, int, Catalogue]:
    folder = tmp_path_factory.mktemp("blocks")
    log, eighth = _write_log(folder)
    tools = folder / "tools.json"
    tools.write_text(json.dumps(TOOLS), encoding="utf-8")
    return _specs(folder), log, eighth, load_catalogue(str(tools), "auto")


def _same(
    report: ScoreReport, one: ScoreReport, explained: int | None, named: tuple[str, str] = ("", "")
) -> None:
    """The same report, in every format (JSON when every run is kept, the others when not)."""
    local, url = named
    for fmt in ["json"] if explained is None else [f for f in FORMATS if f != "json"]:
        assert render(report, fmt) == render(one, fmt).replace(local, url)


def _late(one: ScoreReport) -> None:
    """Every kind of finding lies past the first blocks, and there is each."""
    codes = {d.code for d in one.log_diagnostics}
    assert {"R401", "R404", "R420"} <= codes
    assert all(d.line is not None and d.line > EARLY_LINES for d in one.log_diagnostics)
    assert one.unused and all(u.line is not None and u.line > EARLY_LINES for u in one.unused)
    assert one.call_findings and all(f.line is not None and f.line > EARLY_LINES for f in one.call_findings)


@pytest.mark.parametrize("where", ["line-start", "mid-line", "in-crlf"])
def test_blocks_on_a_cluster_give_the_report_of_one_process(
    client: Client, logged: tuple[list[Spec], Path, int, Catalogue], where: str
) -> None:
    """Blocks whose second starts at a line start, in the middle of a line or inside a CRLF
    (and blocks that hold no line, within a line longer than three blocks) give, with --tools,
    exactly the report of one process: findings, unclaimed ids, schema findings and R420 at
    their lines in the log."""
    specs, log, eighth, tools = logged
    blocksize = {"line-start": eighth, "mid-line": eighth + 3, "in-crlf": eighth - 1}[where]
    assert log.read_bytes()[eighth - 2 : eighth] == b"\r\n"
    for explained in (None, MAX_RUNS_SHOWN):
        one = _one(specs, log, tools, explained)
        _late(one)
        report, spread = on_dask.run(
            specs, [str(log)], client, blocksize=blocksize, explained=explained, tools=tools
        )
        assert spread.partitions == -(-log.stat().st_size // blocksize) > 40
        assert report == one
        _same(report, one, explained)


def test_a_url_is_read_in_blocks_through_fsspec_ranges(
    client: Client, logged: tuple[list[Spec], Path, int, Catalogue]
) -> None:
    """An fsspec URL (a cached local file) is cut into blocks from its size; each worker reads
    its block's range, and the report is one process's, naming the URL."""
    specs, log, eighth, tools = logged
    url = f"simplecache::file://{log}"
    one = _one(specs, log, tools, MAX_RUNS_SHOWN)
    report, spread = on_dask.run(
        specs, [url], client, blocksize=eighth + 3, explained=MAX_RUNS_SHOWN, tools=tools
    )
    assert spread.partitions > 40
    _same(report, one, MAX_RUNS_SHOWN, (str(log), url))


def _put_in_memory(path: str, data: bytes) -> None:
    """Store ``data`` as ``memory://`` + ``path`` in this process (run on each worker)."""
    import fsspec

    fsspec.filesystem("memory").pipe(path, data)


def test_a_memory_url_is_read_in_blocks(
    client: Client, logged: tuple[list[Spec], Path, int, Catalogue]
) -> None:
    """A ``memory://`` log (stored in each worker process) is surveyed from its size and first
    bytes, and read in blocks: the report of one process, naming the URL."""
    specs, log, eighth, tools = logged
    url = "memory://readonce/runs.jsonl"
    client.run(_put_in_memory, "/readonce/runs.jsonl", log.read_bytes())
    shards = client.submit(survey_log, url, 0, blocksize=eighth, pure=False).result()
    assert len(shards) == -(-log.stat().st_size // eighth)
    for explained in (None, MAX_RUNS_SHOWN):
        one = _one(specs, log, tools, explained)
        report = on_dask.score(specs, [url], client, blocksize=eighth - 1, explained=explained, tools=tools)
        _same(report, one, explained, (str(log), url))


def test_an_empty_log_and_a_compressed_one_are_one_partition(
    client: Client, logged: tuple[list[Spec], Path, int, Catalogue], tmp_path: Path
) -> None:
    """An empty log is one shard whose finding is the one a process gives (R402); a gzipped
    canonical log is never cut, and scores as one process scores it."""
    import gzip

    specs, log, _, tools = logged
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(LogError) as caught:
        open_log(str(empty))
    report = on_dask.score(specs, [str(empty)], client, blocksize=16)
    assert report.log_diagnostics == (caught.value.diagnostic,)
    packed = tmp_path / "runs.jsonl.gz"
    packed.write_bytes(gzip.compress(log.read_bytes()))
    assert len(survey_log(str(packed), 0, blocksize=64)) == 1
    one = _one(specs, packed, tools, MAX_RUNS_SHOWN)
    report = on_dask.score(specs, [str(packed)], client, blocksize=64, explained=MAX_RUNS_SHOWN, tools=tools)
    assert report == one


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("fmt", [*FORMATS, "html"])
def test_three_jobs_give_the_report_of_one(
    logged: tuple[list[Spec], Path, int, Catalogue],
    tmp_path: Path,
    fmt: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``score -j 3`` cuts the same blocks and numbers them the same way: the report of
    ``-j 1``, findings on standard error included, in every format."""
    _, log, _, _ = logged
    spec = tmp_path / "blocks.expect"
    spec.write_text(SPEC + 'case "d" {\n    expect f(x=9)\n}\n', encoding="utf-8")
    argv = [str(spec), "--log", str(log), "--format", fmt]
    one = _cli(capsys, *argv, "-j", "1")
    assert _cli(capsys, *argv, "-j", "3") == one
    assert "R401" in one[2] and "R420" in one[2]
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert _cli(capsys, str(spec), "--log", str(empty), "-j", "3") == _cli(
        capsys, str(spec), "--log", str(empty)
    )


def test_a_block_that_cannot_be_read_makes_its_log_one_finding_at_its_line(
    client: Client, logged: tuple[list[Spec], Path, int, Catalogue], tmp_path: Path
) -> None:
    """A line that is not UTF-8 far into a log (past the first 64 KiB, so that the log is cut)
    stops the reading of the log: on a cluster the log is one finding, the one a process
    raises, at the line of the log."""
    specs = logged[0]
    good = [json.dumps(GOOD[n % 3]).encode() + b"\n" for n in range(1500)]
    log = tmp_path / "broken.jsonl"
    log.write_bytes(
        b"".join(good[:1400]) + b'{"id": "a", "tool_calls": [], "x": "\xff"}\n' + b"".join(good[1400:])
    )
    with pytest.raises(LogError) as caught:
        list(open_log(str(log)))
    assert caught.value.diagnostic.line == 1401
    report, spread = on_dask.run(specs, [str(log)], client, blocksize=4096)
    assert spread.partitions > 20
    assert report.log_diagnostics == (caught.value.diagnostic,)
    assert report.unreadable_partitions == 1
    assert sum(outcome.result.runs for outcome in report.cases) == 0
