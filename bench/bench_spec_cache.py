"""Benchmark the spec cache: whole processes with the spec cache empty (first pass) and warm.

Run from the repository root with the environment that has toolexpect installed:

    python bench/bench_spec_cache.py [--rounds 10] [--bfcl-data DIR] [--bfcl-runs 3]

Each scenario runs as whole processes, first pass and warm alternately (first, warm, first,
warm, ...), and prints the median CPU time (user + system, of the child) and wall time of each
side, their ratio, and the load average before and after. "First pass" empties the spec cache
(``specs/`` in the cache folder) before the run and keeps the parser cache (lark's built
parser), as after an edit of every spec; "warm" reads every spec from the cache. Python runs
with its bytecode cache (``PYTHONDONTWRITEBYTECODE`` is dropped from the environment), as for an
installed package; the cache folder is ``bench/.cache/spec-cache`` (``TOOLEXPECT_CACHE_DIR``).

Scenarios: ``lint`` of one small spec (``specs/weather.expect``); ``score`` of the example
specs (``specs/*.expect``) against ``specs/logs/run.jsonl``; ``lint`` of 1,000 small generated
spec files; and, given bfcl-eval's ``data`` folder (``--bfcl-data``, see ``bfcl_corpus.py``),
BFCL's own single-turn data: ``score`` of its one spec of a case per entry against its log, and
the Python API parsing each sample's spec (``score(parse_spec(text), calls)``, as
``peers/toolexpect_bfcl.py`` times "spec parsed every sample").
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
FOLDER = BENCH / ".cache" / "spec-cache"
CACHE = FOLDER / "cache"
sys.path.insert(0, str(BENCH))

API_SNIPPET = """
import json, sys
from toolexpect import parse_spec, score
samples = json.load(open(sys.argv[1], encoding="utf-8"))["samples"]
passed = sum(score(parse_spec(s["expected"]["spec"]), s["actual"]).passed for s in samples)
print(passed, len(samples))
"""


def _toolexpect() -> list[str]:
    found = shutil.which("toolexpect", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "toolexpect"]


def _environment() -> dict[str, str]:
    environment = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TOOLEXPECT_NO_CACHE")
    }
    environment["TOOLEXPECT_CACHE_DIR"] = str(CACHE)
    return environment


def _run(command: Sequence[str], ok: Sequence[int]) -> tuple[float, float, bytes]:
    """CPU and wall seconds of one whole process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False, env=_environment(), cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def _empty_spec_cache() -> None:
    shutil.rmtree(CACHE / "specs", ignore_errors=True)


def measure(label: str, command: Sequence[str], rounds: int, ok: Sequence[int] = (0,)) -> dict[str, float]:
    """Time ``command`` first pass and warm, alternately; print and return the medians."""
    _run(command, ok)  # the parser cache and bytecode, outside the measurement
    first: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    outputs = set()
    for _ in range(rounds):
        _empty_spec_cache()
        cpu, wall, out = _run(command, ok)
        first.append((cpu, wall))
        outputs.add(out)
        cpu, wall, out = _run(command, ok)
        warm.append((cpu, wall))
        outputs.add(out)
    if len(outputs) != 1:
        raise SystemExit(f"{label}: the first pass and the warm run printed different output")
    medians = {
        "first_cpu": statistics.median(c for c, _ in first),
        "first_wall": statistics.median(w for _, w in first),
        "warm_cpu": statistics.median(c for c, _ in warm),
        "warm_wall": statistics.median(w for _, w in warm),
    }
    print(f"{label}  ({rounds} rounds, medians; identical output on both sides)")
    for side, name in (("first", "first pass"), ("warm", "warm")):
        cpu, wall = medians[f"{side}_cpu"] * 1000, medians[f"{side}_wall"] * 1000
        print(f"  {name:<10}  CPU {cpu:8.1f} ms   wall {wall:8.1f} ms")
    print(
        f"  first/warm  CPU {medians['first_cpu'] / medians['warm_cpu']:.2f}x"
        f"   wall {medians['first_wall'] / medians['warm_wall']:.2f}x"
    )
    return medians


def _small_specs(count: int) -> Path:
    """``count`` small spec files of one case each, in a folder of their own."""
    import bench_lint

    folder = FOLDER / f"small-{count}"
    if not folder.is_dir() or len(list(folder.glob("*.expect"))) != count:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for index in range(count):
            (folder / f"spec{index:04d}.expect").write_text(bench_lint._case(index), encoding="utf-8")
    return folder


def main() -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="first-pass and warm runs of each scenario")
    parser.add_argument("--files", type=int, default=1000, help="small spec files for bulk lint")
    parser.add_argument("--bfcl-data", type=Path, help="bfcl-eval's data folder (bfcl_eval/data)")
    parser.add_argument("--bfcl-runs", type=int, default=3, help="recorded runs per BFCL entry")
    args = parser.parse_args()
    FOLDER.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    te = _toolexpect()
    measure("lint specs/weather.expect", [*te, "lint", "specs/weather.expect"], args.rounds)
    specs = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "specs").glob("*.expect"))]
    measure(
        f"score of the {len(specs)} example specs against specs/logs/run.jsonl",
        [*te, "score", *specs, "--log", "specs/logs/run.jsonl"],
        args.rounds,
        ok=(0, 1),
    )
    small = _small_specs(args.files)
    rounds = max(3, args.rounds // 2)
    measure(f"lint of {args.files} small spec files", [*te, "lint", "-q", str(small)], rounds)
    if args.bfcl_data is not None:
        import bfcl_corpus

        built = bfcl_corpus.generate(args.bfcl_data, 7, args.bfcl_runs)
        where = FOLDER / "bfcl"
        where.mkdir(exist_ok=True)
        spec, log = bfcl_corpus.write_spec_and_log(built, where)
        corpus = where / "bfcl-corpus.json"
        corpus.write_text(json.dumps({"samples": built["samples"]}), encoding="utf-8")
        cases, samples = len(built["spec"].split('\ncase "')), len(built["samples"])
        print(f"BFCL: {cases} cases, {samples} samples")
        command = [*te, "score", str(spec), "--log", str(log)]
        measure(f"BFCL score (CLI, one spec of {cases} cases)", command, rounds, (0, 1))
        api = measure(
            f"BFCL Python API, parse_spec of each sample's spec ({samples} samples)",
            [sys.executable, "-c", API_SNIPPET, str(corpus)],
            rounds,
        )
        print(
            f"  per sample: first pass {api['first_cpu'] / samples * 1e6:.0f} µs CPU, "
            f"warm {api['warm_cpu'] / samples * 1e6:.0f} µs CPU (whole process, start-up included)"
        )
    print(f"load average at end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
