"""Compare two score reports (JSON report documents): what a change did to each case.

Pure data in, data out: :func:`compare` takes two documents as ``toolexpect score --format
json`` writes them (read back with :mod:`toolexpect.baseline.load`, or made in memory with
:func:`toolexpect.report.score.to_json`) and returns a :class:`Comparison`. Cases are paired by
spec file and case name. What counts as a regression:

* a case whose status got worse: pass → fail, pass → error, fail → error, or a case that is
  new in the second report and does not pass;
* a lower score (accuracy, or the mean over runs), a lower pass rate, or a lower precision
  (or mean precision over runs: more calls that no expectation was paired with).

Calls are compared where the report names them: the tools each case's runs called (``tools``,
which appeared and which vanished; a report written before ``tools`` existed cannot tell), the
tools of *unexpected* calls and the expectations left *unmatched*, over the case and all its
runs. A call that appeared is not a regression on its own.

A count requirement (``require at most 3 calls of search``) that fails in the second report and
did not in the first is a regression even when the figures stay the same (counts never change a
score): the case is worse. Counts are told apart by their bounds and the call they count.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["GROUPS", "CaseChange", "Comparison", "Figures", "case_key", "compare", "figures"]

_EPSILON = 1e-9
_RANK = {"pass": 0, "fail": 1, "error": 2}
_MAX_MESSAGES = 5

GROUPS = ("newly failing", "worse", "newly passing", "better", "appeared", "vanished", "calls changed")
"""The groups a changed case falls in, in the order renderers list them."""


@dataclass(frozen=True, slots=True)
class Figures:
    """One case as one report has it: status, figures, failures and the calls they name."""

    status: str
    score: float | None
    pass_rate: float | None
    """The share of passing runs; ``None`` for a case scored from one run."""
    lowest: float | None
    runs: int
    line: int | None
    column: int | None
    messages: tuple[str, ...]
    unexpected: frozenset[str]
    unmatched: frozenset[str]
    precision: float | None = None
    """The case's precision (the mean over its runs for a case of several runs)."""
    tools: tuple[tuple[str, int, int], ...] | None = None
    """The tools called as (name, calls, runs), sorted by name; ``None`` when the report does
    not say (written before reports listed them)."""
    other_calls: int = 0
    """Calls of tools beyond those ``tools`` lists (the report lists the first by name)."""
    counts: frozenset[str] = frozenset()
    """The count requirements not met by the case or one of its runs, as written
    (``require at most 3 calls of search``)."""

    @property
    def failing(self) -> bool:
        """True when the case did not pass (failed or could not be scored)."""
        return self.status != "pass"


