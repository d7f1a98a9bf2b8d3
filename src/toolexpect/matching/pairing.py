"""Pair expected calls with recorded calls: one maximum bipartite matching per run.

docs/language.md asks for a maximum matching, not first-match-wins. :meth:`Plan.of`
prepares a case's expectations once; :meth:`Plan.pair` pairs one run:

1. Calls are bucketed by tool name; each tool's expectations only ever see its bucket.
2. Identical expectations of a tool form one *group* with a capacity (how many they are).
3. Each group's *candidates* are the bucket's calls its test accepts, in call order. For
   a large bucket the candidates of equality matchers come from an index of the calls'
   value keys (the same candidates, found without testing every call against every group).
4. :func:`max_matching` pairs groups with candidates: a greedy start (groups in written
   order, each taking its earliest free candidates), then Hopcroft-Karp phases of
   augmenting paths until the matching is maximum.
5. Argument-less expectations take their tool's calls left free, in order. That keeps the
   matching maximum (m constrained pairs plus min(u, free calls) is largest when m is) and
   gives each call to a specific expectation before one that would take any call of the tool.

Each group's members take its calls in call order. The pairing is deterministic: the same
run always gives the same pairs.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from toolexpect.calls import ToolCall
from toolexpect.matching.matchers import (
    MISSING,
    NO_ARGUMENTS,
    Check,
    CompiledExpectation,
    all_of,
    indexable,
    signature,
)
from toolexpect.matching.values import value_key

__all__ = ["Group", "Pairing", "Plan", "ToolPlan", "max_matching"]

INDEX_THRESHOLD = 64
"""Above this many (groups x calls) tests in a bucket, candidates come from the index."""

@dataclass(frozen=True, slots=True)
class Group:
    """Identical expectations of one tool: their indices, one test, and their index key.

    ``index_names`` are the names of the equality arguments (sorted), ``index_key`` the
    value keys the candidates must have for them (one key, or a tuple for several), and
    ``residual`` the test of the other matchers (``None`` when there are none).
    """

    members: tuple[int, ...]
    check: Check
    index_names: tuple[str, ...]
    index_key: Hashable
    residual: Check | None


@dataclass(frozen=True, slots=True)
class ToolPlan:
    """The expectations of one tool: its groups (numbered from ``first`` in the case's plan)
    and its argument-less expectations."""

    first: int
    groups: tuple[Group, ...]
    universal: tuple[int, ...]


class Pairing(NamedTuple):
    """One run's pairing: the call of each expectation (-1 for none), how many are paired,
    and the call positions of each tool the case names (expected or forbidden)."""

    assigned: list[int]
    matched: int
    by_tool: dict[str, list[int]]


def _group(compiled: CompiledExpectation, members: tuple[int, ...]) -> Group:
    names: list[str] = []
    keys: list[Hashable] = []
    residual: list[Check] = []
    for matcher, check in zip(compiled.expectation.args, compiled.arg_checks, strict=True):
        if indexable(matcher):
            names.append(matcher.name)
            keys.append(value_key(matcher.value))
        else:
            residual.append(check)
    order = sorted(range(len(names)), key=names.__getitem__)
    key: Hashable = keys[order[0]] if len(order) == 1 else tuple(keys[i] for i in order)
    return Group(
        members=members,
        check=compiled.check,
        index_names=tuple(names[i] for i in order),
        index_key=key,
        residual=all_of(residual) if residual else None,
    )


@dataclass(frozen=True, slots=True)
class Plan:
    """A case's expectations made ready to pair: tools, groups and argument-less ones.

    ``groups`` are numbered across tools (each tool's groups together, in written order);
    ``checks``, ``members`` and ``capacity`` hold each group's test, expectations and size.
    ``listed`` are the tools whose call positions a :class:`Pairing` lists.
    """

    tools: Mapping[str, ToolPlan]
    groups: tuple[Group, ...]
    checks: tuple[Check, ...]
    members: tuple[tuple[int, ...], ...]
    capacity: tuple[int, ...]
    universal: tuple[tuple[str, tuple[int, ...]], ...]
    listed: frozenset[str]
    size: int

    @classmethod
    def of(cls, expectations: Sequence[CompiledExpectation], listed: Iterable[str] = ()) -> Plan:
        """The plan of a case's expectations; ``listed`` adds tools to list (forbidden ones)."""
        members: dict[str, dict[Hashable, list[int]]] = {}
        first: dict[tuple[str, Hashable], CompiledExpectation] = {}
        universal: dict[str, list[int]] = {}
        for compiled in expectations:
            expectation = compiled.expectation
            tool = expectation.tool
            found = members.setdefault(tool, {})
            universal.setdefault(tool, [])
            if not expectation.args:
                universal[tool].append(compiled.index)
                continue
            key = tuple(signature(m) for m in expectation.args)
            first.setdefault((tool, key), compiled)
            found.setdefault(key, []).append(compiled.index)
        tools: dict[str, ToolPlan] = {}
        groups: list[Group] = []
        for tool, found in members.items():
            mine = tuple(_group(first[tool, key], tuple(indices)) for key, indices in found.items())
            tools[tool] = ToolPlan(len(groups), mine, tuple(universal[tool]))
            groups.extend(mine)
        return cls(
            tools=tools,
            groups=tuple(groups),
            checks=tuple(g.check for g in groups),
            members=tuple(g.members for g in groups),
            capacity=tuple(len(g.members) for g in groups),
            universal=tuple((tool, tuple(u)) for tool, u in universal.items() if u),
            listed=frozenset(tools) | frozenset(listed),
            size=len(expectations),
        )

    def pair(self, calls: Sequence[ToolCall]) -> Pairing:
        """The maximum pairing of the planned expectations with ``calls`` (steps 1 to 5 above)."""
        listed = self.listed
        by_tool: dict[str, list[int]] = {}
        for position, call in enumerate(calls):
            name = call.name
            if name in listed:
                bucket = by_tool.get(name)
                if bucket is None:
                    by_tool[name] = [position]
                else:
                    bucket.append(position)
        groups = self.groups
        adjacency: list[Sequence[int]] = [()] * len(groups)
        tools = self.tools
        checks = self.checks
        for tool, positions in by_tool.items():
            tool_plan = tools.get(tool)
            if tool_plan is None or not tool_plan.groups:
                continue
            first = tool_plan.first
            count = len(tool_plan.groups)
            if count * len(positions) <= INDEX_THRESHOLD:
                for number in range(first, first + count):
                    check = checks[number]
                    found: list[int] = []
                    for position in positions:
                        call = calls[position]
                        # The arguments matchers see: none where they were not valid JSON.
                        if check(call.arguments if call.valid_json else NO_ARGUMENTS):
                            found.append(position)
                    adjacency[number] = found
            else:
                arguments = [calls[p].arguments if calls[p].valid_json else NO_ARGUMENTS for p in positions]
                for number, local in enumerate(_indexed(tool_plan.groups, arguments), first):
                    adjacency[number] = [positions[j] for j in local]
        owner = max_matching(adjacency, self.capacity, len(calls))
        assigned = [-1] * self.size
        matched = 0
        members = self.members
        taken = [0] * len(groups)
        for position, number in enumerate(owner):
            if number >= 0:
                assigned[members[number][taken[number]]] = position
                taken[number] += 1
                matched += 1
        for tool, universal in self.universal:
            called = by_tool.get(tool)
            if called:
                free = (p for p in called if owner[p] < 0)
                for member, position in zip(universal, free, strict=False):
                    assigned[member] = position
                    matched += 1
        return Pairing(assigned, matched, by_tool)


def _indexed(groups: Sequence[Group], arguments: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """Each group's candidates, through an index of the calls' equality values.

    Calls are indexed by the value keys of the argument names a group tests for equality
    (one index per set of names, built on first need); the group's other matchers are then
    tested on the calls its key finds. Groups without an equality matcher test every call.
    """
    tables: dict[tuple[str, ...], dict[Any, list[int]]] = {}
    columns: dict[str, list[Hashable]] = {}
    adjacency: list[list[int]] = []
    for group in groups:
        names = group.index_names
        if not names:
            check = group.check
            adjacency.append([j for j, args in enumerate(arguments) if check(args)])
            continue
        table = tables.get(names)
        if table is None:
            wanted = []
            for name in names:
                column = columns.get(name)
                if column is None:
                    column = columns[name] = [
                        value_key(args[name]) if name in args else MISSING for args in arguments
                    ]
                wanted.append(column)
            table = tables[names] = _index(len(names), wanted)
        candidates = table.get(group.index_key, [])
        residual = group.residual
        if residual is not None:
            candidates = [j for j in candidates if residual(arguments[j])]
        adjacency.append(candidates)
    return adjacency


def _index(width: int, columns: Sequence[Sequence[Hashable]]) -> dict[Any, list[int]]:
    """Call positions (ascending) by their keys in ``columns``; calls missing one are left out."""
    table: dict[Any, list[int]] = {}
    rows: Iterable[Any] = columns[0] if width == 1 else zip(*columns, strict=True)
    for position, key in enumerate(rows):
        if key is MISSING or (width > 1 and MISSING in key):
            continue
        bucket = table.get(key)
        if bucket is None:
            table[key] = [position]
        else:
            bucket.append(position)
    return table


_UNREACHED = -1
_DEAD = -2


def max_matching(adjacency: Sequence[Sequence[int]], capacity: Sequence[int], size: int) -> list[int]:
    """A maximum matching of groups (with capacities) to ``size`` calls; the owner of each call.

    ``adjacency[g]`` lists group g's candidate calls in ascending order; a call without an
    owner gets -1. Greedy first (groups in order, each taking its earliest free
    candidates), then Hopcroft-Karp phases: a breadth-first search layers the groups by
    their distance from a group with room, and depth-first searches along the layers flip
    vertex-disjoint augmenting paths, each group's edges tried at most once per phase.
    O(edges · sqrt(groups)) in all.
    """
    groups = len(adjacency)
    owner = [-1] * size
    load = [0] * groups
    short = False
    for group, calls in enumerate(adjacency):
        room = capacity[group]
        for call in calls:
            if not room:
                break
            if owner[call] < 0:
                owner[call] = group
                room -= 1
        load[group] = capacity[group] - room
        short = short or room > 0
    while short:
        queue = [g for g in range(groups) if load[g] < capacity[g]]
        dist = [_UNREACHED] * groups
        for group in queue:
            dist[group] = 0
        found = False
        head = 0
        while head < len(queue):
            group = queue[head]
            head += 1
            step = dist[group] + 1
            for call in adjacency[group]:
                holder = owner[call]
                if holder < 0:
                    found = True
                elif dist[holder] == _UNREACHED:
                    dist[holder] = step
                    queue.append(holder)
        if not found:
            break
        pointer = [0] * groups
        progress = False
        for group in range(groups):
            while load[group] < capacity[group] and dist[group] == 0:
                if not _augment(group, adjacency, owner, dist, pointer):
                    break
                load[group] += 1
                progress = True
        short = progress and any(load[g] < capacity[g] for g in range(groups))
    return owner


def _augment(
    start: int,
    adjacency: Sequence[Sequence[int]],
    owner: list[int],
    dist: list[int],
    pointer: list[int],
) -> bool:
    """Flip one augmenting path from ``start`` along the layers; False when there is none.

    A group whose edges are exhausted is marked dead for the rest of the phase.
    """
    stack = [start]
    via: list[int] = []
    while stack:
        group = stack[-1]
        calls = adjacency[group]
        index = pointer[group]
        following = dist[group] + 1
        descended = False
        while index < len(calls):
            call = calls[index]
            holder = owner[call]
            if holder < 0:
                pointer[group] = index + 1
                via.append(call)
                for level, step in enumerate(via):
                    owner[step] = stack[level]
                return True
            if dist[holder] == following:
                pointer[group] = index
                via.append(call)
                stack.append(holder)
                descended = True
                break
            index += 1
        if not descended:
            pointer[group] = index
            dist[group] = _DEAD
            stack.pop()
            if via:
                via.pop()
            if stack:
                pointer[stack[-1]] += 1
    return False
