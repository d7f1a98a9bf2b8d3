"""Check specs and recorded calls against a tool catalogue: pure, no I/O, no printing.

``check_spec`` finds what in a spec can never match a call the catalogue allows: an unknown
tool (``T500``), an unknown argument (``T501``), a literal the parameter's JSON Schema
rejects (``T502``), a matcher that cannot match the parameter's type (``T503``) and, as a
warning, a ``forbid`` of a tool the catalogue lacks (``T504``). Each diagnostic sits at the
span of the expectation or argument it is about.

``check_calls`` finds recorded calls that break their tool's schema. Its findings are
separate from any accuracy score.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from jsonschema.validators import Draft202012Validator, validator_for
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from toolexpect.calls import ToolCall
from toolexpect.catalogue import Catalogue, Tool
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.model import COMPARISONS, ArgMatcher, Expectation, Op, PartialObject, Pattern, Spec

if TYPE_CHECKING:
    from referencing._core import Resolver

__all__ = ["CallFinding", "check_calls", "check_spec"]

_MAX_DEPTH = 32
_NUMBER = frozenset({"integer", "float"})
_ALL_TYPES = frozenset({"null", "boolean", "integer", "float", "string", "array", "object"})
_TYPE_ATOMS: dict[str, frozenset[str]] = {
    "null": frozenset({"null"}),
    "boolean": frozenset({"boolean"}),
    "integer": frozenset({"integer"}),
    "number": _NUMBER,
    "string": frozenset({"string"}),
    "array": frozenset({"array"}),
    "object": frozenset({"object"}),
}
_TYPE_NAMES = {"float": "number"}


@dataclass(frozen=True, slots=True)
class CallFinding:
    """A recorded call that breaks its tool's schema: which call, tool and argument, and why."""

    index: int
    tool: str
    argument: str | None
    message: str


# -- schema access -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Node:
    """A subschema together with the resolver its ``$ref``s are resolved with."""

    schema: Any
    resolver: Resolver[Any]


class _ToolSchema:
    """One tool's parameters schema, ready to resolve references and validate values."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        schema = dict(tool.parameters)
        cls = validator_for(schema, default=Draft202012Validator)
        resource: Resource[Any] = Resource.from_contents(schema, default_specification=DRAFT202012)
        registry: Registry[Any] = Registry()
        self.root = _Node(schema, registry.resolver_with_root(resource))
        self.validator: Validator = cls(schema, registry=registry)
        self.object = self.deref(self.root)

    def deref(self, node: _Node, depth: int = 0) -> _Node:
        """Follow ``$ref`` while it is the node's only constraint."""
        schema = node.schema
        while (
            isinstance(schema, dict)
            and isinstance(schema.get("$ref"), str)
            and depth < _MAX_DEPTH
            and not (set(schema) - {"$ref", "description", "title", "$comment"})
        ):
            resolved = node.resolver.lookup(schema["$ref"])
            node = _Node(resolved.contents, resolved.resolver)
            schema = node.schema
            depth += 1
        return node

    def errors(self, value: Any, node: _Node) -> list[ValidationError]:
        """The schema's reasons for rejecting ``value`` at ``node``; empty when it is valid."""
        validator = self.validator.evolve(schema=node.schema, _resolver=node.resolver)
        try:
            return list(validator.iter_errors(value))
        except (Unresolvable, RecursionError):
            return []  # a reference that loops or fails: nothing can be said about the value


def _child(node: _Node, key: str) -> _Node:
    return _Node(node.schema[key], node.resolver)


def _members(node: _Node, key: str) -> list[_Node]:
    items = node.schema.get(key) if isinstance(node.schema, dict) else None
    return [_Node(item, node.resolver) for item in items] if isinstance(items, list) else []