@dataclass(frozen=True, slots=True)
class CaseChange:
    """A case in the old report, the new one, or both."""

    file: str | None
    case: str
    old: Figures | None
    new: Figures | None

    @property
    def score_delta(self) -> float | None:
        """New score minus old score, when both have one."""
        return _delta(self.old.score if self.old else None, self.new.score if self.new else None)

    @property
    def pass_rate_delta(self) -> float | None:
        """New pass rate minus old pass rate, when both have one."""
        return _delta(self.old.pass_rate if self.old else None, self.new.pass_rate if self.new else None)

    @property
    def precision_delta(self) -> float | None:
        """New precision minus old precision, when both have one."""
        return _delta(self.old.precision if self.old else None, self.new.precision if self.new else None)

    @property
    def tools_known(self) -> bool:
        """True when both reports list the tools the case called (so tools can be compared)."""
        return self.old is not None and self.new is not None and None not in (self.old.tools, self.new.tools)

    @property
    def tools_appeared(self) -> tuple[str, ...]:
        """Tools the case's runs call now and did not call before."""
        if not self.tools_known or self.old is None or self.new is None:
            return ()
        return _new_tools(self.old, self.new)

    @property
    def tools_vanished(self) -> tuple[str, ...]:
        """Tools the case's runs called before and do not call now."""
        if not self.tools_known or self.old is None or self.new is None:
            return ()
        return _new_tools(self.new, self.old)

    @property
    def tools_recounted(self) -> tuple[tuple[str, tuple[int, int], tuple[int, int]], ...]:
        """Tools called in both reports, with a different number of calls per run of the case or
        a different share of its runs calling them, as (name, (old calls, old runs), (new calls,
        new runs)): 4 calls in 4 runs of 4 and 5 in 5 runs of 5 are the same."""
        old, new = self.old, self.new
        if not self.tools_known or old is None or new is None or not old.runs or not new.runs:
            return ()
        before = {name: (calls, runs) for name, calls, runs in old.tools or ()}
        return tuple(
            (name, before[name], (calls, runs))
            for name, calls, runs in new.tools or ()
            if name in before and _rescaled(before[name], old.runs) != _rescaled((calls, runs), new.runs)
        )

    @property
    def calls_appeared(self) -> tuple[str, ...]:
        """Tools called without being expected in the new report, not in the old one."""
        return _added(_unexpected(self.old), _unexpected(self.new))

    @property
    def calls_gone(self) -> tuple[str, ...]:
        """Tools called without being expected in the old report, no longer in the new one."""
        return _added(_unexpected(self.new), _unexpected(self.old))

    @property
    def expected_lost(self) -> tuple[str, ...]:
        """Expectations matched in the old report and left unmatched in the new one."""
        return _added(_unmatched(self.old), _unmatched(self.new))

    @property
    def expected_found(self) -> tuple[str, ...]:
        """Expectations unmatched in the old report and matched in the new one."""
        return _added(_unmatched(self.new), _unmatched(self.old))

    @property
    def counts_broken(self) -> tuple[str, ...]:
        """Count requirements the new report fails and the old one did not (neither an error)."""
        if not _scored(self.old) or not _scored(self.new):
            return ()
        return _added(_counts(self.old), _counts(self.new))

    @property
    def counts_mended(self) -> tuple[str, ...]:
        """Count requirements the old report fails and the new one meets (neither an error)."""
        if not _scored(self.old) or not _scored(self.new):
            return ()
        return _added(_counts(self.new), _counts(self.old))

    @property
    def calls_changed(self) -> bool:
        """True when a call appeared or vanished (``tools_*``, ``calls_*``, ``expected_*``)."""
        return bool(
            self.tools_appeared
            or self.tools_vanished
            or self.calls_appeared
            or self.calls_gone
            or self.expected_lost
            or self.expected_found
        )

    @property
    def regressed(self) -> bool:
        """True when the case got worse: its status, its score, its pass rate, its precision, or a
        count requirement it newly fails."""
        if self.new is None:
            return False
        if self.old is None:
            return self.new.failing
        return (
            _RANK[self.new.status] > _RANK[self.old.status]
            or (self.score_delta or 0.0) < -_EPSILON
            or (self.pass_rate_delta or 0.0) < -_EPSILON
            or (self.precision_delta or 0.0) < -_EPSILON
            or bool(self.counts_broken)
        )

    @property
    def improved(self) -> bool:
        """True when the case got better (status, score, pass rate, precision, or a count
        requirement met again) and did not regress."""
        if self.old is None or self.new is None or self.regressed:
            return False
        return (
            _RANK[self.new.status] < _RANK[self.old.status]
            or (self.score_delta or 0.0) > _EPSILON
            or (self.pass_rate_delta or 0.0) > _EPSILON
            or (self.precision_delta or 0.0) > _EPSILON
            or bool(self.counts_mended)
        )

    @property
    def group(self) -> str | None:
        """Which of :data:`GROUPS` the case falls in; ``None`` when nothing changed."""
        old, new = self.old, self.new
        if new is None:
            return "vanished"
        if old is None:
            return "newly failing" if new.failing else "appeared"
        if new.failing and not old.failing:
            return "newly failing"
        if old.failing and not new.failing:
            return "newly passing"
        if self.regressed:
            return "worse"
        if self.improved:
            return "better"
        if self.calls_changed or old.status != new.status:
            return "calls changed"
        return None


