"""Compare toolexpect with other tool-call metrics on correctness and speed, in one run.

Run ``python bench/run.py`` (full run) or ``python bench/run.py --quick`` (small and fast).

1. Generates the seeded corpus of ``bench/corpus.py``.
2. Scores it with toolexpect through the CLI (``toolexpect score``) and the Python API, both from a
   plain install of this tree (a wheel in ``bench/.cache/builds/worktree/venv``, modules compiled
   to bytecode as users run them; ``--editable`` uses the running interpreter instead), and with
   every peer that installs here (DeepEval, Ragas, agentevals, BFCL's AST checker), each in its own
   virtual environment under ``bench/.cache/venvs/<peer>`` (created once, then reused), through
   ``bench/peers/harness.py``. A peer that cannot be installed or crashes is reported with why.
3. Scores the semantics cases of ``bench/corpus.py`` with every metric.
4. Builds a second corpus from BFCL's own single-turn data (``bench/bfcl_corpus.py``, read from
   the ``bfcl-eval`` package in BFCL's venv) and scores it with toolexpect (CLI and API) and with
   BFCL's AST checker, which there do their full work; skipped, with why, when bfcl-eval is not
   installed.
5. Times toolexpect on single samples of 1 to 100,000 recorded calls and fits the growth exponent.
6. Prints the tables and writes ``bench/results/latest.{json,md,png}`` and ``docs/comparison.md``.

Every process runs without ``PYTHONDONTWRITEBYTECODE``; the load average is printed (and written)
before and after, and the CLI's CPU time is given beside its wall time.

No network traffic besides ``pip`` installing the peers: telemetry is switched off by environment
variables and no metric is configured to call a model (dummy API keys only).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".cache"
RESULTS = BENCH / "results"
DOC = ROOT / "docs" / "comparison.md"
sys.path.insert(0, str(BENCH))

import bfcl_corpus  # noqa: E402  (sibling modules; bench/ is not a package)
import corpus  # noqa: E402
from compare_builds import install_worktree  # noqa: E402

# The Python of the toolexpect under test and its environment (set in main).
TOOLEXPECT_PYTHON = Path(sys.executable)
TOOLEXPECT_ENV: dict[str, str] = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

PEER_ENV = {
    "DEEPEVAL_TELEMETRY_OPT_OUT": "YES",
    "DEEPEVAL_UPDATE_WARNING_OPT_OUT": "YES",
    "DEEPEVAL_DISABLE_PROGRESS_BAR": "YES",
    "RAGAS_DO_NOT_TRACK": "true",
    "DO_NOT_TRACK": "1",
    "ANONYMIZED_TELEMETRY": "false",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "OPENAI_API_KEY": "sk-dummy-offline",
    "ANTHROPIC_API_KEY": "dummy-offline",
    "TOKENIZERS_PARALLELISM": "false",
    "PYTHONWARNINGS": "ignore",
}


@dataclass(frozen=True)
class Peer:
    """A peer library: what to install into its venv, and its adapter in ``bench/peers``."""

    key: str
    label: str
    adapter: str
    packages: tuple[str, ...]
    no_deps: tuple[str, ...] = ()
    note: str = ""


BFCL_LIGHT_DEPS = (  # bfcl-eval's requirements less sentence-transformers, faiss-cpu
    "requests",
    "tqdm",
    "numpy==1.26.4",
    "pandas",
    "huggingface_hub",
    "pydantic>=2.8.2",
    "python-dotenv>=1.0.1",
    "tree_sitter==0.21.3",
    "tree-sitter-java==0.21.0",
    "tree-sitter-javascript==0.21.4",
    "openai>=1.86.0",
    "mistralai==1.7.0",
    "anthropic>=0.75.0",
    "cohere==5.18.0",
    "typer>=0.12.5",
    "tabulate>=0.9.0",
    "datamodel-code-generator==0.25.7",
    "google-genai>=1.52.0",
    "mpmath==1.3.0",
    "tenacity>=8.5.0",
    "writer-sdk>=2.1.0",
    "overrides",
    "boto3",
    "beautifulsoup4",
    "html2text",
    "rank_bm25==0.2.2",
    "google-search-results",
    "networkx==3.3",
    "filelock==3.20.0",
    "qwen-agent",
    "soundfile",  # imported by qwen-agent, not declared by it
)

PEERS = [
    Peer("deepeval", "DeepEval", "deepeval_peer", ("deepeval",)),
    Peer(
        "ragas",
        "Ragas",
        "ragas_peer",
        ("ragas", "langchain-core", "langchain-community<0.4"),
        note="ragas 0.4.3 imports `langchain_community.chat_models.vertexai`, which "
        "langchain-community 0.4 removed; the venv pins langchain-community<0.4",
    ),
    Peer("agentevals", "agentevals", "agentevals_peer", ("agentevals",)),
    Peer(
        "bfcl",
        "BFCL AST checker",
        "bfcl_peer",
        BFCL_LIGHT_DEPS,
        no_deps=("bfcl-eval",),
        note="`pip install bfcl-eval` pulls torch with CUDA libraries (sentence-transformers, "
        "faiss-cpu: several GB); the venv installs bfcl-eval --no-deps plus its other "
        "dependencies, which is all the AST checker imports",
    ),
]


def _say(message: str) -> None:
    print(message, flush=True)


# --- installing --------------------------------------------------------------------------------


def venv_python(folder: Path) -> Path:
    """The python executable of the venv in ``folder``."""
    return folder / "bin" / "python"


def install_peer(peer: Peer, *, allow_install: bool) -> tuple[Path | None, str | None]:
    """Create (once) the peer's venv; return its python, or ``None`` and the reason it failed."""
    folder = CACHE / "venvs" / peer.key
    marker = folder / ".bench-installed"
    wanted = json.dumps({"packages": peer.packages, "no_deps": peer.no_deps})
    if marker.exists() and marker.read_text(encoding="utf-8") == wanted:
        return venv_python(folder), None
    if not allow_install:
        return None, "not installed (run without --no-install to install it)"
    logs = CACHE / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{peer.key}.log"
    _say(f"installing {peer.label} into {folder.relative_to(ROOT)} (once; may take minutes) ...")
    if not venv_python(folder).exists():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(folder)], check=True)
    pip = [str(venv_python(folder)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    steps = [pip + list(peer.packages)]
    if peer.no_deps:
        steps.append([*pip, "--no-deps", *peer.no_deps])
    with log.open("w", encoding="utf-8") as out:
        for step in steps:
            try:
                done = subprocess.run(step, stdout=out, stderr=subprocess.STDOUT, timeout=1800)
            except subprocess.TimeoutExpired:
                return None, f"pip install timed out after 30 minutes (log: {log.relative_to(ROOT)})"
            if done.returncode != 0:
                lines = [
                    line
                    for line in log.read_text(encoding="utf-8").splitlines()
                    if line.strip() and "is ignored" not in line
                ]
                return None, f"pip install failed: {' / '.join(lines[-3:])[:400]}"
    marker.write_text(wanted, encoding="utf-8")
    return venv_python(folder), None


def ensure_matplotlib() -> bool:
    """Import matplotlib, installing the ``bench`` extra's requirement into this venv if missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        _say("installing matplotlib>=3.8 (the `bench` extra) into this environment ...")
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "matplotlib>=3.8"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            _say(f"  could not install matplotlib: {done.stderr.strip().splitlines()[-1:]}")
            return False
    return True


# --- scoring -----------------------------------------------------------------------------------


def run_harness(
    python: Path,
    adapter: str,
    corpus_file: Path,
    out: Path,
    budget: float,
    *,
    trace: bool,
    metrics: str = "metrics",
) -> dict[str, Any]:
    """Run ``harness.py`` for one adapter in a subprocess; return its JSON (or a crash record)."""
    command = [
        str(python),
        str(BENCH / "peers" / "harness.py"),
        adapter,
        str(corpus_file),
        str(out),
        "--budget",
        str(budget),
        "--metrics",
        metrics,
    ]
    if not trace:
        command.append("--no-trace")
    env = {**os.environ, **PEER_ENV}
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # every side runs from bytecode, as users run it
    CACHE.mkdir(parents=True, exist_ok=True)  # the working folder, also when no peer was installed
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=budget * 8 + 600, env=env, cwd=CACHE
        )
    except subprocess.TimeoutExpired:
        return {"status": "crashed", "reason": "the harness timed out", "metrics": {}}
    if done.returncode != 0 or not out.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return {"status": "crashed", "reason": f"exit {done.returncode}: {' / '.join(tail)}", "metrics": {}}
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


_CLI_WRAPPER = """
import atexit, runpy, sys
peak = sys.argv.pop(1)
def _write_peak():
    with open("/proc/self/status") as status:
        hwm = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(peak, "w") as out:
        out.write(hwm)
atexit.register(_write_peak)
sys.argv[0] = "toolexpect"
runpy.run_module("toolexpect", run_name="__main__")
"""
"""``python -m toolexpect`` that writes its peak RSS (``VmHWM``, KiB) to the file named first."""


def run_cli(samples: list[dict[str, Any]], folder: Path) -> dict[str, Any]:
    """Score the samples with ``toolexpect score`` (a real process); time it, read per-run scores."""
    spec, log = corpus.write_spec_and_log(samples, folder)
    return score_with_cli(spec, log, samples, folder)


def score_with_cli(
    spec: Path, log: Path, samples: list[dict[str, Any]], folder: Path, *, verdicts: bool = False
) -> dict[str, Any]:
    """Time ``toolexpect score`` of ``spec`` and ``log``; read each sample's score (or, with
    ``verdicts``, 1.0 for a run that passes and 0.0 for one that fails) from its JSON report."""
    report = folder / "report.json"
    peak_file = folder / "peak_kib"
    command = [
        str(TOOLEXPECT_PYTHON),
        "-c",
        _CLI_WRAPPER,
        str(peak_file),
        "score",
        str(spec),
        "--log",
        str(log),
        "--format",
        "json",
        "-o",
        str(report),
    ]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=TOOLEXPECT_ENV)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 1):
        return {"status": "crashed", "reason": f"exit {process.returncode}: {stderr[-400:]}", "metrics": {}}
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    runs: dict[str, list[float]] = {}
    for case in cases:
        found = case.get("runs", [case])
        runs[case["case"]] = [
            (1.0 if r["status"] == "pass" else 0.0) if verdicts else r["score"] for r in found
        ]
    scores: list[float | None] = []
    taken: dict[str, int] = {}
    for sample in samples:
        index = taken.get(sample["id"], 0)
        taken[sample["id"]] = index + 1
        scores.append(runs[sample["id"]][index])
    metric = {
        "scores": scores,
        "errors": {},
        "seconds": seconds,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "scored": len(samples),
        "partial": False,
        "peak_rss_kib": int(peak_file.read_text()) if peak_file.exists() else None,
        "traced_peak_kib": None,
    }
    name = "pass (CLI, whole process)" if verdicts else "Tool Call Accuracy (CLI, whole process)"
    return {"status": "ok", "reason": None, "metrics": {name: metric}}


def growth(sizes: list[int]) -> dict[str, Any]:
    """Time the Python API on one sample of ``n`` recorded calls for each ``n``; fit the exponent."""
    from toolexpect import Sample, ToolCallAccuracyEvaluator
    from toolexpect.api import cache

    evaluator = ToolCallAccuracyEvaluator()
    points = []
    for n in sizes:
        expected, actual = corpus.growth_sample(n)
        sample = Sample(expected_tool_calls=expected, tool_calls=actual)
        best, total, reps = math.inf, 0.0, 0
        while reps < 3 or (total < 0.3 and reps < 2000):
            # Every size pays for compiling its expectations: the evaluator's cache would
            # otherwise keep small samples' compiled cases between repetitions, large ones not.
            cache._compile_keyed.cache_clear()  # the evaluator's cache of compiled cases
            start = time.perf_counter()
            value = evaluator.evaluate(sample).value
            elapsed = time.perf_counter() - start
            best, total, reps = min(best, elapsed), total + elapsed, reps + 1
            if elapsed > 5:
                break
        points.append({"calls": n, "expected": len(expected), "seconds": best, "score": value, "reps": reps})
        _say(f"  {n:>7,} calls, {len(expected):>6,} expected: {best * 1e3:10.3f} ms (score {value:.3f})")
    fit_from = 100
    xs = [math.log(p["calls"]) for p in points if p["calls"] >= fit_from]
    ys = [math.log(p["seconds"]) for p in points if p["calls"] >= fit_from]
    nlogn = [math.log(p["calls"] * math.log(p["calls"])) for p in points if p["calls"] >= fit_from]
    last = points[-2:]
    top = _slope([math.log(p["calls"]) for p in last], [math.log(p["seconds"]) for p in last])
    return {
        "points": points,
        "top_exponent": top,
        "fit_from": fit_from,
        "exponent": _slope(xs, ys),
        "nlogn_exponent": _slope(xs, nlogn),
    }


def _slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ``ys`` against ``xs``."""
    if len(xs) < 2:
        return math.nan
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


# --- BFCL's own data ---------------------------------------------------------------------------

BFCL_API = "pass (Python API, spec parsed once per case)"


def bfcl_data_folder(python: Path | None, reason: str | None) -> tuple[Path | None, str | None]:
    """bfcl-eval's ``data`` folder in BFCL's venv, or ``None`` and why there is none."""
    if python is None:
        return None, reason or "BFCL is not among --peers"
    code = (
        "import importlib.util, pathlib; spec = importlib.util.find_spec('bfcl_eval'); "
        "print(pathlib.Path(spec.origin).parent / 'data')"
    )
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None, f"bfcl_eval is not importable in its venv: {done.stderr.strip()[-300:]}"
    folder = Path(done.stdout.strip())
    if not bfcl_corpus.find_files(folder):
        return None, f"no single-turn question and possible_answer files in {folder}"
    return folder, None


def run_bfcl(
    python: Path | None, reason: str | None, runs: int, seed: int, budget: float, folder: Path
) -> dict[str, Any]:
    """Build the corpus of BFCL's own data and score it with toolexpect (CLI, API) and BFCL."""
    data, why = bfcl_data_folder(python, reason)
    if data is None or python is None:
        return {"status": "skipped", "reason": why}
    built = bfcl_corpus.generate(data, seed, runs)
    samples = built["samples"]
    if not samples:
        return {"status": "skipped", "reason": f"no entry of {data} could be converted"}
    _say(
        f"BFCL's own data: {sum(built['categories'].values()):,} entries "
        f"({', '.join(f'{k} {v}' for k, v in built['categories'].items())}) x {runs} runs = "
        f"{len(samples):,} samples; {len(built['skipped'])} entries left out"
    )
    corpus_file = folder / "bfcl-corpus.json"
    corpus_file.write_text(json.dumps(built), encoding="utf-8")
    cli = folder / "bfcl-cli"
    cli.mkdir()
    spec, log = bfcl_corpus.write_spec_and_log(built, cli)
    results: dict[str, dict[str, Any]] = {}
    _say("  scoring with toolexpect score (CLI) ...")
    results["toolexpect_cli"] = score_with_cli(spec, log, samples, cli, verdicts=True)
    _say("  scoring with toolexpect (Python API) ...")
    results["toolexpect_bfcl"] = run_harness(
        TOOLEXPECT_PYTHON, "toolexpect_bfcl", corpus_file, folder / "bfcl-te.json", budget, trace=False
    )
    _say("  scoring with BFCL's AST checker ...")
    results["bfcl"] = run_harness(
        python,
        "bfcl_peer",
        corpus_file,
        folder / "bfcl-peer.json",
        budget,
        trace=False,
        metrics="bfcl_metrics",
    )
    api = results["toolexpect_bfcl"]
    reference = api["metrics"][BFCL_API]["scores"] if api["status"] == "ok" else [None] * len(samples)
    verdicts = [s["verdict"] for s in samples]
    rows = summarise(results, reference, api_metric=BFCL_API, verdicts=verdicts)
    checker = (
        results["bfcl"]["metrics"].get("AST checker (own category)")
        if results["bfcl"]["status"] == "ok"
        else None
    )
    differ = []
    if checker:
        for sample, ours, theirs in zip(samples, reference, checker["scores"], strict=False):
            if ours is not None and theirs is not None and ours != theirs:
                differ.append(
                    {"id": sample["id"], "toolexpect": ours, "bfcl": theirs, "broken": sample["broken"]}
                )
    return {
        "status": "ok",
        "reason": None,
        "seed": seed,
        "runs": runs,
        "samples": len(samples),
        "categories": built["categories"],
        "skipped_entries": built["skipped"],
        "broken": {k: sum(1 for s in samples if s["broken"] == k) for k in ("value", "missing", "tool")},
        "rows": rows,
        "differ": differ,
        "versions": {k: r.get("versions", {}) for k, r in results.items()},
    }


def bfcl_table(rows: list[dict[str, Any]]) -> str:
    """The throughput and agreement table of BFCL's own data, as Markdown."""
    labels = {"toolexpect_cli": "toolexpect", "toolexpect_bfcl": "toolexpect", "bfcl": "BFCL AST checker"}
    lines = [
        "| system | metric | samples | samples/s | µs/sample | agrees with toolexpect (API) "
        "| agrees with the generator's verdict | pass rate |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"| {labels[r['system']]} | **{r['status']}**: {r['reason']} | | | | | | |")
            continue
        samples = f"{r['samples']:,}" + (" (budget hit)" if r["partial"] else "")
        if r["errors"]:
            samples += f", {r['errors']:,} errors"
        agree = 100 * r["agreement"] if r["agreement"] is not None else None
        verdict = 100 * r["verdict_agreement"] if r["verdict_agreement"] is not None else None
        lines.append(
            f"| {labels[r['system']]} | {r['metric']} | {samples} | {r['rate']:,.0f} "
            f"| {1e6 / r['rate']:,.1f} | {_fmt(agree, '.2f')} % | {_fmt(verdict, '.2f')} % "
            f"| {_fmt(r['mean_score'], '.3f')} |"
        )
    return "\n".join(lines)


def bfcl_md(section: dict[str, Any]) -> str:
    """The BFCL section's text: how the corpus is made, the table, what differs."""
    if section["status"] != "ok":
        return f"Skipped: {section['reason']}."
    rows = {(r["system"], r.get("metric")): r for r in section["rows"] if r["status"] == "ok"}
    checker = rows.get(("bfcl", "AST checker (own category)"))
    api = rows.get(("toolexpect_bfcl", BFCL_API))
    cli = next((r for (system, _), r in rows.items() if system == "toolexpect_cli"), None)
    categories = ", ".join(f"{k} {v}" for k, v in section["categories"].items())
    broken = section["broken"]
    text = [
        f"bfcl-eval's own single-turn AST categories ({categories} entries; "
        f"{len(section['skipped_entries'])} left out), {section['runs']} recorded runs per entry "
        f"(seed {section['seed']}): {section['samples']:,} samples. Each run equals one of the entry's "
        "possible answers (as many calls as expected, so the checker does its full work); "
        f"{broken['value'] + broken['missing'] + broken['tool']:,} of them are then broken in one way "
        f"both must reject (a value no answer accepts: {broken['value']:,}; a required argument dropped: "
        f"{broken['missing']:,}; another tool: {broken['tool']:,}). The possible answers become a "
        "toolexpect case per entry (`arg in [...]`, `arg? in [...]` for an optional argument; "
        "`bench/bfcl_corpus.py`). Both give pass or fail per sample.",
        "",
        bfcl_table(section["rows"]),
    ]
    if checker and api:
        text += [
            "",
            f"On BFCL's data, BFCL's checker scores {checker['rate']:,.0f} samples/s and toolexpect's "
            f"Python API {api['rate']:,.0f} samples/s (each case's spec parsed once, the first time it is "
            f"met): {api['rate'] / checker['rate']:.2f}x the checker's rate"
            + (f"; the CLI, whole process, {cli['rate']:,.0f} samples/s." if cli else "."),
        ]
    differ = section["differ"]
    if differ:
        ids = sorted({d["id"] for d in differ})
        text += [
            "",
            f"The two disagree on {len(differ)} samples ({', '.join(ids[:8])}"
            f"{', ...' if len(ids) > 8 else ''}), each where toolexpect passes and BFCL fails"
            if all(d["toolexpect"] == 1.0 for d in differ)
            else f"The two disagree on {len(differ)} samples ({', '.join(ids[:8])})",
        ]
        text[-1] += (
            ": BFCL pairs expected and recorded calls first come, first served, so an earlier "
            "expectation can take the call a later one needs; toolexpect pairs them by maximum matching."
        )
    return "\n".join(text)


# --- summarising -------------------------------------------------------------------------------


def summarise(
    systems: dict[str, dict[str, Any]],
    reference: list[float | None],
    *,
    api_metric: str = "Tool Call Accuracy (Python API)",
    verdicts: list[float] | None = None,
) -> list[dict[str, Any]]:
    """One row per metric: throughput, memory, agreement with the reference (toolexpect's API) and,
    where the corpus knows each sample's right verdict, with that."""
    rows = []
    for key, result in systems.items():
        if result["status"] != "ok":
            rows.append(
                {"system": key, "metric": None, "status": result["status"], "reason": result["reason"]}
            )
            continue
        for name, m in result["metrics"].items():
            scored = [s for s in m["scores"]]
            pairs = [(s, r) for s, r in zip(scored, reference, strict=False) if s is not None]
            agree = sum(1 for s, r in pairs if r is not None and abs(s - r) < 1e-9)
            rows.append(
                {
                    "system": key,
                    "metric": name,
                    "status": "ok",
                    "samples": m["scored"],
                    "partial": m["partial"],
                    "seconds": m["seconds"],
                    "rate": m["scored"] / m["seconds"] if m["seconds"] > 0 else math.inf,
                    "peak_rss_mib": m["peak_rss_kib"] / 1024 if m["peak_rss_kib"] else None,
                    "traced_peak_kib": m.get("traced_peak_kib"),
                    "errors": sum(m["errors"].values()),
                    "error_kinds": m["errors"],
                    "agreement": agree / len(pairs) if pairs else None,
                    "mean_score": sum(s for s, _ in pairs) / len(pairs) if pairs else None,
                    "verdict_agreement": _share_equal(scored, verdicts) if verdicts else None,
                }
            )
    api = next((r for r in rows if r.get("metric") == api_metric), None)
    for row in rows:
        if row["status"] == "ok" and api:
            row["toolexpect_speedup"] = api["rate"] / row["rate"]
    return rows


def _share_equal(scores: list[float | None], verdicts: list[float]) -> float | None:
    pairs = [(s, v) for s, v in zip(scores, verdicts, strict=False) if s is not None]
    return sum(1 for s, v in pairs if abs(s - v) < 1e-9) / len(pairs) if pairs else None


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)


def throughput_table(rows: list[dict[str, Any]], labels: dict[str, str]) -> str:
    """The measured table, as Markdown."""
    lines = [
        "| system | metric | samples | samples/s | µs/sample | peak RSS (MiB) | traced peak, 200 "
        "samples (KiB) "
        "| toolexpect API ÷ this | agrees with Tool Call Accuracy | mean score |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"| {labels[r['system']]} | **{r['status']}**: {r['reason']} | | | | | | | | |")
            continue
        samples = f"{r['samples']:,}" + (" (budget hit)" if r["partial"] else "")
        if r["errors"]:
            samples += f", {r['errors']:,} errors"
        lines.append(
            f"| {labels[r['system']]} | {r['metric']} | {samples} | {r['rate']:,.0f} "
            f"| {1e6 / r['rate']:,.1f} | {_fmt(r['peak_rss_mib'], ',.0f')} "
            f"| {_fmt(r['traced_peak_kib'], ',')} "
            f"| {_fmt(r.get('toolexpect_speedup'), ',.1f')}x | "
            f"{_fmt(100 * r['agreement'] if r['agreement'] is not None else None, '.1f')} % "
            f"| {_fmt(r['mean_score'], '.3f')} |"
        )
    return "\n".join(lines)


def semantics_table(
    results: dict[str, dict[str, Any]], labels: dict[str, str]
) -> tuple[str, list[dict[str, Any]]]:
    """The semantics cases with each metric's score next to the definition's value, as Markdown."""
    columns: list[tuple[str, list[float | None] | None]] = []
    for key, result in results.items():
        if result["status"] != "ok":
            columns.append((f"{labels[key]} ({result['status']})", None))
            continue
        for name, m in result["metrics"].items():
            columns.append((f"{labels[key]}: {name}", m["scores"]))
    head = "| case | Tool Call Accuracy (definition) | " + " | ".join(c for c, _ in columns) + " |"
    lines = [head, "|" + " --- |" * (2 + len(columns))]
    data = []
    for i, case in enumerate(corpus.SEMANTICS_CASES):
        cells = []
        row = {"key": case.key, "title": case.title, "definition": case.definition, "scores": {}}
        for name, scores in columns:
            value = scores[i] if scores is not None and i < len(scores) else None
            row["scores"][name] = value
            if value is None:
                cells.append("-")
            else:
                mark = "" if abs(value - case.definition) < 1e-9 else " ✗"
                cells.append(f"{value:g}{mark}")
        data.append(row)
        lines.append(f"| {case.title} — {case.why} | **{case.definition:g}** | " + " | ".join(cells) + " |")
    return "\n".join(lines), data


def semantics_cases_markdown() -> str:
    """The semantics cases' inputs, as a Markdown list."""
    out = []
    for case in corpus.SEMANTICS_CASES:
        out.append(
            f"* **{case.title}** (`{case.key}`): expected `{json.dumps(case.expected)}`, "
            f"recorded `{json.dumps(case.actual)}`"
        )
    return "\n".join(out)


def plot(rows: list[dict[str, Any]], grow: dict[str, Any], labels: dict[str, str], path: Path) -> bool:
    """Bar chart of throughput by metric and log-log plot of toolexpect's time against sample size."""
    if not ensure_matplotlib():
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if r["status"] == "ok"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2), gridspec_kw={"width_ratios": [1.35, 1]})
    names = [f"{labels[r['system']]}: {r['metric']}" for r in ok]
    colours = ["tab:green" if r["system"].startswith("toolexpect") else "tab:gray" for r in ok]
    left.barh(range(len(ok)), [r["rate"] for r in ok], color=colours)
    left.set_yticks(range(len(ok)), [n if len(n) < 60 else n[:57] + "..." for n in names], fontsize=7)
    left.invert_yaxis()
    left.set_xscale("log")
    left.set_xlabel("samples per second (log scale; 5 expected / 8 recorded calls)")
    left.set_title("Throughput on the same corpus")
    for i, r in enumerate(ok):
        left.text(r["rate"], i, f" {r['rate']:,.0f}", va="center", fontsize=7)
    xs = [p["calls"] for p in grow["points"]]
    ys = [p["seconds"] for p in grow["points"]]
    right.loglog(
        xs, ys, "o-", color="tab:green", label=f"toolexpect (fitted exponent {grow['exponent']:.2f})"
    )
    anchor_x, anchor_y = xs[-1], ys[-1]
    ref = [anchor_y * (x * math.log(max(x, 2))) / (anchor_x * math.log(anchor_x)) for x in xs]
    right.loglog(xs, ref, "--", color="tab:gray", label="n·log n through the last point")
    right.set_xlabel("recorded calls per sample (expected ≈ 5/8 of them)")
    right.set_ylabel("seconds to score the sample")
    right.set_title("Cost against sample size")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# --- main --------------------------------------------------------------------------------------


