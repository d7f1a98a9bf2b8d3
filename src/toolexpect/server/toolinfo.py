"""What the editor shows of a catalogue's tool: its parameters with types and descriptions.

The schema is read with the catalogue checks' own readers (:mod:`toolexpect.toolcheck.schemas`),
so the types shown are the ones the checks hold a spec to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from referencing.exceptions import Unresolvable

from toolexpect.catalogue import Tool
from toolexpect.toolcheck.schemas import ToolSchema, declared, describe_types, properties_of, types_of

__all__ = ["Parameter", "parameters", "schema_block", "signature"]


@dataclass(frozen=True, slots=True)
class Parameter:
    """One declared parameter of a tool."""

    name: str
    types: str
    description: str
    required: bool
    schema: Any


def parameters(tool: Tool) -> tuple[Parameter, ...]:
    """The parameters ``tool`` declares, in the order its schema lists them."""
    try:
        schemas = ToolSchema(tool)
        props, _extra, _open = properties_of(schemas, schemas.root)
        root = schemas.object.schema
        required = set(root.get("required", ())) if isinstance(root, dict) else set()
        found: list[Parameter] = []
        for name in declared(props):
            node = props[name]
            description = node.schema.get("description", "") if isinstance(node.schema, dict) else ""
            found.append(
                Parameter(
                    name,
                    describe_types(types_of(schemas, node)),
                    description if isinstance(description, str) else "",
                    name in required,
                    node.schema,
                )
            )
    except (Unresolvable, RecursionError):
        return ()
    return tuple(found)


def signature(tool: Tool) -> str:
    """``name(a: string, b?: integer)``: optional parameters marked with ``?``."""
    shown = ", ".join(f"{p.name}{'' if p.required else '?'}: {p.types}" for p in parameters(tool))
    return f"{tool.name}({shown})"


def schema_block(schema: Any) -> str:
    """A JSON Schema as a fenced Markdown code block."""
    return "```json\n" + json.dumps(schema, indent=2, ensure_ascii=False) + "\n```"
