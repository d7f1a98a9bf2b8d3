"""What the pairing stage noticed, as data that joins across partitions: ``R420`` to ``R423``.

The pairing findings are about the whole input (runs left over while cases found none, a
question several cases ask, runs without a question to be named by, runs that may be the
turns of one run), but the input may be read in partitions (``score -j``, ``--dask``).
Each partition's pairing gives :class:`PairingNotes`: counts, the first ids and places, and
which other option would have paired its runs. :meth:`PairingNotes.then` joins the notes
of two partitions in input order (associative, so any grouping gives the same notes), and
:meth:`PairingNotes.findings` words them once, at the end, exactly as for the input read
in one go. The notes name options abstractly (:class:`~toolexpect.spelling.Setting`);
the findings spell them as the surface that shows them does (``--pair-by file`` on the command
line, ``--toolexpect-pair-by file`` in pytest, ``PairingOptions(by="file")`` in Python).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.pairing.counts import Counts, Sets, best_option, counted, joined
from toolexpect.pairing.split import Split
from toolexpect.spelling import PYTHON, Setting, Spelling

__all__ = ["MAX_LEFT_IDS", "PAIRING_CODES", "LeftOver", "Leftovers", "PairingNotes", "naming_help", "noted"]

PAIRING_CODES = frozenset({"R420", "R421", "R422", "R423"})
"""The codes of the pairing findings (the others among a report's log findings are the readers')."""

MAX_LEFT_IDS = 1000
"""How many distinct ids of left-over runs the notes keep (the first ones, in input order)."""

_SHOWN = 5

Where = tuple[str | None, int | None]
"""Where a record was read: its log and line."""


@dataclass(frozen=True, slots=True)
class LeftOver:
    """Runs that paired with no case: how many, their first distinct ids in input order
    (``None`` for runs without an id; ``capped`` when there were more than
    :data:`MAX_LEFT_IDS`), how many had no id, where the first was read, and how many of
    them each other option would have paired, with the cases it would have paired them with."""

    runs: int = 0
    ids: tuple[str | None, ...] = ()
    capped: bool = False
    without_id: int = 0
    first: Where | None = None
    options: Counts = ()
    cases: Sets = ()

    def then(self, later: LeftOver) -> LeftOver:
        """These runs, then ``later``'s."""
        if not later.runs:
            return self
        if not self.runs:
            return later
        known = set(self.ids)
        ids = [*self.ids, *(sid for sid in later.ids if sid not in known)]
        return LeftOver(
            self.runs + later.runs,
            tuple(ids[:MAX_LEFT_IDS]),
            self.capped or later.capped or len(ids) > MAX_LEFT_IDS,
            self.without_id + later.without_id,
            self.first,
            counted(self.options, later.options),
            joined(self.cases, later.cases),
        )


@dataclass(slots=True)
class Leftovers:
    """Runs that paired with no case since the notes were last taken: a :class:`LeftOver` in the making."""

    runs: int = 0
    ids: dict[str | None, None] = field(default_factory=dict)
    capped: bool = False
    without_id: int = 0
    first: tuple[str | None, int | None] | None = None
    options: dict[Setting, int] = field(default_factory=dict)
    cases: dict[Setting, set[str]] = field(default_factory=dict)

    def add(self, sample: RecordedSample, found: dict[Setting, str]) -> None:
        """Count ``sample``, which ``found`` says which other options would pair with which case."""
        self.runs += 1
        if sample.id is None:
            self.without_id += 1
        if sample.id not in self.ids:
            if len(self.ids) < MAX_LEFT_IDS:
                self.ids[sample.id] = None
            else:
                self.capped = True
        if self.first is None:
            self.first = (sample.path, sample.line)
        for option, name in found.items():
            self.options[option] = self.options.get(option, 0) + 1
            self.cases.setdefault(option, set()).add(name)

    def take(self) -> LeftOver:
        """The runs counted so far, and start again."""
        taken = LeftOver(
            self.runs,
            tuple(self.ids),
            self.capped,
            self.without_id,
            self.first,
            tuple(sorted(self.options.items())),
            tuple(sorted((option, frozenset(names)) for option, names in self.cases.items())),
        )
        self.runs, self.ids, self.capped, self.without_id, self.first = 0, {}, False, 0, None
        self.options, self.cases = {}, {}
        return taken


