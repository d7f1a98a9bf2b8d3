"""Type annotations to JSON Schemas, knowing the classes and aliases a catalogue module defines.

Read from the syntax tree only (``ast``): builtin and ``typing`` names, ``Literal``, unions,
containers, and the module's own enums, ``TypedDict``s, dataclasses, pydantic models and aliases.
"""

from __future__ import annotations

import ast
from typing import Any

from toolexpect.catalogue.syntax import (
    decorator_name,
    enum_schema,
    fields_of,
    is_annotation_like,
    name_of,
    with_default,
)

__all__ = ["TypeSchemas"]

_SIMPLE: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "list": {"type": "array"},
    "List": {"type": "array"},
    "Sequence": {"type": "array"},
    "tuple": {"type": "array"},
    "Tuple": {"type": "array"},
    "set": {"type": "array", "uniqueItems": True},
    "Set": {"type": "array", "uniqueItems": True},
    "frozenset": {"type": "array", "uniqueItems": True},
    "dict": {"type": "object"},
    "Dict": {"type": "object"},
    "Mapping": {"type": "object"},
    "None": {"type": "null"},
    "NoneType": {"type": "null"},
    "Any": {},
    "object": {},
}

_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
_MODEL_BASES = frozenset({"BaseModel", "TypedDict"})
_WRAPPERS = frozenset({"Required", "NotRequired", "ReadOnly", "Final"})


class TypeSchemas:
    """Turns annotations into JSON Schemas, knowing the classes and aliases the module defines.

    Only the module's own syntax is read: ``Enum`` subclasses become ``enum`` of their values,
    ``TypedDict`` classes, ``@dataclass`` classes and pydantic ``BaseModel`` subclasses become
    objects with their annotated fields, and ``Name = <annotation>`` aliases are followed.
    A class that refers to itself, directly or not, is ``{}`` (any value) where it recurs.
    """

    def __init__(self, module: ast.Module) -> None:
        self.classes: dict[str, ast.ClassDef] = {}
        self.aliases: dict[str, ast.expr] = {}
        for node in module.body:
            if isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and is_annotation_like(node.value):
                    self.aliases[target.id] = node.value
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and name_of(node.annotation) == "TypeAlias"
                and node.value is not None
            ):
                self.aliases[node.target.id] = node.value
        self._open: set[str] = set()

    def schema(self, node: ast.expr) -> dict[str, Any]:
        """The JSON Schema of a type annotation, read from its syntax tree; ``{}`` when unknown."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return {}
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return _union([self.schema(node.left), self.schema(node.right)])
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        name = name_of(node)
        if name is None:
            return {}
        if isinstance(node, ast.Name) and name not in _SIMPLE:
            return self._named(name)
        return dict(_SIMPLE.get(name, {}))

    def _subscript(self, node: ast.Subscript) -> dict[str, Any]:
        base = name_of(node.value)
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base == "Literal":
            values = []
            for item in items:
                try:
                    values.append(ast.literal_eval(item))
                except ValueError:
                    return {}
            return {"enum": values}
        if base == "Optional":
            return _union([self.schema(items[0]), {"type": "null"}])
        if base == "Union":
            return _union([self.schema(item) for item in items])
        if base == "Annotated" or base in _WRAPPERS:
            return self.schema(items[0])
        if base in ("list", "List", "Sequence", "set", "Set", "frozenset", "FrozenSet"):
            return {**_SIMPLE.get(base, {"type": "array"}), "items": self.schema(items[0])}
        if base in ("tuple", "Tuple"):
            if len(items) == 2 and isinstance(items[1], ast.Constant) and items[1].value is ...:
                return {"type": "array", "items": self.schema(items[0])}
            return {
                "type": "array",
                "prefixItems": [self.schema(item) for item in items],
                "items": False,
            }
        if base in ("dict", "Dict", "Mapping") and len(items) == 2:
            return {"type": "object", "additionalProperties": self.schema(items[1])}
        return dict(_SIMPLE.get(base or "", {}))

    def _named(self, name: str) -> dict[str, Any]:
        if name in self._open:
            return {}
        self._open.add(name)
        try:
            if name in self.aliases:
                return self.schema(self.aliases[name])
            if name in self.classes:
                return self._class(self.classes[name])
            return {}
        finally:
            self._open.discard(name)

    def _bases(self, node: ast.ClassDef) -> set[str]:
        """Names of the class's bases, with those of its bases defined in the module."""
        names: set[str] = set()
        for base in node.bases:
            name = name_of(base)
            if name is None:
                continue
            names.add(name)
            parent = self.classes.get(name)
            if parent is not None and parent is not node and name not in self._open:
                self._open.add(name)
                try:
                    names |= self._bases(parent)
                finally:
                    self._open.discard(name)
        return names

    def _class(self, node: ast.ClassDef) -> dict[str, Any]:
        bases = self._bases(node)
        if bases & _ENUM_BASES:
            return enum_schema(node, bases)
        dataclass = any(decorator_name(d) == "dataclass" for d in node.decorator_list)
        if not (bases & _MODEL_BASES or dataclass):
            return {}
        properties: dict[str, Any] = {}
        required: list[str] = []
        for cls in self._lineage(node):
            total = not any(
                k.arg == "total" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in cls.keywords
            )
            for key, annotation, has_default, default in fields_of(cls):
                properties[key] = self.schema(annotation)
                wrapper = name_of(annotation.value) if isinstance(annotation, ast.Subscript) else None
                if default is not None:
                    properties[key] = with_default(properties[key], default)
                needed = not has_default and (wrapper == "Required" or (total and wrapper != "NotRequired"))
                if needed and key not in required:
                    required.append(key)
                elif not needed and key in required:
                    required.remove(key)
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema

    def _lineage(self, node: ast.ClassDef) -> list[ast.ClassDef]:
        """The class and those of its bases the module defines, base classes first."""
        chain: list[ast.ClassDef] = []
        seen: set[str] = set()

        def visit(cls: ast.ClassDef) -> None:
            if cls.name in seen:
                return
            seen.add(cls.name)
            for base in cls.bases:
                name = name_of(base)
                if name in self.classes:
                    visit(self.classes[name])
            chain.append(cls)

        visit(node)
        return chain


def _union(members: list[dict[str, Any]]) -> dict[str, Any]:
    if any(member == {} for member in members):
        return {}
    simple = [m["type"] for m in members if set(m) == {"type"} and isinstance(m["type"], str)]
    if len(simple) == len(members):
        unique = sorted(set(simple), key=simple.index)
        return {"type": unique[0] if len(unique) == 1 else unique}
    return {"anyOf": members}
