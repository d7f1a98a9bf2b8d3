"""Render a comparison of two score reports: ``text``, ``markdown``, ``json``, ``github``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from toolexpect.baseline.compare import GROUPS, CaseChange, Comparison, Figures
from toolexpect.lines import visible
from toolexpect.report.github import annotation, inert, inert_json
from toolexpect.report.markdown import escape as _md
from toolexpect.report.style import Style

__all__ = ["DIFF_VERSION", "FORMATS", "change_lines", "render", "to_json", "unknown_tools"]

FORMATS = ("text", "markdown", "json", "github")
"""The formats ``diff --format`` accepts."""

DIFF_VERSION = 1
"""The version of the ``json`` comparison document."""

_MARKS = {
    "newly failing": ("✗", "red"),
    "worse": ("↓", "red"),
    "newly passing": ("✓", "green"),
    "better": ("↑", "green"),
    "appeared": ("+", "cyan"),
    "vanished": ("-", "yellow"),
    "calls changed": ("~", "blue"),
}
_ICONS = {
    "newly failing": "❌",
    "worse": "📉",
    "newly passing": "✅",
    "better": "📈",
    "appeared": "🆕",
    "vanished": "🗑️",
    "calls changed": "🔁",
}


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _label(change: CaseChange) -> str:
    return f"{change.file} :: {change.case}" if change.file else change.case


def _pair(old: float | None, new: float | None) -> str:
    """``old → new`` with the signed difference, or the one value when they are equal."""
    if old is None and new is None:
        return "-"
    if old is None or new is None:
        return f"{_number(old)} → {_number(new)}"
    if abs(new - old) <= 1e-9:
        return _number(new)
    return f"{_number(old)} → {_number(new)} ({new - old:+.2f})"


def _status(change: CaseChange) -> str:
    old, new = change.old, change.new
    if old is None:
        return new.status if new else ""
    if new is None:
        return f"was {old.status}"
    return old.status if old.status == new.status else f"{old.status} → {new.status}"


def _pass_rate(change: CaseChange) -> str:
    old = change.old.pass_rate if change.old else None
    new = change.new.pass_rate if change.new else None
    if old is None and new is None:
        return ""
    return _pair(old, new)


def _score(change: CaseChange) -> str:
    return _pair(change.old.score if change.old else None, change.new.score if change.new else None)


def _precision(change: CaseChange) -> str:
    """``precision old → new (delta)`` when it changed, else nothing."""
    if change.old is None or change.new is None or abs(change.precision_delta or 0.0) <= 1e-9:
        return ""
    return f"precision {_pair(change.old.precision, change.new.precision)}"


def _figures_text(change: CaseChange) -> str:
    parts = [_status(change), f"score {_score(change)}"]
    rate = _pass_rate(change)
    if rate:
        parts.append(f"pass rate {rate}")
    precision = _precision(change)
    if precision:
        parts.append(precision)
    return ", ".join(parts)


_MAX_RECOUNTED = 5
"""How many tools called a different number of times a case lists (the json format lists all)."""


def _times(calls: int, runs: int) -> str:
    return f"{calls} call{'s' if calls != 1 else ''} in {runs} run{'s' if runs != 1 else ''}"


def _counted(figures: Figures | None) -> dict[str, tuple[int, int]]:
    if figures is None:
        return {}
    return {name: (calls, runs) for name, calls, runs in figures.tools or ()}


def _call_lines(change: CaseChange) -> Iterator[str]:
    for count in change.counts_broken:
        yield f"count newly failing: {count}"
    for count in change.counts_mended:
        yield f"count met again: {count}"
    after, before = _counted(change.new), _counted(change.old)
    for tool in change.tools_appeared:
        yield f"called now, not before: {tool} ({_times(*after[tool])})"
    for tool in change.tools_vanished:
        yield f"no longer called: {tool} (was {_times(*before[tool])})"
    recounted = change.tools_recounted
    for tool, (old_calls, old_runs), (new_calls, new_runs) in recounted[:_MAX_RECOUNTED]:
        yield f"calls of {tool}: {_times(old_calls, old_runs)} → {_times(new_calls, new_runs)}"
    if len(recounted) > _MAX_RECOUNTED:
        more = len(recounted) - _MAX_RECOUNTED
        yield f"and {more} more tool{'s' if more != 1 else ''} called a different number of times"
    for tool in change.calls_appeared:
        yield f"new unexpected call: {tool}"
    for tool in change.calls_gone:
        yield f"unexpected call gone: {tool}"
    for expectation in change.expected_lost:
        yield f"expected call no longer made: {expectation}"
    for expectation in change.expected_found:
        yield f"expected call now made: {expectation}"


def _counts_text(comparison: Comparison) -> str:
    counts = comparison.counts()
    parts = [f"{counts[name]} {name}" for name in (*GROUPS, "unchanged") if counts[name]]
    return ", ".join(parts) or "no cases"


def unknown_tools(comparison: Comparison, old_name: str, new_name: str) -> str:
    """What to say when a report does not list the tools its cases called; else nothing."""
    if not comparison.tools_unknown:
        return ""
    paired = [c for c in comparison.cases if c.old is not None and c.new is not None]
    names = [
        name
        for name, side in ((old_name, "old"), (new_name, "new"))
        if any(getattr(c, side).tools is None for c in paired)
    ]
    return (
        f"{' and '.join(names)} {'does' if len(names) == 1 else 'do'} not list the tools each case "
        "called (written by an older toolexpect): which calls appeared or vanished cannot be told; "
        "score again with this toolexpect to compare them"
    )


def _verdict(comparison: Comparison) -> str:
    return "regressed" if comparison.regressed else "no regression"


def _passed(summary: Any) -> str:
    failing = summary.get("failed", 0) + summary.get("errors", 0)
    return f"{summary.get('passed', 0)} passed, {failing} not passed"


def render_text(comparison: Comparison, style: Style, old_name: str, new_name: str) -> str:
    """The comparison for a terminal: a line per changed case, what changed beneath (what the
    reports hold shown with its control characters visible; no line a workflow command)."""
    lines = [style(visible(f"toolexpect diff {old_name} → {new_name}"), "bold")]
    changed = comparison.changed
    width = max((len(name) for name in GROUPS), default=0)
    for change in changed:
        group = change.group or ""
        mark, colour = _MARKS[group]
        lines.append(
            f"{style(mark, colour)} {style(group.ljust(width), colour)}  {visible(_label(change))}  "
            + style(_figures_text(change), "dim")
        )
        if group == "newly failing" and change.new is not None:
            lines.extend(f"      {visible(message)}" for message in change.new.messages)
        lines.extend(f"      {visible(line)}" for line in _call_lines(change))
    if not changed:
        lines.append("no case changed")
    unknown = unknown_tools(comparison, old_name, new_name)
    if unknown:
        lines.append(style(visible(f"note: {unknown}"), "yellow"))
    lines.append("")
    before, after = _passed(comparison.old_summary), _passed(comparison.new_summary)
    lines.append(f"before: {before}; after: {after}")
    verdict = f"{_counts_text(comparison)}: {_verdict(comparison)}"
    lines.append(style(verdict, "bold", "red" if comparison.regressed else "green"))
    return inert(style.marks("\n".join(lines) + "\n"))


def _code(text: str) -> str:
    """Text as Markdown inline code (a run of backticks longer than any it holds), its control
    characters shown."""
    text = visible(text)
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def render_markdown(comparison: Comparison, old_name: str, new_name: str) -> str:
    """A Markdown summary for a pull-request comment: a table of changed cases, details beneath."""
    icon = "❌" if comparison.regressed else "✅"
    lines = [
        "### toolexpect: changes against the baseline",
        "",
        f"{icon} **{_md(_counts_text(comparison))}**: {_verdict(comparison)}",
        "",
        f"Before ({_code(old_name)}): {_passed(comparison.old_summary)}. "
        f"After ({_code(new_name)}): {_passed(comparison.new_summary)}.",
    ]
    unknown = unknown_tools(comparison, old_name, new_name)
    if unknown:
        lines += ["", f"> Note: {_md(unknown)}."]
    changed = comparison.changed
    if changed:
        lines += [
            "",
            "| | change | file | case | status | score | pass rate |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for change in changed:
            group = change.group or ""
            lines.append(
                f"| {_ICONS[group]} | {group} | {_md(change.file or '')} | {_md(change.case)} "
                f"| {_md(_status(change))} | {_md(_score(change))} | {_md(_pass_rate(change))} |"
            )
    detailed = [c for c in changed if _details(c)]
    if detailed:
        lines += ["", "<details><summary>What changed</summary>", ""]
        for change in detailed:
            lines.append(f"**{_md(_label(change))}** ({change.group})")
            lines.append("")
            lines.extend(f"- {_md(item)}" for item in _details(change))
            lines.append("")
        lines.append("</details>")
    return inert("\n".join(lines) + "\n")


def change_lines(change: CaseChange) -> list[str]:
    """What changed in a case beyond its status and score: precision, counts, then calls, a line each."""
    precision = _precision(change)
    return [precision, *_call_lines(change)] if precision else list(_call_lines(change))


def _details(change: CaseChange) -> list[str]:
    items: list[str] = []
    if change.group == "newly failing" and change.new is not None:
        items.extend(change.new.messages)
    items.extend(change_lines(change))
    return items


def render_github(comparison: Comparison, old_name: str = "old", new_name: str = "new") -> str:
    """GitHub Actions annotations: an error at the spec line of each newly failing case, a
    warning at each case with a lower score or pass rate, then a summary notice."""
    lines: list[str] = []
    for change in comparison.changed:
        if change.group not in ("newly failing", "worse") or change.new is None:
            continue
        level = "error" if change.group == "newly failing" else "warning"
        line = change.new.line or None
        message = "; ".join([_figures_text(change), *change.new.messages[:1], *_call_lines(change)])
        lines.append(
            annotation(
                level,
                visible(message),
                file=change.file or None,
                line=line,
                col=change.new.column or None if line else None,
                title=f"toolexpect: {change.group}: {change.case}",
            )
        )
    summary = f"{_counts_text(comparison)}: {_verdict(comparison)}"
    unknown = unknown_tools(comparison, old_name, new_name)
    if unknown:
        summary += f"; note: {unknown}"
    lines.append(annotation("notice", visible(summary), title="toolexpect diff"))
    return "\n".join(lines) + "\n"


def _figures_json(figures: Figures | None) -> dict[str, Any] | None:
    if figures is None:
        return None
    return {
        "status": figures.status,
        "score": figures.score,
        "pass_rate": figures.pass_rate,
        "lowest": figures.lowest,
        "precision": figures.precision,
        "line": figures.line,
        "failures": list(figures.messages),
    }


def to_json(
    comparison: Comparison, old_name: str | None = None, new_name: str | None = None
) -> dict[str, Any]:
    """The ``json`` comparison document as data."""
    return {
        "version": DIFF_VERSION,
        "old": {"path": old_name, "summary": dict(comparison.old_summary)},
        "new": {"path": new_name, "summary": dict(comparison.new_summary)},
        "regressed": comparison.regressed,
        "tools_compared": not comparison.tools_unknown,
        "counts": {name.replace(" ", "_"): count for name, count in comparison.counts().items()},
        "cases": [
            {
                "file": change.file,
                "case": change.case,
                "change": (change.group or "").replace(" ", "_"),
                "regressed": change.regressed,
                "old": _figures_json(change.old),
                "new": _figures_json(change.new),
                "score_delta": change.score_delta,
                "pass_rate_delta": change.pass_rate_delta,
                "precision_delta": change.precision_delta,
                "counts": {
                    "newly_failing": list(change.counts_broken),
                    "met_again": list(change.counts_mended),
                },
                "calls": {
                    "tools_appeared": list(change.tools_appeared),
                    "tools_vanished": list(change.tools_vanished),
                    "tools_recounted": [
                        {
                            "tool": tool,
                            "old": {"calls": old[0], "runs": old[1]},
                            "new": {"calls": new[0], "runs": new[1]},
                        }
                        for tool, old, new in change.tools_recounted
                    ],
                    "unexpected_added": list(change.calls_appeared),
                    "unexpected_removed": list(change.calls_gone),
                    "expected_lost": list(change.expected_lost),
                    "expected_found": list(change.expected_found),
                },
            }
            for change in comparison.changed
        ],
    }


def render(
    comparison: Comparison,
    fmt: str = "text",
    *,
    style: Style | None = None,
    old_name: str = "old",
    new_name: str = "new",
) -> str:
    """Render ``comparison`` in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        text = json.dumps(to_json(comparison, old_name, new_name), indent=2, ensure_ascii=False)
        return inert_json(text) + "\n"
    if fmt == "markdown":
        return render_markdown(comparison, old_name, new_name)
    if fmt == "github":
        return render_github(comparison, old_name, new_name)
    return render_text(comparison, style or Style(False), old_name, new_name)
