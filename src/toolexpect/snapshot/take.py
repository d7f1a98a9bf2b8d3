"""Take a snapshot: the runs of each case to checked case documents and canonical text.

Each case document (:mod:`toolexpect.snapshot.build`) goes through the spec pipeline it will
meet when read back: it is written by the formatter, parsed, validated and linted, and its
runs are scored against the model. A case whose runs do not all pass gets
``require pass rate >= R``, R being the recorded pass rate rounded down to two decimals. What
the pipeline refuses, or a run scoring below 1.0, is a fault of the snapshot: the case is not
written and ``S705`` says why, so nothing unchecked ever reaches a file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.language.format import LINE_LENGTH, format_document
from toolexpect.matching import aggregate, evaluate
from toolexpect.snapshot.build import CaseRuns, Options, build_case
from toolexpect.specfiles.stages import parse_spec_source
from toolexpect.spelling import BY_ID, PYTHON, Setting, Spelling

__all__ = ["Listed", "Snapshot", "SnapshotCase", "listed_arguments", "spec_text", "take_snapshot"]


@dataclass(frozen=True, slots=True)
class SnapshotCase:
    """One written case: its document node, its recorded runs and how many of them pass."""

    name: str
    node: dict[str, Any]
    runs: CaseRuns
    passed: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The cases a snapshot writes, in log order, and what it could not write as recorded."""

    cases: tuple[SnapshotCase, ...]
    diagnostics: tuple[Diagnostic, ...]


def spec_text(cases: Iterable[SnapshotCase], *, newline: str = "\n", line_length: int = LINE_LENGTH) -> str:
    """The canonical text of a spec holding ``cases``."""
    document = {"version": 1, "cases": [case.node for case in cases]}
    return format_document(document, newline=newline, blank_lines=False, line_length=line_length)


@dataclass(frozen=True, slots=True)
class Listed:
    """An argument a case writes as ``in [...]`` of the values its runs gave it (they
    differed): the tool, the argument, how many values and how many characters they take."""

    tool: str
    name: str
    values: int
    size: int


def listed_arguments(case: SnapshotCase) -> list[Listed]:
    """The arguments ``case`` writes as ``in [...]`` lists, the largest first: what makes a case
    of many differing runs large (``--differing any``, ``--any-args`` or ``--ignore-args``
    write it smaller)."""
    found = [
        Listed(
            expectation["tool"],
            argument["name"],
            len(argument["values"]),
            sum(len(json.dumps(value, ensure_ascii=False, default=str)) for value in argument["values"]),
        )
        for expectation in case.node.get("expect", [])
        for argument in expectation.get("args", [])
        if argument.get("op") == "in"
    ]
    return sorted(found, key=lambda listed: (-listed.size, listed.tool, listed.name))


def _pass_rate(passed: int, runs: int) -> float:
    """The recorded pass rate rounded down to two decimals, so the case passes on its runs."""
    return math.floor(passed * 100 / runs) / 100


def _checked(node: dict[str, Any], runs: CaseRuns) -> tuple[SnapshotCase | None, list[Diagnostic]]:
    """The case as the pipeline reads it back, scored on its runs; ``S705`` on a fault."""
    for _ in range(2):  # once as built, once more with the pass rate
        text = format_document({"version": 1, "cases": [node]}, blank_lines=False)
        loaded = parse_spec_source(text, "text", name=runs.name)
        spec = loaded.spec
        if loaded.diagnostics or spec is None or len(spec.cases) != 1:
            found = "; ".join(f"{d.code} {d.message}" for d in loaded.diagnostics) or "no case"
            return None, [_fault(runs, f"its text does not read back cleanly ({found})")]
        case = spec.cases[0]
        results = [evaluate(case, sample.calls) for sample in runs.runs]
        low = [(r.score, n) for n, r in enumerate(results) if r.score is not None and r.score < 1.0]
        if low:
            score, worst = min(low)
            return None, [_fault(runs, f"a recorded run scores {score} against it", worst)]
        verdict = aggregate(case, results)
        if verdict.status == "pass":
            return SnapshotCase(runs.name, node, runs, verdict.passed), []
        if case.pass_rate is not None:
            break
        rate = {"kind": "pass_rate", "threshold": _pass_rate(verdict.passed, verdict.runs)}
        node = {**node, "require": [*node.get("require", []), rate]}
    failing = next((n for n, r in enumerate(results) if not r.passed), 0)
    return None, [_fault(runs, "its recorded runs do not pass it", failing)]


def _fault(runs: CaseRuns, why: str, run: int = 0) -> Diagnostic:
    """``S705`` at the log record of run ``run`` of the case (its first, unless one is named)."""
    sample = runs.runs[run] if run < len(runs.runs) else None
    return make(
        "S705",
        f"case {runs.name!r} is not written: {why}",
        Span.point(sample.line, 1) if sample is not None and sample.line else None,
        help="this is a fault of toolexpect snapshot; please report it with the log",
        path=sample.path if sample is not None else None,
    )


def take_snapshot(
    groups: Sequence[CaseRuns],
    options: Options,
    *,
    paired: Setting = BY_ID,
    spelling: Spelling = PYTHON,
) -> Snapshot:
    """Build, write and check a case for each group of runs (``paired``: how the runs were
    paired, for the hints of :func:`~toolexpect.snapshot.build.build_case`, spelled as
    ``spelling`` says)."""
    cases: list[SnapshotCase] = []
    diagnostics: list[Diagnostic] = []
    for runs in groups:
        node, found = build_case(runs, options, paired=paired, spelling=spelling)
        diagnostics.extend(found)
        if node is None:
            continue
        case, faults = _checked(node, runs)
        diagnostics.extend(faults)
        if case is not None:
            cases.append(case)
    return Snapshot(tuple(cases), tuple(diagnostics))
