"""The pairing stage: recorded samples in, runs named after the cases they pair with out.

Between the log readers and scoring: ``pair_runs(specs, logs, options)`` reads each log (a
``LogReader``, or any iterable of ``RecordedSample`` s), puts the records of one conversation
together (:mod:`toolexpect.pairing.runs`) and gives each run the name of its case as id,
chosen as ``options`` say:

* ``by="id"``: the sample's own id (an OpenTelemetry trace id in lowercase hex, so that the
  spans of one trace, in any spelling or file, are one run); a run whose id a provider made up
  (``chatcmpl-…``, a trace id: :func:`~toolexpect.pairing.facts.generated`) pairs with the only
  case of a one-case spec;
* ``by="question"``: the case whose ``question`` equals the run's first user question
  (whitespace normalised); a question that several cases ask pairs with none (``R421``);
* ``by="file"``: the case named like the log file (its name without ``.jsonl``, ``.json``,
  ``.gz``, ...); the records of a provider log form one run per file;
* ``case_from=PATH``: the case named by that field of each record.

A run that the option does not pair keeps its own id: scoring pairs it with the case of that
name if there is one, else lists it as unused; by file or field it is named after its file or
field instead, and without specs (``calls``, ``snapshot``) by question after its question
(whitespace normalised), so that runs are shown as they group. When runs are
left over while cases found none, one ``R420`` finding says which, and which other pairing
would have paired them (``diagnostics``, complete once the runs have all been read).
Canonical logs and the formats whose records are whole runs (``COMPLETE``) are never
grouped: by id they stream through as read.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, Literal

from toolexpect.calls import RecordedSample, SampleFacts
from toolexpect.diagnostics import Diagnostic
from toolexpect.logs import LogReader
from toolexpect.logs._base import repeated
from toolexpect.model import Spec
from toolexpect.pairing.advice import Leftovers, PairingNotes, noted
from toolexpect.pairing.facts import facts_of, generated, names_in, trace_id, whitespace
from toolexpect.pairing.groups import Held
from toolexpect.pairing.options import PairingOptions
from toolexpect.pairing.runs import Runs
from toolexpect.pairing.split import SplitRuns
from toolexpect.spelling import PYTHON, Setting, Spelling

__all__ = ["COMPLETE", "TRACED", "PairedRuns", "Segment", "Stage", "log_stem", "pair_runs"]

COMPLETE = frozenset({"canonical", "adk", "bfcl", "openai-batch", "mcp"})
"""Formats whose every sample is a whole run already (never joined with others)."""

TRACED = frozenset({"otel", "langsmith"})
"""Formats whose sample id is a trace's: samples of one id are one run, in any pairing."""

Stage = Literal["read", "traces", "runs"]
"""Where a run of :class:`PairedRuns` comes from (see its ``stage``)."""

Segment = tuple[Stage, int]
"""Where a run comes from: its stage, and the number of the log it was read from or began in
(see ``PairedRuns.segment``)."""

_FORMATS: dict[str, str] = {"read": "canonical", "traces": "otel", "runs": "provider"}
"""The format the naming of a held run is told it comes from (a trace, or a provider's records)."""

_SEPARATORS = re.compile(r"[\s_-]+")
_SUFFIXES = (".gz", ".zst", ".jsonl", ".ndjson", ".json", ".log", ".txt", ".sse")


def log_stem(path: str | None) -> str | None:
    """A log file's name without its folder and its log suffixes (``.jsonl.gz`` ...)."""
    if path is None or path == "-":
        return None
    name = os.path.basename(path)
    changed = True
    while changed:
        changed = False
        for suffix in _SUFFIXES:
            if name.lower().endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                changed = True
    return name


