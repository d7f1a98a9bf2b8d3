"""The typed model of a spec: frozen, slotted dataclasses built from a valid document.

Nothing here knows about lark or jsonschema. ``from_document`` is the only way in: it
takes a canonical JSON document that ``toolexpect.schema`` has already validated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias, cast

from toolexpect.diagnostics import Span

__all__ = [
    "ArgMatcher",
    "Case",
    "CountRequirement",
    "Expectation",
    "Json",
    "KeyMatch",
    "Op",
    "PartialObject",
    "Pattern",
    "Spec",
    "arg_to_json",
    "count_to_json",
    "expectation_to_json",
    "from_document",
    "holds_matchers",
    "pattern_from_json",
    "pattern_to_json",
]

Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None
"""A JSON value as Python holds it: ``int`` and ``float`` kept apart."""


@dataclass(frozen=True, slots=True)
class PartialObject:
    """An object pattern written with ``...``: the actual object holds at least these keys."""

    entries: Mapping[str, Pattern]


@dataclass(frozen=True, slots=True)
class KeyMatch:
    """The matchers of one key of an object pattern, in place of its value: ``city ~ "^Ber"``
    in ``location={city ~ "^Ber", ...}``. Each is an :class:`ArgMatcher` named after the key,
    with the forms of an argument (``1 <= limit <= 50`` is two); all of them must hold."""

    matchers: tuple[ArgMatcher, ...]


Pattern: TypeAlias = (
    bool | int | float | str | list["Pattern"] | dict[str, "Pattern"] | PartialObject | KeyMatch | None
)
"""A JSON value in which some objects may be partial and some keys matched by matchers
(a :class:`KeyMatch` stands only as the value of an object's key)."""


class Op(StrEnum):
    """What an argument matcher checks; the values are the document's ``op`` strings."""

    EQ = "eq"
    NE = "ne"
    ANY = "any"
    IN = "in"
    REGEX = "regex"
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    APPROX = "approx"
    ABSENT = "absent"
    PARTIAL = "partial"
    CONTAINS = "contains"


COMPARISONS = frozenset({Op.LT, Op.LE, Op.GT, Op.GE})


@dataclass(frozen=True, slots=True)
class ArgMatcher:
    """One argument of an expectation: its name, what it checks and where it was written.

    ``value`` is the literal for ``eq`` and ``ne``, the bound for comparisons, the centre for
    ``approx``, the pattern for ``partial`` and the element (or substring) for ``contains``;
    ``values`` the choices of ``in``;
    ``pattern`` the RE2 source of ``regex``. ``optional`` is the ``name?`` form.
    """

    name: str
    op: Op
    value: Pattern = None
    values: tuple[Json, ...] = ()
    pattern: str = ""
    tolerance: int | float = 0
    optional: bool = False
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Expectation:
    """An expected (forbidden, allowed) call: a tool name and the arguments it must carry."""

    tool: str
    args: tuple[ArgMatcher, ...] = ()
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class CountRequirement:
    """``require at most 3 calls of search``: how many of a run's calls may match ``call``.

    ``call`` is ``None`` for every call of the run; ``at_least`` and ``at_most`` are the
    bounds, either ``None`` when not written (``exactly n`` is both ``n``).
    """

    at_least: int | None = None
    at_most: int | None = None
    call: Expectation | None = None
    span: Span | None = field(default=None, compare=False)

    def holds(self, count: int) -> bool:
        """True when ``count`` matching calls meet both bounds."""
        return (self.at_least is None or count >= self.at_least) and (
            self.at_most is None or count <= self.at_most
        )


def count_to_json(count: CountRequirement) -> dict[str, Any]:
    """The document node of a count requirement (without spans)."""
    node: dict[str, Any] = {"kind": "count"}
    if count.at_least is not None:
        node["at_least"] = count.at_least
    if count.at_most is not None:
        node["at_most"] = count.at_most
    if count.call is not None:
        node["call"] = expectation_to_json(count.call)
    return node


@dataclass(frozen=True, slots=True)
class Case:
    """A named case: what to expect of one recorded run, and what it takes to pass."""

    name: str
    expectations: tuple[Expectation, ...] = ()
    forbids: tuple[Expectation, ...] = ()
    question: str | None = None
    threshold: float = 1.0
    pass_rate: float | None = None
    threshold_strict: bool = False
    """``require accuracy > t``: the score must pass the threshold, not only reach it."""
    pass_rate_strict: bool = False
    """``require pass rate > r``: the pass rate must pass ``r``, not only reach it."""
    no_unexpected_calls: bool = False
    no_tool_calls: bool = False
    ordered: bool = False
    chains: tuple[tuple[int, ...], ...] = ()
    implicit: bool = False
    accuracy_required: bool = False
    counts: tuple[CountRequirement, ...] = ()
    """The count requirements (``require at most 3 calls of search``), in the order written."""
    allows: tuple[Expectation, ...] = ()
    """The allowed calls (``allow list_files``): a call matching one that no expectation is
    paired with is neither expected nor unexpected; ``forbid`` wins where both match."""
    span: Span | None = field(default=None, compare=False)
    requirement_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False)

    def requirement_span(self, kind: str) -> Span | None:
        """Where the requirement ``kind`` (``accuracy``, ``no_unexpected_calls``, ``no_tool_calls``,
        ``order``, ``pass_rate``) was written, else the case's own span."""
        for written, span in self.requirement_spans:
            if written == kind:
                return span
        return self.span


