"""Held records joined into runs by a group-by on their run key, as an engine does it.

Each shard hands back its held records (:class:`~toolexpect.pairing.groups.Held`), the records
that records of other logs may join (a conversation logged into files rotated mid-way, the
spans of one trace in two exports). The engine then does, with its own shuffle (Dask:
:mod:`toolexpect.scale.dask`; here, in one process, the same steps over lists:
:func:`score_grouped`):

1. group the records by their own token (:func:`~toolexpect.pairing.groups.token`: which
   conversation, trace or key they are of): one group a conversation;
2. for the few conversations a live link ties together (an opening logged alone, a key that a
   record without a history has), group the links (:func:`link_entries`, :func:`live_pairs`)
   and take the union of what they tie (:func:`~toolexpect.pairing.groups.group_keys`), then
   regroup those conversations under it; with no live link, step 1's groups are the groups;
3. join each group into runs (:func:`joined`: its records sorted back by place, the one-process
   order), each run tagged with the log it began in and its place;
4. group the runs by the stage and log they began in and score each group, its runs in the order
   they began (:func:`score_part`), as the part at ``(logs + stage, log)``: after every log's
   own parts, as one process gives them; the ``R410`` notes of the joining (a call logged twice
   in one log) go among their log's findings where one process puts them (:func:`with_notes`).

No step orders records across groups: each group is sorted by the places its records carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from toolexpect.diagnostics import Diagnostic
from toolexpect.pairing.groups import Held, digest, group_keys, join_group, links, token
from toolexpect.pairing.stage import Stage
from toolexpect.scale.partition import LATER, score_held
from toolexpect.scoring.partial import CompiledSpecs, PartialScore

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.pairing import PairingOptions

__all__ = [
    "groups_of",
    "is_note",
    "is_run",
    "joined",
    "link_entries",
    "live_pairs",
    "own",
    "part_key",
    "score_grouped",
    "score_part",
    "unions",
    "with_notes",
]

Own = int
"""The key of a group: a 64-bit digest of a record's stage and own token. Two tokens with one
digest would only make one group of two, which joins as they join apart."""

Joined = tuple[Literal["run", "note"], Stage, int, int, Any]
"""What joining a group gives: a run (``"run"``, its stage, the log it began in, its place in
that log, the run as a :class:`Held`, which pickles fast) or an ``R410`` note (``"note"``,
``"runs"``, its log, 0, the finding)."""

_KINDS = {"traces": 0, "runs": 1}


def _by_key(pairing: PairingOptions | None) -> bool:
    return pairing is not None and (pairing.case_from is not None or pairing.by != "id")


def own(held: Held) -> Own:
    """The key of the conversation group of ``held`` (step 1)."""
    return held.group


def link_entries(
    conversation: tuple[Own, Sequence[Held]], pairing: PairingOptions | None
) -> list[tuple[Own, Own | None]]:
    """What one conversation group says to step 2: ``(link, itself)`` for each token through
    which its records may join others', and ``(itself, None)`` when its token is one others may
    link to."""
    mine, records = conversation
    by_key = _by_key(pairing)
    found: dict[tuple[Own, Own | None], None] = {}
    for held in records:
        for link in links(held, by_key):
            linked = digest(*link)
            if linked != mine:
                found[(linked, mine)] = None
        if token(held)[1][0] in ("o", "k"):
            found[(own(held), None)] = None
    return list(found)


def live_pairs(entries: tuple[Own, Sequence[tuple[Own, Own | None]]]) -> list[tuple[Own, list[Own]]]:
    """For one token and what conversations said of it (:func:`link_entries`), the conversation
    it is and those that link to it, when both are there (a live link)."""
    link, said = entries
    linking = [mine for _, mine in said if mine is not None]
    if linking and any(mine is None for _, mine in said):
        return [(link, linking)]
    return []


def unions(pairs: Iterable[tuple[Own, list[Own]]]) -> dict[Own, Own]:
    """The group of each conversation a live link ties to others (see
    :func:`~toolexpect.pairing.groups.group_keys`)."""
    conversations: dict[Own, set[Own]] = {}
    for link, linking in pairs:
        conversations.setdefault(link, set())
        for mine in linking:
            conversations.setdefault(mine, set()).add(link)
    return group_keys(conversations.items())


def joined(records: Iterable[Held], pairing: PairingOptions | None) -> list[Joined]:
    """The runs of one group, each tagged with where it began, and the group's ``R410`` notes."""
    records = list(records)
    runs, notes = join_group(records, _by_key(pairing))
    found: list[Joined] = [
        (
            "run",
            first.stage,
            first.log,
            first.order,
            Held(first.stage, first.log, first.order, None, run, first.group),
        )
        for first, run in runs
    ]
    found.extend(("note", "runs", held.log, held.order, (held.noted, note)) for held, note in notes)
    return found