def _ensure_toolexpect() -> None:
    """Re-run this script with the project's venv when toolexpect is not importable here."""
    try:
        import toolexpect  # noqa: F401
    except ImportError:
        venv = ROOT / ".venv" / "bin" / "python"
        if venv.exists() and Path(sys.executable).resolve() != venv.resolve():
            os.execv(str(venv), [str(venv), *sys.argv])
        sys.exit("toolexpect is not importable: run `pip install -e .` first (or use .venv/bin/python)")


def main() -> int:
    """Run the whole comparison and write the results."""
    parser = argparse.ArgumentParser(description="Compare toolexpect with other tool-call metrics.")
    parser.add_argument(
        "--quick", action="store_true", help="a small, fast run (about a minute once installed)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scenarios", type=int, help="scenarios in the corpus (default 200; quick 50)")
    parser.add_argument("--runs", type=int, help="runs per scenario (default 100; quick 4)")
    parser.add_argument("--budget", type=float, help="seconds per peer metric at most (default 60; quick 10)")
    parser.add_argument(
        "--max-calls", type=int, help="largest sample of the growth curve (default 100000; quick 10000)"
    )
    parser.add_argument(
        "--peers", default=",".join(p.key for p in PEERS), help="comma-separated peers to run"
    )
    parser.add_argument(
        "--bfcl-runs", type=int, help="recorded runs per entry of BFCL's own data (default 10; quick 2)"
    )
    parser.add_argument("--no-install", action="store_true", help="use only peers already installed")
    parser.add_argument("--no-write", action="store_true", help="print only; write no result files")
    parser.add_argument(
        "--editable",
        action="store_true",
        help="time the toolexpect of this interpreter (an editable install) instead of a plain install",
    )
    args = parser.parse_args()
    _ensure_toolexpect()
    global TOOLEXPECT_PYTHON
    if not args.editable:
        TOOLEXPECT_PYTHON = install_worktree().python
    load_before = os.getloadavg()
    _say(f"load average at start: {', '.join(f'{x:.2f}' for x in load_before)} ({os.cpu_count()} CPUs)")
    scenarios = args.scenarios or (50 if args.quick else 200)
    runs = args.runs or (4 if args.quick else 100)
    budget = args.budget or (10.0 if args.quick else 60.0)
    max_calls = args.max_calls or (10_000 if args.quick else 100_000)
    bfcl_runs = args.bfcl_runs or (2 if args.quick else 10)
    sizes = [n for n in (1, 3, 10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000) if n <= max_calls]
    chosen = [p for p in PEERS if p.key in args.peers.split(",")]
    started = time.perf_counter()

    data = corpus.generate(args.seed, scenarios, runs)
    samples = data["samples"]
    _say(
        f"corpus: seed {args.seed}, {scenarios} scenarios x {runs} runs = {len(samples):,} samples "
        f"(mean {sum(len(s['expected']) for s in samples) / len(samples):.2f} expected, "
        f"{sum(len(s['actual']) for s in samples) / len(samples):.2f} recorded calls)"
    )

    labels = {"toolexpect_cli": "toolexpect", "toolexpect_api": "toolexpect"}
    labels.update({p.key: p.label for p in chosen})
    pythons: dict[str, Path | None] = {"toolexpect_api": TOOLEXPECT_PYTHON}
    install_notes: dict[str, str] = {}
    for peer in chosen:
        python, reason = install_peer(peer, allow_install=not args.no_install)
        pythons[peer.key] = python
        if reason:
            install_notes[peer.key] = reason
            _say(f"  {peer.label}: NOT INSTALLED: {reason}")
    adapters = {"toolexpect_api": "toolexpect_api", **{p.key: p.adapter for p in chosen}}

    speed: dict[str, dict[str, Any]] = {}
    semantics: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        corpus_file = folder / "corpus.json"
        corpus_file.write_text(json.dumps(data), encoding="utf-8")
        semantics_file = folder / "semantics.json"
        semantics_file.write_text(json.dumps(corpus.semantics_corpus()), encoding="utf-8")
        _say("scoring with toolexpect score (CLI) ...")
        (folder / "cli").mkdir()
        speed["toolexpect_cli"] = run_cli(samples, folder / "cli")
        (folder / "cli-sem").mkdir()
        semantics["toolexpect_cli"] = run_cli(corpus.semantics_corpus()["samples"], folder / "cli-sem")
        for key, adapter in adapters.items():
            python = pythons[key]
            if python is None:
                speed[key] = semantics[key] = {
                    "status": "not installed",
                    "reason": install_notes[key],
                    "metrics": {},
                }
                continue
            _say(f"scoring with {labels.get(key, key)} ({adapter}) ...")
            speed[key] = run_harness(python, adapter, corpus_file, folder / f"{key}.json", budget, trace=True)
            semantics[key] = run_harness(
                python, adapter, semantics_file, folder / f"{key}-sem.json", 30, trace=False
            )
            if speed[key]["status"] != "ok":
                _say(f"  {key}: {speed[key]['status'].upper()}: {speed[key]['reason']}")
        (folder / "bfcl").mkdir()
        bfcl = run_bfcl(
            pythons.get("bfcl"), install_notes.get("bfcl"), bfcl_runs, args.seed, budget, folder / "bfcl"
        )
        if bfcl["status"] != "ok":
            _say(f"BFCL's own data: SKIPPED: {bfcl['reason']}")

    reference = (
        speed["toolexpect_api"]["metrics"]["Tool Call Accuracy (Python API)"]["scores"]
        if speed["toolexpect_api"]["status"] == "ok"
        else [None] * len(samples)
    )
    order = ["toolexpect_cli", "toolexpect_api", *[p.key for p in chosen]]
    rows = summarise({k: speed[k] for k in order}, reference)
    _say("\ngrowth: toolexpect Python API on one sample of n recorded calls")
    grow = growth(sizes)

    versions: dict[str, dict[str, str]] = {}
    for key in order:
        versions.update({key: speed[key].get("versions", {})})
    for key, found in bfcl.get("versions", {}).items():
        versions.setdefault(key, found)
    peers_ok = [r for r in rows if r["status"] == "ok" and not r["system"].startswith("toolexpect")]
    fastest = max(peers_ok, key=lambda r: r["rate"], default=None)
    api_row = next(r for r in rows if r.get("metric") == "Tool Call Accuracy (Python API)")
    cli_row = next((r for r in rows if r["system"] == "toolexpect_cli" and r["status"] == "ok"), None)
    cli_metric = speed["toolexpect_cli"].get("metrics", {}).get("Tool Call Accuracy (CLI, whole process)", {})
    headline = {
        "toolexpect_api_rate": api_row["rate"],
        "toolexpect_cli_rate": cli_row["rate"] if cli_row else None,
        "fastest_peer": f"{labels[fastest['system']]}: {fastest['metric']}" if fastest else None,
        "fastest_peer_rate": fastest["rate"] if fastest else None,
        "api_speedup_over_fastest_peer": api_row["rate"] / fastest["rate"] if fastest else None,
        "cli_speedup_over_fastest_peer": cli_row["rate"] / fastest["rate"] if fastest and cli_row else None,
        "growth_exponent": grow["exponent"],
        "nlogn_exponent_same_range": grow["nlogn_exponent"],
        "cli_agrees_with_api": cli_row["agreement"] if cli_row else None,
        "toolexpect_cli_wall_seconds": cli_metric.get("seconds"),
        "toolexpect_cli_cpu_seconds": cli_metric.get("cpu_seconds"),
    }
    sem_md, sem_rows = semantics_table({k: semantics[k] for k in order}, labels)
    table_md = throughput_table(rows, labels)
    bfcl_text = bfcl_md(bfcl)
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    meta = {
        "date": now,
        "quick": args.quick,
        "seed": args.seed,
        "scenarios": scenarios,
        "runs": runs,
        "samples": len(samples),
        "budget_seconds_per_metric": budget,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "wall_seconds": time.perf_counter() - started,
        "toolexpect_install": (
            "editable (this interpreter)" if args.editable else "plain install (wheel, bytecode)"
        ),
        "load_average_start": [round(x, 2) for x in load_before],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
    }
    notes = {p.key: p.note for p in chosen if p.note}

    _say("\n" + table_md)
    _say("\nBFCL's own data:\n" + bfcl_text)
    _say("\nsemantics cases (✗ = differs from the definition):\n" + sem_md)
    _say(
        f"\ntoolexpect API: {headline['toolexpect_api_rate']:,.0f} samples/s; "
        f"CLI (whole process, startup included): {_fmt(headline['toolexpect_cli_rate'], ',.0f')} samples/s "
        f"(wall {_fmt(headline['toolexpect_cli_wall_seconds'], '.3f')} s, "
        f"CPU {_fmt(headline['toolexpect_cli_cpu_seconds'], '.3f')} s; {meta['toolexpect_install']})"
    )
    _say(
        f"load average at start {', '.join(f'{x:.2f}' for x in meta['load_average_start'])}, "
        f"at the end {', '.join(f'{x:.2f}' for x in meta['load_average_end'])}"
    )
    if fastest:
        _say(
            f"fastest peer: {headline['fastest_peer']} at {fastest['rate']:,.0f} samples/s -> "
            f"toolexpect API is {headline['api_speedup_over_fastest_peer']:.1f}x, "
            f"the CLI {_fmt(headline['cli_speedup_over_fastest_peer'], '.1f')}x (target >= 10x)"
        )
    _say(
        f"growth exponent (time ~ n^k, fitted for n >= {grow['fit_from']}): k = {grow['exponent']:.2f} "
        f"(n·log n over the same range would fit k = {grow['nlogn_exponent']:.2f}; "
        f"between the two largest sizes: {grow['top_exponent']:.2f})"
    )
    if args.no_write:
        return 0

    RESULTS.mkdir(exist_ok=True)
    full = {
        "meta": meta,
        "versions": versions,
        "install_notes": install_notes,
        "peer_notes": notes,
        "headline": headline,
        "throughput": rows,
        "semantics": sem_rows,
        "growth": grow,
        "bfcl_corpus": bfcl,
        "statuses": {k: {"status": speed[k]["status"], "reason": speed[k]["reason"]} for k in order},
    }
    (RESULTS / "latest.json").write_text(json.dumps(full, indent=2, default=str) + "\n", encoding="utf-8")
    has_png = plot(rows, grow, labels, RESULTS / "latest.png")
    report = render_report(
        meta, versions, notes, install_notes, headline, table_md, sem_md, grow, has_png, bfcl_text
    )
    (RESULTS / "latest.md").write_text(report, encoding="utf-8")
    DOC.write_text(
        render_doc(meta, versions, notes, install_notes, headline, table_md, sem_md, grow, bfcl_text),
        encoding="utf-8",
    )
    _say(
        "\nwrote "
        f"{', '.join(str(p.relative_to(ROOT)) for p in (RESULTS / 'latest.json', RESULTS / 'latest.md'))}"
        f"{', bench/results/latest.png' if has_png else ''} and {DOC.relative_to(ROOT)} "
        f"in {time.perf_counter() - started:.0f} s"
    )
    return 0


