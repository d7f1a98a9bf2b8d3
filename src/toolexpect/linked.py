"""Logs whose runs may join runs of other logs, found from the join handles they carry.

An engine scores each log that is not cut into stretches as one partition, on its own. A run
whose records are spread over several logs (a conversation logged across rotated files, the
spans of one trace in two exports, records of one ``--case-from`` key) is then cut in two,
where one process, reading every log, joins it. So the held parts of each partial score carry
the join handles of the log's held records (:mod:`toolexpect.pairing.runs`): two logs may
hold records of one run only when a handle one offers is one the other offers or looks for.
:class:`Links` gathers the handles as partial scores arrive, drops them from the partial
scores, and gives the groups of logs to read together
(:func:`toolexpect.shards.score_together`), whose joined runs then replace the runs each of
those logs gave alone. Logs whose handles meet no other log's, canonical logs among them (they
hold no records to join), are left as they were scored.
"""

from __future__ import annotations

from dataclasses import replace

from toolexpect.partition import HELD
from toolexpect.scoring import PartialScore, Position

__all__ = ["Links", "without_held"]


class Links:
    """The logs (by number) whose join handles meet, gathered from partial scores."""

    def __init__(self) -> None:
        """No log linked yet."""
        self._offered: dict[int, int] = {}  # a handle, and the first log that offered it
        self._probed: dict[int, set[int]] = {}  # a handle no log offered yet, and who looked
        self._parent: dict[int, int] = {}  # union-find over the logs whose handles met

    def add(self, partial: PartialScore) -> PartialScore:
        """Note the join handles that ``partial``'s parts carry; ``partial`` without them."""
        parts = []
        for part in partial.parts:
            notes = part.pairing
            if notes is None or not (notes.offers or notes.probes) or part.at[0] != HELD:
                parts.append(part)
                continue
            log = part.at[2]
            for handle in notes.offers:
                self._join(self._offered.setdefault(handle, log), log)
                for looked in self._probed.pop(handle, ()):
                    self._join(looked, log)
            for handle in notes.probes:
                offered = self._offered.get(handle)
                if offered is not None:
                    self._join(offered, log)
                else:
                    self._probed.setdefault(handle, set()).add(log)
            bare = replace(notes, offers=frozenset(), probes=frozenset())
            parts.append(replace(part, pairing=bare))
        return PartialScore(tuple(parts))

    def groups(self) -> list[tuple[int, ...]]:
        """The groups of logs to read together: each two or more logs, in input order."""
        found: dict[int, list[int]] = {}
        for log in sorted(self._parent):
            found.setdefault(self._root(log), []).append(log)
        return sorted(tuple(logs) for logs in found.values() if len(logs) > 1)

    def _root(self, log: int) -> int:
        parent = self._parent
        while parent[log] != log:
            parent[log] = parent[parent[log]]
            log = parent[log]
        return log

    def _join(self, one: int, other: int) -> None:
        if one == other:
            return
        for log in (one, other):
            self._parent.setdefault(log, log)
        first, second = sorted((self._root(one), self._root(other)))
        self._parent[second] = first


def without_held(partial: PartialScore, logs: set[int]) -> PartialScore:
    """``partial`` without the runs given once ``logs`` were read (their held parts), which
    reading the logs together gives again."""
    return PartialScore(tuple(part for part in partial.parts if not _held_of(part.at, logs)))


def _held_of(at: Position, logs: set[int]) -> bool:
    return at[0] == HELD and len(at) > 2 and at[2] in logs
