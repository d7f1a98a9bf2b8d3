"""Time two builds of toolexpect side by side in one run, alternating: an old revision and this tree.

Run from the repository root with any Python 3.11+ (only the standard library is used here):

    python bench/compare_builds.py --old ada778c [--rounds 5] [--score-runs 200] [--api-runs 25]

1. Exports revision ``--old`` (``git archive``) to ``bench/.cache/builds/<sha>/src`` and installs
   it with a plain ``pip install`` (not editable) into ``bench/.cache/builds/<sha>/venv``, once;
   builds a wheel of the working tree and installs it the same way into
   ``bench/.cache/builds/worktree/venv`` (afresh on every run, as the tree changes).
2. Generates the inputs once, for both builds: the spec and log of ``bench/bench_score.py``, the
   corpus of ``bench/run.py`` (``bench/corpus.py``), and a folder of large generated specs.
3. For ``--rounds`` rounds, the two builds taking turns first, times with each build:

   * **score**: ``toolexpect score`` of the ``bench_score.py`` log, the whole process, ``-j 1``
     (where the build has ``-j``), JSON report to a file;
   * **API**: ``ToolCallAccuracyEvaluator().evaluate(Sample(...))`` over the ``run.py`` corpus,
     one sample at a time, in a process of the build's Python (the import is not timed);
   * **lint start-up**: ``toolexpect lint specs/weather.expect``, the whole process, several times;
   * **bulk lint**: ``toolexpect lint`` of the folder of large specs, the whole process.

   Each figure is taken of both builds back to back, so that both see the same load.

4. Prints a table: old, new, new/old, and the issue's floors (score and API at most 1.5x
   slower than the old build; lint start-up at most 150 ms). Score, API and bulk lint figures
   are the best of the rounds (other work on the machine only ever slows a run); lint start-up
   is the median of all its runs. "paired new/old" is the median of the ratios of runs taken
   back to back, steadier than the ratio of bests on a busy machine. It also checks that both
   builds wrote the same score report and summed the same API scores.

Only the command line and the public Python API are used, so any two builds compare. Each
build keeps its parser cache in its own folder (``XDG_CACHE_HOME``), so neither rebuilds the
other's. Bulk lint is a first pass (a build's spec cache is emptied before it); lint start-up
reads the spec cache of a build that has one, as a repeated run does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
BUILDS = BENCH / ".cache" / "builds"
SMALL = ROOT / "specs" / "weather.expect"
sys.path.insert(0, str(BENCH))

import bench_score  # noqa: E402  (sibling modules; bench/ is not a package)
import corpus  # noqa: E402

API_SNIPPET = """
import json, sys, time
from toolexpect import Sample, ToolCallAccuracyEvaluator
samples = json.load(open(sys.argv[1], encoding="utf-8"))["samples"]
evaluator = ToolCallAccuracyEvaluator()
evaluator.evaluate(Sample(expected_tool_calls=samples[0]["expected"], tool_calls=samples[0]["actual"]))
start = time.perf_counter()
total = 0.0
for s in samples:
    total += evaluator.evaluate(Sample(expected_tool_calls=s["expected"], tool_calls=s["actual"])).value
print(json.dumps({"seconds": time.perf_counter() - start, "total": round(total, 9)}))
"""
"""Scores the corpus named first through the public API; prints the seconds and the sum of scores."""


@dataclass(frozen=True)
class Build:
    """An installed build: its label, its venv and its own cache folder."""

    label: str
    folder: Path

    @property
    def python(self) -> Path:
        """The venv's Python."""
        return self.folder / "venv" / "bin" / "python"

    @property
    def toolexpect(self) -> Path:
        """The venv's ``toolexpect`` command."""
        return self.folder / "venv" / "bin" / "toolexpect"

    def environment(self) -> dict[str, str]:
        """The environment of the build's processes: its own cache folder, no outside path."""
        dropped = ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "TOOLEXPECT_CACHE_DIR", "TOOLEXPECT_NO_CACHE")
        env = {k: v for k, v in os.environ.items() if k not in dropped}
        env["XDG_CACHE_HOME"] = str(self.folder / "cache")
        return env

    def empty_spec_cache(self) -> None:
        """Drop the build's spec cache (a build without one has nothing to drop)."""
        shutil.rmtree(self.folder / "cache" / "toolexpect" / "specs", ignore_errors=True)


def _say(message: str) -> None:
    print(message, flush=True)


def _run(command: list[str | Path], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, command))}\n{done.stdout}{done.stderr}")
    return done


def _venv(folder: Path) -> Path:
    venv = folder / "venv"
    if not (venv / "bin" / "python").exists():
        _run([sys.executable, "-m", "venv", "--clear", venv])
    return venv / "bin" / "python"


