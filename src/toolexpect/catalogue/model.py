"""A catalogue of tools in one typed form, and the error of a catalogue that cannot be read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.errors import ToolexpectError

__all__ = ["EMPTY_PARAMETERS", "Catalogue", "CatalogueError", "Tool", "fail"]

EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool: its name, the JSON Schema of its arguments object, and its description."""

    name: str
    parameters: Mapping[str, Any] = field(default_factory=lambda: dict(EMPTY_PARAMETERS))
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


class CatalogueError(ToolexpectError):
    """A catalogue that cannot be read; ``diagnostic`` is the ``T505`` finding."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def fail(
    message: str, path: str | None, *, span: Span | None = None, help: str | None = None
) -> CatalogueError:
    """The error for a catalogue that cannot be read: one ``T505`` diagnostic naming the file."""
    where = f"{path}: " if path else ""
    return CatalogueError(make("T505", where + message, span, help=help, path=path))
