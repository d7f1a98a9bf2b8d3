"""Reading tool catalogues: every supported format, format forcing, and T505 for bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolexpect.catalogue import (
    Catalogue,
    CatalogueError,
    Tool,
    catalogue_from_data,
    load_catalogue,
    parse_catalogue,
    parse_python_catalogue,
)
from toolexpect.diagnostics import Severity

from .tools_support import FIXTURES

FORMAT_FILES = [
    ("openai.json", "openai"),
    ("responses.json", "responses"),
    ("anthropic.yaml", "anthropic"),
    ("mcp.json", "mcp"),
    ("mcp_jsonrpc.json", "mcp"),
]


@pytest.mark.parametrize(("name", "fmt"), FORMAT_FILES, ids=[f for f, _ in FORMAT_FILES])
def test_each_format_is_detected_and_read(name: str, fmt: str) -> None:
    """Each provider form is detected and yields the same tools with their schemas."""
    catalogue = load_catalogue(str(FIXTURES / name))
    assert catalogue.format == fmt
    assert catalogue.names == ("get_weather", "send_email")
    weather = catalogue.get("get_weather")
    assert weather is not None
    assert weather.description == "Weather for a city."
    assert weather.parameters["properties"]["days"]["maximum"] == 14
    assert weather.parameters["required"] == ["city"]
    assert "send_email" in catalogue
    assert "get_wether" not in catalogue


@pytest.mark.parametrize(("name", "fmt"), FORMAT_FILES, ids=[f for f, _ in FORMAT_FILES])
def test_forcing_the_right_format_reads_the_file(name: str, fmt: str) -> None:
    """Forcing the format a file is in gives the same catalogue as detection."""
    assert load_catalogue(str(FIXTURES / name), fmt) == load_catalogue(str(FIXTURES / name))


def test_forcing_the_wrong_format_is_t505_naming_the_expected_form() -> None:
    """A file in another form than the forced one is refused with what was expected."""
    with pytest.raises(CatalogueError) as raised:
        load_catalogue(str(FIXTURES / "openai.json"), "anthropic")
    diagnostic = raised.value.diagnostic
    assert diagnostic.code == "T505"
    assert "tools[0] is in the openai form, not the anthropic form" in diagnostic.message
    assert diagnostic.help is not None and "input_schema" in diagnostic.help


def test_responses_built_in_tools_without_a_name_are_skipped() -> None:
    """A provider built-in tool (web_search_preview) carries no schema and is not a tool here."""
    catalogue = load_catalogue(str(FIXTURES / "responses.json"))
    assert len(catalogue) == 2


def test_anthropic_server_tool_with_a_name_is_kept_with_an_open_schema() -> None:
    """A named server tool has no input schema: it is known, and any argument is allowed."""
    catalogue = catalogue_from_data([{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}])
    assert catalogue.get("web_search") == Tool("web_search", {}, "")


def test_function_without_parameters_takes_no_arguments() -> None:
    """An OpenAI function without ``parameters`` takes none."""
    catalogue = catalogue_from_data([{"type": "function", "function": {"name": "ping"}}])
    tool = catalogue.get("ping")
    assert tool is not None
    assert tool.parameters == {"type": "object", "properties": {}}


def test_yaml_text_without_a_suffix_is_read() -> None:
    """Text that is not JSON is read as YAML when the name does not say which."""
    catalogue = parse_catalogue("- name: ping\n  input_schema: {type: object}\n")
    assert catalogue.names == ("ping",)
    assert catalogue.format == "anthropic"


BAD_FILES = [
    ("bad_json.json", "is not valid JSON"),
    ("bad_yaml.yaml", "neither valid JSON nor valid YAML"),
    ("wrong_shape.json", "expected a list of tools"),
    ("no_name.json", "tools[0] has no tool name"),
    ("bad_schema.json", "not a valid JSON Schema"),
    ("unresolved_ref.json", "the reference '#/$defs/Missing' does not resolve"),
    ("duplicate.json", "tool 'x' is declared twice"),
    ("schema_not_object.json", "'input_schema' is not a JSON Schema object"),
    ("missing.json", "no such catalogue file"),
]


@pytest.mark.parametrize(("name", "expected"), BAD_FILES, ids=[n for n, _ in BAD_FILES])
def test_bad_catalogue_files_are_t505_with_file_and_reason(name: str, expected: str) -> None:
    """A catalogue that cannot be read raises one T505 naming the file and the problem."""
    path = str(FIXTURES / name)
    with pytest.raises(CatalogueError) as raised:
        load_catalogue(path)
    diagnostic = raised.value.diagnostic
    assert diagnostic.code == "T505"
    assert diagnostic.name == "invalid-catalogue"
    assert diagnostic.severity is Severity.ERROR
    assert diagnostic.path == path
    assert expected in diagnostic.message
    assert diagnostic.message.startswith(path)
    assert str(raised.value) == diagnostic.message


def test_invalid_json_points_at_the_place() -> None:
    """A JSON syntax error carries the line and column of the problem."""
    with pytest.raises(CatalogueError) as raised:
        load_catalogue(str(FIXTURES / "bad_json.json"))
    span = raised.value.diagnostic.span
    assert span is not None and span.line == 1 and span.column == 48  # the "}" after the trailing comma


def test_unknown_format_is_t505_listing_the_formats() -> None:
    """An unknown ``fmt`` is refused with the list of formats."""
    with pytest.raises(CatalogueError) as raised:
        load_catalogue(str(FIXTURES / "openai.json"), "gemini")
    assert raised.value.diagnostic.help is not None
    assert "anthropic" in raised.value.diagnostic.help


def test_not_utf8_is_t505(tmp_path: Path) -> None:
    """A catalogue that is not UTF-8 text is refused."""
    path = tmp_path / "tools.json"
    path.write_bytes(b'[{"name": "\xff"}]')
    with pytest.raises(CatalogueError, match="not UTF-8"):
        load_catalogue(str(path))


def test_draft7_schema_is_accepted_and_kept() -> None:
    """A tool schema with ``$schema`` draft-07 and ``definitions`` loads."""
    catalogue = load_catalogue(str(FIXTURES / "draft7.json"))
    tool = catalogue.get("set_level")
    assert tool is not None
    assert tool.parameters["$schema"].startswith("http://json-schema.org/draft-07")


# -- Python modules -----------------------------------------------------------------------


def test_python_file_is_read_without_running_it() -> None:
    """A .py catalogue becomes tools from signatures; its module-level code never runs."""
    catalogue = load_catalogue(str(FIXTURES / "weather_tools.py"))
    assert catalogue.format == "python"
    assert catalogue.names == ("get_weather", "send_email")
    weather = catalogue.get("get_weather")
    assert weather is not None
    assert weather.description == "Weather for a city."
    assert weather.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "unit": {"enum": ["celsius", "fahrenheit"], "default": "celsius"},
            "days": {"type": "integer", "default": 1},
        },
        "required": ["city"],
        "additionalProperties": False,
    }


def test_python_types_map_to_json_schema() -> None:
    """list[X], dict, Optional, X | None, keyword-only and string annotations all map."""
    catalogue = load_catalogue(str(FIXTURES / "weather_tools.py"), "python")
    email = catalogue.get("send_email")
    assert email is not None
    props = email.parameters["properties"]
    assert props["to"] == {"type": "string"}
    assert props["cc"] == {
        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
        "default": None,
    }
    assert props["meta"] == {
        "anyOf": [
            {"type": "object", "additionalProperties": {"type": "integer"}},
            {"type": "null"},
        ],
        "default": None,
    }
    assert props["urgent"] == {"type": "boolean", "default": False}
    assert props["score"] == {"type": "number", "default": 0.0}
    assert email.parameters["required"] == ["to"]


def test_python_module_name_is_found_without_importing_its_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``pkg.module`` is located on sys.path; the package's __init__ (which raises) never runs."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    catalogue = load_catalogue("catpkg.tools")
    assert catalogue.names == ("lookup_order",)  # only what __all__ lists
    tool = catalogue.get("lookup_order")
    assert tool is not None
    assert tool.parameters["required"] == ["order_id"]
    assert tool.parameters["properties"]["include_items"] == {"type": "boolean", "default": False}


def test_python_module_that_does_not_exist_is_t505() -> None:
    """A module name that is not on the search path is refused with a clear message."""
    with pytest.raises(CatalogueError, match="no Python module 'nosuchpkg_xyz'"):
        load_catalogue("nosuchpkg_xyz.tools", "python")


def test_python_source_with_a_syntax_error_is_t505() -> None:
    """Python that does not parse is refused at the place of the error."""
    with pytest.raises(CatalogueError) as raised:
        parse_python_catalogue("def f(:\n    pass\n", path="broken.py")
    assert raised.value.diagnostic.code == "T505"
    assert "not valid Python" in raised.value.diagnostic.message
    assert raised.value.diagnostic.line == 1


def test_python_source_without_public_functions_is_t505() -> None:
    """A module with nothing to offer is refused rather than read as an empty catalogue."""
    with pytest.raises(CatalogueError, match="no public functions"):
        parse_python_catalogue("def _hidden(): pass\nX = 1\n", path="empty.py")


def test_python_kwargs_leaves_the_arguments_open_and_union_types() -> None:
    """``**kwargs`` allows other arguments; ``int | str`` is a union of types."""
    catalogue = parse_python_catalogue(
        "import typing\ndef f(a: int | str, b: typing.Optional[float] = None, c: 'list' = [], **kw): ...\n"
    )
    tool = catalogue.get("f")
    assert tool is not None
    assert tool.parameters["additionalProperties"] is True
    assert tool.parameters["properties"]["a"] == {"type": ["integer", "string"]}
    assert tool.parameters["properties"]["b"] == {"type": ["number", "null"], "default": None}
    assert tool.parameters["properties"]["c"] == {"type": "array", "default": []}


def test_catalogue_is_frozen() -> None:
    """Catalogues and tools are immutable values."""
    catalogue = Catalogue(tools={})
    with pytest.raises(AttributeError):
        catalogue.format = "x"  # type: ignore[misc]


def test_remote_references_are_not_fetched() -> None:
    """A ``$ref`` to a URL is unresolvable (T505): nothing is fetched over the network."""
    data = [
        {
            "name": "f",
            "input_schema": {
                "type": "object",
                "properties": {"a": {"$ref": "https://example.com/schemas/a.json"}},
            },
        }
    ]
    with pytest.raises(CatalogueError, match="does not resolve"):
        catalogue_from_data(data, path="remote.json")


def test_missing_json_file_is_not_taken_for_a_module_name() -> None:
    """``tools.json`` that does not exist is a missing file, not a module ``tools``."""
    with pytest.raises(CatalogueError, match="no such catalogue file"):
        load_catalogue("no_such_dir_xyz/tools.json")
    with pytest.raises(CatalogueError, match="no such catalogue file"):
        load_catalogue("tools.json")


def test_forced_python_format_reports_a_missing_module() -> None:
    """With ``fmt="python"`` a name that is no module is T505 naming it."""
    with pytest.raises(CatalogueError, match="no Python module 'nosuchpkg_xyz'"):
        load_catalogue("nosuchpkg_xyz", "python")


CLASSES_MODULE = '''
import dataclasses
from enum import Enum, IntEnum, StrEnum, Flag, auto
from typing import Literal, NotRequired, Required, TypedDict, TypeAlias
from pydantic import BaseModel, Field


class Unit(str, Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Level(IntEnum):
    LOW = 1
    HIGH = auto()


class Colour(StrEnum):
    RED = auto()


class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXEC = auto()


class Address(TypedDict, total=False):
    street: str
    city: Required[str]


class Contact(TypedDict):
    name: str
    address: Address
    phone: NotRequired[str]


@dataclasses.dataclass(frozen=True)
class Window:
    start: str
    days: int = 7
    tags: list[str] = dataclasses.field(default_factory=list)


class Node(BaseModel):
    label: str = Field(..., description="shown")
    weight: float = Field(1.0)
    children: list["Node"] = []


Mode = Literal["fast", "slow"]
Size: TypeAlias = int | float


def forecast(unit: Unit, level: Level, colour: Colour, perm: Perm, mode: Mode, size: Size) -> None:
    """Module-level enums and aliases."""


def save(contact: Contact, window: Window, tree: Node | None = None) -> None:
    """Module-level records."""
'''


def test_python_enums_and_aliases_of_the_module_are_followed() -> None:
    """``Enum`` classes become their values (``auto()`` as the standard library numbers it)."""
    tool = parse_python_catalogue(CLASSES_MODULE).get("forecast")
    assert tool is not None
    props = tool.parameters["properties"]
    assert props["unit"] == {"enum": ["celsius", "fahrenheit"]}
    assert props["level"] == {"enum": [1, 2]}
    assert props["colour"] == {"enum": ["red"]}
    assert props["perm"] == {"enum": [1, 2, 4]}
    assert props["mode"] == {"enum": ["fast", "slow"]}
    assert props["size"] == {"type": ["integer", "number"]}


def test_python_typeddict_dataclass_and_model_fields_become_objects() -> None:
    """Records of the module become objects with their fields; required as the class says."""
    tool = parse_python_catalogue(CLASSES_MODULE).get("save")
    assert tool is not None
    props = tool.parameters["properties"]
    assert props["contact"] == {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "address": {
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                "required": ["city"],
            },
            "phone": {"type": "string"},
        },
        "required": ["name", "address"],
    }
    assert props["window"] == {
        "type": "object",
        "properties": {
            "start": {"type": "string"},
            "days": {"type": "integer", "default": 7},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["start"],
    }
    tree = props["tree"]
    node = tree["anyOf"][0]
    assert tree["anyOf"][1] == {"type": "null"}
    assert node["required"] == ["label"]
    assert node["properties"]["weight"] == {"type": "number", "default": 1.0}
    # The class refers to itself: where it recurs, any value is allowed.
    assert node["properties"]["children"] == {"type": "array", "items": {}, "default": []}


def test_python_records_inherit_fields_and_unknown_classes_stay_open() -> None:
    """A subclass has its bases' fields; a class that is no record or enum is any value."""
    catalogue = parse_python_catalogue(
        "from typing import TypedDict\n"
        "class Base(TypedDict):\n    a: int\n"
        "class Child(Base, total=False):\n    b: str\n"
        "class Plain:\n    x: int\n"
        "def f(c: Child, p: Plain, q: Missing) -> None: ...\n"
    )
    tool = catalogue.get("f")
    assert tool is not None
    props = tool.parameters["properties"]
    assert props["c"] == {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["a"],
    }
    assert props["p"] == {}
    assert props["q"] == {}


def test_python_enum_with_computed_values_is_open() -> None:
    """An enum member whose value is not a literal leaves the parameter open, not wrong."""
    catalogue = parse_python_catalogue(
        "from enum import Enum\nclass E(Enum):\n    A = compute()\ndef f(e: E) -> None: ...\n"
    )
    tool = catalogue.get("f")
    assert tool is not None
    assert tool.parameters["properties"]["e"] == {}
