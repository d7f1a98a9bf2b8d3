"""``toolexpect score`` against the floor: a plain loop that does only the work a score needs.

Run: ``python bench/bench_floor.py [--cases 100] [--runs 200] [--rounds 3] [--editable]``.

1. Generates the log of ``bench/bench_score.py`` (``--cases`` cases of 5 expected calls, each
   recorded ``--runs`` times with 8 calls: 20,000 canonical samples by default).
2. Installs this tree as users get it (a wheel in ``bench/.cache/builds/worktree/venv``, modules
   compiled to bytecode; ``--editable`` times the running interpreter's toolexpect instead).
3. For ``--rounds`` rounds, taking turns, runs three whole processes with that Python, without
   ``PYTHONDONTWRITEBYTECODE``:

   * **floor**: the reference loop below, which decodes each line with ``orjson``, builds the
     calls, pairs each case's expectations with them (a maximum matching, arguments as a subset,
     numbers by value at the top level, nested values strictly) and writes each run's score;
   * **score --format json -o** and **score --format text -o**: ``toolexpect score`` of the spec.

4. Checks that the loop and the JSON report agree on every run's score, and prints the best CPU
   and wall time of each side, their ratios, the targets (JSON report within 2x of the floor,
   text within 1.6x) and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import bench_score  # noqa: E402  (sibling modules; bench/ is not a package)
from compare_builds import install_worktree  # noqa: E402

FLOOR = r"""
import sys, orjson
expected = orjson.loads(open(sys.argv[1], "rb").read())

def same(want, got):
    if type(want) is not type(got) and not (
        type(want) in (int, float) and type(got) in (int, float)
    ):
        return False
    return want == got

def strict(want, got):
    if type(want) is not type(got):
        return False
    if type(want) is dict:
        return want.keys() == got.keys() and all(strict(want[k], got[k]) for k in want)
    if type(want) is list:
        return len(want) == len(got) and all(map(strict, want, got))
    return want == got

def fits(expectation, call):
    tool, args = expectation
    if call["name"] != tool:
        return False
    given = call.get("arguments") or {}
    for key, want in args.items():
        if key not in given:
            return False
        got = given[key]
        if not (strict(want, got) if type(want) in (dict, list) else same(want, got)):
            return False
    return True

def matched(wants, calls):
    owner = [-1] * len(calls)
    edges = [[c for c, call in enumerate(calls) if fits(want, call)] for want in wants]
    def augment(e, seen):
        for c in edges[e]:
            if c not in seen:
                seen.add(c)
                if owner[c] < 0 or augment(owner[c], seen):
                    owner[c] = e
                    return True
        return False
    return sum(augment(e, set()) for e in range(len(wants)))

out = []
with open(sys.argv[2], "rb") as log:
    for line in log:
        record = orjson.loads(line)
        wants = expected[record["id"]]
        out.append(matched(wants, record["tool_calls"]) / len(wants))
with open(sys.argv[3], "wb") as scores:
    scores.write(orjson.dumps(out))
"""
"""The reference loop: expectations file, log, file for the scores (one per line of the log)."""


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole process."""
    import time

    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"failed ({code}): {' '.join(command)}\n{error[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> int:
    """Time the three sides, check their agreement, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--editable", action="store_true", help="time this interpreter's toolexpect")
    args = parser.parse_args()
    python = sys.executable if args.editable else str(install_worktree().python)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    load = os.getloadavg()
    print(f"load average at start: {', '.join(f'{x:.2f}' for x in load)} ({os.cpu_count()} CPUs)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        expected: dict[str, list[tuple[str, dict[str, object]]]] = {}
        spec, log, count = bench_score.generate(folder, args.cases, args.runs, expected=expected)
        (folder / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
        (folder / "floor.py").write_text(FLOOR, encoding="utf-8")
        score = [python, "-m", "toolexpect", "score", str(spec), "--log", str(log)]
        floor = [python, str(folder / "floor.py"), str(folder / "expected.json"), str(log)]
        sides = {
            "floor": [*floor, str(folder / "floor-scores.json")],
            "score json": [*score, "--format", "json", "-o", str(folder / "report.json")],
            "score text": [*score, "--format", "text", "-o", str(folder / "report.txt")],
        }
        best = {name: (float("inf"), float("inf")) for name in sides}
        names = list(sides)
        for round_ in range(max(1, args.rounds)):
            for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
                cpu, wall = _timed(sides[name], env)
                best[name] = (min(best[name][0], cpu), min(best[name][1], wall))
        floor_scores = json.loads((folder / "floor-scores.json").read_text(encoding="utf-8"))
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        runs = {case["case"]: iter(case["runs"]) for case in report["cases"]}
        ours = [next(runs[json.loads(line)["id"]])["score"] for line in log.open(encoding="utf-8")]
    agree = sum(a == b for a, b in zip(floor_scores, ours, strict=True))
    print(f"{count:,} canonical samples; the floor and the JSON report agree on {agree:,}/{count:,} scores")
    install = "editable" if args.editable else "plain install"
    print(f"best of {max(1, args.rounds)} rounds, sides taking turns ({install}):")
    floor_cpu, floor_wall = best["floor"]
    targets = {"score json": 2.0, "score text": 1.6}
    for name, (cpu, wall) in best.items():
        line = f"  {name:11} CPU {cpu:6.3f} s  wall {wall:6.3f} s"
        if name in targets:
            line += f"  {cpu / floor_cpu:5.2f}x the floor's CPU, {wall / floor_wall:5.2f}x its wall"
            line += f" (target <= {targets[name]}x)"
        print(line)
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if agree == count else 1


if __name__ == "__main__":
    sys.exit(main())
