"""`score --dask` on one machine: its overhead against one process, its cost model, its memory.

Writes a sharded canonical JSON Lines log (``bench_score.generate``, cut into ``--shards`` files)
under ``bench/.cache/dask``, then prints:

* ``toolexpect score`` (text report) in one process, timed in this process;
* the time to start a ``LocalCluster`` of 1 and of 2 worker processes, stated apart, and on each
  ``toolexpect score --dask ADDRESS`` (the same command, its output checked to be the single
  process's) and ``toolexpect.scale.dask.run`` with its seconds per stage; on 1 worker, the wall and
  CPU seconds of scoring one partition;
* the cost model fitted on the 1-worker run (per-partition cost, merge cost per partition,
  finish cost per run, planning), its prediction for 2 workers against the measurement, and its
  prediction for 100 million runs on 8, 64 and 512 workers (the table of docs/scale.md);
* the highest resident memory of one worker (polled every 0.1 s) scoring a quarter of the log
  and all of it, with the same partition size.

The machine is shared: the load average is printed beside each timing. Figures in docs/scale.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_score import generate
from distributed import Client, LocalCluster

from toolexpect.cli import main as main_cli
from toolexpect.cli.common import load_all
from toolexpect.model import Spec
from toolexpect.report.score import MAX_RUNS_SHOWN
from toolexpect.scale import dask as on_dask
from toolexpect.scale.shards import Shard, score_shard, survey_log
from toolexpect.scoring.partial import CompiledSpecs

CACHE = Path(__file__).resolve().parent / ".cache" / "dask"


def _shards(size_mb: int, shards: int, cases: int) -> tuple[Path, list[Path], int]:
    """The spec, the shards (made once per size) and the number of runs."""
    folder = CACHE / f"{size_mb}mb-{shards}"
    marker = folder / "runs.txt"
    if marker.exists():
        return folder / "bench.expect", sorted(folder.glob("shard-*.jsonl")), int(marker.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    _probe_spec, probe_log, probe_runs = generate(folder, cases, 2)
    per_run = probe_log.stat().st_size / probe_runs
    runs_per_case = max(1, int(size_mb * 1e6 / per_run / cases))
    spec, log, count = generate(folder, cases, runs_per_case)
    lines = log.read_bytes().splitlines(keepends=True)
    step = math.ceil(len(lines) / shards)
    for number in range(shards):
        part = lines[number * step : (number + 1) * step]
        (folder / f"shard-{number:03d}.jsonl").write_bytes(b"".join(part))
    log.unlink()
    marker.write_text(str(count))
    return spec, sorted(folder.glob("shard-*.jsonl")), count


def _command(argv: list[str]) -> tuple[float, str, str]:
    """Seconds, standard output and standard error of ``toolexpect score ARGV`` in this process."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main_cli(["score", *argv])
    return time.perf_counter() - start, out.getvalue(), err.getvalue()


def _cluster(workers: int) -> tuple[LocalCluster, Client, float]:
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    client.wait_for_workers(workers)
    return cluster, client, time.perf_counter() - start


def _rss_mb() -> float:
    """The resident memory of this process now, in MB (a worker's, through ``Client.run``)."""
    import psutil

    return float(psutil.Process().memory_info().rss / 1e6)


def _timed_shard(specs: CompiledSpecs, shard: Shard) -> tuple[float, float]:
    """Wall and CPU seconds of scoring one shard (run on a worker)."""
    wall, cpu = time.perf_counter(), time.process_time()
    score_shard(specs, shard, explained=MAX_RUNS_SHOWN)
    return time.perf_counter() - wall, time.process_time() - cpu


