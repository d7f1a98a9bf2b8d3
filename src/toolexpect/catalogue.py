"""Tool catalogues: the tools an application offers its model, read into one typed form.

A catalogue is read from an OpenAI ``tools`` list (Chat Completions or the flat
Responses-API form), an Anthropic ``tools`` list, an MCP ``tools/list`` result (bare or
inside a JSON-RPC response), each as JSON or YAML, or from a Python module whose public
functions are the tools. The Python module is read with ``ast``: its signatures and type
annotations are parsed statically and none of its code runs.

Anything that cannot be read raises ``CatalogueError``, which carries one ``T505``
diagnostic naming the file and what was expected.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

import yaml
from jsonschema.exceptions import SchemaError
from jsonschema.validators import Draft202012Validator, validator_for
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from toolexpect.diagnostics import Diagnostic, Span, make

__all__ = [
    "FORMATS",
    "Catalogue",
    "CatalogueError",
    "Tool",
    "catalogue_from_data",
    "load_catalogue",
    "parse_catalogue",
    "parse_python_catalogue",
]

FORMATS: tuple[str, ...] = ("auto", "openai", "responses", "anthropic", "mcp", "python")
"""The catalogue formats ``load_catalogue`` accepts for ``fmt``."""

_EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_DATA_SUFFIXES = (".json", ".yaml", ".yml")
_EXPECTED = {
    "openai": '{"type": "function", "function": {"name": …, "parameters": {…}}}',
    "responses": '{"type": "function", "name": …, "parameters": {…}}',
    "anthropic": '{"name": …, "input_schema": {…}}',
    "mcp": '{"name": …, "inputSchema": {…}}',
}


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool: its name, the JSON Schema of its arguments object, and its description."""

    name: str
    parameters: Mapping[str, Any] = field(default_factory=lambda: dict(_EMPTY_PARAMETERS))
    description: str = ""


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The tools of one catalogue file, by name, with the format they were read from."""

    tools: Mapping[str, Tool]
    path: str | None = field(default=None, compare=False)
    format: str = "auto"

    def __contains__(self, name: object) -> bool:
        """Whether the catalogue declares a tool called ``name``."""
        return name in self.tools

    def __len__(self) -> int:
        """How many tools the catalogue declares."""
        return len(self.tools)

    def get(self, name: str) -> Tool | None:
        """The tool called ``name``, or ``None``."""
        return self.tools.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        """The tool names, in the order the catalogue lists them."""
        return tuple(self.tools)


class CatalogueError(Exception):
    """A catalogue that cannot be read; ``diagnostic`` is the ``T505`` finding."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _fail(
    message: str, path: str | None, *, span: Span | None = None, help: str | None = None
) -> CatalogueError:
    where = f"{path}: " if path else ""
    return CatalogueError(make("T505", where + message, span, help=help, path=path))


# -- entry point ---------------------------------------------------------------------------


def load_catalogue(path: str, fmt: str = "auto") -> Catalogue:
    """Read the catalogue at ``path`` (a JSON/YAML file, a ``.py`` file or a module name)."""
    if fmt not in FORMATS:
        raise _fail(
            f"unknown catalogue format {fmt!r}",
            path,
            help="use one of: " + ", ".join(FORMATS),
        )
    file = Path(path)
    if fmt == "python" or (fmt == "auto" and _looks_like_python(path, file)):
        source_path = _python_source(path, file)
        text = _read_text(source_path)
        return parse_python_catalogue(text, path=str(source_path))
    text = _read_text(file)
    return parse_catalogue(text, fmt, path=path)


def _looks_like_python(path: str, file: Path) -> bool:
    if file.suffix == ".py":
        return True
    if file.suffix.lower() in _DATA_SUFFIXES or file.exists():
        return False
    return bool(_MODULE_NAME.match(path)) and PathFinder.find_spec(path.split(".")[0]) is not None


