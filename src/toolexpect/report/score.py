"""Render a score report: ``text`` for people, ``json``, ``junit``, ``github``, ``markdown``."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any
from xml.etree import ElementTree as ET

from toolexpect.lines import visible
from toolexpect.matching.explain import failing_messages
from toolexpect.matching.values import exact_fraction
from toolexpect.report.github import annotation, inert
from toolexpect.report.markdown import escape as _md
from toolexpect.report.overall import overall
from toolexpect.report.score_json import json_chunks, to_json
from toolexpect.report.style import Style
from toolexpect.report.summary import MAX_LISTED, finding_lines, summary_line, unused_lines
from toolexpect.scoring.partial import CaseOutcome, ScoreReport

__all__ = [
    "FORMATS",
    "MAX_LISTED",
    "MAX_RUNS_SHOWN",
    "MIN_NAME_WIDTH",
    "SCORE_ROOM",
    "TEXT_WIDTH",
    "render",
    "render_chunks",
    "to_json",
]

FORMATS = ("text", "json", "junit", "github", "markdown")
"""The report formats ``score --format`` accepts."""


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _label(outcome: CaseOutcome) -> str:
    """The case's file and name as a person reads them (control characters shown)."""
    label = f"{outcome.file} :: {outcome.case.name}" if outcome.file else outcome.case.name
    return visible(label)


TEXT_WIDTH = 100
"""The width the ``text`` report fits when the terminal's is not known (output to a file or pipe)."""

MIN_NAME_WIDTH = 24
"""The fewest characters of a case's name the ``text`` report shows, however narrow the terminal."""


SCORE_ROOM = 36
"""How many columns the ``text`` report keeps for a case's score when it fits names to the width
(a longer score, of a case with several runs, runs past it)."""


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut marked with ``…``."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _fitted(outcome: CaseOutcome, width: int) -> str:
    """The case's label in at most ``width`` characters: the start of its file's path cut
    first (``…/weather.expect :: breaks``), then the end of its name."""
    label = _label(outcome)
    if len(label) <= width or not outcome.file:
        return _cut(label, width)
    name = " :: " + visible(outcome.case.name)
    keep = width - len(name) - 1
    if keep < 8:
        return _cut(label, width)
    return "…" + visible(outcome.file)[-keep:] + name


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


def _explained(failure: Any, message: str) -> list[str]:
    """A failure's message as lines to print, an unmatched expectation's closest call spread
    over them; each line with its control characters shown (a log's line break is no break)."""
    if getattr(failure, "kind", None) != "unmatched" or "; closest call #" not in message:
        return [visible(message)]
    head, _, _ = message.partition("; closest call #")
    prefix = message[: len(message) - len(message.lstrip())]
    closest = failure.details.get("closest") or ()
    if not closest:
        return [visible(message)]
    best = closest[0]
    lines = [f"{prefix}{head}", f"closest: call #{best.call + 1}"]
    lines.extend(f"  {message}" for message in failing_messages(best))
    return [visible(line) for line in lines]


def _against(part: int, whole: int, threshold: float, strict: bool) -> str:
    """``≥ 0.5`` when ``part / whole`` meets ``threshold`` (``> 0.5`` when it must pass it),
    else ``< 0.5`` (``≤ 0.5``), compared exactly as the verdict is."""
    value, bound = Fraction(part, whole), exact_fraction(threshold)
    meets = value > bound if strict else value >= bound
    if strict:
        return f"{'>' if meets else '≤'} {threshold:g}"
    return f"{'≥' if meets else '<'} {threshold:g}"


def _score_text(outcome: CaseOutcome) -> str:
    result = outcome.result
    if result.status == "error" or not result.runs:
        return "error"
    case = outcome.case
    if result.runs > 1:
        text = (
            f"{_fmt(result.mean_score)} mean, {_fmt(result.min_score)} lowest, "
            f"{result.passed}/{result.runs} runs passed"
        )
        required = result.required_pass_rate
        if required is not None and result.pass_rate is not None:
            against = _against(result.passed, result.runs, required, case.pass_rate_strict)
            text += f", pass rate {result.pass_rate:.2f} {against}"
        return text
    run = result.first_run
    if run is None or run.score is None:
        return "requirements only"
    shown = _fmt(run.score)
    if case.accuracy_required or case.threshold != 1.0:
        # A case may pass below 1: the score is shown against the threshold it met or missed.
        shown += " " + _against(run.matched, run.expected, case.threshold, case.threshold_strict)
    allowed = f", {run.allowed} allowed" if run.allowed else ""
    return f"{shown}  ({run.matched}/{run.expected} expected calls{allowed})"


