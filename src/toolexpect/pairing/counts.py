"""Counts and names by pairing option, joined across partitions; the option most runs favour."""

from __future__ import annotations

from collections.abc import Mapping

from toolexpect.spelling import Setting

__all__ = ["Counts", "Sets", "best_option", "counted", "joined"]

Counts = tuple[tuple[Setting, int], ...]
"""Counts by option, sorted by option."""

Sets = tuple[tuple[Setting, frozenset[str]], ...]
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


def best_option(counts: Counts) -> tuple[Setting, int] | None:
    """The option most runs would pair with, and how many; on a tie, the first of
    pairing by id, question, file, then by the fields of ``case-from``, by name."""
    if not counts:
        return None
    return min(counts, key=lambda item: (-item[1], _RANK.get(item[0], len(_RANK)), item[0]))


_RANK: Mapping[Setting, int] = {
    Setting("pair-by", "id"): 0,
    Setting("pair-by", "question"): 1,
    Setting("pair-by", "file"): 2,
}