def _versions_md(versions: dict[str, dict[str, str]]) -> str:
    flat: dict[str, str] = {}
    for found in versions.values():
        flat.update(found)
    return ", ".join(f"{name} {version}" for name, version in sorted(flat.items())) or "none"


def _status_md(notes: dict[str, str], install_notes: dict[str, str]) -> str:
    lines = [f"* {key}: not installed — {why}" for key, why in install_notes.items()]
    lines += [f"* {key}: {why}" for key, why in notes.items() if key not in install_notes]
    return "\n".join(lines)


def _growth_md(grow: dict[str, Any]) -> str:
    lines = ["| recorded calls | expected calls | time (ms) | µs per call |", "| ---: | ---: | ---: | ---: |"]
    for p in grow["points"]:
        lines.append(
            f"| {p['calls']:,} | {p['expected']:,} | {p['seconds'] * 1e3:,.3f} "
            f"| {p['seconds'] * 1e6 / p['calls']:,.2f} |"
        )
    lines.append("")
    lines.append(
        f"Fitted growth exponent (time ∝ n^k, least squares on log-log for n ≥ {grow['fit_from']}): "
        f"**k = {grow['exponent']:.2f}**; an exact n·log n cost over the same sizes would fit "
        f"k = {grow['nlogn_exponent']:.2f}. Between the two largest sizes alone the local exponent is "
        f"{grow['top_exponent']:.2f}."
    )
    return "\n".join(lines)


