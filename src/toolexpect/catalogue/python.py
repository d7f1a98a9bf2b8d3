"""Python modules read statically as catalogues: each public top-level function is a tool.

The module is read with ``ast``: signatures, type annotations, enums, ``TypedDict``s, dataclasses
and pydantic models are understood from the source text, and none of its code runs.
"""

from __future__ import annotations

import ast
import os
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from toolexpect.catalogue.annotations import TypeSchemas
from toolexpect.catalogue.model import Catalogue, Tool, fail
from toolexpect.catalogue.syntax import with_default
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
        raise fail(f"the catalogue module is not valid Python: {error.msg}", path, span=span) from None
    exported = _dunder_all(module)
    types = TypeSchemas(module)
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


def _function_tool(node: ast.FunctionDef | ast.AsyncFunctionDef, types: TypeSchemas) -> Tool:
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
            schema = with_default(schema, default)
        properties[arg.arg] = schema
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    parameters["additionalProperties"] = args.kwarg is not None
    docstring = ast.get_docstring(node) or ""
    description = docstring.split("\n\n", 1)[0].strip()
    return Tool(name=node.name, parameters=parameters, description=description)
