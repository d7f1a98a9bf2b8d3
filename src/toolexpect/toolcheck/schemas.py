"""Reading a tool's JSON Schema for the checks: the types a node allows, an object's properties,
what a name resolves to ($ref within the catalogue only), and how errors are worded."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from jsonschema.validators import Draft202012Validator, validator_for
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from toolexpect.catalogue import Tool

if TYPE_CHECKING:
    from referencing._core import Resolver


__all__ = [
    "MAX_DEPTH",
    "NUMBER",
    "Node",
    "ToolSchema",
    "child_of",
    "declared",
    "describe_types",
    "lookup",
    "members_of",
    "properties_of",
    "reason_of",
    "schema_for",
    "types_of",
    "unknown_help",
]

MAX_DEPTH = 32
NUMBER = frozenset({"integer", "float"})
_ALL_TYPES = frozenset({"null", "boolean", "integer", "float", "string", "array", "object"})
_TYPE_ATOMS: dict[str, frozenset[str]] = {
    "null": frozenset({"null"}),
    "boolean": frozenset({"boolean"}),
    "integer": frozenset({"integer"}),
    "number": NUMBER,
    "string": frozenset({"string"}),
    "array": frozenset({"array"}),
    "object": frozenset({"object"}),
}
_TYPE_NAMES = {"float": "number"}


@dataclass(frozen=True, slots=True)
class Node:
    """A subschema together with the resolver its ``$ref``s are resolved with."""

    schema: Any
    resolver: Resolver[Any]


class ToolSchema:
    """One tool's parameters schema, ready to resolve references and validate values."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        schema = dict(tool.parameters)
        cls = validator_for(schema, default=Draft202012Validator)
        resource: Resource[Any] = Resource.from_contents(schema, default_specification=DRAFT202012)
        registry: Registry[Any] = Registry()
        self.root = Node(schema, registry.resolver_with_root(resource))
        self.validator: Validator = cls(schema, registry=registry)
        self.object = self.deref(self.root)

    def deref(self, node: Node, depth: int = 0) -> Node:
        """Follow ``$ref`` while it is the node's only constraint."""
        schema = node.schema
        while (
            isinstance(schema, dict)
            and isinstance(schema.get("$ref"), str)
            and depth < MAX_DEPTH
            and not (set(schema) - {"$ref", "description", "title", "$comment"})
        ):
            resolved = node.resolver.lookup(schema["$ref"])
            node = Node(resolved.contents, resolved.resolver)
            schema = node.schema
            depth += 1
        return node

    def errors(self, value: Any, node: Node) -> list[ValidationError]:
        """The schema's reasons for rejecting ``value`` at ``node``; empty when it is valid."""
        validator = self.validator.evolve(schema=node.schema, _resolver=node.resolver)
        try:
            return list(validator.iter_errors(value))
        except (Unresolvable, RecursionError):
            return []  # a reference that loops or fails: nothing can be said about the value


def child_of(node: Node, key: str) -> Node:
    """The sub-schema under ``key`` of ``node``, resolved against the same catalogue."""
    return Node(node.schema[key], node.resolver)


def members_of(node: Node, key: str) -> list[Node]:
    """The sub-schemas listed under ``key`` (``anyOf``, ``oneOf``, ``allOf``, ...) of ``node``."""
    items = node.schema.get(key) if isinstance(node.schema, dict) else None
    return [Node(item, node.resolver) for item in items] if isinstance(items, list) else []


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


def types_of(schemas: ToolSchema, node: Node, depth: int = 0) -> frozenset[str]:
    """The JSON types a subschema admits (``float`` is a number that is not an integer)."""
    schema = node.schema
    if schema is False:
        return frozenset()
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
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
            result &= types_of(schemas, Node(resolved.contents, resolved.resolver), depth + 1)
    for member in members_of(node, "allOf"):
        result &= types_of(schemas, member, depth + 1)
    for key in ("anyOf", "oneOf"):
        members = members_of(node, key)
        if members:
            union: frozenset[str] = frozenset()
            for member in members:
                union |= types_of(schemas, member, depth + 1)
            result &= union
    return result


def describe_types(types: frozenset[str]) -> str:
    """JSON types said for people: ``a string or a number``."""
    if not types:
        return "no value at all"
    names = sorted({_TYPE_NAMES.get(t, t) for t in types} - ({"integer"} if "float" in types else set()))
    if not names:
        return "nothing"
    return " or ".join(names)


def properties_of(schemas: ToolSchema, node: Node) -> tuple[dict[str, Node], Node | None, bool]:
    """An object schema's declared properties, its schema for others, and whether it is open.

    ``open`` is false when ``additionalProperties`` is ``false``, or when properties are
    declared and ``additionalProperties`` does not say: the declared properties are then
    the whole list.
    """
    node = schemas.deref(node)
    found: dict[str, Node] = {}
    extra: Node | None = None
    states: list[str] = []
    pattern_nodes: list[tuple[str, Node]] = []
    for part in [node, *(schemas.deref(m) for m in members_of(node, "allOf"))]:
        schema = part.schema
        if not isinstance(schema, dict):
            continue
        props = schema.get("properties")
        if isinstance(props, dict):
            for key in props:
                found.setdefault(key, Node(props[key], part.resolver))
            states.append("declared")
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict):
            pattern_nodes.extend((p, Node(s, part.resolver)) for p, s in patterns.items())
        additional = schema.get("additionalProperties")
        if additional is False:
            states.append("closed")
        elif additional is True or isinstance(additional, dict):
            states.append("open")
            if isinstance(additional, dict):
                extra = Node(additional, part.resolver)
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
_ANYTHING = Node(True, Registry().resolver())


def lookup(props: dict[str, Node], extra: Node | None, is_open: bool, name: str) -> Node | None:
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


def declared(props: dict[str, Node]) -> list[str]:
    """The argument names an object schema declares (its patterns left out)."""
    return [key for key in props if not key.startswith(_PATTERN_PREFIX)]


def unknown_help(name: str, known: list[str]) -> str:
    """The help for an argument the tool does not take: close names, then what it takes."""
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    takes = ", ".join(known) if known else "no arguments"
    if close:
        return f"did you mean {' or '.join(repr(c) for c in close)}? it takes: {takes}"
    return f"it takes: {takes}"


def reason_of(errors: list[ValidationError]) -> str:
    """The most relevant of jsonschema's errors, as its message."""
    best = best_match(errors)
    return best.message if best is not None else "invalid"


def schema_for(tool: Tool, schemas: dict[str, ToolSchema]) -> ToolSchema:
    """The schema of ``tool``, read once per check and kept in ``schemas``."""
    if tool.name not in schemas:
        schemas[tool.name] = ToolSchema(tool)
    return schemas[tool.name]