def install_revision(rev: str) -> Build:
    """Export ``rev`` and install it into its own venv (once per commit)."""
    sha = _run(["git", "-C", ROOT, "rev-parse", "--verify", f"{rev}^{{commit}}"]).stdout.strip()
    folder = BUILDS / sha[:12]
    label = sha[:7] if sha.startswith(rev) else f"{rev} ({sha[:7]})"
    marker = folder / ".installed"
    if marker.exists():
        return Build(label, folder)
    source = folder / "src"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    archive = subprocess.Popen(
        ["git", "-C", str(ROOT), "archive", "--format=tar", sha], stdout=subprocess.PIPE
    )
    subprocess.run(["tar", "-x", "-C", str(source)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"git archive {sha} failed")
    _say(f"installing {rev} ({sha[:7]}) into {folder.relative_to(ROOT)}/venv ...")
    python = _venv(folder)
    _run([python, "-m", "pip", "install", "--quiet", source])
    marker.write_text(sha, encoding="utf-8")
    return Build(label, folder)


def install_worktree() -> Build:
    """Build a wheel of the working tree and install it into its own venv (every run)."""
    folder = BUILDS / "worktree"
    wheels = folder / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    _say(f"installing the working tree into {folder.relative_to(ROOT)}/venv ...")
    python = _venv(folder)
    _run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", wheels, ROOT])
    (wheel,) = wheels.glob("toolexpect-*.whl")
    _run([python, "-m", "pip", "install", "--quiet", wheel])  # the dependencies
    _run([python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", wheel])
    shutil.rmtree(folder / "cache", ignore_errors=True)  # a parser cache of an earlier tree
    return Build("working tree", folder)


# --- inputs ------------------------------------------------------------------------------------


def _big_spec(index: int, cases: int) -> str:
    """A large spec: ``cases`` cases of varied statements (every kind of matcher)."""
    out = []
    for c in range(index * cases, (index + 1) * cases):
        out.append(
            f'case "case {c}" {{\n'
            f'    question "What is the weather in city {c}?"\n'
            f'    expect get_weather(city="City {c}", unit? in ["celsius", "fahrenheit"], days={c % 7})\n'
            f'    expect search_flights(from="BER", to="LIS", date ~ "^2027-05-{c % 28 + 1:02d}",'
            " passengers=2) then book_flight(flight=any, passengers=2)\n"
            f'    expect send_email(to="ops{c}@example.com",'
            f' meta={{"priority": {c % 3}, "tags": ["a"], ...}})\n'
            '    expect get_forecast(city="Lisbon", days >= 5, temp = 20.5 +- 0.5, not debug)\n'
            "    forbid delete_user\n"
            "    require accuracy >= 0.75\n"
            "}\n\n"
        )
    return "".join(out)


@dataclass(frozen=True)
class Inputs:
    """The generated inputs both builds are timed on."""

    spec: Path
    log: Path
    samples: int
    api_corpus: Path
    api_samples: int
    bulk: Path
    bulk_lines: int


def make_inputs(folder: Path, score_runs: int, api_runs: int, bulk_files: int) -> Inputs:
    """Write every input into ``folder``."""
    score_folder = folder / "score"
    score_folder.mkdir()
    spec, log, count = bench_score.generate(score_folder, 100, score_runs)
    data = corpus.generate(seed=7, scenarios=200, runs=api_runs)
    api_corpus = folder / "api-corpus.json"
    api_corpus.write_text(json.dumps(data), encoding="utf-8")
    bulk = folder / "bulk"
    bulk.mkdir()
    lines = 0
    for index in range(bulk_files):
        text = _big_spec(index, 25)
        (bulk / f"spec{index:03d}.expect").write_text(text, encoding="utf-8")
        lines += text.count("\n")
    return Inputs(spec, log, count, api_corpus, len(data["samples"]), bulk, lines)


# --- measuring ---------------------------------------------------------------------------------


def _timed(command: list[str | Path], build: Build, *, ok: tuple[int, ...] = (0,)) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, env=build.environment(), cwd=ROOT
    )
    seconds = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(
            f"{build.label}: {' '.join(map(str, command))} exited {done.returncode}:\n{done.stderr}"
        )
    return seconds, done.stdout


def has_jobs_option(build: Build) -> bool:
    """Whether the build's ``score`` takes ``-j``."""
    _, text = _timed([build.toolexpect, "score", "--help"], build)
    return "--jobs" in text or "-j " in text


def time_score(build: Build, inputs: Inputs, report: Path, jobs: bool) -> float:
    """Seconds of ``toolexpect score``, the whole process."""
    command: list[str | Path] = [build.toolexpect, "score", inputs.spec, "--log", inputs.log]
    command += ["--format", "json", "-o", report, *(["-j", "1"] if jobs else [])]
    return _timed(command, build, ok=(0, 1))[0]


def time_api(build: Build, inputs: Inputs) -> tuple[float, float]:
    """Seconds of scoring the corpus through the API, and the sum of the scores."""
    _, out = _timed([build.python, "-c", API_SNIPPET, inputs.api_corpus], build)
    result = json.loads(out.strip().splitlines()[-1])
    return float(result["seconds"]), float(result["total"])


def time_startup(build: Build, runs: int) -> list[float]:
    """Seconds of ``toolexpect lint`` on one small spec, ``runs`` times."""
    return [_timed([build.toolexpect, "lint", SMALL], build)[0] for _ in range(runs)]


def time_bulk(build: Build, inputs: Inputs) -> float:
    """Seconds of ``toolexpect lint`` over the folder of large specs, the whole process: a first
    pass, every spec parsed (the spec cache emptied before), as a build without one parses."""
    build.empty_spec_cache()
    return _timed([build.toolexpect, "lint", "--format", "concise", inputs.bulk], build)[0]


# --- main --------------------------------------------------------------------------------------


def _ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}x" if old > 0 else "-"


def main() -> int:
    """Install both builds, time them alternately, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="main", help="git revision of the old build (default main)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; each build runs once a round")
    parser.add_argument("--score-runs", type=int, default=200, help="runs per case of the score log")
    parser.add_argument("--api-runs", type=int, default=25, help="runs per scenario of the API corpus")
    parser.add_argument("--startup-runs", type=int, default=5, help="lint start-up runs per round")
    parser.add_argument("--bulk-files", type=int, default=40, help="large specs linted in bulk")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    old = install_revision(args.old)
    new = install_worktree()
    builds = (old, new)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs = make_inputs(folder, args.score_runs, args.api_runs, args.bulk_files)
        _say(
            f"inputs: score log {inputs.samples:,} samples; API corpus {inputs.api_samples:,} samples; "
            f"bulk lint {args.bulk_files} files, {inputs.bulk_lines:,} lines"
        )
        jobs = {b.label: has_jobs_option(b) for b in builds}
        for build in builds:  # each builds its parser cache before anything is timed
            time_startup(build, 1)
        figures: dict[str, dict[str, list[float]]] = {
            b.label: {"score": [], "api": [], "startup": [], "bulk": []} for b in builds
        }
        totals: dict[str, set[float]] = {b.label: set() for b in builds}
        for round_ in range(args.rounds):
            order = builds if round_ % 2 == 0 else builds[::-1]
            # Each figure is taken of both builds back to back, so both see the same load.
            for build in order:
                report = folder / f"report-{builds.index(build)}.json"
                figures[build.label]["score"].append(time_score(build, inputs, report, jobs[build.label]))
            for build in order:
                seconds, total = time_api(build, inputs)
                figures[build.label]["api"].append(seconds)
                totals[build.label].add(total)
            for _ in range(args.startup_runs):
                for build in order:
                    figures[build.label]["startup"].extend(time_startup(build, 1))
            for build in order:
                figures[build.label]["bulk"].append(time_bulk(build, inputs))
            _say(f"round {round_ + 1} of {args.rounds} done")
        same_report = (folder / "report-0.json").read_bytes() == (folder / "report-1.json").read_bytes()

    best = {
        label: {
            "score": min(f["score"]),
            "api": min(f["api"]),
            "startup": statistics.median(f["startup"]),
            "bulk": min(f["bulk"]),
        }
        for label, f in figures.items()
    }
    o, n = best[old.label], best[new.label]
    slower = "new/old <= 1.5x"
    rows = [
        ("score, whole process, -j 1 (s)", o["score"], n["score"], slower, n["score"] <= 1.5 * o["score"]),
        ("API over the run.py corpus (s)", o["api"], n["api"], slower, n["api"] <= 1.5 * o["api"]),
        (
            "lint start-up, median (ms)",
            o["startup"] * 1e3,
            n["startup"] * 1e3,
            "new <= 150 ms",
            n["startup"] <= 0.15,
        ),
        ("bulk lint, whole process (s)", o["bulk"], n["bulk"], "", None),
    ]
    paired = {
        key: statistics.median(
            after / before
            for before, after in zip(figures[old.label][key], figures[new.label][key], strict=True)
            if before > 0
        )
        for key in ("score", "api", "startup", "bulk")
    }
    head = f"| figure | old: {old.label} | new: {new.label} | new/old | paired new/old | floor |"
    _say("\n" + head + "\n| --- | ---: | ---: | ---: | ---: | --- |")
    for (name, a, b, floor, met), key in zip(rows, paired, strict=True):
        verdict = "" if met is None else (" met" if met else " MISSED")
        _say(f"| {name} | {a:,.3f} | {b:,.3f} | {_ratio(b, a)} | {paired[key]:.2f}x | {floor}{verdict} |")
    _say(
        f"\nbest of {args.rounds} rounds (lint start-up: median of {args.rounds * args.startup_runs} runs); "
        f"score {inputs.samples:,} samples, API {inputs.api_samples:,} samples, "
        f"bulk lint {inputs.bulk_lines:,} lines"
    )
    same_scores = len(totals[old.label] | totals[new.label]) == 1
    _say(f"same score report from both builds: {'yes' if same_report else 'NO'}")
    _say(f"same API scores from both builds: {'yes' if same_scores else 'NO'}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"builds": [old.label, new.label], "figures": figures, "best": best, "paired": paired},
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0 if same_report and same_scores else 1


if __name__ == "__main__":
    sys.exit(main())