def render_report(
    meta: dict[str, Any],
    versions: dict[str, dict[str, str]],
    notes: dict[str, str],
    install_notes: dict[str, str],
    headline: dict[str, Any],
    table_md: str,
    sem_md: str,
    grow: dict[str, Any],
    has_png: bool,
    bfcl_text: str,
) -> str:
    """``bench/results/latest.md``: the figures of the last run."""
    return "\n".join(
        [
            "# Benchmark results (generated by `bench/run.py`)",
            "",
            f"{meta['date']}; {'quick' if meta['quick'] else 'full'} run; seed {meta['seed']}, "
            f"{meta['samples']:,} samples ({meta['scenarios']} scenarios x {meta['runs']} runs); "
            f"Python {meta['python']}, {meta['machine']}; at most "
            f"{meta['budget_seconds_per_metric']:g} s per peer "
            f"metric; whole run {meta['wall_seconds']:.0f} s.",
            "",
            f"Versions: {_versions_md(versions)}.",
            "",
            _status_md(notes, install_notes),
            "",
            "## Throughput and agreement",
            "",
            table_md,
            "",
            _headline_md(headline),
            "",
            "## BFCL's own data, head to head with its AST checker",
            "",
            bfcl_text,
            "",
            "## Semantics cases",
            "",
            sem_md,
            "",
            "## Growth of toolexpect's cost with sample size",
            "",
            _growth_md(grow),
            "",
            "![throughput and growth](latest.png)" if has_png else "(no plot: matplotlib unavailable)",
            "",
        ]
    )


