"""Benchmark ``toolexpect lint``: start-up time on one small spec, and bulk throughput.

Run from the repository root with the environment that has toolexpect installed:

    python bench/bench_lint.py [--runs 10] [--files 100] [--cases 25] [--repeat 3]

Floors: lint of one small file in at most 150 ms from process start (median), and bulk
lint within 1.5x of lark's own LALR parse of the same text: ``Lark(grammar,
parser="lalr")`` with lark's defaults (a parse tree, no transformer, no post-lexer), timed
on the same generated files held in memory. Throughput is measured ``--repeat`` times and
the best is kept, as other work on the machine only ever slows it; it is taken with the spec
cache off (``TOOLEXPECT_NO_CACHE``, once the parser is built), so that every file is parsed.
The first start-up run may build the parser cache and the spec's entry in the spec cache (in
the user's cache folder), so it is shown on its own; the others read both, as repeated runs do
(``bench_spec_cache.py`` compares the first pass with the warm one).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "specs" / "weather.expect"


def _toolexpect() -> list[str]:
    found = shutil.which("toolexpect", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "toolexpect"]


def startup(runs: int) -> tuple[float, list[float]]:
    """Wall time of ``toolexpect lint`` on one small file: the first run, then ``runs`` more.

    Python runs as it does for an installed package: with its bytecode cache, even where
    ``PYTHONDONTWRITEBYTECODE`` is set here (a wheel install compiles its modules).
    """
    command = [*_toolexpect(), "lint", str(SMALL)]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False, env=environment)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"lint failed on {SMALL}: {done.stdout.decode()}{done.stderr.decode()}")
    return times[0], times[1:]


def _case(index: int) -> str:
    return (
        f'case "case {index}" {{\n'
        f'    question "What is the weather in city {index} on day {index % 7}?"\n'
        f'    expect get_weather(city="City {index}", unit? in ["celsius", "fahrenheit"], days={index % 7})\n'
        f'    expect search_flights(from="BER", to="LIS", date ~ "^2027-05-{index % 28 + 1:02d}",'
        " passengers=2) then book_flight(flight=any, passengers=2)\n"
        f'    expect send_email(to="ops{index}@example.com",'
        f' meta={{"priority": {index % 3}, "tags": ["a", "b"], ...}})\n'
        f'    expect get_forecast(city="Lisbon", days >= 5, temp = 20.5 +- 0.5, not debug)\n'
        "    forbid delete_user\n"
        "    require accuracy >= 0.75\n"
        "}\n\n"
    )


def throughput(files: int, cases: int) -> tuple[int, int, float, float]:
    """Lint ``files`` generated spec files in-process; return lines, expectation lines, the
    seconds of lint, and the seconds of lark's own LALR parse of the same texts."""
    from lark import Lark

    from toolexpect.language.grammar import grammar_text
    from toolexpect.specfiles.stages import load_spec_file

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        lines = expectations = 0
        for number in range(files):
            text = "".join(_case(number * cases + i) for i in range(cases))
            path = Path(folder) / f"spec{number}.expect"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
            lines += text.count("\n")
            expectations += sum(
                1 for line in text.splitlines() if line.lstrip().startswith(("expect", "forbid", "require"))
            )
        load_spec_file(paths[0])  # build the parser outside the measurement
        earlier = os.environ.get("TOOLEXPECT_NO_CACHE")
        os.environ["TOOLEXPECT_NO_CACHE"] = "1"  # parse every file, not read it from the spec cache
        try:
            start = time.perf_counter()
            for path in paths:
                result = load_spec_file(path)
                if not result.ok:
                    raise SystemExit(f"generated spec has problems: {result.diagnostics[:3]}")
            seconds = time.perf_counter() - start
        finally:
            if earlier is None:
                del os.environ["TOOLEXPECT_NO_CACHE"]
            else:
                os.environ["TOOLEXPECT_NO_CACHE"] = earlier
        texts = [path.read_text(encoding="utf-8") for path in paths]
    lark = Lark(grammar_text(), parser="lalr")
    start = time.perf_counter()
    for text in texts:
        lark.parse(text)
    baseline = time.perf_counter() - start
    return lines, expectations, seconds, baseline


def main() -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="start-up runs after the first")
    parser.add_argument("--files", type=int, default=100, help="generated files for throughput")
    parser.add_argument("--cases", type=int, default=25, help="cases per generated file")
    parser.add_argument(
        "--repeat", type=int, default=3, help="throughput runs; the best is kept (a busy machine only slows)"
    )
    args = parser.parse_args()
    first, times = startup(args.runs)
    median = statistics.median(times)
    print(f"start-up: lint {SMALL.relative_to(ROOT)}")
    print(f"  first run        {first * 1000:8.1f} ms  (may build the parser cache)")
    print(
        f"  median of {len(times):<3}    {median * 1000:8.1f} ms"
        f"  (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})"
    )
    print(f"  floor <= 150 ms: {'met' if median <= 0.15 else 'MISSED'}")

    timings = [throughput(args.files, args.cases) for _ in range(max(1, args.repeat))]
    lines, expectations, _, _ = timings[0]
    seconds = min(t[2] for t in timings)
    baseline = min(t[3] for t in timings)
    rate = expectations / seconds
    print(f"throughput: {args.files} files, {lines:,} lines, {expectations:,} expectation lines")
    print(
        f"  best of {len(timings)}: {seconds:.2f} s  ->  {rate:,.0f} expectation lines/s,"
        f" {lines / seconds:,.0f} lines/s"
    )
    if len(timings) > 1:
        rates = sorted(expectations / t[2] for t in timings)
        print(f"  all runs: {', '.join(f'{r:,.0f}' for r in rates)} expectation lines/s")
    print(
        f"lark's own LALR parse of the same text (Lark(grammar, parser='lalr'), a tree, no transformer):"
        f" best {baseline:.2f} s, {expectations / baseline:,.0f} expectation lines/s"
    )
    ratio = seconds / baseline
    print(f"  lint / lark = {ratio:.2f}x  (floor: within 1.5x): {'met' if ratio <= 1.5 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
