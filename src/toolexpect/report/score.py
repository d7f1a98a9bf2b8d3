"""Render a score report: ``text`` for people, ``json``, ``junit``, ``github``, ``markdown``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree as ET

from toolexpect.matching.explain import failing_messages
from toolexpect.report.github import annotation
from toolexpect.report.markdown import escape as _md
from toolexpect.report.overall import overall
from toolexpect.report.score_json import json_chunks, to_json
from toolexpect.report.style import Style
from toolexpect.report.summary import MAX_LISTED, finding_lines, summary_line, unused_lines
from toolexpect.scoring import CaseOutcome, ScoreReport

__all__ = ["FORMATS", "MAX_LISTED", "MAX_RUNS_SHOWN", "render", "render_chunks", "to_json"]

FORMATS = ("text", "json", "junit", "github", "markdown")
"""The report formats ``score --format`` accepts."""


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _label(outcome: CaseOutcome) -> str:
    return f"{outcome.file} :: {outcome.case.name}" if outcome.file else outcome.case.name


MAX_RUNS_SHOWN = 5
"""How many failing runs of a case the reports but ``json`` explain (the rest are counted)."""


def _failure_lines(outcome: CaseOutcome) -> Iterator[tuple[Any, str]]:
    """Each failure of a case, with the run it came from when there were several runs (the
    case's first failing runs, from its accumulators: the rest are counted)."""
    result = outcome.result
    for failure in result.failures:
        yield (failure, failure.message)
    if result.runs == 1 and result.first_run is not None:
        for failure in result.first_run.failures:
            yield (failure, failure.message)
        return
    for number, run in result.kept_runs[:MAX_RUNS_SHOWN]:
        for failure in run.failures:
            yield (failure, f"run {number + 1}: {failure.message}")
    rest = result.runs - result.passed - MAX_RUNS_SHOWN
    if rest > 0:
        yield (None, f"... and {rest} more failing run{'s' * (rest != 1)}")


def _explained(failure: Any, message: str) -> str:
    """A failure's message, with an unmatched expectation's closest call spread over lines."""
    if getattr(failure, "kind", None) != "unmatched" or "; closest call #" not in message:
        return message
    head, _, _ = message.partition("; closest call #")
    prefix = message[: len(message) - len(message.lstrip())]
    closest = failure.details.get("closest") or ()
    if not closest:
        return message
    best = closest[0]
    lines = [f"{prefix}{head}", f"closest: call #{best.call + 1}"]
    lines.extend(f"  {message}" for message in failing_messages(best))
    return "\n".join(lines)


def _score_text(outcome: CaseOutcome) -> str:
    result = outcome.result
    if result.status == "error" or not result.runs:
        return "error"
    if result.runs > 1:
        return (
            f"{_fmt(result.mean_score)} mean, {_fmt(result.min_score)} lowest, "
            f"{result.passed}/{result.runs} runs passed"
        )
    run = result.first_run
    if run is None or run.score is None:
        return "requirements only"
    return f"{_fmt(run.score)}  ({run.matched}/{run.expected} expected calls)"


def render_text(report: ScoreReport, style: Style, *, quiet: bool = False) -> str:
    """The report for a terminal: a line per case (``quiet``: per case that did not pass),
    failures explained beneath, unused samples and schema findings (at most
    :data:`MAX_LISTED` each), a summary."""
    marks = {"pass": style("✓", "green"), "fail": style("✗", "red"), "error": style("!", "yellow")}
    shown = [o for o in report.cases if not quiet or o.result.status != "pass"]
    width = max((len(_label(o)) for o in shown), default=0)
    lines: list[str] = []
    for outcome in shown:
        label = _label(outcome).ljust(width)
        lines.append(f"{marks[outcome.result.status]} {label}  {_score_text(outcome)}")
        if outcome.result.status == "pass":
            continue
        for failure, message in _failure_lines(outcome):
            place = ""
            span = getattr(failure, "span", None)
            if span is not None and outcome.file:
                place = style(f"  ({outcome.file}:{span.line})", "dim")
            first, *rest = _explained(failure, message).splitlines() or [""]
            lines.append(f"    {style('✗', 'red')} {first}{place}")
            lines.extend(f"        {line}" for line in rest)
    lines.extend(unused_lines(report, label=style("unused", "yellow") + " "))
    lines.extend(finding_lines(report, label=style("schema", "yellow") + " "))
    if report.unreadable_records:
        count = report.unreadable_records
        lines.append(
            style("log", "red")
            + f": {count} record{'s' * (count != 1)} could not be read; see the messages above"
        )
    lines.append("")
    summary = summary_line(report)
    lines.append(style(summary, "bold", "green" if report.ok else "red"))
    return style.marks("\n".join(lines) + "\n")


def render_junit(report: ScoreReport) -> str:
    """JUnit XML: one testsuite, one testcase per case, failures and errors with explanations."""
    suite = ET.Element(
        "testsuite",
        name="toolexpect",
        tests=str(len(report.cases)),
        failures=str(report.failed),
        errors=str(report.errors),
        skipped="0",
    )
    figures = overall(report)
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("mean_accuracy", figures.accuracy),
        ("accuracy_cases", figures.cases),
        ("mean_precision", figures.precision),
        ("mean_f1", figures.f1),
    ):
        if value is not None:
            ET.SubElement(properties, "property", name=name, value=str(value))
    for outcome in report.cases:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=(outcome.file or "toolexpect").replace("/", ".").removesuffix(".expect"),
            name=outcome.case.name,
        )
        result = outcome.result
        if result.status == "pass":
            continue
        text = "\n".join(message for _, message in _failure_lines(outcome))
        tag = "error" if result.status == "error" else "failure"
        first = text.splitlines()[0] if text else result.status
        node = ET.SubElement(case, tag, message=first, type=tag)
        node.text = text
    listed = [
        *unused_lines(report, label="unused "),
        *finding_lines(report, label="schema "),
    ]
    ET.SubElement(suite, "system-out").text = "\n".join([*listed, summary_line(report)])
    ET.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


