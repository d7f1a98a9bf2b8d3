"""How recorded runs pair with cases: the options, and the field path of ``--case-from``.

``PairingOptions(by="id" | "question" | "file", case_from=PATH)``. ``case_from`` names a field
of each record, as a dotted path (``metadata.case``) or a JSON Pointer (``/metadata/case``);
given, it decides the pairing whatever ``by`` says. A dotted path also reads keys that hold
dots themselves (OpenTelemetry attribute names such as ``app.case``): at each level the
longest run of parts that is a key is taken.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from toolexpect.spelling import Setting

__all__ = ["PAIR_BY", "FieldPath", "PairBy", "PairingOptions", "field_path", "lookup"]

PairBy: TypeAlias = Literal["id", "question", "file"]
PAIR_BY: tuple[PairBy, ...] = ("id", "question", "file")
"""The values of ``--pair-by``."""

FieldPath: TypeAlias = tuple[str, ...]
"""The parts of a field path: keys of objects, or indices of lists written as numbers."""


def field_path(text: str) -> FieldPath:
    """The parts of a dotted path or JSON Pointer; ``ValueError`` for an empty one."""
    if text.startswith("/"):
        parts = tuple(part.replace("~1", "/").replace("~0", "~") for part in text[1:].split("/"))
    else:
        parts = tuple(text.split("."))
    if not text or any(not part for part in parts):
        raise ValueError(f"{text!r} is not a field path (write metadata.case or /metadata/case)")
    return parts


def lookup(value: Any, parts: FieldPath) -> Any:
    """The value at ``parts`` inside ``value``, else ``None``."""
    if not parts:
        return value
    if isinstance(value, Mapping):
        for end in range(len(parts), 0, -1):
            key = ".".join(parts[:end]) if end > 1 else parts[0]
            if key in value:
                found = lookup(value[key], parts[end:])
                if found is not None:
                    return found
        return None
    if isinstance(value, list) and parts[0].isdigit() and int(parts[0]) < len(value):
        return lookup(value[int(parts[0])], parts[1:])
    return None


@dataclass(frozen=True, slots=True)
class PairingOptions:
    """How recorded runs pair with cases (see ``docs/logs.md``, "Pairing runs with cases")."""

    by: PairBy = "id"
    case_from: str | None = None

    def __post_init__(self) -> None:
        """Refuse an unknown ``by`` and a ``case_from`` that is no field path."""
        if self.by not in PAIR_BY:
            raise ValueError(f"pair by one of {', '.join(PAIR_BY)}, not {self.by!r}")
        if self.case_from is not None:
            field_path(self.case_from)

    @property
    def path(self) -> FieldPath | None:
        """The parts of ``case_from``."""
        return field_path(self.case_from) if self.case_from is not None else None

    @property
    def setting(self) -> Setting:
        """The setting that asks for this pairing (each surface spells it: see
        :mod:`toolexpect.spelling`)."""
        if self.case_from is not None:
            return Setting("case-from", self.case_from)
        return Setting("pair-by", self.by)

    @classmethod
    def of(cls, settings: Mapping[str, object]) -> PairingOptions:
        """From ``pair-by`` and ``case-from`` settings (``[tool.toolexpect]``); ``ValueError``."""
        by = settings.get("pair-by", "id")
        case_from = settings.get("case-from")
        if not isinstance(by, str) or by not in PAIR_BY:
            raise ValueError(f"pair-by is one of {', '.join(PAIR_BY)}, not {by!r}")
        if case_from is not None and not isinstance(case_from, str):
            raise ValueError(f"case-from is a field path such as metadata.case, not {case_from!r}")
        return cls(by, case_from)