@dataclass(frozen=True, slots=True)
class Comparison:
    """Every case of two reports, paired: new report order first, then the vanished ones."""

    cases: tuple[CaseChange, ...]
    old_summary: Mapping[str, int]
    new_summary: Mapping[str, int]

    @property
    def changed(self) -> tuple[CaseChange, ...]:
        """The cases where something changed, grouped in the order of :data:`GROUPS`."""
        order = {name: index for index, name in enumerate(GROUPS)}
        listed = [c for c in self.cases if c.group is not None]
        return tuple(sorted(listed, key=lambda c: order[c.group or ""]))

    @property
    def regressed(self) -> bool:
        """True when at least one case regressed."""
        return any(c.regressed for c in self.cases)

    @property
    def tools_unknown(self) -> bool:
        """True when a case is in both reports and one of them does not list the tools called
        (a report written before reports listed them): appeared and vanished calls are unknown."""
        return any(
            c.old is not None and c.new is not None and None in (c.old.tools, c.new.tools) for c in self.cases
        )

    @property
    def new_failures(self) -> int:
        """How many cases of the new report do not pass."""
        return sum(c.new is not None and c.new.failing for c in self.cases)

    def counts(self) -> dict[str, int]:
        """How many cases fall in each of :data:`GROUPS`, and how many are ``unchanged``."""
        counts = dict.fromkeys(GROUPS, 0)
        unchanged = 0
        for change in self.cases:
            if change.group is None:
                unchanged += 1
            else:
                counts[change.group] += 1
        counts["unchanged"] = unchanged
        return counts


def _delta(old: float | None, new: float | None) -> float | None:
    if isinstance(old, int | float) and isinstance(new, int | float):
        return float(new) - float(old)
    return None


def _unexpected(figures: Figures | None) -> frozenset[str]:
    return figures.unexpected if figures else frozenset()


def _unmatched(figures: Figures | None) -> frozenset[str]:
    return figures.unmatched if figures else frozenset()


def _counts(figures: Figures | None) -> frozenset[str]:
    return figures.counts if figures else frozenset()


def _scored(figures: Figures | None) -> bool:
    return figures is not None and figures.status != "error"


def _rescaled(counts: tuple[int, int], runs: int) -> tuple[Fraction, Fraction]:
    """Calls per run of the case, and the share of its runs that made them."""
    return Fraction(counts[0], runs), Fraction(counts[1], runs)


def _new_tools(before: Figures, after: Figures) -> tuple[str, ...]:
    """Tools ``after`` lists and ``before`` does not, leaving out those ``before`` may have
    counted among its other calls (named after the last tool it lists)."""
    known = {name for name, _, _ in before.tools or ()}
    last = max(known, default="") if before.other_calls else None
    return tuple(
        name for name, _, _ in after.tools or () if name not in known and (last is None or name < last)
    )


def _tools(entry: Mapping[str, Any]) -> tuple[tuple[str, int, int], ...] | None:
    """The ``tools`` of a case entry, sorted by name; ``None`` when it has none."""
    tools = entry.get("tools")
    if not isinstance(tools, Mapping):
        return None
    return tuple(
        (str(name), int(counts.get("calls", 0)), int(counts.get("runs", 0)))
        for name, counts in sorted(tools.items())
        if isinstance(counts, Mapping)
    )


def _added(before: frozenset[str], after: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(after - before))


def case_key(file: Any, case: Any) -> tuple[str | None, str]:
    """What pairs a case of one report with a case of another: its spec file, compared as a
    path (``./a.expect`` is ``a.expect``), and its name."""
    name = posixpath.normpath(file.replace("\\", "/")) if isinstance(file, str) else None
    return (name, str(case))


def _key(entry: Mapping[str, Any]) -> tuple[str | None, str]:
    return case_key(entry.get("file"), entry.get("case"))


