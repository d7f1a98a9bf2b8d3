"""Held records grouped so that each group can be joined into runs on its own: the run key.

The pairing stage holds the records that later records may join (records with a request
history, records grouped by key, the spans of a trace; :mod:`toolexpect.pairing.runs`) and
joins them once every log is read. One process joins them all in one :class:`Runs`, in the
order it read them. An engine joins them by a group-by instead: each record carries the key of
its group (:func:`group_key`) and its place (log number, place among the log's held records),
the engine brings the records of each key together (a shuffle), and each group is joined on its
own, its records sorted back by place (:func:`join_group`). Two records of different groups
never act on each other's runs, so the runs of every group, put in the order they began, are
exactly the runs of one process.

**The facts that make records one run.** Within its stage (``traces`` or ``runs``, joined
apart), a record has its own *token*:

* ``("u", d)``: a record with a history holding a user message: ``d`` the digest of its history
  up to that first user message, which every record of its conversation shares;
* ``("o", d)``: a record with a history and no user message (an *opening*: a system prompt
  alone), ``d`` its whole history's digest;
* ``("k", key)``: a record without a history, grouped by key (a trace id; ``--pair-by
  question``, ``file`` or ``--case-from``).

A record continues only a run of its own token, or through a *link*: the digest of an opening
its history begins with (``("o", d)`` for each digest before its first user message), or, grouped
by key, its key (``("k", key)``: a record without a history joins the latest run of its key,
which a record with a history may have become). A link is *live* only when some record has it as
its own token (an opening was logged; a record without a history has that key). So the group of
a record is its own token, unless a live link ties it to others; then it is the smallest token of
the component that live links make (:func:`group_keys`, a union over the tokens that only the
linked conversations take part in). With no opening request logged alone and, grouped by key,
no record without a history, every conversation is a group of its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from toolexpect.calls import RecordedSample, SampleFacts, ToolCall
from toolexpect.diagnostics import Diagnostic
from toolexpect.logs._base import repeated
from toolexpect.pairing.runs import Place, Runs

__all__ = ["Held", "Token", "digest", "group_keys", "join_group", "links", "token"]

T = TypeVar("T")

Token = tuple[Literal["u", "o", "k"], int | str]
"""What makes records one run (see module): a kind and a digest or key."""


@dataclass(frozen=True, slots=True)
class Held:
    """A record the pairing stage holds: its stage (``traces`` or ``runs``), where it was read
    (``log``: the number of its log in the input; ``order``: its place among that log's held
    records), the key it is joined under (``None``: none), and the record as read."""

    stage: Literal["traces", "runs"]
    log: int
    order: int
    key: str | None
    sample: RecordedSample
    group: int = 0
    """The key of its conversation's group (:func:`digest` of its own token), made once."""
    noted: int = 0
    """How many findings its log's reader had made when it was read: where a note the joining
    makes of it (``R410``) goes among them, as one process puts it."""

    def __post_init__(self) -> None:
        if not self.group:
            object.__setattr__(self, "group", digest(*token(self)))

    @property
    def place(self) -> Place:
        """Where it was read, as places sort in one process."""
        return (self.log, self.order)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle as plain tuples: an engine's shuffle sends every held record between its
        workers, and a dataclass pickles field by field, several times slower."""
        sample = self.sample
        facts = sample.facts
        calls = tuple(
            (c.name, c.arguments, c.id, c.kind, c.raw_arguments, c.valid_json, c.path, c.line)
            for c in sample.calls
        )
        told = None if facts is None else (facts.question, facts.key, facts.history, facts.names, facts.asks)
        return (
            _held,
            (
                self.stage,
                self.log,
                self.order,
                self.key,
                sample.id,
                calls,
                sample.path,
                sample.line,
                told,
                sample.error,
                self.group,
                self.noted,
            ),
        )


def _held(
    stage: Literal["traces", "runs"],
    log: int,
    order: int,
    key: str | None,
    sample_id: str | None,
    calls: tuple[tuple[Any, ...], ...],
    path: str | None,
    line: int | None,
    facts: tuple[Any, ...] | None,
    error: str | None,
    group: int,
    noted: int,
) -> Held:
    """A :class:`Held` from its pickle (see ``Held.__reduce__``): its fields set as they were
    pickled, without checking them again (they were checked when first read)."""
    made = tuple(_rebuilt(ToolCall, _CALL, call) for call in calls)
    told = None if facts is None else _rebuilt(SampleFacts, _FACTS, facts)
    sample = _rebuilt(RecordedSample, _SAMPLE, (sample_id, made, path, line, told, error))
    return _rebuilt(Held, _HELD, (stage, log, order, key, sample, group, noted))


_CALL = ("name", "arguments", "id", "kind", "raw_arguments", "valid_json", "path", "line")
_FACTS = ("question", "key", "history", "names", "asks")
_SAMPLE = ("id", "calls", "path", "line", "facts", "error")
_HELD = ("stage", "log", "order", "key", "sample", "group", "noted")
_set = object.__setattr__


def _rebuilt(kind: type[T], names: tuple[str, ...], values: tuple[Any, ...]) -> T:
    """A frozen dataclass of ``kind`` with its fields ``names`` set to ``values``."""
    made = object.__new__(kind)
    for name, value in zip(names, values, strict=True):
        _set(made, name, value)
    return made


def digest(stage: str, found: Token) -> int:
    """The group key of a token of ``stage``: a 64-bit int (an engine hashes ints cheaply and
    alike on every worker; a history's digests are digests already). Two tokens of one digest
    only make one group of two, which joins as they join apart."""
    kind, value = found
    if isinstance(value, int):
        return value ^ _digest(f"{stage}\x00{kind}")
    return _digest(f"{stage}\x00{kind}\x00{value}")


def _digest(text: str) -> int:
    raw = text.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big")


def token(held: Held) -> tuple[str, Token]:
    """The stage and own token of ``held`` (see module)."""
    facts = held.sample.facts
    history = facts.history if facts is not None else ()
    if history:
        asks = facts.asks if facts is not None else None
        if asks is not None and asks < len(history):
            return held.stage, ("u", history[asks])
        return held.stage, ("o", history[-1])
    return held.stage, ("k", held.key if held.key is not None else "")


def links(held: Held, by_key: bool) -> list[tuple[str, Token]]:
    """The tokens other than its own through which ``held`` may join other records' runs (see
    module; ``by_key``: the ``runs`` stage joins records without a history by key)."""
    facts = held.sample.facts
    history = facts.history if facts is not None else ()
    found: list[tuple[str, Token]] = []
    if history:
        asks = facts.asks if facts is not None else None
        before = asks if asks is not None and asks < len(history) else len(history) - 1
        found.extend((held.stage, ("o", digest)) for digest in history[:before])
        if (by_key or held.stage == "traces") and held.key is not None:
            found.append((held.stage, ("k", held.key)))
    return found


def group_keys(conversations: Iterable[tuple[int, Iterable[int]]]) -> dict[int, int]:
    """For conversations given as the key of their own token and of their links, the group of
    each one a live link ties to others (those not named keep their own key as their group): the
    smallest key of its component."""
    given = [(own, set(linked)) for own, linked in conversations]
    owned = {own for own, _ in given}
    parent: dict[int, int] = {}

    def root(node: int) -> int:
        while parent.get(node, node) != node:
            parent[node] = parent.get(parent[node], parent[node])
            node = parent[node]
        return node

    for own, linked in given:
        for link in linked:
            if link != own and link in owned:
                first, second = root(own), root(link)
                if first != second:
                    low, high = sorted((first, second))
                    parent[high] = low
    return {node: root(node) for node in list(parent)}


def join_group(
    records: Iterable[Held], by_key: bool
) -> tuple[list[tuple[Held, RecordedSample]], list[tuple[Held, Diagnostic]]]:
    """The runs of one group's held records (in any order: they are sorted back by place), in
    the order they began, each with the record it began with; and the ``R410`` notes (each with
    the record that made it) of the
    calls dropped as calls their run holds already, logged twice in one log. ``by_key``: the
    ``runs`` stage joins records without a history by key (any pairing but by id)."""
    ordered = sorted(records, key=_placed)
    found: list[tuple[Held, RecordedSample]] = []
    notes: list[tuple[Held, Diagnostic]] = []
    for stage in ("traces", "runs"):
        runs = Runs(True if stage == "traces" else by_key)
        first: dict[Place, Held] = {}
        for held in ordered:
            if held.stage != stage:
                continue
            first.setdefault(held.place, held)
            runs.add(held.sample, held.key, held.place)
            notes.extend(
                (held, repeated(call, earlier)) for call, earlier in runs.repeats if call.path == earlier.path
            )
            runs.repeats.clear()
        found.extend((first[place], run) for place, run in runs.held())
    return found, notes


def _placed(held: Held) -> tuple[int, int, int]:
    return (0 if held.stage == "traces" else 1, held.log, held.order)
