"""Score a corpus with one peer's metrics, inside that peer's own virtual environment.

Run by ``bench/run.py`` as ``<venv>/bin/python bench/peers/harness.py PEER CORPUS OUT
[--budget SECONDS] [--metrics NAME]``. ``PEER`` names an adapter module in this folder
(``deepeval_peer``, ...) that defines ``versions() -> dict[str, str]`` and ``metrics() ->
dict[str, Scorer]`` (or another function named by ``--metrics``, as ``bfcl_metrics`` for BFCL's
own data), where a scorer takes a sample's ``(expected, actual)`` and returns a float in [0, 1]
(building the peer's own objects from the plain calls is part of its cost, as it is for a user).

Writes JSON: ``{"peer", "status": "ok" | "crashed", "reason", "versions", "import_seconds",
"rss_after_import_kib", "metrics": {name: {"scores", "errors", "seconds", "scored", "partial",
"peak_rss_kib", "traced_peak_kib"}}}``. Only the standard library is used here.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import resource
import sys
import time
import traceback
import tracemalloc
from pathlib import Path
from typing import Any

TRACED_SAMPLES = 200


def _rss_kib() -> int:
    """Peak resident set size of this process so far, in KiB.

    ``VmHWM`` from ``/proc/self/status`` where there is one: ``ru_maxrss`` survives ``exec`` and so
    would report the parent's peak when the parent is larger.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _score_all(scorer: Any, samples: list[dict[str, Any]], budget: float) -> dict[str, Any]:
    """Time ``scorer`` over the samples (stopping after ``budget`` seconds) and collect scores."""
    scores: list[float | None] = []
    errors: dict[str, int] = {}
    first_error: str | None = None
    start = time.perf_counter()
    for sample in samples:
        try:
            scores.append(float(scorer(sample["expected"], sample["actual"])))
        except Exception as error:  # a peer that fails on a sample is reported, not hidden
            scores.append(None)
            kind = f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}"
            errors[kind] = errors.get(kind, 0) + 1
            first_error = first_error or "".join(traceback.format_exception_only(error))[-500:]
        if time.perf_counter() - start > budget:
            break
    seconds = time.perf_counter() - start
    return {
        "scores": scores,
        "errors": errors,
        "first_error": first_error,
        "seconds": seconds,
        "scored": len(scores),
        "partial": len(scores) < len(samples),
        "peak_rss_kib": _rss_kib(),
    }


def _traced_peak(scorer: Any, samples: list[dict[str, Any]]) -> int:
    """Peak of Python allocations (tracemalloc) while scoring the first samples, in KiB."""
    tracemalloc.start()
    try:
        for sample in samples[:TRACED_SAMPLES]:
            with contextlib.suppress(Exception):
                scorer(sample["expected"], sample["actual"])
        return tracemalloc.get_traced_memory()[1] // 1024
    finally:
        tracemalloc.stop()


def main() -> int:
    """Parse the arguments, run the peer's metrics, write the JSON result."""
    parser = argparse.ArgumentParser(description="Score a corpus with one peer's metrics.")
    parser.add_argument("peer")
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per metric at most")
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc pass")
    parser.add_argument("--metrics", default="metrics", help="the adapter's function giving the scorers")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent)]
    result: dict[str, Any] = {"peer": args.peer, "status": "ok", "reason": None, "metrics": {}}
    samples = json.loads(args.corpus.read_text(encoding="utf-8"))["samples"]
    try:
        start = time.perf_counter()
        adapter = importlib.import_module(args.peer)
        scorers = getattr(adapter, args.metrics)()
        result["import_seconds"] = time.perf_counter() - start
        result["versions"] = adapter.versions()
        result["rss_after_import_kib"] = _rss_kib()
        for name, scorer in scorers.items():
            scorer(samples[0]["expected"], samples[0]["actual"])  # warm-up (lazy imports, caches)
            measured = _score_all(scorer, samples, args.budget)
            measured["traced_peak_kib"] = None if args.no_trace else _traced_peak(scorer, samples)
            result["metrics"][name] = measured
    except BaseException as error:  # import failures, a crash on the warm-up sample
        result["status"] = "crashed"
        result["reason"] = "".join(traceback.format_exception_only(error)).strip()[-800:]
        result["traceback"] = traceback.format_exc()[-4000:]
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
