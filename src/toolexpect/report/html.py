"""Render a score report as one self-contained HTML page (``score --format html`` / ``--html``).

Input is the JSON report document (:func:`toolexpect.report.score.to_json`), the text of the
spec files (for the source line of each failure) and, with ``--baseline``, a
:class:`~toolexpect.baseline.compare.Comparison`. Output is one HTML file: inline CSS and
JavaScript, no network (a Content-Security-Policy allows only the page's own script, by its
hash). Jinja2 renders the page with autoescaping; the data the script draws from is embedded as
JSON in a ``<script type="application/json">`` with ``<``, ``>`` and ``&`` written as ``\\u003c``
and so on, and the script builds every element with ``textContent``, so text from a log is
shown as text and never run.

What is embedded is capped so that a run of 10,000 cases x 100 runs stays a page a browser
opens: every case's figures, the failures of at most :data:`RUNS_PER_CASE` failing runs per
case and :data:`MAX_FAILURES` failures in all, strings cut at :data:`MAX_TEXT` characters; the
page says what was cut.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolexpect.baseline.compare import CaseChange, Comparison, Figures, case_key
from toolexpect.lines import visible
from toolexpect.report.diff import change_lines, unknown_tools
from toolexpect.report.github import inert, inert_json
from toolexpect.report.summary import MAX_LISTED

if TYPE_CHECKING:
    import jinja2

__all__ = [
    "CHANGES_PER_CASE",
    "MAX_FAILURES",
    "MAX_TEXT",
    "RUNS_PER_CASE",
    "page_data",
    "render_html",
    "script_json",
]

RUNS_PER_CASE = 5
"""Failing runs of one case whose failures are embedded (as the text report shows)."""

MAX_FAILURES = 20_000
"""Failures embedded in all; the cases after the limit show their figures only."""

MAX_TEXT = 2_000
"""Characters kept of one message, expected or recorded value."""

CHANGES_PER_CASE = 10
"""How many lines of what changed in a case (precision, calls) the page shows against a baseline."""

_TEMPLATES = Path(__file__).parent / "templates"


def _finalize(value: Any) -> Any:
    """A value the page shows as text, its control characters visible (so none starts a line
    of the page) and ``##[`` written with a character reference; markup marked safe is left
    alone."""
    import markupsafe

    if not isinstance(value, str) or isinstance(value, markupsafe.Markup):
        return value
    shown = visible(value)
    if "##[" in shown:
        return markupsafe.Markup(inert(str(markupsafe.escape(shown)), markup=True))
    return shown


@functools.cache
def _environment() -> jinja2.Environment:
    """The Jinja2 environment of the report templates, autoescaping everything."""
    import jinja2
    import markupsafe
    from jinja2.utils import htmlsafe_json_dumps

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        finalize=_finalize,
    )
    # ``tojson`` writes every non-ASCII character as an escape; ``##[`` is escaped too.
    environment.filters["tojson"] = lambda value: markupsafe.Markup(
        inert_json(str(htmlsafe_json_dumps(value)))
    )
    return environment


@functools.cache
def _asset(name: str) -> str:
    """The text of a template asset (the page's CSS or JavaScript)."""
    return (_TEMPLATES / name).read_text(encoding="utf-8")


def _cut(value: Any) -> Any:
    """``value`` with a string longer than :data:`MAX_TEXT` cut, saying how much was cut."""
    if isinstance(value, str) and len(value) > MAX_TEXT:
        return f"{value[:MAX_TEXT]}… ({len(value) - MAX_TEXT} more characters)"
    return value


def _closest(details: Mapping[str, Any]) -> dict[str, Any] | None:
    """The closest call of an ``unmatched`` failure, argument by argument."""
    closest = details.get("closest") or ()
    if not closest or not isinstance(closest[0], Mapping):
        return None
    best = closest[0]
    return {
        "call": best.get("call"),
        "holds": best.get("holds"),
        "total": best.get("total"),
        "valid_json": best.get("valid_json", True),
        "args": [
            {
                "name": _cut(arg.get("name")),
                "holds": bool(arg.get("holds")),
                "expected": _cut(arg.get("expected")),
                "got": _cut(arg.get("got")),
            }
            for arg in best.get("args") or ()
            if isinstance(arg, Mapping)
        ],
    }


def _failure(failure: Mapping[str, Any], file: str | None, lines: dict[str, set[int]]) -> dict[str, Any]:
    """One failure as the page shows it; notes the spec line it needs in ``lines``."""
    details = failure.get("details") or {}
    line = failure.get("line")
    if file and isinstance(line, int):
        lines.setdefault(file, set()).add(line)
    entry: dict[str, Any] = {
        "kind": failure.get("kind"),
        "message": _cut(failure.get("message")),
        "line": line,
        "column": failure.get("column"),
    }
    if failure.get("kind") == "unmatched" and isinstance(details, Mapping):
        entry["closest"] = _closest(details)
        entry["never_called"] = bool(details.get("never_called"))
        entry["similar"] = [_cut(t) for t in details.get("similar_tools") or ()][:10]
    if failure.get("kind") in ("unexpected", "forbidden") and isinstance(details, Mapping):
        entry["tools"] = [_cut(t) for t in details.get("tools") or ()][:10]
    return entry


def _runs(case: Mapping[str, Any]) -> Iterator[tuple[int | None, Mapping[str, Any]]]:
    """The failing runs of a case with their 1-based numbers (``None``: the case itself)."""
    yield None, case
    for number, run in enumerate(case.get("runs") or (), 1):
        if run.get("failures"):
            yield number, run


class _Budget:
    """How many failures may still be embedded, and what was cut."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.cases_cut = 0
        self.runs_cut = 0


def _case_failures(
    case: Mapping[str, Any], budget: _Budget, lines: dict[str, set[int]]
) -> tuple[list[dict[str, Any]], int]:
    """The embedded failing runs of a case (``{run, failures}``) and how many were left out."""
    file = case.get("file")
    groups: list[dict[str, Any]] = []
    left_out = 0
    runs_shown = 0
    for number, run in _runs(case):
        failures = run.get("failures") or ()
        if not failures:
            continue
        if number is not None:
            if runs_shown >= RUNS_PER_CASE or budget.left <= 0:
                left_out += 1
                continue
            runs_shown += 1
        if budget.left <= 0:
            continue
        kept = list(failures[: max(budget.left, 0)])
        budget.left -= len(kept)
        groups.append({"run": number, "failures": [_failure(f, file, lines) for f in kept]})
    budget.runs_cut += left_out
    return groups, left_out


def _change(figures: Figures | None) -> dict[str, Any] | None:
    if figures is None:
        return None
    return {"status": figures.status, "score": figures.score, "pass_rate": figures.pass_rate}


def page_data(
    document: Mapping[str, Any],
    *,
    sources: Mapping[str, str] | None = None,
    comparison: Comparison | None = None,
) -> dict[str, Any]:
    """The data the page's script draws: cases, capped failures, spec lines, the comparison."""
    budget = _Budget(MAX_FAILURES)
    lines: dict[str, set[int]] = {}
    changes = {case_key(c.file, c.case): c for c in comparison.cases} if comparison else {}
    cases = []
    for case in document.get("cases") or ():
        runs = case.get("runs")
        count = len(runs) if isinstance(runs, list) else (0 if case.get("status") == "error" else 1)
        passed = sum(r.get("status") == "pass" for r in runs) if isinstance(runs, list) else None
        had_budget = budget.left > 0
        groups, left_out = _case_failures(case, budget, lines)
        has_failures = bool(case.get("failures")) or any(r.get("failures") for r in runs or ())
        if has_failures and not had_budget:
            budget.cases_cut += 1
        entry: dict[str, Any] = {
            "file": case.get("file"),
            "case": case.get("case"),
            "status": case.get("status"),
            "score": case.get("score"),
            "lowest": case.get("lowest", case.get("score")),
            "pass_rate": case.get("pass_rate"),
            "matched": case.get("matched"),
            "expected": case.get("expected"),
            "runs": count,
            "passed_runs": passed,
            "failures": groups,
            "runs_cut": left_out,
            "cut": has_failures and not groups,
        }
        if isinstance(case.get("allowed_calls"), int):  # a case with allow, scored from one run
            entry["allowed_calls"] = case["allowed_calls"]
        change = changes.get(case_key(case.get("file"), case.get("case")))
        if change is not None:
            entry["change"] = change.group
            entry["before"] = _change(change.old)
            entry["calls"] = _change_lines(change)
        cases.append(entry)
    data: dict[str, Any] = {
        "summary": dict(document.get("summary") or {}),
        "cases": cases,
        "sources": _source_lines(lines, sources or {}),
        "cut": {
            "cases": budget.cases_cut,
            "runs": budget.runs_cut,
            "runs_per_case": RUNS_PER_CASE,
            "max_failures": MAX_FAILURES,
        },
        "unused_samples": len(document.get("unused_samples") or ()),
        "log_diagnostics": len(document.get("log_diagnostics") or ()),
        "comparison": _comparison(comparison),
    }
    return data


def _change_lines(change: CaseChange) -> list[str]:
    """What changed in a case (precision, calls), at most :data:`CHANGES_PER_CASE` lines."""
    lines = change_lines(change)
    shown = [_cut(line) for line in lines[:CHANGES_PER_CASE]]
    if len(lines) > CHANGES_PER_CASE:
        shown.append(f"and {len(lines) - CHANGES_PER_CASE} more (see toolexpect diff)")
    return shown


def _comparison(comparison: Comparison | None) -> dict[str, Any] | None:
    if comparison is None:
        return None
    return {
        "regressed": comparison.regressed,
        "counts": comparison.counts(),
        "before": dict(comparison.old_summary),
        "unknown_tools": unknown_tools(comparison, "the baseline", "this report"),
        "vanished": [
            {"file": c.file, "case": c.case, "before": _change(c.old)}
            for c in comparison.cases
            if c.new is None
        ],
    }


def _source_lines(wanted: Mapping[str, set[int]], sources: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The spec lines the failures point at, without their indentation: ``{file: {line: text}}``."""
    found: dict[str, dict[str, str]] = {}
    for file, numbers in wanted.items():
        text = sources.get(file)
        if text is None:
            continue
        all_lines = text.lstrip("\ufeff").splitlines()
        found[file] = {
            str(n): _cut(all_lines[n - 1].strip()) for n in sorted(numbers) if 0 < n <= len(all_lines)
        }
    return found


_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def script_json(data: Any) -> str:
    """JSON to embed in a ``<script>`` element: ``<``, ``>`` and ``&`` as ``\\u`` escapes,
    so no text in it can close the element or start a comment, and the characters HTML or a
    terminal would trip on as well (:func:`~toolexpect.report.github.inert_json`)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_ESCAPES)
    return inert_json(text)


def _digest(script: str) -> str:
    """The CSP source that allows exactly ``script`` to run."""
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def render_html(
    document: Mapping[str, Any],
    *,
    sources: Mapping[str, str] | None = None,
    comparison: Comparison | None = None,
    title: str = "toolexpect report",
) -> str:
    """The HTML page of a JSON report document (with the comparison, when given)."""
    data = page_data(document, sources=sources, comparison=comparison)
    script = _asset("report.js")
    summary = data["summary"]
    if "mean_accuracy" in summary:
        mean_score = summary["mean_accuracy"]
    else:  # a report written before the summary had its overall figures
        scores = [c["score"] for c in data["cases"] if isinstance(c["score"], int | float)]
        mean_score = sum(scores) / len(scores) if scores else None
    unused = list(document.get("unused_samples") or ())
    template = _environment().get_template("report.html.j2")
    return template.render(
        title=title,
        summary=summary,
        mean_score=mean_score,
        unused=unused[:MAX_LISTED],
        unused_left_out=len(unused) - len(unused[:MAX_LISTED]),
        unused_runs=(document.get("summary") or {}).get("unused_runs")
        or sum(u.get("count") or 0 for u in unused),
        comparison=data["comparison"],
        files=sorted({c["file"] for c in data["cases"] if c["file"]}),
        data_json=script_json(data),
        style=_asset("report.css"),
        script=script,
        script_hash=_digest(script),
    )
