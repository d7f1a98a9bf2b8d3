"""The ``json`` score report: the document (``to_json``), its text, and that text in pieces for a
large report. Its schema is ``schema/report.schema.json``; ``report/load.py`` reads it back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from toolexpect.calls import LogRecords
from toolexpect.matching import ToolCounts
from toolexpect.report.github import inert_json
from toolexpect.report.overall import overall
from toolexpect.scoring.partial import CaseOutcome, ScoreReport

__all__ = ["json_chunks", "json_text", "to_json"]


def _run_json(run: Any, allows: bool = False) -> dict[str, Any]:
    """One run as report data; ``allows``: the case has ``allow`` statements, so the run
    says how many of its calls they let pass (``allowed_calls``)."""
    entry = {
        "status": run.status,
        "score": run.score,
        "matched": run.matched,
        "expected": run.expected,
        "precision": run.precision,
        "f1": run.f1,
    }
    if allows and run.status != "error":
        entry["allowed_calls"] = run.allowed
    entry["failures"] = [_failure_json(f) for f in run.failures]
    return entry


def _failure_json(failure: Any) -> dict[str, Any]:
    span = failure.span
    return {
        "kind": failure.kind,
        "message": failure.message,
        "line": span.line if span else None,
        "column": span.column if span else None,
        "details": _plain(failure.details),
    }


_SCALAR_TYPES = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """Turn explanation data into JSON data (dataclasses, tuples and mappings included)."""
    if type(value) in _SCALAR_TYPES:
        return value
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "items") and callable(value.items):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def _add_tools(entry: dict[str, Any], counts: ToolCounts) -> None:
    """The tools a case's runs called (``other_tool_calls`` only when some went uncounted)."""
    entry["tools"] = {name: {"calls": calls, "runs": runs} for name, calls, runs in counts.tools}
    if counts.other_calls:
        entry["other_tool_calls"] = counts.other_calls


def _case_json(outcome: CaseOutcome, runs_json: bool = True) -> dict[str, Any]:
    """One case of the ``json`` report; without its ``runs`` list unless ``runs_json``."""
    result = outcome.result
    runs = outcome.runs
    allows = bool(outcome.case.allows)
    entry: dict[str, Any] = {
        "file": outcome.file,
        "case": outcome.case.name,
        "status": result.status,
    }
    case_failures = [_failure_json(f) for f in result.failures]
    if result.runs == 1 and result.first_run is not None:
        entry.update(_run_json(result.first_run, allows))
        entry["failures"] = case_failures + entry["failures"]
        _add_tools(entry, result.tools)
    else:
        entry.update(
            {
                "score": result.mean_score,
                "lowest": result.min_score,
                "pass_rate": result.pass_rate,
                "matched": None,
                "expected": len(outcome.case.expectations),
                "precision": None,
                "f1": None,
                "failures": case_failures,
            }
        )
        if result.mean_precision is not None:
            entry["mean_precision"] = result.mean_precision
        _add_tools(entry, result.tools)
        if runs and runs_json:  # every run, when kept (scored with explained=None)
            entry["runs"] = [_run_json(r, allows) for r in runs]
    if result.status == "error":
        entry["score"] = None
    entry["status"] = result.status
    return entry


def to_json(report: ScoreReport) -> dict[str, Any]:
    """The ``json`` report as data."""
    return {"cases": [_case_json(outcome) for outcome in report.cases], **_report_json(report)}


def _report_json(report: ScoreReport) -> dict[str, Any]:
    """Everything of the ``json`` report but its cases."""
    return {
        "unused_samples": [
            {"id": u.id, "count": u.count, "path": u.path, "line": u.line, "reason": u.reason}
            for u in report.unused
        ],
        "call_findings": [
            {
                "sample": f.sample_id,
                "path": f.path,
                "line": f.line,
                "call": f.finding.index + 1,
                "tool": f.finding.tool,
                "argument": f.finding.argument,
                "message": f.finding.message,
            }
            for f in report.call_findings
        ],
        "log_diagnostics": [d.to_json() for d in report.log_diagnostics],
        **({"logs": [_records_json(found) for found in report.log_records]} if report.log_records else {}),
        "summary": _summary_json(report),
    }


