"""Records of one conversation made one run: by request history, and by the pairing key.

A sample whose record holds its request's messages (its *history*) continues the run of the
earlier record whose whole history is a shorter prefix of its own; a sample with a history
that continues no run starts a new one (a new conversation, even under a key already seen).
When ``by_key`` is set (pairing by question, file or field), a sample without a history
joins the latest run of its key. Calls are added in order and counted once: a record that
logs the whole conversation so far adds only its new calls when its first calls are the run's
(one by one the same call; a call that came back without an id is the same as its history copy
under the id a client gave it), and a call the run holds already under its id (its history
copy) is not added again, while another call under a used id is: the rule of the readers too
(:class:`~toolexpect.logs.calllist.CallList`). A record without a history joined by key is a response
alone: its calls are all its own, so the same call made again in a later turn (the same tool and
arguments, no id) is another call.

Samples that nothing can join later (no history, and not grouped by key) pass straight
through, so such logs stream as before; held runs are given in the order they began, each with
the place (log, order) of its first record. Which records can act on each other at all, so
that an engine can join them apart (a group-by), is :mod:`toolexpect.pairing.groups`.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolexpect.calls import RecordedSample, SampleFacts, ToolCall
from toolexpect.logs.calllist import CallList

__all__ = ["Place", "Runs"]

Place = tuple[int, int]
"""Where a held record was read: the number of its log, and its place among that log's held
records; places sort as one process reads the records."""


class _Run:
    """One run being put together (internal, mutable, owned by one :class:`Runs`)."""

    __slots__ = ("calls", "error", "facts", "id", "line", "order", "path")

    def __init__(self, sample: RecordedSample, order: Place) -> None:
        self.id = sample.id
        self.order = order
        self.calls = CallList()
        self.path = sample.path
        self.line = sample.line
        self.facts: SampleFacts | None = sample.facts
        self.error: str | None = None
        """Why the first failed request among the run's records failed: the run is an error."""
        self.add(sample.calls, sample.error)

    def add(
        self, calls: tuple[ToolCall, ...], error: str | None = None, replays: bool = True
    ) -> list[tuple[ToolCall, ToolCall]]:
        """Add a record's calls: only the new ones when they begin with the run's (a record
        that logs the conversation so far), else each one that is not a call the run holds
        (the same call under the same id; see :class:`CallList`); a record whose request
        failed (``error``) makes the run an error. Gives the calls dropped one by one (not as
        the run's calls the record begins with), each with the call it repeats."""
        if self.error is None:
            self.error = error
        return self.calls.extend(calls, replays)

    def sample(self) -> RecordedSample:
        return RecordedSample(self.id, tuple(self.calls.calls), self.path, self.line, self.facts, self.error)


class Runs:
    """The runs of one pairing: samples in, runs out (state of one call, never shared)."""

    def __init__(self, by_key: bool) -> None:
        """Join runs by history, and by key when ``by_key``."""
        self.by_key = by_key
        self._held: list[_Run] = []
        self._latest: dict[str, _Run] = {}
        self._ends: dict[int, _Run] = {}
        self.repeats: list[tuple[ToolCall, ToolCall]] = []
        """Calls of records joined to a run without a history, dropped as a call the run holds
        under their id (each with that call), for the stage to note (R410)."""

    def _start(self, sample: RecordedSample, order: Place) -> _Run:
        run = _Run(sample, order)
        self._held.append(run)
        return run

    def add(self, sample: RecordedSample, key: str | None, order: Place = (0, 0)) -> RecordedSample | None:
        """``sample`` when it is a run on its own, else ``None`` (held, given by :meth:`held`;
        ``order``: where the record was read, kept for the run it begins)."""
        facts = sample.facts
        history = facts.history if facts is not None else ()
        if history:
            run = None
            for digest in reversed(history[:-1]):
                run = self._ends.pop(digest, None)
                if run is not None:
                    break
            if run is None:
                run = self._start(sample, order)
            else:
                run.add(sample.calls, sample.error)  # a call the run holds under its id: the history's copy
            self._ends[history[-1]] = run
            if self.by_key and key is not None:
                self._latest[key] = run
            return None
        if not self.by_key or key is None:
            return sample
        run = self._latest.get(key)
        if run is None:
            run = self._latest[key] = self._start(sample, order)
        else:
            # A record without a history is a response alone: its calls are all its own.
            self.repeats.extend(run.add(sample.calls, sample.error, replays=False))
        return None

    def holds(self, sample: RecordedSample, key: str | None) -> bool:
        """Whether :meth:`add` would hold ``sample`` (under ``key``): a record others may join."""
        facts = sample.facts
        return bool(facts is not None and facts.history) or (self.by_key and key is not None)

    def held(self) -> Iterator[tuple[Place, RecordedSample]]:
        """The held runs, in the order they began, each with the place of its first record."""
        for run in self._held:
            yield run.order, run.sample()
        self._held.clear()
        self._latest.clear()
        self._ends.clear()
