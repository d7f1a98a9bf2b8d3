"""What joining runs across logs costs an engine (``toolexpect.scale.linked``), in one process.

Writes (fixed seed) OpenAI chat logs of ``--conversations`` three-turn conversations, one record
per turn (the conversation so far), every conversation opening with the same system prompt, in
``--files`` files. ``rotated``: the records in the order they were logged, files cut at equal
sizes, so the conversations at each cut span two files; ``whole``: each conversation within one
file. For each, scores every file alone (``score_shard``), gathers the join handles
(``Links.add``), reads again the files that hold handles other files hold (``relink_shard``),
pairs the records they set aside together (``score_set_aside``), and prints the seconds of
each step, the handles held, the client's memory for them (tracemalloc), the files read again
and the records set aside, and that the report equals the one of one process reading every
file.

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
from toolexpect.logs import open_logs
from toolexpect.scale.linked import Links, without_held
from toolexpect.scale.partition import score_read
from toolexpect.scale.shards import Shard, relink_shard, score_set_aside, score_shard, survey_log
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
    cross = links.cross()
    gather = time.perf_counter() - clock
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    total = without_held(total, set(cross))
    by_log: dict[int, Shard] = {shard.at[0]: shard for shard in shards}
    again = [by_log[log] for log in cross]
    clock = time.perf_counter()
    relinked = [relink_shard(compiled, shard, cross[shard.at[0]], pairing=options) for shard in again]
    for partial, _ in relinked:
        total = total.merge(partial)
    slowest = max((time.perf_counter() - clock) / max(1, len(again)), 0.0)
    reread = time.perf_counter() - clock
    clock = time.perf_counter()
    total = total.merge(score_set_aside(compiled, relinked, again, pairing=options))
    together = time.perf_counter() - clock
    aside = sum(len(records.samples) for _, records in relinked)
    report = compiled.finish(total)
    clock = time.perf_counter()
    readers = open_logs([str(path) for path in paths])
    single = compiled.finish(score_read(compiled, readers, at=(0,), pairing=options))
    one = time.perf_counter() - clock
    print(
        f"{layout:8} files {len(paths)}, handles {handles:,}; each file alone {alone:.2f} s; gather "
        f"handles {gather:.3f} s ({held / 1e6:.1f} MB held); {len(again)} files read again "
        f"{reread:.2f} s (one of them {slowest:.2f} s: the time on a cluster); {aside} records set aside, "
        f"paired together {together:.2f} s; one process {one:.2f} s; same report: {report == single}"
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