class PairedRuns:
    """The runs of some logs, each named after the case it pairs with; read once.

    ``diagnostics`` holds the pairing findings (``R420`` to ``R423``) once every run was
    read, :meth:`notes` what pairing noticed about the runs of a stage, as data.
    ``stage`` says where the run just given comes from: ``read`` (given as the logs are
    read), then, once every log is read, ``traces`` (spans joined by trace), then ``runs``
    (records joined by history or key), each in the order they began; ``segment`` adds the
    number of the log it was read from, or began in. With ``hold``, the records that later
    records may join are not joined but put in ``held`` (:class:`~toolexpect.pairing.groups.Held`,
    their logs numbered from ``first``), for an engine to join by a group-by
    (:mod:`toolexpect.pairing.groups`); :meth:`name` then names the runs it gives.
    """

    def __init__(
        self,
        specs: Sequence[Spec],
        logs: Iterable[LogReader | Iterable[RecordedSample]],
        options: PairingOptions,
        *,
        hold: bool = False,
        first: int = 0,
        spelling: Spelling = PYTHON,
    ) -> None:
        self.options = options
        self.spelling = spelling
        self._logs = logs
        self._hold = hold
        self._first = first
        self.held: list[Held] = []
        cases = [case for spec in specs for case in spec.cases]
        self._names = frozenset(case.name for case in cases)
        self._only = cases[0].name if len(cases) == 1 else None
        questions: dict[str, list[str]] = {}
        for case in cases:
            if case.question is not None:
                asked = questions.setdefault(whitespace(case.question), [])
                if case.name not in asked:
                    asked.append(case.name)
        self._questions = questions
        slugs: dict[str, list[str]] = {}
        for name in sorted(self._names):
            slugs.setdefault(_SEPARATORS.sub("-", name), []).append(name)
        self._slugs = {slug: found[0] for slug, found in slugs.items() if len(found) == 1}
        self._path = options.path
        self._taken: list[PairingNotes] = []
        self._closed: dict[Segment, PairingNotes] = {}
        self._paired: set[str] = set()
        self._left = Leftovers()
        self._findings: dict[str | None, list[Diagnostic]] = {}  # each log's, by its path
        self._ambiguous: set[str] = set()
        self._asked: list[tuple[str, tuple[str, ...]]] = []
        self._unnamed = 0
        self._unnamed_first: tuple[str | None, int | None] | None = None
        alone = self._only is not None and options.by == "id" and options.case_from is None
        self._split = SplitRuns(self._only) if alone and self._only is not None else None
        self.stage: Stage = "read"
        self.segment: Segment = ("read", 0)

    def __iter__(self) -> Iterator[RecordedSample]:
        """The runs, in log order (runs put together from several records when they end)."""
        grouped = self.grouped
        runs = Runs(grouped)
        traces = Runs(True)
        for number, log in enumerate(self._logs):
            self._enter("read", number)
            orders = itertools.count()
            if isinstance(log, LogReader):
                fmt = log.format
                named = self._file_case(log.path) is not None
                self._findings.setdefault(log.path, log.diagnostics)
                samples: Iterable[RecordedSample] = log.samples(partial(self._note, named))
            else:
                fmt, samples = "canonical", log
            if fmt in COMPLETE:
                for sample in samples:
                    yield self._named(sample, fmt)
                continue
            for sample in samples:
                if fmt == "otel" and sample.id is not None:
                    sample = replace(sample, id=trace_id(sample.id))
                traced = fmt in TRACED and not grouped
                stage: Stage = "traces" if traced else "runs"
                target, key = (traces, sample.id) if traced else (runs, self._key(sample))
                if not target.holds(sample, key):
                    alone = target.add(sample, key)
                    if alone is not None:
                        yield self._named(alone, fmt)
                elif self._hold:
                    noted = len(log.diagnostics) if isinstance(log, LogReader) else 0
                    held = Held(stage, self._first + number, next(orders), key, sample, noted=noted)  # type: ignore[arg-type]
                    self.held.append(held)
                else:
                    target.add(sample, key, (number, next(orders)))
                    self._repeated(target)
        later: tuple[tuple[Stage, Runs], ...] = (("traces", traces), ("runs", runs))
        for stage, runs_of in later:
            for (begin, _), run in runs_of.held():
                self._enter(stage, begin)
                yield self._named(run, _FORMATS[stage])
        self._closed[self.segment] = self.take_notes()

    @property
    def grouped(self) -> bool:
        """Whether records without a history are joined by key (any pairing but by id)."""
        return self.options.case_from is not None or self.options.by != "id"

    def name(self, stage: Stage, log: int, runs: Iterable[RecordedSample]) -> Iterator[RecordedSample]:
        """The runs of ``stage`` that began in the ``log``-th log, joined apart (see ``hold``),
        named as this pairing names them, in the order they began."""
        self._enter(stage, log)
        for run in runs:
            yield self._named(run, _FORMATS[stage])
        self._closed[self.segment] = self.take_notes()

    def _repeated(self, runs: Runs) -> None:
        """Note (R410, with the log's findings) each call a run dropped as one it holds, logged
        twice in one log; a call seen again in another log is the same call recorded where the
        run went on (a tool span of a trace exported apart from its model span), as a reader
        merges it within one log."""
        for call, earlier in runs.repeats:
            if call.path != earlier.path:
                continue
            found = self._findings.get(call.path)
            if found is not None:
                found.append(repeated(call, earlier))
        runs.repeats.clear()

    def _enter(self, stage: Stage, log: int) -> None:
        """The runs given next come from ``stage`` and began in the ``log``-th log: close the
        notes of the runs given so far when they came from elsewhere."""
        if (stage, log) != self.segment:
            self._closed[self.segment] = self.take_notes()
            self.stage, self.segment = stage, (stage, log)

    def notes(self, stage: Stage, log: int | None = None) -> PairingNotes:
        """What pairing noticed about the runs of ``stage`` (that began in the ``log``-th log;
        of every log by default), complete once they were read."""
        found = [
            notes
            for (where, number), notes in self._closed.items()
            if where == stage and log in (None, number)
        ]
        return noted(found) or PairingNotes(self.options.setting)

    def take_notes(self) -> PairingNotes:
        """What pairing noticed about the runs given since the last call (see
        :mod:`toolexpect.pairing.advice`)."""
        notes = PairingNotes(
            self.options.setting,
            frozenset(self._paired),
            self._left.take(),
            tuple(self._asked),
            self._unnamed,
            self._unnamed_first,
            self._split.take() if self._split is not None else None,
        )
        self._paired, self._asked, self._unnamed, self._unnamed_first = set(), [], 0, None
        self._taken.append(notes)
        return notes

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The pairing findings (``R420`` to ``R423``), complete once every run was read, the
        options they name spelled as ``spelling`` says (Python's by default)."""
        self.take_notes()
        notes = noted(self._taken)
        return notes.findings(self._names, self.spelling) if notes is not None else []

    def _note(self, named: bool, record: Any, sample_id: str | None) -> SampleFacts:
        """The facts of a sample (given to the readers): found case names only when unpaired
        (``named``: the log file is named after a case)."""
        facts = facts_of(record, self._path)
        if self._pairs(sample_id, facts, named):
            return facts
        return replace(facts, names=names_in(record, self._names))

    def _pairs(self, sample_id: str | None, facts: SampleFacts, named: bool) -> bool:
        if self.options.case_from is not None:
            return facts.key in self._names
        if self.options.by == "question":
            return facts.question is not None and len(self._questions.get(facts.question, ())) == 1
        if self.options.by == "file":
            return named
        return sample_id in self._names

    def _key(self, sample: RecordedSample) -> str | None:
        """The key under which the records of a run are joined (``None``: no key)."""
        facts = sample.facts
        if self.options.case_from is not None:
            return facts.key if facts is not None else None
        if self.options.by == "question":
            return facts.question if facts is not None else None
        if self.options.by == "file":
            return sample.path
        return sample.id

    def _case(self, sample: RecordedSample, fmt: str) -> str | None:
        """The name of the case ``sample`` pairs with under the options, else ``None``."""
        options = self.options
        if options.case_from is not None:
            key = sample.facts.key if sample.facts is not None else None
            return key if key in self._names else None
        if options.by == "question":
            question = sample.facts.question if sample.facts is not None else None
            asked = self._questions.get(question, []) if question is not None else []
            if len(asked) > 1 and question is not None and question not in self._ambiguous:
                self._ambiguous.add(question)
                self._asked.append((question, tuple(asked)))
            return asked[0] if len(asked) == 1 else None
        if options.by == "file":
            return self._file_case(sample.path)
        if sample.id in self._names:
            return sample.id
        if self._only is not None and sample.id is not None and generated(sample.id):
            return self._only
        return None

    def _file_case(self, path: str | None) -> str | None:
        """The case a log file is named after: its stem is the case name, or the case name
        with spaces written as ``-`` or ``_`` (``berlin-tomorrow.jsonl``: "berlin tomorrow")."""
        stem = log_stem(path)
        if stem is None:
            return None
        if stem in self._names:
            return stem
        return self._slugs.get(_SEPARATORS.sub("-", stem))

    def _named(self, sample: RecordedSample, fmt: str) -> RecordedSample:
        case = self._case(sample, fmt)
        if case is not None:
            self._paired.add(case)
            if case != sample.id and self._split is not None and fmt not in COMPLETE | TRACED:
                self._split.add(sample, self._file_case(sample.path))
            return sample if case == sample.id else replace(sample, id=case)
        if sample.id is None and self._only is not None:
            self._paired.add(self._only)
            return sample
        own = sample.id
        if self.options.by == "file" and self.options.case_from is None:
            stem = log_stem(sample.path)
            if stem is not None:
                sample = replace(sample, id=stem)
        elif self.options.case_from is not None and sample.facts is not None and sample.facts.key:
            sample = replace(sample, id=sample.facts.key)
        elif self.options.by == "question" and not self._names and self.options.case_from is None:
            question = sample.facts.question if sample.facts is not None else None
            if question is not None:
                sample = replace(sample, id=question)
            else:
                self._unnamed += 1
                if self._unnamed_first is None:
                    self._unnamed_first = (sample.path, sample.line)
        if sample.id in self._names:
            # Its own id names a case, and the scorer pairs it with that case.
            self._paired.add(sample.id)
            return sample
        if self._names:
            self._leftover(sample, own)
        return sample

    def _leftover(self, sample: RecordedSample, own: str | None) -> None:
        """Count a run that paired with no case (its own id ``own``), and the options that
        would have paired it."""
        facts = sample.facts
        found: dict[Setting, str] = {}
        if own in self._names:
            found[Setting("pair-by", "id")] = own
        if self.options.by != "question" or self.options.case_from is not None:
            question = facts.question if facts is not None else None
            asked = self._questions.get(question, []) if question is not None else []
            if len(asked) == 1:
                found[Setting("pair-by", "question")] = asked[0]
        if self.options.by != "file" or self.options.case_from is not None:
            named = self._file_case(sample.path)
            if named is not None:
                found[Setting("pair-by", "file")] = named
        for where, name in facts.names if facts is not None else ():
            if where != self.options.case_from:
                found.setdefault(Setting("case-from", where), name)
        self._left.add(sample, found)


def pair_runs(
    specs: Sequence[Spec],
    logs: Iterable[LogReader | Iterable[RecordedSample]],
    options: PairingOptions | None = None,
    *,
    hold: bool = False,
    first: int = 0,
    spelling: Spelling = PYTHON,
) -> PairedRuns:
    """The runs of ``logs`` named after the cases of ``specs`` they pair with (see module;
    ``hold``, ``first`` and ``spelling``, how its findings spell the options they suggest, as
    :class:`PairedRuns` takes them)."""
    chosen = options if options is not None else PairingOptions()
    return PairedRuns(specs, logs, chosen, hold=hold, first=first, spelling=spelling)
