"""What every report format but ``json`` ends with: unused samples and calls that break their
tool's schema (at most :data:`MAX_LISTED` of each, the rest summed up in one line), and the
summary line with the counts and the overall figures. What a log holds is shown with its
control characters visible (:func:`~toolexpect.lines.visible`)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from toolexpect.calls import LogRecords
from toolexpect.lines import visible
from toolexpect.report.github import inert
from toolexpect.report.overall import overall, overall_text
from toolexpect.scoring.partial import MAX_UNUSED_IDS, ScoreReport

__all__ = ["MAX_ID", "MAX_LISTED", "finding_lines", "records_line", "summary_line", "unused_lines"]


def records_line(counted: LogRecords) -> str:
    """``run.jsonl: 1,204 records: 1,180 with calls, 20 without, 4 reported``."""
    total = counted.records
    name = "(in memory)" if counted.path is None else counted.path
    return inert(
        f"{json.dumps(name, ensure_ascii=True)[1:-1]}: {total:,} record{'s' * (total != 1)}: "
        f"{counted.with_calls:,} with calls, {counted.without_calls:,} without, "
        f"{counted.reported:,} reported"
    )


def summary_line(report: ScoreReport) -> str:
    """``8 passed, 3 failed; mean accuracy 0.86 over 9 cases with expected calls, precision
    0.95, F1 0.90``."""
    parts = [f"{report.passed} passed", f"{report.failed} failed"]
    if report.errors:
        parts.append(f"{report.errors} error{'s' * (report.errors != 1)}")
    figures = overall_text(overall(report))
    return ", ".join(parts) + (f"; {figures}" if figures else "")


MAX_LISTED = 20
"""How many unused samples and schema findings the reports but ``json`` list (the rest are summed up)."""

MAX_ID = 200
"""The longest unused sample id the reports but ``json`` show whole (a longer one is cut with ``…``)."""


def unused_lines(report: ScoreReport, limit: int = MAX_LISTED, label: str = "") -> Iterator[str]:
    """One line per unused sample (at most ``limit``, each after ``label``), then one line
    summing up the rest (``... and 521,337 more unused samples (600,112 runs); ...``)."""
    for unused in report.unused[:limit]:
        name = json.dumps(unused.id, ensure_ascii=False) if unused.id is not None else "without id"
        if len(name) > MAX_ID:
            name = name[: MAX_ID - 1] + "…"
        where = f" (first at {unused.path}:{unused.line})" if unused.path and unused.line else ""
        count = "" if unused.count is None else f"{unused.count} run{'s' * (unused.count != 1)}, "
        yield label + visible(f"sample {name}: {count}{unused.reason}{where}")
    rest = report.unused[limit:]
    if report.unused_capped:
        runs = report.unused_runs
        yield (
            f"... unused samples of more than {MAX_UNUSED_IDS:,} ids, {runs:,} run{'s' * (runs != 1)} "
            f"in all; the json report lists the first {MAX_UNUSED_IDS:,} ids"
        )
    elif rest:
        runs = sum(u.count or 0 for u in rest)
        yield (
            f"... and {len(rest):,} more unused sample{'s' * (len(rest) != 1)} "
            f"({runs:,} run{'s' * (runs != 1)}); the json report lists them all"
        )


def finding_lines(report: ScoreReport, limit: int = MAX_LISTED, label: str = "") -> Iterator[str]:
    """One line per recorded call that breaks its tool's schema (at most ``limit``, each after
    ``label``), then one line summing up the rest."""
    for item in report.call_findings[:limit]:
        sample = json.dumps(item.sample_id) if item.sample_id is not None else "without id"
        where = f" ({item.path}:{item.line})" if item.path and item.line else ""
        yield label + visible(
            f"sample {sample}, call #{item.finding.index + 1} {item.finding.tool}: "
            f"{item.finding.message}{where}"
        )
    rest = len(report.call_findings) - limit
    if rest > 0:
        yield (
            f"... and {rest:,} more call{'s' * (rest != 1)} that break their tool's schema; "
            "the json report lists them all"
        )
