"""``[tool.toolexpect]`` of the nearest ``pyproject.toml``: found, read and checked once.

The command line and the pytest plugin read their defaults here; a value given on the
command line always wins. Paths are relative to the folder of the ``pyproject.toml``.
A value of the wrong type is a :class:`SettingsError` naming the key, never ignored; so is a
key that is not a setting (a typo, ``fail_under``, would turn a gate off), with the line it
is on and the closest setting's name.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from toolexpect.errors import ToolexpectError

__all__ = ["KNOWN_KEYS", "Settings", "SettingsError", "find_settings"]

KNOWN_KEYS = (
    "case-from",
    "fail-on",
    "fail-under",
    "line-length",
    "lint-format",
    "log-format",
    "logs",
    "outputs",
    "pair-by",
    "score-format",
    "specs",
    "tools",
    "tools-format",
)
"""Every key of ``[tool.toolexpect]`` (docs/cli.md lists them); any other is an error."""


class SettingsError(ToolexpectError):
    """A ``[tool.toolexpect]`` value that cannot be used; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The ``[tool.toolexpect]`` table and the file it comes from (``None`` without one)."""

    path: Path | None = None
    table: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def _where(self, key: str) -> str:
        return f"{self.path}: [tool.toolexpect] {key}"

    def raw(self, key: str) -> object | None:
        """The value of ``key`` as written, or None."""
        return self.table.get(key)

    def _relative(self, value: str) -> str:
        """``value`` as a path from the current folder (unchanged when it is absolute)."""
        assert self.path is not None
        if os.path.isabs(value):
            return value
        joined = self.path.parent / value
        try:
            return os.path.relpath(joined)
        except ValueError:  # another drive on Windows
            return str(joined)

    def paths(self, key: str) -> list[str] | None:
        """A path or list of paths (``specs``, ``logs``, ``tools``), relative to the current folder."""
        value = self.raw(key)
        if value is None:
            return None
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items or not all(isinstance(v, str) and v for v in items):
            raise SettingsError(f"{self._where(key)} must be a path or a list of paths, not {value!r}")
        return [self._relative(v) for v in items]

    def path_of(self, key: str) -> str | None:
        """One path (``tools``), relative to the current folder."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise SettingsError(f"{self._where(key)} must be a path, not {value!r}")
        return self._relative(value)

    def choice(self, key: str, choices: tuple[str, ...]) -> str | None:
        """A name among ``choices`` (a format)."""
        value = self.raw(key)
        if value is None:
            return None
        if value not in choices:
            raise SettingsError(f"{self._where(key)} must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    def text(self, key: str) -> str | None:
        """A non-empty string (a log or catalogue format name, checked where it is used)."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise SettingsError(f"{self._where(key)} must be a name, not {value!r}")
        return value

    def whole_number(self, key: str) -> int | None:
        """A whole number of at least 1 (``line-length``)."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise SettingsError(f"{self._where(key)} must be a whole number of at least 1, not {value!r}")
        return value

    def fraction(self, key: str) -> float | None:
        """A number from 0 to 1 (``fail-under``)."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
            raise SettingsError(f"{self._where(key)} must be a number from 0 to 1, not {value!r}")
        return float(value)

    def strings(self, key: str) -> list[str] | None:
        """A list of strings (``outputs``: ``FORMAT=FILE`` each, the file relative to pyproject.toml)."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise SettingsError(f"{self._where(key)} must be a list of strings, not {value!r}")
        return list(value)

    def relative(self, value: str) -> str:
        """A path written in the settings, as a path from the current folder."""
        return self._relative(value)


def find_settings(start: Path) -> Settings:
    """The settings of the nearest ``pyproject.toml`` at or above ``start`` (none: empty settings).

    A ``pyproject.toml`` that cannot be read or parsed is a :class:`SettingsError`; one
    without ``[tool.toolexpect]`` gives empty settings, as does no file at all.
    """
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if not candidate.is_file():
            continue
        try:
            data = tomllib.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsError(f"{candidate}: cannot be read: {error}") from None
        except tomllib.TOMLDecodeError as error:
            raise SettingsError(f"{candidate}: not valid TOML: {error}") from None
        tool = data.get("tool", {})
        table = tool.get("toolexpect", {}) if isinstance(tool, dict) else {}
        if not isinstance(table, dict):
            raise SettingsError(f"{candidate}: [tool.toolexpect] must be a table")
        unknown = [key for key in table if key not in KNOWN_KEYS]
        if unknown:
            text = candidate.read_text(encoding="utf-8")
            raise SettingsError("\n".join(_unknown_key(candidate, text, key) for key in unknown))
        return Settings(candidate, MappingProxyType(table))
    return Settings()


def _printable(text: str) -> str:
    """``text`` with each character that is not printable as a ``\\uXXXX`` escape."""
    return "".join(char if char.isprintable() else json.dumps(char)[1:-1] for char in text)


def _unknown_key(path: Path, text: str, key: str) -> str:
    """The message for a key of ``[tool.toolexpect]`` that is not a setting, with its line when
    it can be found and the closest setting's name (``fail_under``: ``fail-under``)."""
    line = _line_of(text, key)
    where = _printable(str(path)) + (f":{line}" if line is not None else "")
    import difflib  # only for a key that is not a setting

    close = difflib.get_close_matches(key.replace("_", "-").lower(), KNOWN_KEYS, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"the settings are {', '.join(KNOWN_KEYS)}"
    return f"{where}: [tool.toolexpect] has no setting {_printable(repr(key))}; {hint}"


_HEADER = re.compile(r"\s*\[")
_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_ASSIGNED = re.compile(rf"\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _key_path(text: str) -> list[str]:
    """The keys a line of TOML names, outermost first (``[tool.toolexpect.x]``: tool,
    toolexpect, x; ``"a".b = 1``: a, b); empty when it is not one line of TOML on its own."""
    try:
        data: object = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    path = []
    while isinstance(data, dict) and len(data) == 1:
        key, data = next(iter(data.items()))
        path.append(key)
    return path


def _line_of(text: str, key: str) -> int | None:
    """The 1-based line where ``key`` is written in ``[tool.toolexpect]`` (under its header, or
    as the header of a sub-table), or None when it cannot be found."""
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _HEADER.match(line):
            path = _key_path(line)
            if path[:3] == ["tool", "toolexpect", key]:
                return number
            inside = path == ["tool", "toolexpect"]
            continue
        assigned = _ASSIGNED.match(line) if inside else None
        if assigned and _key_path(f"{assigned.group(1)} = 0")[:1] == [key]:
            return number
    return None