def _read_text(file: Path) -> str:
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise _fail(
            "no such catalogue file", str(file), help="check the path given to --tools"
        ) from None
    except OSError as error:
        raise _fail(f"cannot read the catalogue: {error.strerror}", str(file)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _fail(f"the catalogue is not UTF-8 text (byte {error.start})", str(file)) from None


def parse_catalogue(text: str, fmt: str = "auto", *, path: str | None = None) -> Catalogue:
    """Read a catalogue from JSON or YAML text; ``fmt`` forces one of ``FORMATS``."""
    if fmt == "python":
        return parse_python_catalogue(text, path=path)
    suffix = Path(path).suffix.lower() if path else ""
    data: Any
    if suffix in (".yaml", ".yml"):
        data = _parse_yaml(text, path)
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            if suffix == ".json":
                raise _fail(
                    f"the catalogue is not valid JSON: {error.msg}",
                    path,
                    span=Span.point(error.lineno, error.colno),
                ) from None
            data = _parse_yaml(text, path)
    return catalogue_from_data(data, fmt, path=path)


def _parse_yaml(text: str, path: str | None) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        span = Span.point(mark.line + 1, mark.column + 1) if mark is not None else None
        problem = getattr(error, "problem", None) or str(error)
        raise _fail(
            f"the catalogue is neither valid JSON nor valid YAML: {problem}", path, span=span
        ) from None


# -- JSON / YAML forms ---------------------------------------------------------------------


def catalogue_from_data(data: Any, fmt: str = "auto", *, path: str | None = None) -> Catalogue:
    """Build a catalogue from decoded JSON/YAML data in one of the provider forms."""
    if fmt not in FORMATS or fmt == "python":
        raise _fail(f"unknown catalogue format {fmt!r} for JSON or YAML data", path)
    entries, where = _entries(data, path)
    tools: dict[str, Tool] = {}
    detected: set[str] = set()
    for index, entry in enumerate(entries):
        place = f"{where}[{index}]"
        tool, form = _tool_from_entry(entry, fmt, place, path)
        if tool is None:
            continue
        detected.add(form)
        if tool.name in tools:
            raise _fail(
                f"tool {tool.name!r} is declared twice (again at {place})",
                path,
                help="tool names must be unique within a catalogue",
            )
        _check_schema(tool, place, path)
        tools[tool.name] = tool
    if fmt == "auto":
        fmt = detected.pop() if len(detected) == 1 else "auto"
    return Catalogue(tools=tools, path=path, format=fmt)


def _entries(data: Any, path: str | None) -> tuple[list[Any], str]:
    where = "tools"
    if isinstance(data, dict) and isinstance(data.get("result"), dict) and "jsonrpc" in data:
        data = data["result"]
        where = "result.tools"
    if isinstance(data, dict) and "tools" in data:
        data = data["tools"]
    if not isinstance(data, list):
        kind = type(data).__name__ if data is not None else "an empty document"
        raise _fail(
            f"expected a list of tools (or an object with a 'tools' list), found {kind}",
            path,
            help="write an OpenAI or Anthropic `tools` list, or an MCP tools/list result",
        )
    return data, where


def _detect(entry: Mapping[str, Any]) -> str | None:
    if isinstance(entry.get("function"), dict):
        return "openai"
    if "inputSchema" in entry:
        return "mcp"
    if "input_schema" in entry:
        return "anthropic"
    if entry.get("type") == "function" and "name" in entry:
        return "responses"
    return None


def _tool_from_entry(entry: Any, fmt: str, place: str, path: str | None) -> tuple[Tool | None, str]:
    if not isinstance(entry, dict):
        raise _fail(f"{place} is not an object", path, help="each tool is a JSON object")
    form = _detect(entry)
    if form is None:
        kind = entry.get("type")
        if (
            fmt in ("auto", "anthropic", "responses")
            and isinstance(kind, str)
            and kind
            not in (
                "function",
                "custom",
            )
        ):
            # A provider's built-in tool (web_search, code_interpreter, …): no schema to check.
            name = entry.get("name")
            if isinstance(name, str) and name:
                return Tool(name=name, parameters={}), fmt
            return None, fmt
        if fmt == "anthropic" and isinstance(entry.get("name"), str):
            form = "anthropic"  # a client tool that takes no input
        else:
            expected = _EXPECTED.get(fmt, " or ".join(_EXPECTED.values()))
            raise _fail(
                f"{place} is not a tool declaration of a known form",
                path,
                help=f"expected {expected}",
            )
    if fmt != "auto" and form != fmt:
        raise _fail(
            f"{place} is in the {form} form, not the {fmt} form",
            path,
            help=f"expected {_EXPECTED[fmt]}, or let the format be detected",
        )
    body: Mapping[str, Any] = entry["function"] if form == "openai" else entry
    schema_key = {
        "openai": "parameters",
        "responses": "parameters",
        "anthropic": "input_schema",
        "mcp": "inputSchema",
    }[form]
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(f"{place} has no tool name", path, help=f"expected {_EXPECTED[form]}")
    description = body.get("description") or ""
    if not isinstance(description, str):
        raise _fail(f"{place} ({name}): the description is not a string", path)
    parameters = body.get(schema_key)
    if parameters is None:
        parameters = dict(_EMPTY_PARAMETERS)
    if not isinstance(parameters, dict):
        raise _fail(
            f"{place} ({name}): {schema_key!r} is not a JSON Schema object",
            path,
            help=f"expected {_EXPECTED[form]}",
        )
    return Tool(name=name, parameters=parameters, description=description), form


def _check_schema(tool: Tool, place: str, path: str | None) -> None:
    schema = dict(tool.parameters)
    cls = validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError as error:
        raise _fail(
            f"{place} ({tool.name}): the parameters are not a valid JSON Schema: {error.message}",
            path,
        ) from None
    resource: Resource[Any] = Resource.from_contents(schema, default_specification=DRAFT202012)
    resolver = Registry().resolver_with_root(resource)
    for ref in _refs(schema):
        try:
            resolver.lookup(ref)
        except Unresolvable:
            raise _fail(
                f"{place} ({tool.name}): the reference {ref!r} does not resolve",
                path,
                help="define it under $defs in the same schema; remote references are not fetched",
            ) from None


def _refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                yield value
            elif key not in ("enum", "const", "default", "examples"):
                yield from _refs(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _refs(item)


# -- Python modules, read statically -------------------------------------------------------


def _python_source(name: str, file: Path) -> Path:
    if file.suffix == ".py" or os.sep in name or "/" in name:
        return file
    search: list[str] | None = None
    spec = None
    parts = name.split(".")
    for index, part in enumerate(parts):
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            raise _fail(
                f"no Python module {'.'.join(parts[: index + 1])!r} on the module search path",
                name,
                help="give a module importable from here, or a path to a .py file",
            )
        locations = spec.submodule_search_locations
        search = list(locations) if locations is not None else None
        if search is None and index < len(parts) - 1:
            raise _fail(f"{'.'.join(parts[: index + 1])!r} is not a package", name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise _fail(f"module {name!r} has no Python source file to read", name)
    return Path(spec.origin)


def parse_python_catalogue(text: str, *, path: str | None = None) -> Catalogue:
    """Build a catalogue from Python source: each public top-level function is a tool."""
    try:
        module = ast.parse(text, filename=path or "<catalogue>")
    except SyntaxError as error:
        span = Span.point(error.lineno, error.offset or 1) if error.lineno else None
        raise _fail(
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
        raise _fail(
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