def is_run(item: Joined) -> bool:
    """Whether a joined item is a run (else a note)."""
    return item[0] == "run"


def is_note(item: Joined) -> bool:
    """Whether a joined item is an ``R410`` note."""
    return item[0] == "note"


def part_key(item: Joined) -> int:
    """The part a joined run is scored in: its log, times two, plus its stage (an int, see
    :data:`Own`)."""
    return item[2] * 2 + _KINDS[item[1]]


def with_notes(partial: PartialScore, notes: Iterable[Joined]) -> PartialScore:
    """``partial`` with the ``R410`` notes of the joining among the findings of their logs,
    each where one process puts it: after the findings its log's reader had made when the record
    was read (``Held.noted``)."""
    by_log: dict[int, list[tuple[int, int, Diagnostic]]] = {}
    for _, _, log, order, (noted, note) in notes:
        by_log.setdefault(log, []).append((noted, order, note))
    if not by_log:
        return partial
    parts = []
    for part in partial.parts:
        found = by_log.pop(part.at[0], None) if len(part.at) == 2 and part.at[1] == 0 else None
        if found is None:
            parts.append(part)
            continue
        merged = list(part.diagnostics)
        for shift, (noted, _, note) in enumerate(sorted(found, key=lambda entry: entry[:2])):
            merged.insert(noted + shift, note)
        parts.append(replace(part, diagnostics=tuple(merged)))
    return PartialScore(tuple(parts))


def score_part(
    specs: CompiledSpecs,
    items: tuple[int, Sequence[Joined]],
    logs: int,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore:
    """The partial score of the runs of one stage that began in one log (``logs``: how many logs
    the input has; see module)."""
    _, found = items
    ordered = sorted(found, key=lambda item: item[3])
    _, stage, log = ordered[0][:3]
    at = (logs + LATER.index(stage), log)
    runs = [item[4].sample for item in ordered]
    return score_held(specs, stage, log, runs, at=at, explained=explained, tools=tools, pairing=pairing)


def score_grouped(
    specs: CompiledSpecs,
    partial: PartialScore,
    held: Iterable[Held],
    logs: int,
    *,
    explained: int | None = None,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
) -> PartialScore:
    """The steps of the module over lists, in one process: ``partial`` (the shards' partial
    scores, of ``logs`` logs) with the runs of their ``held`` records, as an engine gives it."""
    parts: dict[int, list[Joined]] = {}
    notes: list[Joined] = []
    for records in groups_of(held, pairing).values():
        for item in joined(records, pairing):
            if is_run(item):
                parts.setdefault(part_key(item), []).append(item)
            else:
                notes.append(item)
    for part in parts.items():
        partial = partial.merge(score_part(specs, part, logs, explained, tools, pairing))
    return with_notes(partial, notes)


def groups_of(held: Iterable[Held], pairing: PairingOptions | None) -> dict[Own, list[Held]]:
    """Steps 1 and 2 of the module over lists: the held records in their groups, by group key."""
    conversations: dict[Own, list[Held]] = {}
    for record in held:
        conversations.setdefault(own(record), []).append(record)
    said: dict[Own, list[tuple[Own, Own | None]]] = {}
    for conversation in conversations.items():
        for entry in link_entries(conversation, pairing):
            said.setdefault(entry[0], []).append(entry)
    groups = unions(pair for entries in said.items() for pair in live_pairs(entries))
    regrouped: dict[Own, list[Held]] = {}
    for mine, records in conversations.items():
        regrouped.setdefault(groups.get(mine, mine), []).extend(records)
    return regrouped
