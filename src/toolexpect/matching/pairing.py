"""Pair expected calls with recorded calls: one maximum bipartite matching per run.

docs/language.md asks for a maximum matching, not first-match-wins. :meth:`Plan.of`
prepares a case's expectations once; :meth:`Plan.pair` pairs one run:

1. Identical expectations of a tool form one *group* with a capacity (how many they are);
   argument-less expectations are set aside. Groups are numbered across the case's tools.
2. The run's calls are bucketed by tool name; a tool's groups only ever see its bucket.
3. Each group's *candidates* are the calls of its bucket that satisfy it, in call order.
   They are found through an equality index made once per case: each call's values of the
   arguments that groups compare to a scalar (``x="Berlin"``, ``n=5``) are looked up, as
   value keys, in a table of the groups that want those values; only the groups found there
   test their other matchers. Groups without such a matcher test every call of the bucket.
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

_SCALARS = (str, int, float, bool, type(None))

Hits = tuple[tuple[int, Check | None], ...]
"""Groups found under one key: (group number, the test of its other matchers or ``None``)."""


@dataclass(frozen=True, slots=True)
class Group:
    """Identical expectations of one tool: their indices, their test, and their index entry.

    ``key_names`` are the (sorted) names of the arguments the group compares to a scalar,
    ``key`` the value keys it wants for them (one key, or a tuple for several), and
    ``residual`` the test of its other matchers (``None`` when there are none).
    """

    members: tuple[int, ...]
    check: Check
    key_names: tuple[str, ...]
    key: Hashable
    residual: Check | None


@dataclass(frozen=True, slots=True)
class ToolPlan:
    """The expectations of one tool: its groups' index (a table of groups per set of key
    names), the groups without a key, and the argument-less expectations."""

    keyed: tuple[tuple[tuple[str, ...], Mapping[Hashable, Hits]], ...]
    unkeyed: tuple[tuple[int, Check], ...]
    universal: tuple[int, ...]


class Pairing(NamedTuple):
    """One run's pairing: the call of each expectation (-1 for none), how many are paired,
    and the call positions of each tool the case names (expected or forbidden)."""

    assigned: list[int]
    matched: int
    by_tool: dict[str, list[int]]


def _keyable(value: Any) -> bool:
    """An expected value a table key can stand for: a scalar of a JSON type, not NaN."""
    return type(value) in _SCALARS and value == value


def _group(compiled: CompiledExpectation, members: tuple[int, ...]) -> Group:
    names: list[str] = []
    keys: list[Hashable] = []
    residual: list[Check] = []
    for matcher, check in zip(compiled.expectation.args, compiled.arg_checks, strict=True):
        if indexable(matcher) and _keyable(matcher.value):
            names.append(matcher.name)
            keys.append(value_key(matcher.value))
        else:
            residual.append(check)
    order = sorted(range(len(names)), key=names.__getitem__)
    key: Hashable = keys[order[0]] if len(order) == 1 else tuple(keys[i] for i in order)
    return Group(
        members=members,
        check=compiled.check,
        key_names=tuple(names[i] for i in order),
        key=key,
        residual=all_of(residual) if residual else None,
    )


def _tool_plan(groups: Sequence[Group], first: int, universal: tuple[int, ...]) -> ToolPlan:
    tables: dict[tuple[str, ...], dict[Hashable, list[tuple[int, Check | None]]]] = {}
    unkeyed: list[tuple[int, Check]] = []
    for number, group in enumerate(groups, first):
        if group.key_names:
            table = tables.setdefault(group.key_names, {})
            table.setdefault(group.key, []).append((number, group.residual))
        else:
            unkeyed.append((number, group.check))
    keyed = tuple((names, {k: tuple(found) for k, found in table.items()}) for names, table in tables.items())
    return ToolPlan(keyed, tuple(unkeyed), universal)


def _call_key(arguments: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    """The key of a call's values of ``names``, as the tables hold keys; ``MISSING`` when a
    name is missing or its value is not a scalar (no table holds such a key)."""
    parts = []
    for name in names:
        value = arguments.get(name, MISSING)
        kind = type(value)
        if kind is int or isinstance(value, str):
            parts.append(value)  # its own value key
        elif kind is float or kind is bool or value is None:
            parts.append(value_key(value))
        else:
            return MISSING
    return parts[0] if len(parts) == 1 else tuple(parts)


@dataclass(frozen=True, slots=True)
class Plan:
    """A case's expectations made ready to pair.

    ``groups`` are numbered across tools (each tool's groups together, in written order);
    ``members`` and ``capacity`` hold each group's expectations and their count.
    ``universal`` lists each tool's argument-less expectations; ``listed`` are the tools
    whose call positions a :class:`Pairing` lists.
    """

    tools: Mapping[str, ToolPlan]
    groups: tuple[Group, ...]
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
            mine = [_group(first[tool, key], tuple(indices)) for key, indices in found.items()]
            tools[tool] = _tool_plan(mine, len(groups), tuple(universal[tool]))
            groups.extend(mine)
        return cls(
            tools=tools,
            groups=tuple(groups),
            members=tuple(g.members for g in groups),
            capacity=tuple(len(g.members) for g in groups),
            universal=tuple((tool, tuple(u)) for tool, u in universal.items() if u),
            listed=frozenset(tools) | frozenset(listed),
            size=len(expectations),
        )

    def pair(self, calls: Sequence[ToolCall]) -> Pairing:
        """The maximum pairing of the planned expectations with ``calls`` (steps 2 to 5 above)."""
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
        adjacency: list[list[int]] = [[] for _ in self.groups]
        tools = self.tools
        for tool, positions in by_tool.items():
            tool_plan = tools.get(tool)
            if tool_plan is None:
                continue
            keyed = tool_plan.keyed
            unkeyed = tool_plan.unkeyed
            if not keyed and not unkeyed:
                continue
            for position in positions:
                call = calls[position]
                # The arguments matchers see: none where they were not valid JSON.
                arguments = call.arguments if call.valid_json else NO_ARGUMENTS
                for names, table in keyed:
                    hits = table.get(_call_key(arguments, names))
                    if hits is not None:
                        for number, residual in hits:
                            if residual is None or residual(arguments):
                                adjacency[number].append(position)
                for number, check in unkeyed:
                    if check(arguments):
                        adjacency[number].append(position)
        owner = max_matching(adjacency, self.capacity, len(calls))
        assigned = [-1] * self.size
        matched = 0
        members = self.members
        taken = [0] * len(members)
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
