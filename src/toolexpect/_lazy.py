"""Names a package re-exports, imported from their modules on first use.

The package face, :mod:`toolexpect.api` and :mod:`toolexpect.scoring` re-export names so that
users import them from one place; importing them on first use keeps ``toolexpect lint`` and
pytest's start-up (which loads the plugin in :mod:`toolexpect.api`) from loading what they
never use.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def exports(package: str, homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, which re-exports each name of ``homes``
    from the module it maps to."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