def render_github(report: ScoreReport) -> str:
    """GitHub Actions annotations at the spec line of each failure, then a summary notice."""
    lines: list[str] = []
    for outcome in report.cases:
        if outcome.result.status == "pass":
            continue
        level = "error"
        for failure, message in _failure_lines(outcome):
            span = getattr(failure, "span", None) or outcome.case.span
            lines.append(
                annotation(
                    level,
                    message,
                    file=outcome.file or None,
                    line=span.line if span is not None else None,
                    col=span.column if span is not None else None,
                    title=f"toolexpect: {outcome.case.name}",
                )
            )
    lines.extend(
        annotation("warning", line, title="toolexpect: unused sample") for line in unused_lines(report)
    )
    lines.extend(annotation("warning", line, title="toolexpect: schema") for line in finding_lines(report))
    lines.append(annotation("notice", summary_line(report), title="toolexpect"))
    return "\n".join(lines) + "\n"


def render_markdown(report: ScoreReport) -> str:
    """A Markdown table for a pull-request comment or a job summary, failures beneath."""
    icon = {"pass": "✅", "fail": "❌", "error": "⚠️"}
    lines = [
        "### toolexpect",
        "",
        f"**{summary_line(report)}**",
        "",
        "| | file | case | score |",
        "| --- | --- | --- | --- |",
    ]
    for outcome in report.cases:
        lines.append(
            f"| {icon[outcome.result.status]} | {_md(outcome.file or '')} | {_md(outcome.case.name)} "
            f"| {_md(_score_text(outcome))} |"
        )
    failing = [o for o in report.cases if o.result.status != "pass"]
    if failing:
        lines += ["", "<details><summary>Failures</summary>", ""]
        for outcome in failing:
            lines.append(f"**{_md(_label(outcome))}**")
            lines.append("")
            lines.extend(f"- {_md(message)}" for _, message in _failure_lines(outcome))
            lines.append("")
        lines.append("</details>")
    for title, listed in (
        ("Unused samples", list(unused_lines(report))),
        ("Calls that break their tool's schema", list(finding_lines(report))),
    ):
        if listed:
            lines += ["", f"<details><summary>{title}</summary>", ""]
            lines.extend(f"- {_md(line)}" for line in listed)
            lines += ["", "</details>"]
    return "\n".join(lines) + "\n"


def render_chunks(
    report: ScoreReport, fmt: str = "text", *, style: Style | None = None, quiet: bool = False
) -> Iterator[str]:
    """:func:`render` in pieces to write one after the other (the ``json`` form of a large
    report is made piece by piece; the other forms come whole)."""
    if fmt == "json":
        yield from json_chunks(report)
    else:
        yield render(report, fmt, style=style, quiet=quiet)


def render(report: ScoreReport, fmt: str = "text", *, style: Style | None = None, quiet: bool = False) -> str:
    """Render ``report`` in ``fmt`` (one of :data:`FORMATS`); ``quiet`` leaves the passing
    cases out of the ``text`` report."""
    if fmt == "json":
        return "".join(json_chunks(report))
    if fmt == "junit":
        return render_junit(report)
    if fmt == "github":
        return render_github(report)
    if fmt == "markdown":
        return render_markdown(report)
    return render_text(report, style or Style(False), quiet=quiet)
