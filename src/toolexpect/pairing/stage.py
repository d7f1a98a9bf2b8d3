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

import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

from toolexpect.calls import RecordedSample, SampleFacts
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.logs import LogReader
from toolexpect.model import Spec
from toolexpect.pairing.facts import facts_of, generated, names_in, trace_id, whitespace
from toolexpect.pairing.options import PairingOptions
from toolexpect.pairing.runs import Runs
from toolexpect.pairing.split import SplitRuns

__all__ = ["COMPLETE", "TRACED", "PairedRuns", "Stage", "log_stem", "pair_runs"]

COMPLETE = frozenset({"canonical", "adk", "bfcl", "openai-batch", "mcp"})
"""Formats whose every sample is a whole run already (never joined with others)."""

TRACED = frozenset({"otel", "langsmith"})
"""Formats whose sample id is a trace's: samples of one id are one run, in any pairing."""

Stage = Literal["read", "traces", "runs"]
"""Where a run of :class:`PairedRuns` comes from (see its ``stage``)."""

_SEPARATORS = re.compile(r"[\s_-]+")
_SUFFIXES = (".gz", ".zst", ".jsonl", ".ndjson", ".json", ".log", ".txt", ".sse")
_SHOWN = 5


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


@dataclass(slots=True)
class _Left:
    """Runs of one id that paired with no case, and which other options would pair them."""

    count: int = 0
    path: str | None = None
    line: int | None = None
    options: Counter[str] = field(default_factory=Counter)
    cases: dict[str, set[str]] = field(default_factory=dict)