def _records_json(counted: LogRecords) -> dict[str, Any]:
    """What became of the records of one log, as the ``logs`` entries of the report say."""
    return {
        "path": counted.path,
        "records": counted.records,
        "with_calls": counted.with_calls,
        "without_calls": counted.without_calls,
        "reported": counted.reported,
    }


def _summary_json(report: ScoreReport) -> dict[str, Any]:
    """The ``summary`` of the ``json`` report: the counts, then the overall figures."""
    figures = overall(report)
    summary = {
        "cases": len(report.cases),
        "passed": report.passed,
        "failed": report.failed,
        "errors": report.errors,
        "mean_accuracy": figures.accuracy,
        "accuracy_cases": figures.cases,
        "mean_precision": figures.precision,
        "mean_f1": figures.f1,
    }
    if report.unused_capped:
        summary["unused_runs"] = report.unused_runs
    return summary


_INDENTED_RUNS = 1_000


def json_text(data: dict[str, Any]) -> str:
    """Indented JSON for a small report; for a large one, a case per line (fast, still JSON);
    characters a terminal acts on as ``\\u`` escapes (:func:`~toolexpect.report.github.inert_json`)."""
    runs = sum(len(case.get("runs", ())) for case in data["cases"])
    if runs <= _INDENTED_RUNS:
        return inert_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    parts = []
    for key, value in data.items():
        if key == "cases":
            cases = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in value)
            parts.append(f'"cases": [\n{cases}\n]')
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return inert_json("{\n" + ",\n".join(parts) + "\n}\n")


def _listed_runs(outcome: CaseOutcome) -> int:
    """How many runs the ``json`` report lists for a case (one run is merged into the case)."""
    return len(outcome.runs) if outcome.result.runs > 1 else 0


def json_chunks(report: ScoreReport) -> Iterator[str]:
    """The ``json`` report's text in pieces (the same text as ``json_text(to_json(...))``).

    A large report is written a case per line, piece by piece (so the whole text need
    not be held, or copied, at once); a run without failures with the same figures as an
    earlier one reuses that run's text.
    """
    if sum(_listed_runs(o) for o in report.cases) <= _INDENTED_RUNS:
        yield json_text(to_json(report))
        return

    def dumps(value: Any, ensure_ascii: bool = True) -> str:
        return inert_json(json.dumps(value, ensure_ascii=ensure_ascii))

    texts: dict[tuple[Any, ...], str] = {}
    yield '{\n"cases": [\n'
    for number, outcome in enumerate(report.cases):
        entry = dumps(_case_json(outcome, runs_json=False), ensure_ascii=False)
        yield ",\n  " if number else "  "
        if not _listed_runs(outcome):
            yield entry
            continue
        rendered: list[str] = []
        allows = bool(outcome.case.allows)
        for run in outcome.runs:
            if run.failures:
                rendered.append(dumps(_run_json(run, allows), ensure_ascii=False))
                continue
            # Equal figures give equal text (they are never negative, so never -0.0).
            shared = (
                run.status,
                run.score,
                run.matched,
                run.expected,
                run.precision,
                run.f1,
                allows,
                run.allowed,
            )
            text = texts.get(shared)
            if text is None:
                text = texts[shared] = dumps(_run_json(run, allows), ensure_ascii=False)
            rendered.append(text)
        yield entry[:-1]
        yield ', "runs": ['
        yield ", ".join(rendered)
        yield "]}"
    yield "\n]"
    for name, value in _report_json(report).items():
        yield f",\n{dumps(name)}: {dumps(value, ensure_ascii=False)}"
    yield "\n}\n"
