"""`score --dask` and `toolexpect.scale.dask.score`: a real LocalCluster of two worker processes gives
the report one process gives, in every format, through a killed worker and an unreadable shard."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from distributed import Client
from distributed.diagnostics.plugin import WorkerPlugin
from scoring_support import SPEC, TOOLS, random_line

from toolexpect.catalogue import load_catalogue
from toolexpect.cli import main
from toolexpect.cli.common import load_all
from toolexpect.logs import open_log
from toolexpect.model import Spec
from toolexpect.pairing import PairingOptions, pair_runs
from toolexpect.report.score import FORMATS, MAX_RUNS_SHOWN, render
from toolexpect.scale import dask as on_dask
from toolexpect.scale.shards import survey_log
from toolexpect.scoring.partial import ScoreReport, score

ROOT = Path(__file__).resolve().parents[2]
OTHER_IDS = ("a", "b", "c", "a", "b", "c", "nobody", "other")
FIXTURES = ROOT / "tests" / "fixtures" / "logs"


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """A spec and a log in five shards: three canonical JSON Lines shards (one with a line that is
    not JSON), an Anthropic stream and an MCP session (runs that span many records)."""
    folder = tmp_path_factory.mktemp("shards")
    spec = folder / "spec.expect"
    spec.write_text(SPEC, encoding="utf-8")
    rng = random.Random(17)
    logs = []
    for number in range(3):
        lines = [random_line(rng, OTHER_IDS) for _ in range(250)]
        if number == 1:
            lines.insert(123, "{not json")
        log = folder / f"part-{number}.jsonl"
        log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        logs.append(log)
    for name in ("anthropic/stream.jsonl", "mcp/session.jsonl"):
        log = folder / f"part-{len(logs)}-{name.replace('/', '-')}"
        shutil.copy(FIXTURES / name, log)
        logs.append(log)
    return spec, logs


def _specs(*paths: Path | str) -> list[Spec]:
    files, _ = load_all([str(path) for path in paths])
    return [f.spec for f in files.values() if f.spec is not None]


def _single(specs: list[Spec], logs: list[Path], explained: int | None = None) -> ScoreReport:
    readers = [open_log(log) for log in logs]
    report = score(specs, (sample for reader in readers for sample in reader), explained=explained)
    from dataclasses import replace

    return replace(
        report,
        log_diagnostics=tuple(d for r in readers for d in r.diagnostics),
        log_records=tuple(r.records for r in readers),
    )


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


ALL_FORMATS = (*FORMATS, "html")


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_example_specs_and_log_give_the_single_process_report(
    client: Client, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's example (specs/ and specs/logs/run.jsonl) gives byte for byte the report of
    one process, in every format, exit code and messages included."""
    argv = ["specs", "--log", "specs/logs/run.jsonl", "--format", fmt]
    monkeypatch.chdir(ROOT)
    single = _cli(capsys, *argv)
    spread = _cli(capsys, *argv, "--dask", client.scheduler.address)
    assert spread == single
    assert single[1]


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_sharded_log_gives_the_single_process_report(
    client: Client, shards: tuple[Path, list[Path]], fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log in several shards, given as a glob, gives the report of one process given every shard,
    findings on standard error included."""
    spec, logs = shards
    single = _cli(capsys, str(spec), *[f"--log={log}" for log in logs], "--format", fmt)
    glob = str(logs[0].parent / "part-*")
    spread = _cli(capsys, str(spec), "--log", glob, "--format", fmt, "--dask", client.scheduler.address)
    assert spread == single
    assert "R401" in single[2]


def test_blocks_of_a_log_merge_into_the_single_process_report(
    client: Client, shards: tuple[Path, list[Path]]
) -> None:
    """Cut into blocks of 4 KiB (a dozen partitions and more), the shards give, in every format, what
    one process gives (the JSON report explains every failing run, the others a few); streams and
    sessions stay whole, one partition each."""
    spec, logs = shards
    specs = _specs(spec)
    for explained, formats in ((None, ["json"]), (MAX_RUNS_SHOWN, [f for f in FORMATS if f != "json"])):
        paths = [str(log) for log in logs]
        report, spread = on_dask.run(specs, paths, client, blocksize=4096, explained=explained)
        single = _single(specs, logs, explained)
        assert spread.partitions > 3 * 4 + 2
        assert spread.workers == 2
        for fmt in formats:
            assert render(report, fmt) == render(single, fmt)
    assert len(survey_log(str(logs[3]), 3, blocksize=64)) == 1
    assert len(survey_log(str(logs[4]), 4, blocksize=64)) == 1


def test_loose_calls_are_scored_with_their_whole_log(client: Client, tmp_path: Path) -> None:
    """A canonical log of one call per line (one run for the whole log) is never cut."""
    log = tmp_path / "calls.jsonl"
    shutil.copy(FIXTURES / "canonical" / "call_per_line.jsonl", log)
    spec = tmp_path / "one.expect"
    spec.write_text("expect get_weather\n", encoding="utf-8")
    specs = _specs(spec)
    report = on_dask.score(specs, [str(log)], client, blocksize=16)
    assert report == _single(specs, [log])
    assert report.cases[0].result.runs == 1


def test_without_an_address_a_local_cluster_is_started_and_closed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--dask` alone starts a local cluster of a worker per CPU, scores, and closes it."""
    monkeypatch.chdir(ROOT)
    argv = ["specs", "--log", "specs/logs/run.jsonl", "--format", "json"]
    single = _cli(capsys, *argv)
    code, out, err = _cli(capsys, *argv, "--dask", "-v")
    assert (code, out) == single[:2]
    assert f"on {os.cpu_count()} worker" in err
    assert "cluster start" in err


def test_python_api_returns_the_single_process_report(client: Client) -> None:
    """`toolexpect.scale.dask.score(specs, paths, client)` is the `ScoreReport` that `score` gives."""
    specs = _specs(ROOT / "specs")
    log = ROOT / "specs" / "logs" / "run.jsonl"
    report = on_dask.score(specs, str(log), client)
    assert report == _single(specs, [log])
    assert report.cases


def test_python_api_reads_spec_paths_as_score_does(client: Client) -> None:
    """`toolexpect.scale.dask.score(["w.expect"], paths, client)` reads the spec files at those paths
    (str or os.PathLike) and gives the report of the loaded specs."""
    paths = sorted((ROOT / "specs").glob("*.expect"))
    log = ROOT / "specs" / "logs" / "run.jsonl"
    report = on_dask.score([str(paths[0]), *paths[1:]], str(log), client)
    assert report == _single(_specs(*paths), [log])
    assert report.cases


def test_python_api_refuses_a_spec_with_errors_before_a_cluster_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spec path with errors is a SpecError, and a value that is no spec a TypeError naming
    specs, raised before any cluster is started."""
    import distributed

    from toolexpect.api import SpecError

    def no_cluster(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cluster was started")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    bad = tmp_path / "bad.expect"
    bad.write_text("expect f(x=)\n", encoding="utf-8")
    with pytest.raises(SpecError, match="P100"):
        on_dask.score([bad], [str(tmp_path / "run.jsonl")])
    with pytest.raises(TypeError, match="specs takes Spec objects"):
        on_dask.score([1], [str(tmp_path / "run.jsonl")])  # type: ignore[list-item]


def test_address_and_verbose_say_how_the_work_was_spread(
    client: Client, shards: tuple[Path, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    """With -v, standard error names the partitions, the workers and the seconds of each stage."""
    spec, logs = shards
    code, _, err = _cli(capsys, str(spec), "--log", str(logs[0]), "--dask", client.scheduler.address, "-v")
    assert code == 1
    assert "1 log in 1 partition on 2 workers" in err
    for stage in ("plan", "read and score", "merge", "finish"):
        assert f"{stage} " in err


class _KillOnce(WorkerPlugin):
    """Ends its worker's process the first time a shard starts to be scored (a marker file says
    it happened, so the worker that takes the task over lives)."""

    name = "kill-once"

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def transition(self, key: object, start: str, finish: str, **kwargs: object) -> None:
        if finish == "executing" and "score_shard" in str(key):
            try:  # created at most once, by whichever worker gets here first
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return
            os._exit(1)


def test_a_worker_killed_mid_run_still_gives_the_same_report(
    client: Client, shards: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    """A worker process that dies while it scores a shard: Dask runs the task again elsewhere,
    and the report is the one a single process gives."""
    spec, logs = shards
    specs = _specs(spec)
    marker = tmp_path / "killed"
    client.register_plugin(_KillOnce(str(marker)))
    try:
        report = on_dask.score(specs, [str(log) for log in logs], client, blocksize=4096)
    finally:
        client.unregister_worker_plugin(_KillOnce.name)
    assert marker.exists()
    assert report == _single(specs, logs)
    client.wait_for_workers(2)


def test_a_worker_that_dies_as_the_local_cluster_starts_is_a_usage_error(tmp_path: Path) -> None:
    """A worker process that fails as the local cluster starts (here a preload that raises on
    import): exit 2 and one message naming the worker's error, never a traceback."""
    preload = tmp_path / "refuse.py"
    preload.write_text('raise RuntimeError("this worker refuses to start")\n', encoding="utf-8")
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__PRELOAD": json.dumps([str(preload)])}
    argv = ["score", "specs", "--log", "specs/logs/run.jsonl", "--dask"]
    done = subprocess.run(
        [sys.executable, "-m", "toolexpect", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(
        "toolexpect: the local Dask cluster did not start: a worker process failed as it started "
        "(RuntimeError: this worker refuses to start); check what the workers load"
    )
    assert "Traceback" not in done.stderr


def test_an_unreadable_shard_is_reported_with_its_path_and_the_rest_is_scored(
    client: Client, shards: tuple[Path, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shard that is not UTF-8 and one that does not exist are findings naming them; every other
    shard is scored and reported, and the command exits 2, as one process does on an unreadable
    log (one meaning per exit code)."""
    spec, logs = shards
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b'{"id": "a", "tool_calls": []}\n\xff\xfe not text\n')
    missing = tmp_path / "missing.jsonl"
    given = [str(logs[0]), str(broken), str(missing), str(logs[2])]
    specs = _specs(spec)
    report = on_dask.score(specs, given, client, blocksize=4096)
    readable = _single(specs, [logs[0], logs[2]])
    assert [o.result for o in report.cases][1:] == [o.result for o in readable.cases][1:]
    found = {(d.code, d.path) for d in report.log_diagnostics}
    assert {("R400", str(broken)), ("R400", str(missing))} <= found
    assert not report.ok
    code, out, err = _cli(
        capsys, str(spec), *[f"--log={log}" for log in given], "--dask", client.scheduler.address
    )
    assert code == 2 == _cli(capsys, str(spec), f"--log={missing}")[0]
    assert str(missing) in err and str(broken) in err
    assert "could not be read" in out
    assert report.unreadable_partitions == 2
    assert "a log could not be read (see above); the report covers the rest" in err


def test_a_glob_that_matches_nothing_is_a_finding(client: Client, tmp_path: Path) -> None:
    """A glob naming no file is reported as such, never silently skipped."""
    specs = _specs(ROOT / "specs")
    report = on_dask.score(specs, [str(tmp_path / "none-*.jsonl")], client)
    assert [(d.code, d.path) for d in report.log_diagnostics] == [("R400", str(tmp_path / "none-*.jsonl"))]
    assert "no log matches" in report.log_diagnostics[0].message


def test_a_url_is_read_through_fsspec_in_blocks_and_named_as_given(
    client: Client, shards: tuple[Path, list[Path]]
) -> None:
    """A canonical log named by an fsspec URL (here a cached local file) is cut into blocks
    read by the workers; its findings and unused samples name the URL, at the right lines."""
    spec, logs = shards
    specs = _specs(spec)
    url = f"simplecache::file://{logs[1]}"
    report, spread = on_dask.run(specs, [url], client, blocksize=4096)
    single = _single(specs, [logs[1]])
    assert spread.partitions > 3
    assert report.cases == single.cases
    assert [(u.id, u.count, u.path, u.line) for u in report.unused] == [
        (u.id, u.count, url, u.line) for u in single.unused
    ]
    assert [(d.code, d.path, d.span) for d in report.log_diagnostics] == [
        (d.code, url, d.span) for d in single.log_diagnostics
    ]
    assert report.log_diagnostics


def test_a_url_whose_filesystem_is_missing_is_a_finding(client: Client) -> None:
    """A bucket glob or object whose fsspec filesystem is not installed is a finding naming it."""
    specs = _specs(ROOT / "specs")
    given = ["nosuchstore://bucket/runs-*.jsonl", "nosuchstore://bucket/run.jsonl"]
    report = on_dask.score(specs, given, client)
    assert [(d.code, d.path) for d in report.log_diagnostics] == [("R400", url) for url in given]


def test_a_scheduler_that_cannot_be_reached_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No scheduler at the address: exit 2 and a message naming it, never a traceback."""
    import dask

    monkeypatch.chdir(ROOT)
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, out, err = _cli(capsys, "specs", "--log", "specs/logs/run.jsonl", "--dask", "tcp://127.0.0.1:9")
    assert (code, out) == (2, "")
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err


@pytest.mark.parametrize(
    ("option", "problem"),
    [
        (["--jobs", "2"], "-j cannot be used with --dask"),
        (["specs"], "--dask takes a scheduler's address (tcp://HOST:8786), not 'specs'"),
    ],
)
def test_options_that_do_not_go_with_dask_are_refused(
    option: list[str], problem: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """-j with --dask, and a spec path taken for its address, are usage errors that say why."""
    monkeypatch.chdir(ROOT)
    code, _, err = _cli(capsys, "specs", "--log", "specs/logs/run.jsonl", "--dask", *option)
    assert code == 2
    assert problem in err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_tools_check_the_calls_of_every_partition_as_one_process_does(
    client: Client,
    shards: tuple[Path, list[Path]],
    fmt: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--tools with --dask: each partition's recorded calls are checked against the catalogue on
    the workers, and the report, the schema findings in input order included, is the one of one
    process; the same through the Python API in blocks of 4 KiB."""
    spec, logs = shards
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS), encoding="utf-8")
    argv = [str(spec), *[f"--log={log}" for log in logs], "--tools", str(tools), "--format", fmt]
    single = _cli(capsys, *argv)
    spread = _cli(capsys, *argv, "--dask", client.scheduler.address)
    assert spread == single
    assert "schema" in single[1] or "call_findings" in single[1]
    catalogue = load_catalogue(str(tools), "auto")
    report, parts = on_dask.run(
        _specs(spec), [str(log) for log in logs], client, blocksize=4096, tools=catalogue
    )
    assert parts.partitions > 3 * 4 + 2
    assert len(report.call_findings) > 100
    assert render(report, "json") == single[1] or fmt != "json"


PAIRING = FIXTURES.parent / "pairing"
WEATHER = (PAIRING / "weather.expect").read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize(
    "option",
    [
        ["--log", str(PAIRING / "conversations.jsonl"), "--pair-by", "question"],
        ["--log", str(PAIRING / "conversations.jsonl"), "--case-from", "metadata.case"],
        ["--log", str(PAIRING / "by_file" / "*.jsonl"), "--pair-by", "file"],
    ],
    ids=["question", "case-from", "file"],
)
def test_each_pairing_option_gives_the_single_process_report(
    client: Client, option: list[str], fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--pair-by question, --case-from and --pair-by file pair the runs of each partition as one
    process pairs them (a conversation's records are one run of one file), so the reports agree."""
    spec = tmp_path / "weather.expect"
    spec.write_text(WEATHER, encoding="utf-8")
    single = _cli(capsys, str(spec), *option, "--format", fmt)
    spread = _cli(capsys, str(spec), *option, "--format", fmt, "--dask", client.scheduler.address)
    assert spread == single
    assert "3 passed" in single[1] or '"passed": 3' in single[1]


def test_a_canonical_log_named_after_its_case_pairs_by_file_in_blocks(client: Client, tmp_path: Path) -> None:
    """A canonical log cut into blocks, paired by file: every block pairs its runs with the
    case the file is named after, as one process pairs the whole log."""
    spec = tmp_path / "weather.expect"
    spec.write_text(WEATHER, encoding="utf-8")
    log = tmp_path / "oslo-today.jsonl"
    rng = random.Random(5)
    lines = [
        json.dumps(
            {
                "id": f"run-{n}",
                "tool_calls": [
                    {"name": "get_weather", "arguments": {"city": rng.choice(["Oslo", "Bergen"])}}
                ],
            }
        )
        for n in range(400)
    ]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    specs = _specs(spec)
    options = PairingOptions("file")
    report, spread = on_dask.run(specs, [str(log)], client, blocksize=2048, pairing=options)
    reader = open_log(str(log))
    single = score(specs, pair_runs(specs, [reader], options))
    assert spread.partitions > 5
    assert report == dataclasses.replace(single, log_records=(reader.records,))
    assert report.cases[2].result.runs == 400


def test_runs_joined_after_reading_come_last_as_in_one_process(
    client: Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenTelemetry traces (spans joined by trace once a file is read) between canonical logs and
    provider responses: the runs keep one process's order (traces after every run given as read),
    and responses whose ids a provider made up pair with the only case, as one process pairs them."""
    spec = tmp_path / "one.expect"
    spec.write_text("expect get_weather\n", encoding="utf-8")
    logs = [
        FIXTURES / "otel" / "traces.json",
        FIXTURES / "canonical" / "samples.jsonl",
        FIXTURES / "otel" / "span_events.json",
        FIXTURES / "openai-chat" / "completion_parallel.json",
    ]
    argv = [str(spec), *[f"--log={log}" for log in logs], "--format", "json"]
    single = _cli(capsys, *argv)
    spread = _cli(capsys, *argv, "--dask", client.scheduler.address)
    assert spread == single
    assert len(json.loads(single[1])["cases"][0]["runs"]) > 5


AMBIGUOUS = WEATHER.replace("How cold is it in Oslo today?", "Wie wird das Wetter morgen in Berlin?")


@pytest.mark.parametrize(
    ("spec_text", "option", "codes"),
    [
        (AMBIGUOUS, ["--pair-by", "question"], ["R421", "R420"]),
        (WEATHER, [], ["R420"]),
        ('case "berlin tomorrow" {\n    expect get_weather(city="Berlin")\n}\n', [], ["R423"]),
    ],
    ids=["R421+R420", "R420", "R423"],
)
def test_the_pairing_findings_of_the_whole_input_are_given_as_one_process_gives_them(
    client: Client,
    spec_text: str,
    option: list[str],
    codes: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The pairing findings are about every file at once: a question two cases ask, runs left
    over while cases found none, responses of one run scored one by one. Each file is a partition
    of its own on the cluster, and the report, findings included, is the one of one process."""
    spec = tmp_path / "weather.expect"
    spec.write_text(spec_text, encoding="utf-8")
    logs = [*sorted((PAIRING / "by_file").glob("*.jsonl")), PAIRING / "conversations.jsonl"]
    for number, line in enumerate((PAIRING / "by_file" / "berlin-tomorrow.jsonl").read_text().splitlines()):
        wrapped = tmp_path / f"turn-{number}.jsonl"
        record = {"metadata": {"case": "berlin tomorrow"}, "response": json.loads(line)}
        wrapped.write_text(json.dumps(record) + "\n", encoding="utf-8")
        logs.append(wrapped)
    argv = [str(spec), *[f"--log={log}" for log in logs], *option]
    for fmt in ("text", "json"):
        single = _cli(capsys, *argv, "--format", fmt)
        spread = _cli(capsys, *argv, "--format", fmt, "--dask", client.scheduler.address)
        assert spread == single
        assert [code for code in ("R420", "R421", "R422", "R423") if code in single[2]] == sorted(codes)


def test_a_conversation_logged_across_rotated_files_is_one_run_as_in_one_process(
    client: Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each file is a partition of its own; the records of a conversation spread over three
    files are grouped by run key on the cluster and joined as one process joins them, and -v
    says how many records were held and grouped."""
    spec = tmp_path / "weather.expect"
    spec.write_text(WEATHER, encoding="utf-8")
    records = (PAIRING / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    logs = []
    for number, lines in enumerate((records[0:4], records[4:7], records[7:9])):
        log = tmp_path / f"rotated-{number}.jsonl"
        log.write_text("\n".join(lines) + "\n", encoding="utf-8")
        logs.append(log)
    argv = [str(spec), "--log", str(tmp_path / "rotated-*.jsonl"), "--case-from", "metadata.case"]
    for fmt in ("text", "json"):
        single = _cli(capsys, *argv, "--format", fmt)
        spread = _cli(capsys, *argv, "--format", fmt, "--dask", client.scheduler.address)
        assert spread == single
    assert "3 passed" in _cli(capsys, *argv)[1]
    code, _, err = _cli(capsys, *argv, "--dask", client.scheduler.address, "-v")
    assert code == 0
    assert "9 held records grouped by run key" in err and "group held records 0." in err


def _chat(number: int, system: str | None, user: str | None, turns: int) -> list[dict[str, object]]:
    """The records of one conversation, each the conversation so far (an opening, then a call
    to ``get_weather`` and its result per turn)."""
    messages: list[dict[str, object]] = []
    if system is not None:
        messages.append({"role": "system", "content": system})
    if user is not None:
        messages.append({"role": "user", "content": user})
    records = []
    for turn in range(turns):
        call = f"call_{number}_{turn}"
        function = {"name": "get_weather", "arguments": "{}"}
        messages.append(
            {"role": "assistant", "tool_calls": [{"id": call, "type": "function", "function": function}]}
        )
        messages.append({"role": "tool", "tool_call_id": call, "content": "ok"})
        records.append({"metadata": {"case": f"c{number % 2}"}, "messages": list(messages)})
    return records


@pytest.mark.parametrize("seed", range(4))
def test_any_cut_of_conversations_into_files_gives_the_one_process_report_on_the_cluster(
    client: Client, tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    """Conversations (some opening with a system prompt logged alone first, some sharing it)
    in the order they were logged, cut into files at random places: grouped by run key on the
    cluster, every format and pairing option gives the report of one process."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = [
        {"metadata": {"case": "c0"}, "messages": [{"role": "system", "content": "You help."}]}
    ]
    for number in range(12):
        system = rng.choice(["You help.", "You plan.", None])
        user = rng.choice([f"Question {number}?", None])
        records.extend(_chat(number, system, user, rng.randint(1, 3)))
    rng.shuffle(records)
    cuts = sorted(rng.sample(range(1, len(records)), 3))
    for number, (start, stop) in enumerate(zip([0, *cuts], [*cuts, len(records)], strict=True)):
        lines = "".join(json.dumps(record) + "\n" for record in records[start:stop])
        (tmp_path / f"part-{number}.jsonl").write_text(lines, encoding="utf-8")
    spec = tmp_path / "weather.expect"
    spec.write_text('case "c0" {\n    expect get_weather\n}\ncase "c1" {\n    expect get_weather\n}\n')
    argv = [str(spec), "--log", str(tmp_path / "part-*.jsonl")]
    for option in (["--pair-by", "id"], ["--pair-by", "question"], ["--case-from", "metadata.case"]):
        for fmt in ("text", "json"):
            single = _cli(capsys, *argv, *option, "--format", fmt)
            spread = _cli(capsys, *argv, *option, "--format", fmt, "--dask", client.scheduler.address)
            assert spread == single


def test_a_call_logged_twice_is_noted_where_one_process_notes_it_on_the_cluster(
    client: Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Responses joined by key on the cluster, a call logged twice in each log and a line that
    is not JSON after it: the report and the findings on standard error are one process's."""
    from test_linked import rotated_repeats

    rotated_repeats(tmp_path)
    spec = tmp_path / "spec.expect"
    spec.write_text('case "c0" {\n    expect a\n}\n', encoding="utf-8")
    argv = [str(spec), "--log", str(tmp_path / "part-*.jsonl"), "--case-from", "metadata.case"]
    for fmt in ("text", "json"):
        single = _cli(capsys, *argv, "--format", fmt)
        assert "R410" in single[1] + single[2]
        assert _cli(capsys, *argv, "--format", fmt, "--dask", client.scheduler.address) == single