def _value_types(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset({"null"})
    if isinstance(value, bool):
        return frozenset({"boolean"})
    if isinstance(value, int):
        return frozenset({"integer"})
    if isinstance(value, float):
        return frozenset({"integer", "float"}) if value.is_integer() else frozenset({"float"})
    if isinstance(value, str):
        return frozenset({"string"})
    if isinstance(value, list):
        return frozenset({"array"})
    return frozenset({"object"})


def _types(schemas: _ToolSchema, node: _Node, depth: int = 0) -> frozenset[str]:
    """The JSON types a subschema admits (``float`` is a number that is not an integer)."""
    schema = node.schema
    if schema is False:
        return frozenset()
    if not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return _ALL_TYPES
    result = _ALL_TYPES
    declared = schema.get("type")
    if isinstance(declared, str):
        declared = [declared]
    if isinstance(declared, list):
        allowed: frozenset[str] = frozenset()
        for name in declared:
            allowed |= _TYPE_ATOMS.get(name, frozenset()) if isinstance(name, str) else allowed
        if schema.get("nullable") is True:
            allowed |= {"null"}
        result &= allowed
    if "const" in schema:
        result &= _value_types(schema["const"])
    if isinstance(schema.get("enum"), list):
        enum_types: frozenset[str] = frozenset()
        for value in schema["enum"]:
            enum_types |= _value_types(value)
        result &= enum_types
    if isinstance(schema.get("$ref"), str):
        try:
            resolved = node.resolver.lookup(schema["$ref"])
        except Unresolvable:
            pass
        else:
            result &= _types(schemas, _Node(resolved.contents, resolved.resolver), depth + 1)
    for member in _members(node, "allOf"):
        result &= _types(schemas, member, depth + 1)
    for key in ("anyOf", "oneOf"):
        members = _members(node, key)
        if members:
            union: frozenset[str] = frozenset()
            for member in members:
                union |= _types(schemas, member, depth + 1)
            result &= union
    return result


def _describe_types(types: frozenset[str]) -> str:
    if not types:
        return "no value at all"
    names = sorted(
        {_TYPE_NAMES.get(t, t) for t in types} - ({"integer"} if "float" in types else set())
    )
    if not names:
        return "nothing"
    return " or ".join(names)


def _properties(schemas: _ToolSchema, node: _Node) -> tuple[dict[str, _Node], _Node | None, bool]:
    """An object schema's declared properties, its schema for others, and whether it is open.

    ``open`` is false when ``additionalProperties`` is ``false``, or when properties are
    declared and ``additionalProperties`` does not say: the declared properties are then
    the whole list.
    """
    node = schemas.deref(node)
    found: dict[str, _Node] = {}
    extra: _Node | None = None
    states: list[str] = []
    pattern_nodes: list[tuple[str, _Node]] = []
    for part in [node, *(schemas.deref(m) for m in _members(node, "allOf"))]:
        schema = part.schema
        if not isinstance(schema, dict):
            continue
        props = schema.get("properties")
        if isinstance(props, dict):
            for key in props:
                found.setdefault(key, _Node(props[key], part.resolver))
            states.append("declared")
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict):
            pattern_nodes.extend((p, _Node(s, part.resolver)) for p, s in patterns.items())
        additional = schema.get("additionalProperties")
        if additional is False:
            states.append("closed")
        elif additional is True or isinstance(additional, dict):
            states.append("open")
            if isinstance(additional, dict):
                extra = _Node(additional, part.resolver)
    if "open" in states:
        is_open = True
    elif "closed" in states or "declared" in states:
        is_open = False
    else:
        is_open = True  # nothing declared: the schema does not say which names exist
    if pattern_nodes:
        return {**found, **{_PATTERN_PREFIX + p: n for p, n in pattern_nodes}}, extra, is_open
    return found, extra, is_open


_PATTERN_PREFIX = "\0pattern:"
_ANYTHING = _Node(True, Registry().resolver())


def _lookup(props: dict[str, _Node], extra: _Node | None, is_open: bool, name: str) -> _Node | None:
    """The subschema for argument ``name``; ``None`` when the schema does not allow the name."""
    if name in props:
        return props[name]
    for key, node in props.items():
        if key.startswith(_PATTERN_PREFIX):
            try:
                if re.search(key[len(_PATTERN_PREFIX) :], name):
                    return node
            except re.error:
                continue
    if extra is not None:
        return extra
    return _ANYTHING if is_open else None


def _declared(props: dict[str, _Node]) -> list[str]:
    return [key for key in props if not key.startswith(_PATTERN_PREFIX)]


