"""Python modules read statically as catalogues: each public top-level function is a tool.

The module is read with ``ast``: signatures, type annotations, enums, ``TypedDict``s, dataclasses
and pydantic models are understood from the source text, and none of its code runs.
"""

from __future__ import annotations

import ast
import contextlib
import os
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from toolexpect.catalogue.model import Catalogue, Tool, fail
from toolexpect.diagnostics import Span

__all__ = ["parse_python_catalogue", "python_source"]



def python_source(name: str, file: Path) -> Path:
    """The source file of a catalogue given as a ``.py`` path or as an importable module name
    (found on the module search path without importing anything)."""
    if file.suffix == ".py" or os.sep in name or "/" in name:
        return file
    search: list[str] | None = None
    spec = None
    parts = name.split(".")
    for index, part in enumerate(parts):
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            raise fail(
                f"no Python module {'.'.join(parts[: index + 1])!r} on the module search path",
                name,
                help="give a module importable from here, or a path to a .py file",
            )
        locations = spec.submodule_search_locations
        search = list(locations) if locations is not None else None
        if search is None and index < len(parts) - 1:
            raise fail(f"{'.'.join(parts[: index + 1])!r} is not a package", name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise fail(f"module {name!r} has no Python source file to read", name)
    return Path(spec.origin)


def parse_python_catalogue(text: str, *, path: str | None = None) -> Catalogue:
    """Build a catalogue from Python source: each public top-level function is a tool."""
    try:
        module = ast.parse(text, filename=path or "<catalogue>")
    except SyntaxError as error:
        span = Span.point(error.lineno, error.offset or 1) if error.lineno else None
        raise fail(
            f"the catalogue module is not valid Python: {error.msg}", path, span=span
        ) from None
    exported = _dunder_all(module)
    types = _Types(module)
    tools: dict[str, Tool] = {}
    for node in module.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        public = node.name in exported if exported is not None else not node.name.startswith("_")
        if public:
            tools[node.name] = _function_tool(node, types)
    if not tools:
        raise fail(
            "the catalogue module defines no public functions",
            path,
            help="each public top-level function (or each name in __all__) becomes a tool",
        )
    return Catalogue(tools=tools, path=path, format="python")


def _dunder_all(module: ast.Module) -> set[str] | None:
    for node in module.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            try:
                names = ast.literal_eval(node.value)
            except ValueError:
                return None
            return {n for n in names if isinstance(n, str)}
    return None


def _function_tool(node: ast.FunctionDef | ast.AsyncFunctionDef, types: _Types) -> Tool:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults.extend(args.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    properties: dict[str, Any] = {}
    required: list[str] = []
    for arg, default in pairs:
        schema = types.schema(arg.annotation) if arg.annotation is not None else {}
        if default is None:
            required.append(arg.arg)
        else:
            schema = _with_default(schema, default)
        properties[arg.arg] = schema
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    parameters["additionalProperties"] = args.kwarg is not None
    docstring = ast.get_docstring(node) or ""
    description = docstring.split("\n\n", 1)[0].strip()
    return Tool(name=node.name, parameters=parameters, description=description)


def _with_default(schema: dict[str, Any], default: ast.expr) -> dict[str, Any]:
    """``schema`` with the literal ``default`` added; unchanged when it is not a literal."""
    with contextlib.suppress(ValueError, TypeError, SyntaxError, RecursionError):
        return {**schema, "default": ast.literal_eval(default)}
    return schema


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


def _name_of(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return None


def _decorator_name(node: ast.expr) -> str | None:
    return _name_of(node.func) if isinstance(node, ast.Call) else _name_of(node)


class _Types:
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
                if isinstance(target, ast.Name) and _is_annotation_like(node.value):
                    self.aliases[target.id] = node.value
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and _name_of(node.annotation) == "TypeAlias"
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
        name = _name_of(node)
        if name is None:
            return {}
        if isinstance(node, ast.Name) and name not in _SIMPLE:
            return self._named(name)
        return dict(_SIMPLE.get(name, {}))

    def _subscript(self, node: ast.Subscript) -> dict[str, Any]:
        base = _name_of(node.value)
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
            name = _name_of(base)
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
            return _enum_schema(node, bases)
        dataclass = any(_decorator_name(d) == "dataclass" for d in node.decorator_list)
        if not (bases & _MODEL_BASES or dataclass):
            return {}
        properties: dict[str, Any] = {}
        required: list[str] = []
        for cls in self._lineage(node):
            total = not any(
                k.arg == "total" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in cls.keywords
            )
            for key, annotation, has_default, default in _fields(cls):
                properties[key] = self.schema(annotation)
                wrapper = _name_of(annotation.value) if isinstance(annotation, ast.Subscript) else None
                if default is not None:
                    properties[key] = _with_default(properties[key], default)
                needed = not has_default and (
                    wrapper == "Required" or (total and wrapper != "NotRequired")
                )
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
                name = _name_of(base)
                if name in self.classes:
                    visit(self.classes[name])
            chain.append(cls)

        visit(node)
        return chain


def _is_annotation_like(node: ast.expr) -> bool:
    """Whether a module-level value reads as a type alias (``Literal[...]``, ``A | B``, ...)."""
    if isinstance(node, ast.Subscript):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)


def _fields(cls: ast.ClassDef) -> list[tuple[str, ast.expr, bool, ast.expr | None]]:
    """Annotated fields of a class body: name, annotation, whether it has a default, the default.

    The default is the literal expression to show, when there is one (``field(default_factory=...)``
    has a default but none to show).
    """
    fields: list[tuple[str, ast.expr, bool, ast.expr | None]] = []
    for statement in cls.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        annotation = statement.annotation
        head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        if _name_of(head) == "ClassVar" or statement.target.id.startswith("_"):
            continue
        value = statement.value
        if isinstance(value, ast.Call) and _name_of(value.func) in ("field", "Field"):
            has_default, value = _field_default(value)
        else:
            has_default = value is not None
        fields.append((statement.target.id, annotation, has_default, value))
    return fields


def _field_default(call: ast.Call) -> tuple[bool, ast.expr | None]:
    """Whether ``field(...)``/``Field(...)`` gives a default, and its expression if it shows one."""
    for keyword in call.keywords:
        if keyword.arg == "default":
            return True, keyword.value
        if keyword.arg in ("default_factory", "factory"):
            return True, None
    if call.args and not (isinstance(call.args[0], ast.Constant) and call.args[0].value is ...):
        return True, call.args[0]
    return False, None


def _enum_schema(node: ast.ClassDef, bases: set[str]) -> dict[str, Any]:
    """``{"enum": [...]}`` of an ``Enum`` class's member values; ``{}`` when one is not literal.

    ``auto()`` gives what the standard library gives: the lower-cased name in a ``StrEnum``, the
    next power of two in a ``Flag``, and otherwise one more than the last integer value.
    """
    values: list[Any] = []
    flag = bool(bases & {"Flag", "IntFlag"})
    last = 0
    for statement in node.body:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target = statement.targets[0]
        if not isinstance(target, ast.Name) or target.id.startswith("_"):
            continue
        value = statement.value
        if isinstance(value, ast.Call) and _name_of(value.func) == "auto":
            if "StrEnum" in bases:
                values.append(target.id.lower())
                continue
            last = (1 << last.bit_length()) if flag else last + 1
            values.append(last)
            continue
        try:
            literal = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return {}
        if isinstance(literal, tuple | set | complex | bytes):
            return {}
        values.append(literal)
        if isinstance(literal, int) and not isinstance(literal, bool):
            last = literal
    return {"enum": values} if values else {}


def _union(members: list[dict[str, Any]]) -> dict[str, Any]:
    if any(member == {} for member in members):
        return {}
    simple = [m["type"] for m in members if set(m) == {"type"} and isinstance(m["type"], str)]
    if len(simple) == len(members):
        unique = sorted(set(simple), key=simple.index)
        return {"type": unique[0] if len(unique) == 1 else unique}
    return {"anyOf": members}