def _failures(entry: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each failure of a case, its runs' included, with a prefix naming the run."""
    for failure in entry.get("failures") or ():
        yield "", failure
    for number, run in enumerate(entry.get("runs") or (), 1):
        for failure in run.get("failures") or ():
            yield f"run {number}: ", failure


def _unmatched_label(failure: Mapping[str, Any]) -> str:
    """The expectation an ``unmatched`` failure names, as the spec writes it."""
    message = str(failure.get("message", ""))
    head = message.partition("; closest call #")[0]
    if head.endswith(" not matched"):
        return head.removesuffix(" not matched")
    details = failure.get("details") or {}
    return str(details.get("tool") or head)


def _count_label(failure: Mapping[str, Any]) -> str:
    """The count requirement a ``count`` failure names, as the spec writes it (the call with
    its arguments when the message shows them: ``search(query ~ "x") matched 5 calls; ...``)."""
    details = failure.get("details") or {}
    low, high, tool = details.get("at_least"), details.get("at_most"), details.get("tool")
    if low is not None and low == high:
        bound, last = f"exactly {low}", low
    elif low is not None and high is not None:
        bound, last = f"between {low} and {high}", high
    elif high is not None:
        bound, last = f"at most {high}", high
    else:
        bound, last = f"at least {low}", low
    text = f"require {bound} {'call' if last == 1 else 'calls'}"
    if tool is None:
        return text
    subject = str(failure.get("message", "")).rpartition(" matched ")[0]
    return f"{text} of {subject if subject.startswith(f'{tool}(') else tool}"


def figures(entry: Mapping[str, Any]) -> Figures:
    """The :class:`Figures` of one case entry of a JSON report."""
    runs = entry.get("runs")
    line = column = None
    messages: list[str] = []
    unexpected: set[str] = set()
    unmatched: set[str] = set()
    counts: set[str] = set()
    for prefix, failure in _failures(entry):
        if line is None and isinstance(failure.get("line"), int):
            line, column = failure["line"], failure.get("column")
        if len(messages) < _MAX_MESSAGES:
            messages.append(prefix + str(failure.get("message", "")))
        kind = failure.get("kind")
        details = failure.get("details") or {}
        if kind == "unexpected":
            unexpected.update(str(tool) for tool in details.get("tools") or ())
        elif kind == "unmatched":
            unmatched.add(_unmatched_label(failure))
        elif kind == "count":
            counts.add(_count_label(failure))
    status = str(entry.get("status"))
    return Figures(
        status=status,
        score=entry.get("score"),
        pass_rate=entry.get("pass_rate"),
        lowest=entry.get("lowest", entry.get("score")),
        runs=len(runs) if isinstance(runs, list) else (0 if status == "error" else 1),
        line=line,
        column=column if isinstance(column, int) else None,
        messages=tuple(messages),
        unexpected=frozenset(unexpected),
        unmatched=frozenset(unmatched),
        precision=entry["precision"] if entry.get("precision") is not None else entry.get("mean_precision"),
        tools=_tools(entry),
        other_calls=int(entry.get("other_tool_calls") or 0),
        counts=frozenset(counts),
    )


def compare(old: Mapping[str, Any], new: Mapping[str, Any]) -> Comparison:
    """Pair the cases of two JSON reports and say what changed for each."""
    before: dict[tuple[str | None, str], Mapping[str, Any]] = {}
    for entry in old.get("cases") or ():
        before.setdefault(_key(entry), entry)
    seen: set[tuple[str | None, str]] = set()
    cases: list[CaseChange] = []
    for entry in new.get("cases") or ():
        key = _key(entry)
        if key in seen:
            continue
        seen.add(key)
        earlier = before.get(key)
        cases.append(
            CaseChange(
                file=entry.get("file"),
                case=str(entry.get("case")),
                old=figures(earlier) if earlier is not None else None,
                new=figures(entry),
            )
        )
    for key, entry in before.items():
        if key not in seen:
            cases.append(CaseChange(file=entry.get("file"), case=key[1], old=figures(entry), new=None))
    return Comparison(
        cases=tuple(cases),
        old_summary=dict(old.get("summary") or {}),
        new_summary=dict(new.get("summary") or {}),
    )
