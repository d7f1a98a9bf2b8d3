"""Logs whose runs may join runs of other logs, found from the join handles they carry.

An engine scores each log that is not cut into blocks as one partition, on its own. A run
whose records are spread over several logs (a conversation logged into files rotated
mid-way, the spans of one trace in two exports, records of one ``--case-from`` key) is then
cut in two, where one process, reading every log, joins it. So the held parts of each partial
score carry the join handles of the log's held records (:mod:`toolexpect.pairing.runs`):
records of two logs can only act on each other when a handle one offers is one the other
offers or looks for. :class:`Links` gathers the handles as partial scores arrive (one entry
a handle), drops them from the partial scores, and gives the handles that several logs hold,
one offering it (:meth:`Links.cross`). Each log that holds one is read again
(:func:`toolexpect.scale.shards.relink_shard`): its records linked through those handles are set
aside and its other held records give its runs as before; then the set-aside records of every
log are paired together, in input order, by one task
(:func:`toolexpect.scale.shards.score_set_aside`), and give the runs across logs. Logs that hold no
such handle, canonical logs among them (they hold no records to join), are left as they were
scored.
"""

from __future__ import annotations

from dataclasses import replace

from toolexpect.scale.partition import HELD
from toolexpect.scoring.partial import PartialScore, Position

__all__ = ["Links", "without_held"]


class Links:
    """Which join handles more than one log holds, gathered from partial scores."""

    def __init__(self) -> None:
        """No handle seen yet."""
        # Each handle: the first log that held it, times two, plus one once any log offered it
        # (one entry a handle); and the other logs that held it, for the few held by several.
        self._first: dict[int, int] = {}
        self._more: dict[int, set[int]] = {}

    def add(self, partial: PartialScore) -> PartialScore:
        """Note the join handles that ``partial``'s parts carry; ``partial`` without them."""
        parts = []
        for part in partial.parts:
            notes = part.pairing
            if notes is None or not (notes.offers or notes.probes) or part.at[0] != HELD:
                parts.append(part)
                continue
            log = part.at[2]
            for handles, offered in ((notes.offers, 1), (notes.probes, 0)):
                for handle in handles:
                    first = self._first.get(handle)
                    if first is None:
                        self._first[handle] = 2 * log + offered
                        continue
                    self._first[handle] = first | offered
                    if first >> 1 != log:
                        self._more.setdefault(handle, set()).add(log)
            bare = replace(notes, offers=frozenset(), probes=frozenset())
            parts.append(replace(part, pairing=bare))
        return PartialScore(tuple(parts))

    def cross(self) -> dict[int, frozenset[int]]:
        """Each log (by number) that holds a handle another log holds too, one of them
        offering it, with those handles: the logs to read again, and what links them."""
        found: dict[int, set[int]] = {}
        for handle, others in self._more.items():
            first = self._first[handle]
            if first & 1:
                for log in (first >> 1, *others):
                    found.setdefault(log, set()).add(handle)
        return {log: frozenset(handles) for log, handles in sorted(found.items())}


def without_held(partial: PartialScore, logs: set[int]) -> PartialScore:
    """``partial`` without the runs given once ``logs`` were read (their held parts), which
    reading the logs again gives (:func:`toolexpect.scale.shards.relink_shard`)."""
    return PartialScore(tuple(part for part in partial.parts if not _held_of(part.at, logs)))


def _held_of(at: Position, logs: set[int]) -> bool:
    return at[0] == HELD and len(at) > 2 and at[2] in logs
