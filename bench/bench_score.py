"""End-to-end throughput of ``toolexpect score`` on a large recorded log.

Generates (fixed seed) a spec of 100 cases and a canonical JSONL log of 1,000 runs per case
(100,000 samples, about 5 expected and 8 recorded calls each), then prints:

* the time merely decoding the log with the standard ``json`` module takes,
* the wall time of ``toolexpect score`` on it (a real process, JSON report to a file),
* samples per second, the ratio of the two, and the peak memory of the scoring process.

With ``--phases`` it also times, in this process and with the cyclic GC paused as the CLI
does, each step on its own: loading the spec, reading the log into samples, scoring them,
reading and scoring in one pass as the CLI does with ``-j 1``, and rendering the JSON report.

Decoding and scoring are each timed ``--repeat`` times (default 3), alternating, and the
best of each is reported, so that a busy machine disturbs both sides alike.

Run: ``python bench/bench_score.py [--runs 1000] [--cases 100] [--repeat 3] [--phases]``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOOLS = [f"tool_{i}" for i in range(20)]
CITIES = ["Berlin", "Lisbon", "Rome", "Oslo", "Paris", "Madrid", "Vienna", "Prague"]


def _call(rng: random.Random) -> tuple[str, dict[str, object]]:
    tool = rng.choice(TOOLS)
    args: dict[str, object] = {"city": rng.choice(CITIES), "days": rng.randint(1, 7)}
    if rng.random() < 0.3:
        args["filter"] = {"limit": rng.randint(1, 5), "tags": ["a", "b"]}
    return tool, args


def _literal(value: object) -> str:
    return json.dumps(value)


def generate(
    folder: Path,
    cases: int,
    runs: int,
    seed: int = 7,
    expected: dict[str, list[tuple[str, dict[str, object]]]] | None = None,
) -> tuple[Path, Path, int]:
    """Write the spec and the log; return their paths and the number of samples. ``expected``,
    when given, receives each case's expected calls (what the spec says, as data)."""
    rng = random.Random(seed)
    spec_lines: list[str] = []
    if expected is None:
        expected = {}
    for c in range(cases):
        name = f"case {c}"
        calls = [_call(rng) for _ in range(5)]
        expected[name] = calls
        spec_lines.append(f'case "{name}" {{')
        for tool, args in calls:
            rendered = ", ".join(f"{k}={_literal(v)}" for k, v in args.items())
            spec_lines.append(f"    expect {tool}({rendered})")
        spec_lines.append("    require accuracy >= 0.8")
        spec_lines.append("}")
        spec_lines.append("")
    spec = folder / "bench.expect"
    spec.write_text("\n".join(spec_lines), encoding="utf-8")
    log = folder / "bench.jsonl"
    count = 0
    with log.open("w", encoding="utf-8") as out:
        for _ in range(runs):
            for name, calls in expected.items():
                recorded = [{"name": t, "arguments": dict(a)} for t, a in calls if rng.random() < 0.9]
                while len(recorded) < 8:
                    tool, args = _call(rng)
                    recorded.append({"name": tool, "arguments": args})
                rng.shuffle(recorded)
                out.write(json.dumps({"id": name, "tool_calls": recorded}) + "\n")
                count += 1
    return spec, log, count


def phases(spec: Path, log: Path) -> None:
    """Time each step of ``score`` in this process (best of 3 for reading and scoring)."""
    import gc

    from toolexpect.cli.common import load_all as _load_all
    from toolexpect.logs import open_log
    from toolexpect.report import score as report
    from toolexpect.scoring.partial import score

    start = time.perf_counter()
    files, _ = _load_all([str(spec)])
    specs = [f.spec for f in files.values() if f.spec is not None]
    print(f"  spec load:     {time.perf_counter() - start:7.2f} s")
    gc.freeze()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            samples = list(open_log(log))
            best = min(best, time.perf_counter() - start)
        print(f"  read log:      {best:7.2f} s")
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            result = score(specs, samples)
            best = min(best, time.perf_counter() - start)
        print(f"  score:         {best:7.2f} s")
        del samples
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            result = score(specs, open_log(log))
            best = min(best, time.perf_counter() - start)
        print(f"  read+score:    {best:7.2f} s (one pass, as score -j 1)")
        start = time.perf_counter()
        text = report.render(result, "json")
        print(f"  render json:   {time.perf_counter() - start:7.2f} s ({len(text) / 1e6:.1f} MB)")
        start = time.perf_counter()
        report.render(result, "text")
        print(f"  render text:   {time.perf_counter() - start:7.2f} s")
    finally:
        gc.unfreeze()
        gc.enable()


def main() -> int:
    """Generate the corpus, time decoding and scoring, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--phases", action="store_true", help="also time each step in-process")
    parser.add_argument("--jobs", type=int, default=1, help="score --jobs (default: 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each side; the best is kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec, log, count = generate(folder, args.cases, args.runs)
        size = log.stat().st_size
        report = folder / "report.json"
        command = [
            sys.executable,
            "-m",
            "toolexpect",
            "score",
            str(spec),
            "--log",
            str(log),
            "--format",
            "json",
            "-o",
            str(report),
        ]
        command += ["--jobs", str(args.jobs)]
        decode = wall = float("inf")
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            with log.open("rb") as handle:
                for line in handle:
                    json.loads(line)
            decode = min(decode, time.perf_counter() - start)
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True)
            wall = min(wall, time.perf_counter() - start)
            if done.returncode not in (0, 1):
                print(done.stderr, file=sys.stderr)
                return 2
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        summary = json.loads(report.read_text(encoding="utf-8"))["summary"]
        if args.phases:
            print("phases (in-process, GC paused):")
            phases(spec, log)
    print(f"log: {count:,} samples, {size / 1e6:.1f} MB; cases: {summary}")
    print(f"best of {max(1, args.repeat)} runs of each:")
    print(f"json.loads alone:        {decode:7.2f} s  ({count / decode:,.0f} samples/s)")
    print(f"toolexpect score (e2e):  {wall:7.2f} s  ({count / wall:,.0f} samples/s)")
    print(f"ratio score / decode:    {wall / decode:7.2f}x (floor: within 5x)")
    print(f"peak memory of score:    {peak_kib / 1024:7.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
