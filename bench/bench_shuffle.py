"""Dask's ``Bag.groupby`` (a task shuffle) against ``Bag.foldby`` on the held records of rotated files.

Writes (or reuses) the rotated OpenAI chat logs of ``bench/bench_linked.py``, scores each file
alone to get its held records, scatters them one partition per file to a local cluster of 2
workers, and times grouping them by run key (``toolexpect.scale.grouped.own``) both ways, twice
each, counting the records of every group. Figures in docs/scale.md.

Run: ``python bench/bench_shuffle.py CONVERSATIONS``.
"""

from __future__ import annotations

import sys
import time

sys.path.insert(0, "bench")
import bench_linked as bl
import dask.bag as db
from distributed import Client, LocalCluster

from toolexpect.api import parse_spec
from toolexpect.pairing import PairingOptions
from toolexpect.scale import grouped
from toolexpect.scale.shards import score_shard, survey_log
from toolexpect.scoring.partial import CompiledSpecs


def add(acc: list[object], held: object) -> list[object]:
    """Add one record to a group's list (foldby's binop)."""
    acc.append(held)
    return acc


def concat(a: list[object], b: list[object]) -> list[object]:
    """Join two lists of one group (foldby's combine)."""
    return a + b


def size(pair: tuple[object, list[object]]) -> int:
    """How many records a group holds."""
    return len(pair[1])


def main() -> None:
    """Time both ways for the number of conversations given."""
    n = int(sys.argv[1])
    paths = bl._write("rotated", bl._records(n, 7), 8)
    opt = PairingOptions(case_from="metadata.case")
    comp = CompiledSpecs.of([parse_spec(bl.SPEC, "weather")])
    parts = [score_shard(comp, survey_log(str(p), i)[0], pairing=opt).held for i, p in enumerate(paths)]
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as c, Client(c) as cl:
        futures = [cl.scatter(list(p)) for p in parts]
        from dask.delayed import delayed

        records = db.from_delayed([delayed(f) for f in futures])
        for name, bag in [
            ("groupby tasks", records.groupby(grouped.own, shuffle="tasks", npartitions=8)),
            ("foldby", records.foldby(grouped.own, add, list, concat, list)),
        ]:
            for _ in range(2):
                t = time.perf_counter()
                total = cl.compute(bag.map(size).sum()).result()
                print(f"{n} conversations, {name}: {time.perf_counter() - t:.2f} s ({total} records)")


if __name__ == "__main__":
    main()