class _Peak:
    """The highest resident memory of any worker, polled every 0.1 s while a run lasts."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.peak = 0.0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.done.wait(0.1):
            self.peak = max(self.peak, *self.client.run(_rss_mb).values())

    def __enter__(self) -> _Peak:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()


def _plan(specs: list[Spec], logs: list[str], blocksize: int) -> int:
    """Time one API run on a local cluster of 2 workers: its plan (surveying the logs), its
    reading and scoring, and its total, with the load average before and after."""
    cluster, client, started = _cluster(2)
    try:
        before = os.getloadavg()[0]
        clock = time.perf_counter()
        _, spread = on_dask.run(specs, logs, client, explained=MAX_RUNS_SHOWN, blocksize=blocksize)
        total = time.perf_counter() - clock
    finally:
        client.close()
        cluster.close()
    seconds = spread.seconds
    print(
        f"2 workers (cluster start {started:.2f} s, apart), {spread.partitions} partitions: "
        f"plan {seconds['plan']:.2f} s, read and score {seconds['read and score']:.2f} s, "
        f"total {total:.2f} s; load average {before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    return 0


def main() -> int:
    """Generate the sharded log, time one process and the clusters, print the model and memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=100, help="size of the sharded log (default 100)")
    parser.add_argument("--shards", type=int, default=8, help="files of the log (default 8)")
    parser.add_argument("--blocksize-mb", type=int, default=8, help="stretch size (default 8 MiB)")
    parser.add_argument("--cases", type=int, default=100, help="cases of the spec (default 100)")
    parser.add_argument(
        "--plan", action="store_true", help="only time one API run on 2 workers: plan, read and score, total"
    )
    parser.add_argument(
        "--through",
        default="",
        help="with --plan, name the logs as fsspec URLs: this prefix, then the path "
        "(blockcache::file:// reads them as a remote store is read, in ranges)",
    )
    args = parser.parse_args()
    blocksize = args.blocksize_mb << 20
    spec, logs, runs = _shards(args.size_mb, args.shards, args.cases)
    size = sum(log.stat().st_size for log in logs)
    files, _ = load_all([str(spec)])
    specs = [f.spec for f in files.values() if f.spec is not None]
    print(
        f"log: {size / 1e6:.0f} MB in {len(logs)} shards, {runs:,} runs, {args.cases} cases; "
        f"blocks of {args.blocksize_mb} MiB; {os.cpu_count()} CPUs"
    )
    if args.plan:
        return _plan(specs, [f"{args.through}{log}" for log in logs], blocksize)

    argv = [str(spec), *[f"--log={log}" for log in logs]]
    single, expected, _ = _command(argv)
    print(
        f"single process (toolexpect score, text report): {single:6.2f} s ({runs / single:,.0f} runs/s); "
        f"load average {os.getloadavg()[0]:.1f}"
    )

    measured: dict[int, tuple[float, on_dask.Spread]] = {}
    cpu: list[tuple[float, float]] = []
    for workers in (1, 2):
        cluster, client, started = _cluster(workers)
        try:
            wall, out, _ = _command([*argv, "--dask", cluster.scheduler_address])
            _, spread = on_dask.run(
                specs, [str(log) for log in logs], client, explained=MAX_RUNS_SHOWN, blocksize=blocksize
            )
            if workers == 1:
                compiled = client.scatter(CompiledSpecs.of(specs), broadcast=True)
                sample = survey_log(str(logs[0]), 0, blocksize=blocksize)
                cpu = client.gather(client.map(_timed_shard, [compiled] * len(sample), sample, pure=False))
        finally:
            client.close()
            cluster.close()
        assert out == expected, "the cluster's report differs from one process's"
        measured[workers] = (wall, spread)
        stages = ", ".join(f"{k} {v:.2f} s" for k, v in spread.seconds.items())
        print(
            f"dask, {workers} worker{'s' * (workers > 1)}: cluster start {started:5.2f} s (apart); "
            f"score --dask {wall:6.2f} s = {wall / single:.2f}x one process; load average "
            f"{os.getloadavg()[0]:.1f}"
        )
        print(f"  API run, {spread.partitions} partitions: {stages}")
    print(
        f"  a partition on a worker: {sum(w for w, _ in cpu) / len(cpu):.2f} s wall, "
        f"{sum(c for _, c in cpu) / len(cpu):.2f} s CPU (mean of {len(cpu)})"
    )

    finishes: list[tuple[int, float]] = []
    print("memory: highest resident memory of one worker (polled) scoring stretches of the same size")
    for share in (max(1, len(logs) // 4), len(logs)):
        cluster, client, _ = _cluster(1)
        try:
            with _Peak(client) as peak:
                _, part = on_dask.run(
                    specs,
                    [str(log) for log in logs[:share]],
                    client,
                    explained=MAX_RUNS_SHOWN,
                    blocksize=blocksize,
                )
        finally:
            client.close()
            cluster.close()
        finishes.append((runs * share // len(logs), part.seconds["finish"]))
        print(
            f"  {share} shard{'s' * (share > 1)} ({finishes[-1][0]:,} runs): {peak.peak:6.0f} MB; "
            f"finish {finishes[-1][1]:.3f} s"
        )

    spread1 = measured[1][1]
    parts = spread1.partitions
    per_partition = spread1.seconds["read and score"] / parts
    merge = spread1.seconds["merge"] / parts
    (few, few_s), (many, many_s) = finishes
    finish_per_run = max(0.0, (many_s - few_s) / (many - few))
    finish_fixed = max(0.0, many_s - many * finish_per_run)
    plan = spread1.seconds["plan"]
    print(
        f"model: T(W) = plan + ceil(P / W) x partition + P x merge + finish + runs x finish per run, "
        f"fitted on 1 worker: partition {per_partition:.2f} s ({runs / parts:,.0f} runs), "
        f"merge {merge * 1e3:.2f} ms, finish {finish_fixed:.3f} s + {finish_per_run * 1e9:.0f} ns per run, "
        f"plan {plan:.2f} s"
    )

    def model(workers: int, total_runs: float, per_part_runs: float) -> float:
        count = math.ceil(total_runs / per_part_runs)
        partition = per_partition * per_part_runs / (runs / parts)
        finish = finish_fixed + total_runs * finish_per_run
        return plan + math.ceil(count / workers) * partition + count * merge + finish

    predicted = model(2, runs, runs / parts)
    print(
        f"model check: 2 workers predicted {predicted:.2f} s, API run measured "
        f"{sum(measured[2][1].seconds.values()):.2f} s"
    )
    per_part_64 = (64 << 20) / (size / runs)
    for workers in (8, 64, 512):
        print(
            f"100M runs on {workers:3d} workers (64 MiB partitions, {per_part_64:,.0f} runs each): "
            f"{model(workers, 1e8, per_part_64) / 60:6.1f} min"
        )

    return 0


if __name__ == "__main__":
    raise SystemExit(main())
