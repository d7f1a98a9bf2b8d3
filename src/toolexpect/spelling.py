"""How each surface spells the setting a finding suggests: the command line, pytest, Python.

A finding that suggests another setting (another way to pair runs with cases) names it
abstractly, as a :class:`Setting` (its key in ``[tool.toolexpect]`` and its value:
``Setting("pair-by", "question")``), and is worded with the :class:`Spelling` of the surface
that shows it: the command that found it, the pytest plugin, or the Python function. The
spellings are here and nowhere else:

================  ===============================  ===================================
surface           ``Setting("pair-by", "file")``   ``Setting("case-from")`` (any field)
================  ===============================  ===================================
``COMMAND_LINE``  ``--pair-by file``               ``--case-from PATH``
``PYTEST``        ``--toolexpect-pair-by file``    ``--toolexpect-case-from PATH``
``PYTHON``        ``PairingOptions(by="file")``    ``PairingOptions(case_from=PATH)``
================  ===============================  ===================================

A value is quoted as its surface reads it: for a shell on the command line and for pytest
(``--case-from 'app case'``), as a Python string in Python.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = ["BY_ID", "BY_QUESTION", "COMMAND_LINE", "PYTEST", "PYTHON", "Key", "Setting", "Spelling"]

Key: TypeAlias = Literal["pair-by", "case-from"]
"""The settings a finding may suggest, by their key in ``[tool.toolexpect]``."""


@dataclass(frozen=True, slots=True, order=True)
class Setting:
    """A setting a finding suggests: its key and value (``None``: any value, spelled
    as a placeholder, as in "pair with a field of each record")."""

    key: Key
    value: str | None = None


BY_ID = Setting("pair-by", "id")
"""Pairing by id, the default."""

BY_QUESTION = Setting("pair-by", "question")
"""Pairing by the user question."""


@dataclass(frozen=True, slots=True)
class Spelling:
    """How one surface spells a :class:`Setting`: a template per key (``{}`` the value), the
    placeholder of any value, and how a value is quoted (``shell`` or ``python``)."""

    surface: str
    templates: Mapping[str, str]
    placeholder: str
    quoting: Literal["shell", "python"]

    def __call__(self, setting: Setting) -> str:
        """``setting`` as this surface spells it."""
        if setting.value is None:
            value = self.placeholder
        elif self.quoting == "shell":
            value = shlex.quote(setting.value)
        else:
            value = json.dumps(setting.value, ensure_ascii=False)
        return self.templates[setting.key].format(value)


COMMAND_LINE = Spelling(
    "command line", {"pair-by": "--pair-by {}", "case-from": "--case-from {}"}, "PATH", "shell"
)
"""The options of ``toolexpect score``, ``calls`` and ``snapshot``."""

PYTEST = Spelling(
    "pytest plugin",
    {"pair-by": "--toolexpect-pair-by {}", "case-from": "--toolexpect-case-from {}"},
    "PATH",
    "shell",
)
"""The options of the pytest plugin (:mod:`toolexpect.api.pytest_plugin`)."""

PYTHON = Spelling(
    "Python",
    {"pair-by": "PairingOptions(by={})", "case-from": "PairingOptions(case_from={})"},
    "PATH",
    "python",
)
""":class:`toolexpect.pairing.PairingOptions`, as the Python functions take it."""
