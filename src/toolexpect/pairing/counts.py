"""Counts and names by pairing option, joined across partitions; the option most runs favour."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["Counts", "Sets", "best_option", "counted", "joined"]

Counts = tuple[tuple[str, int], ...]
"""Counts by option, sorted by option."""

Sets = tuple[tuple[str, frozenset[str]], ...]
"""Names by option, sorted by option."""


def counted(first: Counts, second: Counts) -> Counts:
    """The counts of both, added option by option."""
    total = dict(first)
    for option, count in second:
        total[option] = total.get(option, 0) + count
    return tuple(sorted(total.items()))


def joined(first: Sets, second: Sets) -> Sets:
    """The names of both, joined option by option."""
    total = dict(first)
    for option, names in second:
        total[option] = total.get(option, frozenset()) | names
    return tuple(sorted(total.items()))


def best_option(counts: Counts) -> tuple[str, int] | None:
    """The option most runs would pair with, and how many; on a tie, the first of
    ``--pair-by id``, ``question``, ``file``, then ``--case-from`` fields by name."""
    if not counts:
        return None
    return min(counts, key=lambda item: (-item[1], _RANK.get(item[0], len(_RANK)), item[0]))


_RANK: Mapping[str, int] = {"--pair-by id": 0, "--pair-by question": 1, "--pair-by file": 2}