class PairedRuns:
    """The runs of some logs, each named after the case it pairs with; read once.

    ``diagnostics`` holds the pairing findings (``R420``, ``R421``) once every run was read.
    ``stage`` says where the run just given comes from: ``read`` (given as the logs are
    read), then, once every log is read, ``traces`` (spans joined by trace), then ``runs``
    (records joined by history or key), each in the order they began.
    """

    def __init__(
        self,
        specs: Sequence[Spec],
        logs: Iterable[LogReader | Iterable[RecordedSample]],
        options: PairingOptions,
    ) -> None:
        self.options = options
        self.diagnostics: list[Diagnostic] = []
        self._logs = logs
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
        self._paired: set[str] = set()
        self._left: dict[str | None, _Left] = {}
        self._ambiguous: set[str] = set()
        self._unnamed = _Left()
        alone = self._only is not None and options.by == "id" and options.case_from is None
        self._split = SplitRuns(self._only) if alone and self._only is not None else None
        self.stage: Stage = "read"

    def __iter__(self) -> Iterator[RecordedSample]:
        """The runs, in log order (runs put together from several records when they end)."""
        grouped = self.options.case_from is not None or self.options.by != "id"
        runs, traces = Runs(grouped), Runs(True)
        for log in self._logs:
            if isinstance(log, LogReader):
                fmt = log.format
                named = self._file_case(log.path) is not None
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
                if fmt in TRACED and not grouped:
                    alone = traces.add(sample, sample.id)
                else:
                    alone = runs.add(sample, self._key(sample))
                if alone is not None:
                    yield self._named(alone, fmt)
        self.stage = "traces"
        for run in traces.held():
            yield self._named(run, "otel")
        self.stage = "runs"
        for run in runs.held():
            yield self._named(run, "provider")
        self._advise()
        self._tell_unnamed()
        split = self._split.note() if self._split is not None else None
        if split is not None:
            self.diagnostics.append(split)

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
                self.diagnostics.append(
                    make(
                        "R421",
                        f"the question {question!r} is the question of cases "
                        f"{', '.join(repr(name) for name in asked)}; runs asking it paired with none",
                        help="give each case its own question, or pair by id or with --case-from",
                    )
                )
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
                self._unnamed.count += 1
                if self._unnamed.count == 1:
                    self._unnamed.path, self._unnamed.line = sample.path, sample.line
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
        left = self._left.get(sample.id)
        if left is None:
            left = self._left[sample.id] = _Left(path=sample.path, line=sample.line)
        left.count += 1
        facts = sample.facts
        found: dict[str, str] = {}
        if own in self._names:
            found["--pair-by id"] = own
        if self.options.by != "question" or self.options.case_from is not None:
            question = facts.question if facts is not None else None
            asked = self._questions.get(question, []) if question is not None else []
            if len(asked) == 1:
                found["--pair-by question"] = asked[0]
        if self.options.by != "file" or self.options.case_from is not None:
            named = self._file_case(sample.path)
            if named is not None:
                found["--pair-by file"] = named
        for where, name in facts.names if facts is not None else ():
            if where != self.options.case_from:
                found.setdefault(f"--case-from {where}", name)
        for option, name in found.items():
            left.options[option] += 1
            left.cases.setdefault(option, set()).add(name)

    def _advise(self) -> None:
        """The ``R420`` finding: runs left over while cases found none, and a better option."""
        missing = sorted(self._names - self._paired)
        if not self._left or not missing:
            return
        runs = sum(left.count for left in self._left.values())
        ids = [
            repr(sid) if sid is not None else f"{left.count} without an id"
            for sid, left in self._left.items()
        ]
        message = (
            f"{runs} recorded run{'s' if runs != 1 else ''} paired with no case "
            f"({_listed(ids)}) and {len(missing)} case{'s' if len(missing) != 1 else ''} "
            f"found none ({_listed([repr(name) for name in missing])}), pairing with "
            f"{self.options.option}"
        )
        totals: Counter[str] = Counter()
        cases: dict[str, set[str]] = {}
        for left in self._left.values():
            totals.update(left.options)
            for option, names in left.cases.items():
                cases.setdefault(option, set()).update(names)
        if totals:
            option, count = totals.most_common(1)[0]
            key = option.split(" ")[-1]
            what = _WHAT.get(key, f"field {key}")
            if count == 1 and key in _WHAT:
                what = what[:-1]
            number = len(cases[option] & set(missing)) or len(cases[option])
            of_cases = _of_cases(option) if number != 1 else _of_cases(option)[:-1]
            help_text = (
                f"{_these(count)} {what} equal{'s' if count == 1 else ''} the "
                f"{of_cases} of {number} case{'s' if number != 1 else ''}: use {option}"
            )
        else:
            others = [f"{option} ({what})" for option, what in _OPTIONS if option != self.options.option]
            help_text = (
                "name each run after its case, or pair with "
                f"{', '.join(others[:-1])} or {others[-1]}"
            )
        first = next(iter(self._left.values()))
        span = Span.point(first.line, 1) if first.line is not None else None
        self.diagnostics.append(make("R420", message, span, help=help_text, path=first.path))

    def _tell_unnamed(self) -> None:
        """The ``R422`` finding: runs to be named by question (no specs) that hold none."""
        left = self._unnamed
        if not left.count:
            return
        runs = f"{left.count} recorded run{'s' if left.count != 1 else ''}"
        self.diagnostics.append(
            make(
                "R422",
                f"{runs} {'hold' if left.count != 1 else 'holds'} no user question to be named"
                " by, pairing with --pair-by question; they keep their own ids",
                Span.point(left.line, 1) if left.line is not None else None,
                help="a run's question is the first user message of its request, which these "
                "records do not log: pair by id, by file or with --case-from PATH",
                path=left.path,
            )
        )


_OPTIONS = (
    ("--pair-by id", "the runs' ids"),
    ("--pair-by question", "the cases' question statements"),
    ("--pair-by file", "the log files' names"),
    ("--case-from PATH", "a field of each record"),
)

_WHAT = {"question": "user questions", "file": "log file names", "id": "ids"}


def _these(count: int) -> str:
    return "this run's" if count == 1 else f"these {count} runs'"


def _of_cases(option: str) -> str:
    if option.endswith("question"):
        return "questions"
    return "names"


def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def pair_runs(
    specs: Sequence[Spec],
    logs: Iterable[LogReader | Iterable[RecordedSample]],
    options: PairingOptions | None = None,
) -> PairedRuns:
    """The runs of ``logs`` named after the cases of ``specs`` they pair with (see module)."""
    return PairedRuns(specs, logs, options if options is not None else PairingOptions())