def _unknown_help(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    takes = ", ".join(known) if known else "no arguments"
    if close:
        return f"did you mean {' or '.join(repr(c) for c in close)}? it takes: {takes}"
    return f"it takes: {takes}"


def _reason(errors: list[ValidationError]) -> str:
    best = best_match(errors)
    return best.message if best is not None else "invalid"


# -- check_spec ----------------------------------------------------------------------------


def check_spec(spec: Spec, catalogue: Catalogue) -> list[Diagnostic]:
    """Report what in ``spec`` can never match a call that ``catalogue`` allows."""
    schemas: dict[str, _ToolSchema] = {}
    found: list[Diagnostic] = []
    for case in spec.cases:
        for expectation in case.expectations:
            found.extend(_check_expectation(expectation, catalogue, schemas, forbid=False))
        for forbidden in case.forbids:
            found.extend(_check_expectation(forbidden, catalogue, schemas, forbid=True))
    if spec.path is not None:
        found = [d.with_path(spec.path) for d in found]
    return found


def _schema_for(tool: Tool, schemas: dict[str, _ToolSchema]) -> _ToolSchema:
    if tool.name not in schemas:
        schemas[tool.name] = _ToolSchema(tool)
    return schemas[tool.name]


def _check_expectation(
    expectation: Expectation,
    catalogue: Catalogue,
    schemas: dict[str, _ToolSchema],
    *,
    forbid: bool,
) -> Iterator[Diagnostic]:
    tool = catalogue.get(expectation.tool)
    if tool is None:
        close = difflib.get_close_matches(expectation.tool, list(catalogue.names), n=3)
        help = (
            f"did you mean {' or '.join(repr(c) for c in close)}?"
            if close
            else "add the tool to the catalogue, or check its spelling"
        )
        if forbid:
            yield make(
                "T504",
                f"forbidden tool {expectation.tool!r} is not in the catalogue, so no call can"
                " match this forbid",
                expectation.span,
                help=help,
            )
        else:
            yield make(
                "T500",
                f"tool {expectation.tool!r} is not in the catalogue",
                expectation.span,
                help=help,
            )
        return
    schemas_for_tool = _schema_for(tool, schemas)
    try:
        props, extra, is_open = _properties(schemas_for_tool, schemas_for_tool.root)
    except Unresolvable:
        return
    for arg in expectation.args:
        target = _lookup(props, extra, is_open, arg.name)
        if target is None:
            if arg.op is Op.ABSENT:
                continue  # `not x` of an undeclared argument checks it was not hallucinated
            yield make(
                "T501",
                f"tool {tool.name!r} has no argument {arg.name!r}",
                arg.span,
                help=_unknown_help(arg.name, _declared(props)),
            )
            continue
        if target.schema is True:
            continue
        yield from _check_matcher(arg, tool.name, target, schemas_for_tool)


def _check_matcher(
    arg: ArgMatcher, tool: str, node: _Node, schemas: _ToolSchema
) -> Iterator[Diagnostic]:
    where = f"argument {arg.name!r} of {tool!r}"
    try:
        types = _types(schemas, node)
        resolved = schemas.deref(node)
    except Unresolvable:
        return
    op = arg.op
    span = arg.span
    if op in (Op.ANY, Op.ABSENT):
        return
    if op is Op.EQ:
        yield from _check_pattern(arg.value, node, where, span, schemas)
    elif op is Op.IN:
        for value in arg.values:
            errors = schemas.errors(value, node)
            if errors:
                yield make(
                    "T503",
                    f"choice {_show(value)} of `in` can never match {where}: {_reason(errors)}",
                    span,
                    help="remove the choice, or fix it to a value the schema allows",
                )
    elif op is Op.REGEX:
        if "string" not in types:
            yield make(
                "T503",
                f"`~` matches only strings, but {where} takes {_describe_types(types)}",
                span,
                help="compare with `=`, `in` or a bound instead",
            )
    elif op in COMPARISONS or op is Op.APPROX:
        symbol = "+-" if op is Op.APPROX else op.value
        if not types & _NUMBER:
            yield make(
                "T503",
                f"`{symbol}` matches only numbers, but {where} takes {_describe_types(types)}",
                span,
                help="compare with `=`, `in` or `~` instead",
            )
        else:
            problem = _range_problem(arg, resolved.schema)
            if problem:
                yield make(
                    "T502",
                    f"no value the schema allows for {where} satisfies this matcher: {problem}",
                    span,
                    help="change the bound to one inside the parameter's range",
                )
    elif op is Op.PARTIAL:
        yield from _check_pattern(arg.value, node, where, span, schemas)


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _has_partial(pattern: Pattern) -> bool:
    if isinstance(pattern, PartialObject):
        return True
    if isinstance(pattern, dict):
        return any(_has_partial(v) for v in pattern.values())
    if isinstance(pattern, list):
        return any(_has_partial(v) for v in pattern)
    return False


def _check_pattern(
    pattern: Pattern,
    node: _Node,
    where: str,
    span: Span | None,
    schemas: _ToolSchema,
) -> Iterator[Diagnostic]:
    """Check a literal (which may hold partial objects) against the subschema at ``node``."""
    if not _has_partial(pattern):
        errors = schemas.errors(pattern, node)
        if errors:
            yield make(
                "T502",
                f"value {_show(pattern)} of {where} breaks its schema: {_reason(errors)}",
                span,
                help="use a value the tool's schema allows",
            )
        return
    types = _types(schemas, node)
    if isinstance(pattern, PartialObject | dict):
        if "object" not in types:
            yield make(
                "T503",
                f"an object pattern cannot match {where}, which takes {_describe_types(types)}",
                span,
                help="compare with a value of the parameter's type",
            )
            return
        entries = pattern.entries if isinstance(pattern, PartialObject) else pattern
        props, extra, is_open = _properties(schemas, _object_branch(schemas, node))
        for key, value in entries.items():
            target = _lookup(props, extra, is_open, key)
            if target is None:
                yield make(
                    "T501",
                    f"{where} has no key {key!r} in its object schema",
                    span,
                    help=_unknown_help(key, _declared(props)),
                )
            elif target.schema is not True:
                yield from _check_pattern(value, target, f"key {key!r} of {where}", span, schemas)
    elif isinstance(pattern, list):
        if "array" not in types:
            yield make(
                "T503",
                f"a list pattern cannot match {where}, which takes {_describe_types(types)}",
                span,
            )
            return
        resolved = schemas.deref(node)
        schema = resolved.schema if isinstance(resolved.schema, dict) else {}
        prefix_items = schema.get("prefixItems")
        prefix: list[Any] = prefix_items if isinstance(prefix_items, list) else []
        for index, item in enumerate(pattern):
            if index < len(prefix):
                item_node = _Node(prefix[index], resolved.resolver)
            elif isinstance(schema.get("items"), dict | bool):
                item_node = _child(resolved, "items")
            else:
                continue
            if item_node.schema is True:
                continue
            yield from _check_pattern(item, item_node, f"item {index} of {where}", span, schemas)


def _object_branch(schemas: _ToolSchema, node: _Node, depth: int = 0) -> _Node:
    """The node that describes the object: the node itself, or its only object alternative.

    ``Optional[dict]`` and ``{"anyOf": [{"type": "object", …}, {"type": "null"}]}`` keep
    their properties in one ``anyOf``/``oneOf`` branch.
    """
    resolved = schemas.deref(node)
    schema = resolved.schema
    if (
        not isinstance(schema, dict)
        or {"properties", "additionalProperties"} & set(schema)
        or depth > _MAX_DEPTH
    ):
        return resolved
    for key in ("anyOf", "oneOf"):
        branches = [m for m in _members(resolved, key) if "object" in _types(schemas, m)]
        if len(branches) == 1:
            return _object_branch(schemas, branches[0], depth + 1)
    return resolved


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _range_problem(arg: ArgMatcher, schema: Any) -> str | None:
    """Why no number the schema's bounds allow satisfies the comparison, if none does."""
    if not isinstance(schema, dict):
        return None
    low = _number(schema.get("minimum"))
    high = _number(schema.get("maximum"))
    xlow = _number(schema.get("exclusiveMinimum"))
    xhigh = _number(schema.get("exclusiveMaximum"))
    bound = _number(arg.value)
    if bound is None or math.isnan(bound):
        return None
    op = arg.op
    text = f"`{arg.name} {op.value} {_show(arg.value)}`"
    if op is Op.APPROX:
        tolerance = float(arg.tolerance)
        lo, hi = bound - tolerance, bound + tolerance
        text = f"`{arg.name} = {_show(arg.value)} +- {arg.tolerance}`"
        if (high is not None and lo > high) or (xhigh is not None and lo >= xhigh):
            return f"{text}, but the maximum is {_limit(high, xhigh)}"
        if (low is not None and hi < low) or (xlow is not None and hi <= xlow):
            return f"{text}, but the minimum is {_limit(low, xlow)}"
        return None
    if op in (Op.GE, Op.GT):
        strict = op is Op.GT
        if (high is not None and (high < bound or (strict and high == bound))) or (
            xhigh is not None and xhigh <= bound
        ):
            return f"{text}, but the maximum is {_limit(high, xhigh)}"
    if op in (Op.LE, Op.LT):
        strict = op is Op.LT
        if (low is not None and (low > bound or (strict and low == bound))) or (
            xlow is not None and xlow >= bound
        ):
            return f"{text}, but the minimum is {_limit(low, xlow)}"
    return None


def _limit(inclusive: float | None, exclusive: float | None) -> str:
    if exclusive is not None and (inclusive is None or exclusive <= inclusive):
        return f"{_fmt(exclusive)} (exclusive)"
    return _fmt(inclusive) if inclusive is not None else "?"


def _fmt(number: float) -> str:
    return str(int(number)) if number.is_integer() else str(number)


# -- check_calls ---------------------------------------------------------------------------


def check_calls(calls: Sequence[ToolCall], catalogue: Catalogue) -> list[CallFinding]:
    """Find recorded calls that break their tool's schema (unknown tool or argument, bad value)."""
    schemas: dict[str, _ToolSchema] = {}
    findings: list[CallFinding] = []
    for index, call in enumerate(calls):
        findings.extend(_check_call(index, call, catalogue, schemas))
    return findings


def _check_call(
    index: int, call: ToolCall, catalogue: Catalogue, schemas: dict[str, _ToolSchema]
) -> Iterator[CallFinding]:
    tool = catalogue.get(call.name)
    if tool is None:
        if call.kind == "function":
            close = difflib.get_close_matches(call.name, list(catalogue.names), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield CallFinding(
                index, call.name, None, f"tool {call.name!r} is not in the catalogue" + hint
            )
        return
    if not call.valid_json:
        yield CallFinding(index, call.name, None, "the arguments are not valid JSON")
        return
    schema = _schema_for(tool, schemas)
    arguments = dict(call.arguments)
    try:
        props, extra, is_open = _properties(schema, schema.root)
    except Unresolvable:
        return
    unknown = [name for name in arguments if _lookup(props, extra, is_open, name) is None]
    for name in unknown:
        yield CallFinding(
            index,
            call.name,
            name,
            f"argument {name!r} is not a parameter of {call.name!r}; "
            + _unknown_help(name, _declared(props)),
        )
    errors = schema.errors(arguments, schema.root)
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        if error.validator == "additionalProperties" and not error.absolute_path:
            continue  # the unknown arguments, reported above
        if error.validator == "required" and not error.absolute_path:
            required = error.validator_value if isinstance(error.validator_value, list) else []
            for name in required:
                if isinstance(name, str) and name not in arguments:
                    yield CallFinding(
                        index, call.name, name, f"required argument {name!r} is missing"
                    )
            continue
        path = list(error.absolute_path)
        argument = str(path[0]) if path else None
        if argument in unknown:
            continue
        yield CallFinding(index, call.name, argument, _call_message(argument, error))


def _call_message(argument: str | None, error: ValidationError) -> str:
    best = best_match([error]) or error
    if argument is None:
        return best.message
    return f"argument {argument!r} breaks its schema: {best.message}"
