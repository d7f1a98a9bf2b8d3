"""`score --dask` on one machine: its overhead against one process, its cost model, its memory.

Writes a sharded canonical JSON Lines log (``bench_score.generate``, cut into ``--shards`` files)
under ``bench/.cache/dask``, then prints:

* single process: reading and scoring every shard in this process, as ``toolexpect score`` does;
* the time to start a ``LocalCluster`` of 1 and of 2 worker processes, stated apart;
* ``toolexpect.dask.run`` on each cluster: wall time, seconds per stage, and the ratio to one
  process; the report is checked to be the single process's, rendered;
* the cost model fitted on the 1-worker run (per-partition cost, merge cost per partition,
  finish cost per run), its prediction for 2 workers against the measurement, and its
  prediction for 100 million runs on 8, 64 and 512 workers (the table of docs/scale.md);
* the peak memory of a worker scoring half of the log and all of it (the same partition size).

The figures of the last run are in docs/scale.md. ``--size-mb`` sets the log's size.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_score import generate  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

from toolexpect import dask as on_dask  # noqa: E402
from toolexpect.cli.common import load_all  # noqa: E402
from toolexpect.logs import open_log  # noqa: E402
from toolexpect.report.score import MAX_RUNS_SHOWN, render  # noqa: E402
from toolexpect.scoring import score  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache" / "dask"


def _shards(size_mb: int, shards: int, cases: int) -> tuple[Path, list[Path], int]:
    """The spec, the shards (made once per size) and the number of runs."""
    folder = CACHE / f"{size_mb}mb-{shards}"
    marker = folder / "runs.txt"
    if marker.exists():
        return folder / "bench.expect", sorted(folder.glob("shard-*.jsonl")), int(marker.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    probe_spec, probe_log, probe_runs = generate(folder, cases, 2)
    per_run = probe_log.stat().st_size / probe_runs
    runs_per_case = max(1, int(size_mb * 1e6 / per_run / cases))
    spec, log, count = generate(folder, cases, runs_per_case)
    lines = log.read_bytes().splitlines(keepends=True)
    step = math.ceil(len(lines) / shards)
    for number in range(shards):
        (folder / f"shard-{number:03d}.jsonl").write_bytes(b"".join(lines[number * step : (number + 1) * step]))
    log.unlink()
    marker.write_text(str(count))
    return spec, sorted(folder.glob("shard-*.jsonl")), count


def _single(specs: list, logs: list[Path]) -> tuple[float, str]:
    """Seconds to read and score every shard in this process, and the text report."""
    start = time.perf_counter()
    readers = [open_log(log) for log in logs]
    report = score(specs, (s for r in readers for s in r), explained=MAX_RUNS_SHOWN)
    return time.perf_counter() - start, render(report, "text")


def _cluster(workers: int) -> tuple[LocalCluster, Client, float]:
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    client.wait_for_workers(workers)
    return cluster, client, time.perf_counter() - start


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    """Generate the sharded log, time one process and the clusters, print the model and memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=100, help="size of the sharded log (default 100)")
    parser.add_argument("--shards", type=int, default=8, help="files of the log (default 8)")
    parser.add_argument("--blocksize-mb", type=int, default=8, help="stretch size (default 8 MiB)")
    parser.add_argument("--cases", type=int, default=100, help="cases of the spec (default 100)")
    args = parser.parse_args()
    blocksize = args.blocksize_mb << 20
    spec, logs, runs = _shards(args.size_mb, args.shards, args.cases)
    size = sum(log.stat().st_size for log in logs)
    files, _ = load_all([str(spec)])
    specs = [f.spec for f in files.values() if f.spec is not None]
    print(f"log: {size / 1e6:.0f} MB in {len(logs)} shards, {runs:,} runs, {args.cases} cases; "
          f"stretches of {args.blocksize_mb} MiB; {os.cpu_count()} CPUs")

    single, expected = _single(specs, logs)
    print(f"single process: {single:6.2f} s  ({runs / single:,.0f} runs/s)")

    measured: dict[int, tuple[float, on_dask.Spread]] = {}
    for workers in (1, 2):
        cluster, client, started = _cluster(workers)
        try:
            clock = time.perf_counter()
            report, spread = on_dask.run(
                specs, [str(log) for log in logs], client, explained=MAX_RUNS_SHOWN, blocksize=blocksize
            )
            wall = time.perf_counter() - clock
        finally:
            client.close()
            cluster.close()
        assert render(report, "text") == expected, "the cluster's report differs from one process's"
        measured[workers] = (wall, spread)
        stages = ", ".join(f"{k} {v:.2f} s" for k, v in spread.seconds.items())
        print(f"dask, {workers} worker{'s' * (workers > 1)}: cluster start {started:5.2f} s (apart); "
              f"run {wall:6.2f} s = {wall / single:.2f}x one process; {spread.partitions} partitions; {stages}")

    wall1, spread1 = measured[1]
    parts = spread1.partitions
    per_partition = spread1.seconds["read and score"] / parts
    merge = spread1.seconds["merge"] / parts
    finish_per_run = spread1.seconds["finish"] / runs
    plan = spread1.seconds["plan"]
    print(f"model: per partition {per_partition:.3f} s ({runs / parts:,.0f} runs), merge {merge * 1e3:.2f} ms "
          f"per partition, finish {finish_per_run * 1e9:.0f} ns per run, plan {plan:.2f} s")

    def model(workers: int, total_runs: float, per_part_runs: float) -> float:
        count = math.ceil(total_runs / per_part_runs)
        return plan + math.ceil(count / workers) * per_partition * per_part_runs / (runs / parts) + \
            count * merge + total_runs * finish_per_run

    predicted = model(2, runs, runs / parts)
    print(f"model check: 2 workers predicted {predicted:.2f} s, measured {measured[2][0]:.2f} s "
          f"({measured[2][0] / predicted:.2f}x)")
    per_part_64 = (64 << 20) / (size / runs)
    for workers in (8, 64, 512):
        print(f"100M runs on {workers:3d} workers (64 MiB partitions, {per_part_64:,.0f} runs each): "
              f"{model(workers, 1e8, per_part_64) / 60:6.1f} min")

    print("memory: peak RSS of one worker scoring stretches of the same size")
    for share in (len(logs) // 2, len(logs)):
        cluster, client, _ = _cluster(1)
        try:
            on_dask.run(specs, [str(log) for log in logs[:share]], client, explained=MAX_RUNS_SHOWN,
                        blocksize=blocksize)
            peak = max(client.run(_peak_rss_mb).values())
        finally:
            client.close()
            cluster.close()
        print(f"  {share} shards ({runs * share // len(logs):,} runs): {peak:6.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
