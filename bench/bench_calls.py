"""Memory and time to first line of ``toolexpect calls`` on a large log.

Generates (fixed seed) a log of about ``--mb`` megabytes, in the canonical form or as OpenAI
``chat.completion`` records (``--form``), then runs ``toolexpect calls`` on it, as a table and
with ``--format json``, in a real process writing to a pipe, and prints for each: the seconds
until the first line arrived, the seconds until the end, and the peak memory of the process.

Run: ``python bench/bench_calls.py [--mb 200] [--form canonical|openai-chat] [--src PATH]``
(``--src`` runs the ``toolexpect`` package found under PATH instead, to compare builds).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CITIES = ["Berlin", "Lisbon", "Rome", "Oslo", "Paris", "Madrid", "Vienna", "Prague"]


def _record(number: int, rng: random.Random, form: str) -> dict[str, object]:
    calls = [
        {
            "name": f"tool_{rng.randrange(20)}",
            "arguments": {"city": rng.choice(CITIES), "days": rng.randint(1, 7)},
        }
        for _ in range(8)
    ]
    if form == "canonical":
        return {"id": f"case {number % 100}", "tool_calls": calls}
    return {
        "id": f"chatcmpl-{number:08d}",
        "object": "chat.completion",
        "model": "gpt-4.1-mini",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{number}_{i}",
                            "type": "function",
                            "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
                        }
                        for i, c in enumerate(calls)
                    ],
                },
            }
        ],
    }


def generate(path: Path, megabytes: int, form: str) -> int:
    """Write the log; return its number of records."""
    rng = random.Random(7)
    target = megabytes << 20
    written = 0
    number = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < target:
            line = json.dumps(_record(number, rng, form)) + "\n"
            handle.write(line)
            written += len(line)
            number += 1
    return number


def measure(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds to the first line, seconds to the end, peak memory (MiB) of ``command``."""
    start = time.perf_counter()
    wrapped = ["/usr/bin/time", "-f", "%M", *command] if os.path.exists("/usr/bin/time") else command
    process = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None
    process.stdout.readline()
    first = time.perf_counter() - start
    for _ in iter(lambda: process.stdout.read(1 << 20), b""):  # type: ignore[union-attr]
        pass
    _, err = process.communicate()
    end = time.perf_counter() - start
    lines = err.decode().strip().splitlines()
    peak = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else float("nan")
    return first, end, peak


def main() -> None:
    """Generate the log and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--form", choices=("canonical", "openai-chat"), default="canonical")
    parser.add_argument("--src", help="run the toolexpect package under this folder instead")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = args.src
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "big.jsonl"
        records = generate(log, args.mb, args.form)
        size = log.stat().st_size / (1 << 20)
        print(f"log: {records:,} {args.form} records, {size:.0f} MiB")
        for extra in ([], ["--format", "json"]):
            command = [sys.executable, "-m", "toolexpect", "calls", str(log), *extra]
            first, end, peak = measure(command, env)
            name = "calls " + " ".join(extra) if extra else "calls (table)"
            print(f"{name:22} first line {first:6.2f} s, all {end:6.2f} s, peak {peak:7.0f} MiB")


if __name__ == "__main__":
    main()
