"""What joining runs across logs costs: held records grouped by run key (``toolexpect.scale.grouped``).

Writes (fixed seed) OpenAI chat logs of ``--conversations`` three-turn conversations, one record
per turn (the conversation so far), every conversation opening with the same system prompt, in
``--files`` files. ``rotated``: the records in the order they were logged, files cut at equal
sizes, so the conversations at each cut span two files; ``whole``: each conversation within one
file. For each, in one process: scores every file alone (``score_shard``: its runs given as
read, its held records), groups the held records by run key and joins each group
(``score_grouped``, the steps the Dask shuffle runs), and prints the seconds of each step, the
records held, the groups, and that the report equals the one of one process reading every file.

``--dask N ...``: for each number of conversations, the rotated files scored by
``toolexpect.scale.dask.run`` on a local cluster of 2 workers: wall time, the client's highest
traced memory (tracemalloc) and that the report is the one of one process.

Run: ``python bench/bench_linked.py [--conversations 20000] [--files 8] [--dask 5000 20000 80000]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from pathlib import Path

from toolexpect.api import parse_spec
from toolexpect.logs import open_logs
from toolexpect.scale.grouped import groups_of, score_grouped
from toolexpect.scale.partition import score_read
from toolexpect.scale.shards import score_shard, survey_log
from toolexpect.scoring.partial import CompiledSpecs

CACHE = Path(__file__).resolve().parent / ".cache" / "linked"
SPEC = 'case "c0" {\n    expect get_weather\n}\ncase "c1" {\n    expect get_weather\n    expect send\n}\n'


def _records(conversations: int, seed: int) -> list[list[str]]:
    """Each conversation's records (JSON lines), turn by turn."""
    rng = random.Random(seed)
    found = []
    for number in range(conversations):
        messages: list[dict[str, object]] = [
            {"role": "system", "content": "You are a weather assistant."},
            {"role": "user", "content": f"Question {number}: the weather in {rng.choice(['Oslo', 'Rome'])}?"},
        ]
        lines = []
        for turn, tool in enumerate(["get_weather", "get_weather", "send"]):
            call = f"call_{number}_{turn}"
            function = {"name": tool, "arguments": json.dumps({"city": "Oslo"})}
            calls = [{"id": call, "type": "function", "function": function}]
            messages.append({"role": "assistant", "tool_calls": calls})
            messages.append({"role": "tool", "tool_call_id": call, "content": "ok"})
            record = {"metadata": {"case": f"c{number % 2}"}, "messages": list(messages)}
            lines.append(json.dumps(record))
        found.append(lines)
    return found


def _write(layout: str, conversations: list[list[str]], files: int) -> list[Path]:
    folder = CACHE / f"{layout}-{len(conversations)}-{files}"
    folder.mkdir(parents=True, exist_ok=True)
    if layout == "whole":
        lines = [line for conversation in conversations for line in conversation]
    else:  # as logged: the turns of a few conversations at a time interleave
        lines = []
        for start in range(0, len(conversations), 4):
            batch = conversations[start : start + 4]
            for turn in range(3):
                lines.extend(conversation[turn] for conversation in batch)
    size = -(-len(lines) // files) + 5  # a cut inside a batch of interleaved conversations
    if layout == "whole":
        size = -(-len(conversations) // files) * 3
    paths = []
    for number in range(files):
        path = folder / f"part-{number:03d}.jsonl"
        part = lines[number * size : (number + 1) * size]
        if part:
            path.write_text("\n".join(part) + "\n", encoding="utf-8")
            paths.append(path)
    return paths


def _run(layout: str, paths: list[Path], options_case: str) -> None:
    from toolexpect.pairing import PairingOptions

    options = PairingOptions(case_from=options_case)
    compiled = CompiledSpecs.of([parse_spec(SPEC, "weather")])
    shards = [shard for number, path in enumerate(paths) for shard in survey_log(str(path), number)]
    clock = time.perf_counter()
    scored = [score_shard(compiled, shard, pairing=options) for shard in shards]
    alone = time.perf_counter() - clock
    total = compiled.empty()
    held = []
    for found in scored:
        assert found is not None
        total = total.merge(found.partial)
        held.extend(found.held)
    clock = time.perf_counter()
    groups = len(groups_of(held, options))
    grouping = time.perf_counter() - clock
    clock = time.perf_counter()
    total = score_grouped(compiled, total, held, len(paths), pairing=options)
    joining = time.perf_counter() - clock
    report = compiled.finish(total)
    clock = time.perf_counter()
    readers = open_logs([str(path) for path in paths])
    single = compiled.finish(score_read(compiled, readers, at=(0,), pairing=options))
    one = time.perf_counter() - clock
    print(
        f"{layout:8} files {len(paths)}: each file alone {alone:.2f} s; {len(held):,} records held, "
        f"{groups:,} groups ({grouping:.2f} s to group); grouped, joined and scored {joining:.2f} s; "
        f"one process {one:.2f} s; same report: {report == single}"
    )


def _on_dask(counts: list[int], files: int) -> None:
    """For each number of conversations, rotated files scored by ``toolexpect.scale.dask.run`` on
    a local cluster of 2 single-threaded workers: wall time, the client's highest traced memory
    during the run (tracemalloc), and that the report is the one of one process."""
    from distributed import Client, LocalCluster

    from toolexpect.pairing import PairingOptions
    from toolexpect.scale import dask as on_dask

    options = PairingOptions(case_from="metadata.case")
    specs = [parse_spec(SPEC, "weather")]
    compiled = CompiledSpecs.of(specs)
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        for count in counts:
            paths = _write("rotated", _records(count, 7), files)
            readers = open_logs([str(path) for path in paths])
            clock = time.perf_counter()
            single = compiled.finish(score_read(compiled, readers, at=(0,), pairing=options, explained=5))
            one = time.perf_counter() - clock
            tracemalloc.start()
            clock = time.perf_counter()
            report, spread = on_dask.run(
                specs, [str(path) for path in paths], client, pairing=options, explained=5
            )
            wall = time.perf_counter() - clock
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            stages = ", ".join(f"{k} {v:.2f} s" for k, v in spread.seconds.items())
            print(
                f"dask rotated {count:>7,} conversations in {len(paths)} files: {wall:.2f} s "
                f"(one process {one:.2f} s), client peak {peak / 1e6:.1f} MB; {stages}; "
                f"same report: {report == single}"
            )


def main() -> None:
    """Print the figures for both layouts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=20000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument(
        "--dask", type=int, nargs="*", help="numbers of conversations to score on a local cluster instead"
    )
    args = parser.parse_args()
    if args.dask:
        _on_dask(args.dask, args.files)
        return
    conversations = _records(args.conversations, 7)
    for layout in ("whole", "rotated"):
        _run(layout, _write(layout, conversations, args.files), "metadata.case")


if __name__ == "__main__":
    main()