@dataclass(frozen=True, slots=True)
class Spec:
    """A spec file: its cases, in the order written."""

    cases: tuple[Case, ...]
    path: str | None = field(default=None, compare=False)

    def case(self, name: str) -> Case:
        """The case called ``name``; ``KeyError`` when there is none."""
        for case in self.cases:
            if case.name == name:
                return case
        raise KeyError(name)


def _span(node: Mapping[str, Any]) -> Span | None:
    raw = node.get("span")
    return Span.from_json(raw) if raw else None


def pattern_from_json(value: Any) -> Pattern:
    """Turn a document value with ``{"$partial": …}`` objects and ``{"$match": […]}`` entries
    into a pattern.

    ``{"$literal": v}`` stands for ``v`` taken literally, for the rare object whose only
    key is ``$partial``, ``$literal`` or ``$match``. A ``$match`` stands as the value of an
    object's key: a list of matcher nodes (an argument's, without ``name``).
    """
    if isinstance(value, dict):
        if len(value) == 1 and "$partial" in value and isinstance(value["$partial"], dict):
            return PartialObject({k: _entry_from_json(k, v) for k, v in value["$partial"].items()})
        if len(value) == 1 and "$literal" in value:
            return cast(Pattern, _copy_json(value))
        return {k: _entry_from_json(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [pattern_from_json(v) for v in value]
    return cast(Pattern, _copy_json(value))


def _entry_from_json(key: str, value: Any) -> Pattern:
    """The pattern of an object's key: its matchers (``{"$match": […]}``) or its value."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("$match"), list):
        return KeyMatch(tuple(_arg({**node, "name": key}) for node in value["$match"]))
    return pattern_from_json(value)


def holds_matchers(value: Pattern) -> bool:
    """True when a pattern is no plain value: it holds a partial object or a key's matchers."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, PartialObject | KeyMatch):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _copy_json(value: Any) -> Json:
    """A document value as the value it means: ``{"$literal": {...}}`` is the object inside."""
    if isinstance(value, dict):
        if len(value) == 1 and "$literal" in value and isinstance(value["$literal"], dict):
            value = value["$literal"]
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value  # type: ignore[no-any-return]


def pattern_to_json(value: Pattern) -> Any:
    """The document value of a pattern: the inverse of :func:`pattern_from_json`."""
    if isinstance(value, PartialObject):
        return {"$partial": {k: pattern_to_json(v) for k, v in value.entries.items()}}
    if isinstance(value, KeyMatch):
        nodes = [arg_to_json(m) for m in value.matchers]
        for node in nodes:
            del node["name"]
        return {"$match": nodes}
    if isinstance(value, dict):
        inner = {k: pattern_to_json(v) for k, v in value.items()}
        if (
            len(inner) == 1
            and next(iter(inner)) in ("$partial", "$literal", "$match")
            and not isinstance(next(iter(value.values())), KeyMatch)
        ):
            return {"$literal": inner}
        return inner
    if isinstance(value, list):
        return [pattern_to_json(v) for v in value]
    return value


def arg_to_json(matcher: ArgMatcher) -> dict[str, Any]:
    """The document node of an argument matcher (without its span)."""
    op = matcher.op
    node: dict[str, Any] = {"name": matcher.name, "op": op.value}
    if op is Op.IN:
        node["values"] = [pattern_to_json(cast(Pattern, v)) for v in matcher.values]
    elif op is Op.REGEX:
        node["pattern"] = matcher.pattern
    elif op is not Op.ANY and op is not Op.ABSENT:
        node["value"] = pattern_to_json(matcher.value)
        if op is Op.APPROX:
            node["tolerance"] = matcher.tolerance
    if matcher.optional:
        node["optional"] = True
    return node


def expectation_to_json(expectation: Expectation) -> dict[str, Any]:
    """The document node of an expected call (without spans): what ``format`` writes."""
    node: dict[str, Any] = {"tool": expectation.tool}
    if expectation.args:
        node["args"] = [arg_to_json(m) for m in expectation.args]
    return node


_PATTERNED = frozenset({Op.EQ, Op.PARTIAL, Op.NE, Op.CONTAINS})
"""The matchers whose value is a pattern (it may hold partial objects and keys' matchers)."""


def _arg(node: Mapping[str, Any]) -> ArgMatcher:
    op = Op(node["op"])
    value: Pattern = None
    if op in _PATTERNED:
        value = pattern_from_json(node["value"])
        if op is Op.EQ and holds_matchers(value):  # a JSON spec may write eq for a pattern
            op = Op.PARTIAL
    elif "value" in node:
        value = cast(Pattern, _copy_json(node["value"]))
    return ArgMatcher(
        name=node["name"],
        op=op,
        value=value,
        values=tuple(_copy_json(v) for v in node.get("values", ())),
        pattern=node.get("pattern", ""),
        tolerance=node.get("tolerance", 0),
        optional=bool(node.get("optional", False)),
        span=_span(node),
    )


def _call(node: Mapping[str, Any]) -> Expectation:
    return Expectation(
        tool=node["tool"],
        args=tuple(_arg(a) for a in node.get("args", ())),
        span=_span(node),
    )


def _case(node: Mapping[str, Any]) -> Case:
    threshold = 1.0
    pass_rate: float | None = None
    strict = {"accuracy": False, "pass_rate": False}
    flags = {"no_unexpected_calls": False, "no_tool_calls": False, "order": False}
    spans: list[tuple[str, Span]] = []
    counts: list[CountRequirement] = []
    for req in node.get("require", ()):
        kind = req["kind"]
        span = _span(req)
        if kind == "count":
            call = req.get("call")
            low, high = req.get("at_least"), req.get("at_most")
            counts.append(
                CountRequirement(  # the schema takes 3.0 for an integer: the count is 3
                    at_least=int(low) if low is not None else None,
                    at_most=int(high) if high is not None else None,
                    call=_call(call) if call is not None else None,
                    span=span,
                )
            )
            continue
        if span is not None:
            spans.append((kind, span))
        if kind == "accuracy":
            threshold = req["threshold"]
            strict[kind] = req.get("op") == ">"
        elif kind == "pass_rate":
            pass_rate = req["threshold"]
            strict[kind] = req.get("op") == ">"
        else:
            flags[kind] = True
    return Case(
        name=node["name"],
        expectations=tuple(_call(e) for e in node.get("expect", ())),
        forbids=tuple(_call(f) for f in node.get("forbid", ())),
        question=node.get("question"),
        threshold=threshold,
        pass_rate=pass_rate,
        threshold_strict=strict["accuracy"],
        pass_rate_strict=strict["pass_rate"],
        no_unexpected_calls=flags["no_unexpected_calls"],
        no_tool_calls=flags["no_tool_calls"],
        ordered=flags["order"],
        chains=tuple(tuple(chain) for chain in node.get("chains", ())),
        implicit=bool(node.get("implicit", False)),
        accuracy_required=any(r["kind"] == "accuracy" for r in node.get("require", ())),
        counts=tuple(counts),
        allows=tuple(_call(a) for a in node.get("allow", ())),
        span=_span(node),
        requirement_spans=tuple(spans),
    )


def from_document(document: Mapping[str, Any], path: str | None = None) -> Spec:
    """Build the model from a canonical document that has passed schema validation."""
    return Spec(cases=tuple(_case(c) for c in document["cases"]), path=path)
