"""Held records that may join records of other logs: which they are, and how they travel.

An engine pairs each log on its own. Records of one run that sit in several logs are found by
their join handles (:mod:`toolexpect.pairing.runs`): a record is *linked* when its component
(records joined when one offers a handle the other offers or looks for) holds a handle that
another log holds too (``cross``, gathered by :class:`toolexpect.scale.linked.Links`). Two records
of different components never act on each other's runs, so the runs of a log's other records
are exactly those of one process, and only the linked records, set aside as :class:`Records`,
must be paired with the linked records of the other logs, in input order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolexpect.calls import RecordedSample

__all__ = ["Records", "linked"]


@dataclass(frozen=True, slots=True)
class Records:
    """The linked records of one log, in order: the log's path as read, its format, the
    records (read and noted as the pairing stage reads them), and the place of each among the
    held records of its log."""

    path: str
    format: str
    samples: tuple[RecordedSample, ...]
    orders: tuple[int, ...]


def linked(handles: Sequence[tuple[Sequence[int], Sequence[int]]], cross: frozenset[int]) -> list[bool]:
    """For records given by the handles each offers and looks for, in order, whether each is in
    a component that holds a handle of ``cross``."""
    parent = list(range(len(handles)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(one: int, other: int) -> None:
        first, second = root(one), root(other)
        if first != second:
            parent[max(first, second)] = min(first, second)

    offered: dict[int, int] = {}
    waiting: dict[int, list[int]] = {}
    for number, (offers, probes) in enumerate(handles):
        for handle in offers:
            join(number, offered.setdefault(handle, number))
            for looked in waiting.pop(handle, ()):
                join(number, looked)
        for handle in probes:
            found = offered.get(handle)
            if found is not None:
                join(number, found)
            else:
                waiting.setdefault(handle, []).append(number)
    marked = {
        root(number)
        for number, (offers, probes) in enumerate(handles)
        if not cross.isdisjoint(offers) or not cross.isdisjoint(probes)
    }
    return [root(number) in marked for number in range(len(handles))]
