"""What the finished score report holds on the client (or the single process), against the number
of runs: the memory still allocated once a log is scored (tracemalloc), for the reports but
``json`` (``explained=MAX_RUNS_SHOWN``) and for the ``json`` report (every run kept).

Writes canonical JSON Lines logs (``bench_score.generate``) under ``bench/.cache/client-memory``;
``--unclaimed`` also adds to each log one sample of a distinct id no case claims per run.
Prints, for each number of runs, the bytes held by the report and per run.
Run it against another build with ``PYTHONPATH=OTHER/src``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_score import generate

from toolexpect.cli.common import load_all
from toolexpect.logs import open_log
from toolexpect.report.score import MAX_RUNS_SHOWN
from toolexpect.scoring.partial import score

CACHE = Path(__file__).resolve().parent / ".cache" / "client-memory"


def _log(runs_per_case: int, cases: int, unclaimed: bool) -> tuple[Path, Path, int]:
    folder = CACHE / f"{cases}x{runs_per_case}{'-unclaimed' if unclaimed else ''}"
    folder.mkdir(parents=True, exist_ok=True)
    spec, log, count = generate(folder, cases, runs_per_case)
    if unclaimed:
        with log.open("a", encoding="utf-8") as out:
            for number in range(count):
                out.write(json.dumps({"id": f"conversation-{number}", "tool_calls": []}) + "\n")
    return spec, log, count


def _held(spec: Path, log: Path, explained: int | None) -> int:
    """Bytes still allocated while the report of ``log`` is alive."""
    files, _ = load_all([str(spec)])
    specs = [f.spec for f in files.values() if f.spec is not None]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    report = score(specs, open_log(str(log)), explained=explained)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del report
    return held


def main() -> int:
    """Score logs of growing size and print what their reports hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--runs", type=int, nargs="+", default=[500, 2000], help="runs per case")
    parser.add_argument("--unclaimed", action="store_true", help="add a distinct unclaimed id per run")
    args = parser.parse_args()
    for runs_per_case in args.runs:
        spec, log, count = _log(runs_per_case, args.cases, args.unclaimed)
        for label, explained in (("text", MAX_RUNS_SHOWN), ("json", None)):
            held = _held(spec, log, explained)
            print(
                f"{count:>9,} runs{' + as many unclaimed' if args.unclaimed else ''}, {label} report: "
                f"{held / 1e6:8.2f} MB held ({held / count:7.1f} bytes a run)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
