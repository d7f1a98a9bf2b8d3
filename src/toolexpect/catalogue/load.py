"""Catalogue files read: JSON or YAML tool lists of OpenAI, the Responses API, Anthropic and MCP,
and Python modules (handed to :mod:`toolexpect.catalogue.python`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

import yaml
from jsonschema.exceptions import SchemaError
from jsonschema.validators import Draft202012Validator, validator_for
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from toolexpect.catalogue.model import EMPTY_PARAMETERS, Catalogue, CatalogueError, Tool, fail
from toolexpect.catalogue.python import parse_python_catalogue, python_source
from toolexpect.diagnostics import Span

__all__ = ["FORMATS", "MAX_DEPTH", "catalogue_from_data", "load_catalogue", "parse_catalogue"]

FORMATS: tuple[str, ...] = ("auto", "openai", "responses", "anthropic", "mcp", "python")
"""The catalogue formats ``load_catalogue`` accepts for ``fmt``."""

MAX_DEPTH = 128
"""How deeply lists and objects may nest in a JSON or YAML catalogue, the whole document counted
(an OpenAI ``tools`` list puts a tool's parameters five levels down). A deeper one is ``T505``:
the schema checks walk a schema by recursion, and real tool schemas nest a few levels."""

_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_DATA_SUFFIXES = (".json", ".yaml", ".yml")
_EXPECTED = {
    "openai": '{"type": "function", "function": {"name": …, "parameters": {…}}}',
    "responses": '{"type": "function", "name": …, "parameters": {…}}',
    "anthropic": '{"name": …, "input_schema": {…}}',
    "mcp": '{"name": …, "inputSchema": {…}}',
}


# -- entry point ---------------------------------------------------------------------------


def load_catalogue(path: str, fmt: str = "auto", *, origin: str = "the path given to --tools") -> Catalogue:
    """Read the catalogue at ``path`` (a JSON/YAML file, a ``.py`` file or a module name);
    ``origin`` says where the path was given (``tools in [tool.toolexpect] of ...``), for the
    help of a missing file."""
    if fmt not in FORMATS:
        raise fail(
            f"unknown catalogue format {fmt!r}",
            path,
            help="use one of: " + ", ".join(FORMATS),
        )
    file = Path(path)
    if fmt == "python" or (fmt == "auto" and _looks_like_python(path, file)):
        source_path = python_source(path, file)
        text = _read_text(source_path, origin)
        return parse_python_catalogue(text, path=str(source_path))
    text = _read_text(file, origin)
    return parse_catalogue(text, fmt, path=path)


def _looks_like_python(path: str, file: Path) -> bool:
    if file.suffix == ".py":
        return True
    if file.suffix.lower() in _DATA_SUFFIXES or file.exists():
        return False
    return bool(_MODULE_NAME.match(path)) and PathFinder.find_spec(path.split(".")[0]) is not None


def _read_text(file: Path, origin: str) -> str:
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise fail("no such catalogue file", str(file), help=f"check {origin}") from None
    except OSError as error:
        raise fail(f"cannot read the catalogue: {error.strerror}", str(file)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(f"the catalogue is not UTF-8 text (byte {error.start})", str(file)) from None


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
        except RecursionError:
            raise _too_deep(path) from None
        except json.JSONDecodeError as error:
            if suffix == ".json":
                raise fail(
                    f"the catalogue is not valid JSON: {error.msg}",
                    path,
                    span=Span.point(error.lineno, error.colno),
                ) from None
            data = _parse_yaml(text, path)
    return catalogue_from_data(data, fmt, path=path)


def _parse_yaml(text: str, path: str | None) -> Any:
    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise _too_deep(path) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        span = Span.point(mark.line + 1, mark.column + 1) if mark is not None else None
        problem = getattr(error, "problem", None) or str(error)
        raise fail(
            f"the catalogue is neither valid JSON nor valid YAML: {problem}", path, span=span
        ) from None


def _too_deep(path: str | None) -> CatalogueError:
    return fail(
        f"the catalogue nests lists and objects deeper than {MAX_DEPTH} levels",
        path,
        help="tool schemas nest a few levels; check that the file is the tool list",
    )


def _depth_within(data: Any, limit: int) -> bool:
    """True when ``data`` nests lists and objects at most ``limit`` deep; walked with an explicit
    stack (a YAML alias may make a value hold itself, which then is too deep)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen: dict[int, int] = {}  # a shared value (a YAML alias) is walked again only from deeper
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, (dict, list)):
            continue
        if depth > limit:
            return False
        if seen.get(id(value), 0) >= depth:
            continue
        seen[id(value)] = depth
        stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return True


# -- JSON / YAML forms ---------------------------------------------------------------------


def catalogue_from_data(data: Any, fmt: str = "auto", *, path: str | None = None) -> Catalogue:
    """Build a catalogue from decoded JSON/YAML data in one of the provider forms."""
    if fmt not in FORMATS or fmt == "python":
        raise fail(f"unknown catalogue format {fmt!r} for JSON or YAML data", path)
    if not _depth_within(data, MAX_DEPTH):
        raise _too_deep(path)
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
            raise fail(
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
        raise fail(
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
        raise fail(f"{place} is not an object", path, help="each tool is a JSON object")
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
            raise fail(
                f"{place} is not a tool declaration of a known form",
                path,
                help=f"expected {expected}",
            )
    if fmt != "auto" and form != fmt:
        raise fail(
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
        raise fail(f"{place} has no tool name", path, help=f"expected {_EXPECTED[form]}")
    description = body.get("description") or ""
    if not isinstance(description, str):
        raise fail(f"{place} ({name}): the description is not a string", path)
    parameters = body.get(schema_key)
    if parameters is None:
        parameters = dict(EMPTY_PARAMETERS)
    if not isinstance(parameters, dict):
        raise fail(
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
        raise fail(
            f"{place} ({tool.name}): the parameters are not a valid JSON Schema: {error.message}",
            path,
        ) from None
    resource: Resource[Any] = Resource.from_contents(schema, default_specification=DRAFT202012)
    resolver = Registry().resolver_with_root(resource)
    for ref in _refs(schema):
        try:
            resolver.lookup(ref)
        except Unresolvable:
            raise fail(
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
