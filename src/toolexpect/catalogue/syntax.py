"""What a catalogue module's syntax tree says besides its annotations: the name an expression
spells, a class's annotated fields and their defaults, an ``Enum``'s member values, and which
module-level values read as type aliases. Read with ``ast`` only; nothing of the module runs.
"""

from __future__ import annotations

import ast
import contextlib
from typing import Any

__all__ = [
    "decorator_name",
    "enum_schema",
    "field_default",
    "fields_of",
    "is_annotation_like",
    "name_of",
    "with_default",
]


def name_of(node: ast.expr) -> str | None:
    """The name an expression spells: ``x``, the last part of ``a.x``, or ``None``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return None


def decorator_name(node: ast.expr) -> str | None:
    """The name of a decorator, called (``@dataclass(frozen=True)``) or not."""
    return name_of(node.func) if isinstance(node, ast.Call) else name_of(node)


def with_default(schema: dict[str, Any], default: ast.expr) -> dict[str, Any]:
    """``schema`` with the literal ``default`` added; unchanged when it is not a literal."""
    with contextlib.suppress(ValueError, TypeError, SyntaxError, RecursionError):
        return {**schema, "default": ast.literal_eval(default)}
    return schema


def is_annotation_like(node: ast.expr) -> bool:
    """Whether a module-level value reads as a type alias (``Literal[...]``, ``A | B``, ...)."""
    if isinstance(node, ast.Subscript):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)


def fields_of(cls: ast.ClassDef) -> list[tuple[str, ast.expr, bool, ast.expr | None]]:
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
        if name_of(head) == "ClassVar" or statement.target.id.startswith("_"):
            continue
        value = statement.value
        if isinstance(value, ast.Call) and name_of(value.func) in ("field", "Field"):
            has_default, value = field_default(value)
        else:
            has_default = value is not None
        fields.append((statement.target.id, annotation, has_default, value))
    return fields


def field_default(call: ast.Call) -> tuple[bool, ast.expr | None]:
    """Whether ``field(...)``/``Field(...)`` gives a default, and its expression if it shows one."""
    for keyword in call.keywords:
        if keyword.arg == "default":
            return True, keyword.value
        if keyword.arg in ("default_factory", "factory"):
            return True, None
    if call.args and not (isinstance(call.args[0], ast.Constant) and call.args[0].value is ...):
        return True, call.args[0]
    return False, None


def enum_schema(node: ast.ClassDef, bases: set[str]) -> dict[str, Any]:
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
        if isinstance(value, ast.Call) and name_of(value.func) == "auto":
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