@dataclass(frozen=True, slots=True)
class PairingNotes:
    """What pairing some runs noticed (see module): the cases they paired with, the runs
    left over, the questions several cases ask (with those cases, in input order), the runs
    that hold no question to be named by (without specs, by question), and the runs that may
    be the turns of one run (``split``)."""

    option: Setting
    paired: frozenset[str] = frozenset()
    left: LeftOver = field(default_factory=LeftOver)
    ambiguous: tuple[tuple[str, tuple[str, ...]], ...] = ()
    unnamed: int = 0
    unnamed_first: Where | None = None
    split: Split | None = None

    def then(self, later: PairingNotes) -> PairingNotes:
        """These notes, then ``later``'s (the partition after: associative, not commutative)."""
        asked = {question for question, _ in self.ambiguous}
        split = later.split if self.split is None else self.split.then(later.split)
        return replace(
            self,
            paired=self.paired | later.paired,
            left=self.left.then(later.left),
            ambiguous=self.ambiguous + tuple(item for item in later.ambiguous if item[0] not in asked),
            unnamed=self.unnamed + later.unnamed,
            unnamed_first=self.unnamed_first or later.unnamed_first,
            split=split,
        )

    def renamed(self, path: str, log: str) -> PairingNotes:
        """These notes with the log at ``path`` named ``log`` (as the user named it)."""

        def named(where: Where | None) -> Where | None:
            return (log, where[1]) if where is not None and where[0] == path else where

        split = self.split
        if split is not None:
            keys = tuple(
                (option, frozenset(log if key == path else key for key in keys))
                if option == _BY_FILE
                else (option, keys)
                for option, keys in split.keys
            )
            split = replace(split, path=log if split.path == path else split.path, keys=keys)
        left = replace(self.left, first=named(self.left.first))
        return replace(self, left=left, unnamed_first=named(self.unnamed_first), split=split)

    def moved(self, lines: int) -> PairingNotes:
        """These notes with the line of each place they hold moved by ``lines``."""

        def moved(where: Where | None) -> Where | None:
            return where if where is None or where[1] is None else (where[0], where[1] + lines)

        left = replace(self.left, first=moved(self.left.first))
        split = None if self.split is None else self.split.moved(lines)
        return replace(self, left=left, unnamed_first=moved(self.unnamed_first), split=split)

    def findings(self, names: Iterable[str], spelling: Spelling = PYTHON) -> list[Diagnostic]:
        """The findings of these notes, with ``names`` the cases runs could pair with: ``R421``
        for each question several cases ask, ``R420``, ``R422``, ``R423``; each option they
        name spelled as ``spelling`` says."""
        found = [_ambiguous(question, asked, spelling) for question, asked in self.ambiguous]
        missing = sorted(set(names) - self.paired)
        if self.left.runs and missing:
            found.append(_left_over(self.left, missing, self.option, spelling))
        if self.unnamed:
            found.append(_unnamed(self.unnamed, self.unnamed_first, spelling))
        note = self.split.note(spelling) if self.split is not None else None
        if note is not None:
            found.append(note)
        return found


def noted(notes: Sequence[PairingNotes]) -> PairingNotes | None:
    """The notes of partitions in input order, joined (``None`` for none)."""
    total = None
    for note in notes:
        total = note if total is None else total.then(note)
    return total


def naming_help(runs: int, questions: int, option: Setting, spelling: Spelling = PYTHON) -> str:
    """How to name the cases of ``runs`` runs paired without specs (``snapshot``), with
    ``option``: by their user question when they ask some (``questions``: how many different
    ones), else by file or by a field of each record (the options not in use)."""
    if questions and option != _BY_QUESTION:
        return (
            f"{_these(runs)} user questions name {questions} case{'s' if questions != 1 else ''}: "
            f"use {spelling(_BY_QUESTION)}"
        )
    in_use = {option, Setting(option.key)}  # the option in use (by a field: any field) is left out
    others = [f"{spelling(other)} ({what})" for other, what in _OPTIONS[2:] if other not in in_use]
    return f"name each run after its case with {' or '.join(others)}"


