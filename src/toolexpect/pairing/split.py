"""Runs that may be the records of one run: the ``R423`` note.

Pairing by id, a record whose id a provider made up (``chatcmpl-…``) pairs with the only case
of a one-case spec, and a record without its request (a bare response) is a run of its own.
When several such runs pair with that case while another option would pair them with it too
and put them together (the records of one log file named after the case, or of one field
naming it), one note says so, with the option: those runs may be the turns of one agent run,
each failing alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.pairing.counts import Counts, Sets, best_option, counted, joined
from toolexpect.spelling import PYTHON, Setting, Spelling

__all__ = ["Split", "SplitRuns"]

_SHOWN = 3
_BY_FILE = Setting("pair-by", "file")


@dataclass(frozen=True, slots=True)
class Split:
    """Bare records that paired with the only case ``case`` through a made-up id: how many,
    the first ids, where the first was read, and the options that would pair them with it
    and join them (how many runs each, and the keys, files or values, it would join them by)."""

    case: str
    runs: int = 0
    ids: tuple[str, ...] = ()
    path: str | None = None
    line: int | None = None
    options: Counts = ()
    keys: Sets = ()

    def then(self, later: Split | None) -> Split:
        """These runs, then ``later``'s."""
        if later is None or not later.runs:
            return self
        if not self.runs:
            return later
        return Split(
            self.case,
            self.runs + later.runs,
            (self.ids + later.ids)[:_SHOWN],
            self.path if self.path is not None else later.path,
            self.line if self.path is not None else later.line,
            counted(self.options, later.options),
            joined(self.keys, later.keys),
        )

    def moved(self, lines: int) -> Split:
        """These runs with the line the first was read at moved by ``lines``."""
        return self if self.line is None else replace(self, line=self.line + lines)

    def note(self, spelling: Spelling = PYTHON) -> Diagnostic | None:
        """The ``R423`` note, when an option would join two or more of the runs (spelled as
        ``spelling`` says)."""
        best = best_option(self.options)
        if self.runs < 2 or best is None:
            return None
        option, count = best
        into = len(dict(self.keys)[option])
        if count < 2 or into >= count:
            return None
        shown = ", ".join(repr(sid) for sid in self.ids)
        more = f" and {self.runs - len(self.ids)} more" if self.runs > len(self.ids) else ""
        these = f"these {count} runs'"
        if option == _BY_FILE:
            said = f"{these} log file{'s are' if into != 1 else ' is'} named after the case"
        else:
            said = f"{these} field {option.value} names the case"
        return make(
            "R423",
            f"{self.runs:,} recorded runs paired with the only case {self.case!r} because a "
            f"provider made up their ids ({shown}{more}); each response without its request "
            "is scored as a run of its own",
            Span.point(self.line, 1) if self.line is not None else None,
            help=f"if they are the turns of one run, use {spelling(option)}: {said}, and they would be "
            f"scored as {into} run{'s' if into != 1 else ''}",
            path=self.path,
        )


@dataclass(slots=True)
class SplitRuns:
    """The :class:`Split` of the runs counted since it was last taken (state of one pairing)."""

    case: str
    runs: int = 0
    ids: list[str] = field(default_factory=list)
    path: str | None = None
    line: int | None = None
    options: dict[Setting, int] = field(default_factory=dict)
    keys: dict[Setting, set[str]] = field(default_factory=dict)

    def add(self, sample: RecordedSample, file_case: str | None) -> None:
        """Count ``sample`` (paired with the case through its made-up id); ``file_case`` is
        the case its log file is named after, if any."""
        facts = sample.facts
        if facts is not None and facts.history:
            return  # a record with its request joins its run by history already
        self.runs += 1
        if len(self.ids) < _SHOWN and sample.id is not None:
            self.ids.append(sample.id)
        if self.path is None:
            self.path, self.line = sample.path, sample.line
        found: dict[Setting, str] = {}
        if file_case == self.case and sample.path is not None:
            found[_BY_FILE] = sample.path
        for where, name in facts.names if facts is not None else ():
            if name == self.case:
                found.setdefault(Setting("case-from", where), name)
        for option, key in found.items():
            self.options[option] = self.options.get(option, 0) + 1
            self.keys.setdefault(option, set()).add(key)

    def take(self) -> Split | None:
        """The runs counted since the last call (``None`` for none), and start again."""
        if not self.runs:
            return None
        taken = Split(
            self.case,
            self.runs,
            tuple(self.ids),
            self.path,
            self.line,
            tuple(sorted(self.options.items())),
            tuple(sorted((option, frozenset(keys)) for option, keys in self.keys.items())),
        )
        self.runs, self.ids, self.path, self.line = 0, [], None, None
        self.options, self.keys = {}, {}
        return taken