def _headline_md(h: dict[str, Any]) -> str:
    if not h["fastest_peer"]:
        return f"toolexpect API: {h['toolexpect_api_rate']:,.0f} samples/s; no peer ran."
    return (
        f"toolexpect's Python API scores {h['toolexpect_api_rate']:,.0f} samples/s and the CLI "
        f"{_fmt(h['toolexpect_cli_rate'], ',.0f')} samples/s (the whole process: interpreter start, spec "
        f"parsing, log reading, report writing). The fastest peer entry point, {h['fastest_peer']}, scores "
        f"{h['fastest_peer_rate']:,.0f} samples/s: toolexpect's API is "
        f"**{h['api_speedup_over_fastest_peer']:.1f}x** "
        f"as fast, the CLI {_fmt(h['cli_speedup_over_fastest_peer'], '.1f')}x. The CLI and the API agree on "
        f"{_fmt(100 * h['cli_agrees_with_api'] if h['cli_agrees_with_api'] is not None else None, '.1f')} % "
        f"of the samples."
    )


def render_doc(
    meta: dict[str, Any],
    versions: dict[str, dict[str, str]],
    notes: dict[str, str],
    install_notes: dict[str, str],
    headline: dict[str, Any],
    table_md: str,
    sem_md: str,
    grow: dict[str, Any],
    bfcl_text: str,
) -> str:
    """``docs/comparison.md``: why the matching rules matter, with the measured figures."""
    return "\n".join(
        [
            "# toolexpect compared with other tool-call metrics",
            "",
            "<!-- Generated by `python bench/run.py`; edit bench/run.py, not this file. -->",
            "",
            f"Generated {meta['date']} by `python bench/run.py{' --quick' if meta['quick'] else ''}` "
            f"(Python {meta['python']}, {meta['machine']}). Versions: {_versions_md(versions)}.",
            "",
            "Peers compared, each installed from PyPI into its own virtual environment and called "
            "through its "
            "public entry point, without any model (no metric here needs one):",
            "",
            "* **DeepEval** `ToolCorrectnessMetric` on `LLMTestCase(tools_called=..., "
            "expected_tools=...)`, with "
            "`evaluation_params=[ToolCallParams.INPUT_PARAMETERS]` (names and arguments) and with "
            "its default "
            "(names only);",
            "* **Ragas** `ToolCallAccuracy` (with `strict_order=False` and with its default strict "
            "order) and "
            "`ToolCallF1`, on `MultiTurnSample` with `AIMessage(tool_calls=...)`;",
            '* **agentevals** `create_trajectory_match_evaluator(trajectory_match_mode="superset", '
            'tool_args_match_mode="superset")` on OpenAI-style message lists (a pass/fail score);',
            "* **BFCL**'s AST checker (`bfcl_eval ... ast_checker`, the `parallel` category: every expected "
            "call must be matched by one recorded call, in any order; a pass/fail score).",
            "",
            _status_md(notes, install_notes),
            "",
            "## Why the matching rules matter",
            "",
            "Tool Call Accuracy (`docs/matching.md`, Pairing): an expectation matches a "
            "recorded call "
            "of the same tool whose arguments include every expected argument with an equivalent value; "
            "top-level numbers compare by value, nested values strictly (type included); booleans are never "
            "numbers; expectations and calls are paired by a maximum bipartite matching; score = matched "
            "expectations / expected calls, and extra calls do not lower it.",
            "",
            "Each case below is one sample scored by every metric. The bold column is the value the "
            "definition "
            "gives; ✗ marks a score that differs from it. A peer that differs is not wrong by its "
            "own rules — "
            "it measures something else — but the difference is what a user who switches would see.",
            "",
            sem_md,
            "",
            "The cases' inputs:",
            "",
            semantics_cases_markdown(),
            "",
            "## Correctness and speed on one corpus",
            "",
            f"A seeded corpus (`bench/corpus.py`, seed {meta['seed']}) of {meta['samples']:,} samples "
            f"({meta['scenarios']} scenarios x {meta['runs']} runs; about 5 expected and 8 recorded "
            "calls each, "
            "drawn from a catalogue of 8 tools, with extra arguments, int/float swaps at the top level and "
            "nested, nested objects and lists, argument-less and partial expectations, repeated "
            "calls, dropped "
            'calls, extra calls and reordering). "Agrees" is the share of samples on which a metric\'s score '
            "equals Tool Call Accuracy's. Each peer metric ran for at most "
            f'{meta["budget_seconds_per_metric"]:g} s ("budget hit" marks a metric timed on the samples it '
            "reached). Throughput counts building the peer's own objects from plain calls; peak RSS is the "
            "scoring process's (interpreter and imports included); the traced peak is tracemalloc's over "
            "scoring 200 samples.",
            "",
            table_md,
            "",
            _headline_md(headline),
            "",
            "## BFCL's own data, head to head with its AST checker",
            "",
            "On the corpus above BFCL's checker returns at once when the numbers of expected and "
            "recorded calls differ, as they mostly do there. On its own data, with as many recorded "
            "calls as expected ones, both do their full work:",
            "",
            bfcl_text,
            "",
            "## Cost against sample size",
            "",
            "One sample of n recorded calls (and about 5n/8 expected calls), scored through the Python API:",
            "",
            _growth_md(grow),
            "",
            "![throughput and growth](../bench/results/latest.png)",
            "",
            "Reproduce: `python bench/run.py` (or `--quick`); the peers' environments are cached under "
            "`bench/.cache/`.",
            "",
        ]
    )


if __name__ == "__main__":
    sys.exit(main())
