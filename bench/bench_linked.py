"""What joining runs across logs costs an engine (``toolexpect.linked``), in one process.

Writes (fixed seed) OpenAI chat logs of ``--conversations`` three-turn conversations, one record
per turn (the conversation so far), every conversation opening with the same system prompt, in
``--files`` files. ``rotated``: the records in the order they were logged, files cut at equal
sizes, so the conversations at each cut span two files; ``whole``: each conversation within one
file. For each, scores every file alone (``score_shard``), gathers the join handles
(``Links.add``), reads the linked files together (``score_together``), and prints the seconds of
each step, the groups found, the handles held, the client's memory for them (tracemalloc), and
that the report equals the one of one process reading every file.

Run: ``python bench/bench_linked.py [--conversations 20000] [--files 8]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from pathlib import Path

from toolexpect.api import parse_spec
from toolexpect.linked import Links, without_held
from toolexpect.logs import open_logs
from toolexpect.partition import score_read
from toolexpect.scoring import CompiledSpecs
from toolexpect.shards import Shard, score_shard, score_together, survey_log

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
    partials = [score_shard(compiled, shard, pairing=options) for shard in shards]
    alone = time.perf_counter() - clock
    handles = sum(
        len(part.pairing.offers) + len(part.pairing.probes)
        for partial in partials
        if partial is not None
        for part in partial.parts
        if part.pairing is not None
    )
    tracemalloc.start()
    clock = time.perf_counter()
    links = Links()
    total = compiled.empty()
    for partial in partials:
        assert partial is not None
        total = total.merge(links.add(partial))
    groups = links.groups()
    gather = time.perf_counter() - clock
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    clock = time.perf_counter()
    total = without_held(total, {log for group in groups for log in group})
    by_log: dict[int, Shard] = {shard.at[0]: shard for shard in shards}
    for group in groups:
        total = total.merge(score_together(compiled, [by_log[log] for log in group], pairing=options))
    together = time.perf_counter() - clock
    report = compiled.finish(total)
    clock = time.perf_counter()
    readers = open_logs([str(path) for path in paths])
    single = compiled.finish(score_read(compiled, readers, at=(0,), pairing=options))
    one = time.perf_counter() - clock
    linked = sum(len(group) for group in groups)
    print(
        f"{layout:8} files {len(paths)}, handles {handles:,}, groups {len(groups)} ({linked} files); "
        f"each file alone {alone:.2f} s, gather handles {gather:.3f} s ({held / 1e6:.1f} MB held), "
        f"linked files together {together:.2f} s; one process {one:.2f} s; same report: {report == single}"
    )


def main() -> None:
    """Print the figures for both layouts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=20000)
    parser.add_argument("--files", type=int, default=8)
    args = parser.parse_args()
    conversations = _records(args.conversations, 7)
    for layout in ("whole", "rotated"):
        _run(layout, _write(layout, conversations, args.files), "metadata.case")


if __name__ == "__main__":
    main()