def _ambiguous(question: str, asked: Sequence[str], spelling: Spelling) -> Diagnostic:
    return make(
        "R421",
        f"the question {question!r} is the question of cases "
        f"{', '.join(repr(name) for name in asked)}; runs asking it paired with none",
        help=f"give each case its own question, or pair with {spelling(_BY_ID)} or {spelling(_FIELD)}",
    )


def _left_over(left: LeftOver, missing: Sequence[str], option: Setting, spelling: Spelling) -> Diagnostic:
    """``R420``: runs left over while cases found none, and a better option."""
    runs = left.runs
    ids = [repr(sid) if sid is not None else f"{left.without_id} without an id" for sid in left.ids]
    message = (
        f"{runs:,} recorded run{'s' if runs != 1 else ''} paired with no case "
        f"({_listed(ids, left.capped)}) and {len(missing)} case{'s' if len(missing) != 1 else ''} "
        f"found none ({_listed([repr(name) for name in missing])}), pairing with {spelling(option)}"
    )
    best = best_option(left.options)
    if best is not None:
        better, count = best
        key = better.value or ""
        what = _WHAT.get(key, f"field {key}") if better.key == "pair-by" else f"field {key}"
        if count == 1 and better.key == "pair-by":
            what = what[:-1]
        cases = dict(left.cases)[better]
        number = len(cases & set(missing)) or len(cases)
        of_cases = _of_cases(better) if number != 1 else _of_cases(better)[:-1]
        help_text = (
            f"{_these(count)} {what} equal{'s' if count == 1 else ''} the "
            f"{of_cases} of {number} case{'s' if number != 1 else ''}: use {spelling(better)}"
        )
    else:
        others = [f"{spelling(other)} ({what})" for other, what in _OPTIONS if other != option]
        help_text = f"name each run after its case, or pair with {', '.join(others[:-1])} or {others[-1]}"
    path, line = left.first or (None, None)
    span = Span.point(line, 1) if line is not None else None
    return make("R420", message, span, help=help_text, path=path)


def _unnamed(count: int, first: Where | None, spelling: Spelling) -> Diagnostic:
    """``R422``: runs to be named by question (no specs) that hold none."""
    path, line = first or (None, None)
    runs = f"{count:,} recorded run{'s' if count != 1 else ''}"
    return make(
        "R422",
        f"{runs} {'hold' if count != 1 else 'holds'} no user question to be named"
        f" by, pairing with {spelling(_BY_QUESTION)}; they keep their own ids",
        Span.point(line, 1) if line is not None else None,
        help="a run's question is the first user message of its request, which these "
        f"records do not log: pair with {spelling(_BY_ID)}, {spelling(_BY_FILE)} or {spelling(_FIELD)}",
        path=path,
    )


_BY_ID = Setting("pair-by", "id")
_BY_QUESTION = Setting("pair-by", "question")
_BY_FILE = Setting("pair-by", "file")
_FIELD = Setting("case-from")

_OPTIONS = (
    (_BY_ID, "the runs' ids"),
    (_BY_QUESTION, "the cases' question statements"),
    (_BY_FILE, "the log files' names"),
    (_FIELD, "a field of each record"),
)

_WHAT = {"question": "user questions", "file": "log file names", "id": "ids"}


def _these(count: int) -> str:
    return "this run's" if count == 1 else f"these {count} runs'"


def _of_cases(option: Setting) -> str:
    if option == _BY_QUESTION:
        return "questions"
    return "names"


def _listed(items: Sequence[str], more: bool = False) -> str:
    shown = ", ".join(items[:_SHOWN])
    if more:
        return shown + f" and over {len(items) - _SHOWN:,} more"
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")