def render_text(
    report: ScoreReport,
    style: Style,
    *,
    quiet: bool = False,
    verbose: bool = False,
    width: int | None = None,
) -> str:
    """The report for a terminal ``width`` columns wide (:data:`TEXT_WIDTH` when None): a line
    per case (``quiet``: per case that did not pass), names cut with ``…`` to fit, failures
    explained beneath (``verbose``: also the failing runs of a passing case), unused samples
    and schema findings (at most :data:`MAX_LISTED` each), a summary. What a log or spec holds
    is shown with its control characters visible, and no line is a workflow command."""
    marks = {"pass": style("✓", "green"), "fail": style("✗", "red"), "error": style("!", "yellow")}
    shown = [o for o in report.cases if not quiet or o.result.status != "pass"]
    scores = {id(o): _score_text(o) for o in shown}
    longest = max((len(_label(o)) for o in shown), default=0)
    score_width = min(SCORE_ROOM, max((len(text) for text in scores.values()), default=0))
    room = (width or TEXT_WIDTH) - 4 - score_width
    column = min(longest, max(MIN_NAME_WIDTH, room))
    lines: list[str] = []
    for outcome in shown:
        label = _fitted(outcome, column).ljust(column)
        lines.append(f"{marks[outcome.result.status]} {label}  {scores[id(outcome)]}")
        if outcome.result.status == "pass" and not verbose:
            continue
        for failure, message in _failure_lines(outcome):
            place = ""
            span = getattr(failure, "span", None)
            if span is not None and outcome.file:
                place = style(f"  ({visible(outcome.file)}:{span.line})", "dim")
            first, *rest = _explained(failure, message) or [""]
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
    return inert(style.marks("\n".join(lines) + "\n"))


def render_junit(report: ScoreReport) -> str:
    """JUnit XML: one testsuite, one testcase per case, failures and errors with explanations.

    Well formed whatever a log holds: text from specs and logs has its control characters,
    lone surrogates and the noncharacters XML 1.0 forbids shown as visible characters, and no
    line is a workflow command."""
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
            classname=visible((outcome.file or "toolexpect").replace("/", ".").removesuffix(".expect")),
            name=visible(outcome.case.name),
        )
        result = outcome.result
        if result.status == "pass":
            continue
        text = "\n".join(visible(message) for _, message in _failure_lines(outcome))
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
    document = ET.tostring(suite, encoding="unicode")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + inert(document, markup=True) + "\n"


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
                    visible(message),
                    file=outcome.file or None,
                    line=span.line if span is not None else None,
                    col=span.column if span is not None else None,
                    title=f"toolexpect: {visible(outcome.case.name)}",
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
    return inert("\n".join(lines) + "\n")


def render_chunks(
    report: ScoreReport,
    fmt: str = "text",
    *,
    style: Style | None = None,
    quiet: bool = False,
    verbose: bool = False,
    width: int | None = None,
) -> Iterator[str]:
    """:func:`render` in pieces to write one after the other (the ``json`` form of a large
    report is made piece by piece; the other forms come whole)."""
    if fmt == "json":
        yield from json_chunks(report)
    else:
        yield render(report, fmt, style=style, quiet=quiet, verbose=verbose, width=width)


def render(
    report: ScoreReport,
    fmt: str = "text",
    *,
    style: Style | None = None,
    quiet: bool = False,
    verbose: bool = False,
    width: int | None = None,
) -> str:
    """Render ``report`` in ``fmt`` (one of :data:`FORMATS`); ``quiet`` leaves the passing
    cases out of the ``text`` report, ``verbose`` explains the failing runs of passing cases
    there too, and ``width`` is the terminal's (see :func:`render_text`)."""
    if fmt == "json":
        return "".join(json_chunks(report))
    if fmt == "junit":
        return render_junit(report)
    if fmt == "github":
        return render_github(report)
    if fmt == "markdown":
        return render_markdown(report)
    return render_text(report, style or Style(False), quiet=quiet, verbose=verbose, width=width)
