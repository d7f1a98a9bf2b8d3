"""Pair expected calls with recorded calls: one maximum bipartite matching per run.

docs/language.md asks for a maximum matching, not first-match-wins. :meth:`Plan.of`
prepares a case's expectations once; :meth:`Plan.pair` pairs one run:

1. Identical expectations of a tool form one *group* with a capacity (how many they are);
   argument-less expectations are set aside. Groups are numbered across the case's tools.
2. The run's calls are bucketed by tool name; a tool's groups only ever see its bucket.
3. Each group's *candidates* are the calls of its bucket that satisfy it, in call order.
   They are found through an equality index made once per case: each group that compares
   arguments to scalars (``x="Berlin"``, ``n=5``) is filed under the names of all those
   arguments and the value keys it wants there, together (and under its lists and objects too,
   ``tags=["a"]``, where many groups want the same scalars). A call looks up
   its values of each filed set of names in that set's table; only the groups found there,
   which want exactly those values, test their other matchers (so a call meets few groups
   however many expectations share one of its values). A group without such a matcher that
   searches an argument with a regular expression is filed under that argument in an RE2 set
   of the tool's patterns: one search of a call's value finds every such group whose pattern
   it matches, and only those test the call. The groups left test every call of the bucket.
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

import re2

from toolexpect.calls import ToolCall
from toolexpect.matching.matchers import (
    MISSING,
    NO_ARGUMENTS,
    Check,
    CompiledExpectation,
    all_of,
    cost,
    indexable,
    searchable,
    signature,
)
from toolexpect.matching.values import value_key
from toolexpect.model import ArgMatcher, Op

__all__ = ["Group", "Pairing", "Plan", "ToolPlan", "max_matching"]

_SCALARS = (str, int, float, bool, type(None))

Hits = tuple[tuple[int, Check | None], ...]
"""Groups found under one key: (group number, the test of its other matchers or ``None``)."""


@dataclass(frozen=True, slots=True)
class Group:
    """Identical expectations of one tool: their indices, their test, and their index entry.

    ``key_names`` are the arguments the group is indexed by (empty for a group without an
    equality matcher on a plain value), ``key`` the value keys it wants there, and
    ``residual`` the test of its other matchers (``None`` when there are none). ``pattern`` is, for a
    group without a key, an argument it searches with a regular expression and that
    expression, ``(name, pattern)``, by which it is found in the tool's RE2 set.
    """

    members: tuple[int, ...]
    check: Check
    key_names: tuple[str, ...]
    key: tuple[Hashable, ...]
    residual: Check | None
    pattern: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class ToolPlan:
    """The expectations of one tool: its groups' index (a table of groups per set of
    argument names), the groups without a key, and the argument-less expectations.

    ``tested`` is false when no group of the tool tests a call (a tool only forbidden, or
    only expected without arguments): its calls are then only listed.
    """

    keyed: tuple[tuple[tuple[str, ...], Mapping[tuple[Hashable, ...], Hits]], ...]
    unkeyed: tuple[tuple[int, Check], ...]
    universal: tuple[int, ...]
    tested: bool
    patterned: tuple[tuple[str, Any, tuple[tuple[int, Check], ...]], ...] = ()
    """Per argument name: an RE2 set of the patterns groups search it with, and the groups
    (number, test) in the order of their patterns in the set."""


class Pairing(NamedTuple):
    """One run's pairing: the call of each expectation (-1 for none), how many are paired,
    and the call positions of each tool the case names (expected or forbidden)."""

    assigned: list[int]
    matched: int
    by_tool: dict[str, list[int]]


_CROWDED = 8
"""How many of a tool's groups may want the same scalar values before they are filed under
their lists and objects too (see :func:`_tool_groups`)."""


def _keyable(value: Any, containers: bool) -> bool:
    """An expected value a table key can stand for: a scalar of a JSON type, not NaN; with
    ``containers``, also a list or an object holding only such values (no pattern inside)."""
    kind = type(value)
    if kind in _SCALARS:
        return bool(value == value)
    if not containers:
        return False
    if kind is list or kind is tuple:
        return all(_keyable(item, True) for item in value)
    if kind is dict:
        return all(_keyable(item, True) for item in value.values())
    return False


def _group(compiled: CompiledExpectation, members: tuple[int, ...], containers: bool = False) -> Group:
    """The group of ``compiled``'s expectations, indexed by all its equalities on scalars (and,
    with ``containers``, on lists and objects); an argument compared twice is tested the second
    time."""
    names: list[str] = []
    key: list[Hashable] = []
    residual: list[tuple[ArgMatcher, Check]] = []
    for matcher, check in zip(compiled.expectation.args, compiled.arg_checks, strict=True):
        if indexable(matcher) and _keyable(matcher.value, containers) and matcher.name not in names:
            names.append(matcher.name)
            key.append(value_key(matcher.value))
        else:
            residual.append((matcher, check))
    residual.sort(key=lambda pair: cost(pair[0]))
    order = sorted(range(len(names)), key=names.__getitem__)
    pattern = None
    if not names:
        searched = [m for m in compiled.expectation.args if m.op is Op.REGEX and not m.optional]
        pattern = next(((m.name, m.pattern) for m in searched if searchable(m.pattern)), None)
    return Group(
        members=members,
        check=compiled.check,
        key_names=tuple(names[i] for i in order),
        key=tuple(key[i] for i in order),
        residual=all_of([check for _, check in residual]) if residual else None,
        pattern=pattern,
    )


def _tool_groups(found: Mapping[Hashable, tuple[CompiledExpectation, list[int]]]) -> list[Group]:
    """The groups of one tool's expectations (each kind once, with its members).

    Each group is filed under its equalities on scalars. Where more than :data:`_CROWDED`
    groups want the same scalars (they differ in lists or objects), those groups are filed
    under their lists and objects too, so that a call meets few of them; elsewhere a call's
    lists and objects are not encoded to be looked up, which would cost more than testing the
    few groups found.
    """
    groups = [_group(first, tuple(indices)) for first, indices in found.values()]
    crowd: dict[tuple[tuple[str, ...], tuple[Hashable, ...]], int] = {}
    for group in groups:
        crowd[group.key_names, group.key] = crowd.get((group.key_names, group.key), 0) + 1
    return [
        _group(first, group.members, True) if crowd[group.key_names, group.key] > _CROWDED else group
        for group, (first, _) in zip(groups, found.values(), strict=True)
    ]


def _tool_plan(groups: Sequence[Group], first: int, universal: tuple[int, ...]) -> ToolPlan:
    tables: dict[tuple[str, ...], dict[tuple[Hashable, ...], list[tuple[int, Check | None]]]] = {}
    unkeyed: list[tuple[int, Check]] = []
    searched: dict[str, list[tuple[str, int, Check]]] = {}
    for number, group in enumerate(groups, first):
        if group.key_names:
            table = tables.setdefault(group.key_names, {})
            table.setdefault(group.key, []).append((number, group.residual))
        elif group.pattern is not None:
            name, pattern = group.pattern
            searched.setdefault(name, []).append((pattern, number, group.check))
        else:
            unkeyed.append((number, group.check))
    keyed = tuple((name, {k: tuple(found) for k, found in table.items()}) for name, table in tables.items())
    patterned = []
    for name, found in searched.items():
        if len(found) == 1:  # one pattern: a set saves nothing
            unkeyed.append((found[0][1], found[0][2]))
            continue
        patterns = re2.Set.SearchSet()
        for pattern, _, _ in found:
            patterns.Add(pattern)
        patterns.Compile()
        patterned.append((name, patterns, tuple((number, check) for _, number, check in found)))
    unkeyed.sort(key=lambda pair: pair[0])
    return ToolPlan(keyed, tuple(unkeyed), universal, bool(keyed or unkeyed or patterned), tuple(patterned))


def _probe_key(value: Any) -> Any:
    """The table key of a recorded value that is not a plain ``str`` or ``int`` (those
    are their own keys); ``MISSING`` for a value no table holds."""
    kind = type(value)
    if kind is float or kind is bool or value is None or kind is list or kind is dict:
        return value_key(value)
    if isinstance(value, str):
        return value
    return MISSING


@dataclass(frozen=True, slots=True)
class Plan:
    """A case's expectations made ready to pair.

    ``groups`` are numbered across tools (each tool's groups together, in written order);
    ``members`` and ``capacity`` hold each group's expectations and their count.
    ``tools`` holds a plan for each tool the case names (forbidden-only tools included, so
    their calls are listed); ``universal`` lists each tool's argument-less expectations.
    """

    tools: Mapping[str, ToolPlan]
    groups: tuple[Group, ...]
    members: tuple[tuple[int, ...], ...]
    capacity: tuple[int, ...]
    universal: tuple[tuple[str, tuple[int, ...]], ...]
    size: int

    @classmethod
    def of(cls, expectations: Sequence[CompiledExpectation], listed: Iterable[str] = ()) -> Plan:
        """The plan of a case's expectations; ``listed`` adds tools to list (forbidden ones)."""
        members: dict[str, dict[Hashable, tuple[CompiledExpectation, list[int]]]] = {}
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
            found.setdefault(key, (compiled, []))[1].append(compiled.index)
        tools: dict[str, ToolPlan] = {}
        groups: list[Group] = []
        for tool, found in members.items():
            mine = _tool_groups(found)
            tools[tool] = _tool_plan(mine, len(groups), tuple(universal[tool]))
            groups.extend(mine)
        for tool in listed:
            tools.setdefault(tool, ToolPlan((), (), (), False))
        return cls(
            tools=tools,
            groups=tuple(groups),
            members=tuple(g.members for g in groups),
            capacity=tuple(len(g.members) for g in groups),
            universal=tuple((tool, tuple(u)) for tool, u in universal.items() if u),
            size=len(expectations),
        )

    def pair(self, calls: Sequence[ToolCall]) -> Pairing:
        """The maximum pairing of the planned expectations with ``calls`` (steps 2 to 5 above).

        One pass over the calls lists each named tool's calls and finds their groups; calls
        of tools the case does not name are passed over.
        """
        tools = self.tools
        by_tool: dict[str, list[int]] = {}
        adjacency: list[list[int]] = [[] for _ in self.groups]
        position = -1
        for call in calls:
            position += 1
            name = call.name
            tool_plan = tools.get(name)
            if tool_plan is None:
                continue
            bucket = by_tool.get(name)
            if bucket is None:
                by_tool[name] = [position]
            else:
                bucket.append(position)
            if not tool_plan.tested:
                continue
            # The arguments matchers see: none where they were not valid JSON.
            arguments = call.arguments if call.valid_json else NO_ARGUMENTS
            for key_names, table in tool_plan.keyed:
                probe = []
                for key_name in key_names:
                    value = arguments.get(key_name, MISSING)
                    kind = type(value)
                    probe.append(value if kind is str or kind is int else _probe_key(value))
                hits = table.get(tuple(probe))
                if hits is not None:
                    for number, residual in hits:
                        if residual is None or residual(arguments):
                            adjacency[number].append(position)
            for key_name, patterns, searching in tool_plan.patterned:
                value = arguments.get(key_name)
                if type(value) is str:
                    for slot in patterns.Match(value.encode("utf-8", "surrogatepass")) or ():
                        number, check = searching[slot]
                        if check(arguments):
                            adjacency[number].append(position)
            for number, check in tool_plan.unkeyed:
                if check(arguments):
                    adjacency[number].append(position)
        owner = max_matching(adjacency, self.capacity, len(calls))
        assigned = [-1] * self.size
        matched = 0
        members = self.members
        taken = [0] * len(members)
        for call_position, number in enumerate(owner):
            if number >= 0:
                assigned[members[number][taken[number]]] = call_position
                taken[number] += 1
                matched += 1
        for tool, universal in self.universal:
            called = by_tool.get(tool)
            if called:
                free = (p for p in called if owner[p] < 0)
                for member, call_position in zip(universal, free, strict=False):
                    assigned[member] = call_position
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
