"""One exception tree: every exception toolexpect defines derives from ``ToolexpectError`` and
from the built-in it derived from before, as the tree in ``toolexpect.errors`` draws it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import toolexpect
from toolexpect.errors import ToolexpectError

_DRAWN = re.compile(r"^\s+[├└]── (\w+)\s+(\w+Error)?\s")


def _defined() -> dict[str, type[BaseException]]:
    """Every public exception class defined in a module of the package (``__main__`` aside)."""
    found: dict[str, type[BaseException]] = {}
    for module in pkgutil.walk_packages(toolexpect.__path__, "toolexpect."):
        if module.name.endswith("__main__"):
            continue
        imported = importlib.import_module(module.name)
        for name, value in vars(imported).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("toolexpect")
                and not name.startswith("_")
            ):
                found[name] = value
    return found


def _drawn() -> dict[str, str | None]:
    """The classes the tree in ``toolexpect.errors`` draws, with the built-in each also derives from."""
    doc = importlib.import_module("toolexpect.errors").__doc__ or ""
    return {m.group(1): m.group(2) for line in doc.splitlines() if (m := _DRAWN.match(line))}


def test_every_public_exception_is_a_toolexpect_error() -> None:
    """Each exception class toolexpect defines without a leading underscore is a ToolexpectError."""
    defined = _defined()
    assert {"SpecError", "LogError", "LostWork", "ToolexpectCaseFailure"} <= set(defined)
    assert sorted(name for name, cls in defined.items() if not issubclass(cls, ToolexpectError)) == []


def test_the_tree_drawn_is_the_tree() -> None:
    """The docstring of toolexpect.errors draws every public exception, each with the built-in
    it also derives from (``Exception`` when none is drawn)."""
    defined = _defined()
    drawn = _drawn()
    assert sorted(set(defined) - {"ToolexpectError"}) == sorted(drawn)
    for name, builtin in drawn.items():
        bases = [b for b in defined[name].__mro__ if b.__module__ == "builtins"]
        assert bases[0].__name__ == (builtin or "Exception"), name


def test_the_root_is_exported_from_the_package() -> None:
    """``toolexpect.ToolexpectError`` is the root, listed in ``toolexpect.__all__``."""
    assert toolexpect.ToolexpectError is ToolexpectError
    assert "ToolexpectError" in toolexpect.__all__


def test_an_invalid_spec_is_caught_either_way() -> None:
    """A spec that does not parse raises a SpecError that ``except ToolexpectError`` and
    ``except ValueError`` both catch."""
    with pytest.raises(ToolexpectError) as caught:
        toolexpect.parse_spec('expect get_weather(city="Berlin"')
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, toolexpect.SpecError)


def test_a_failed_assertion_is_caught_either_way() -> None:
    """A failed ``assert_tool_calls`` is both a ToolexpectError and an AssertionError."""
    with pytest.raises(ToolexpectError) as caught:
        toolexpect.assert_tool_calls([], "expect t")
    assert isinstance(caught.value, AssertionError)


def test_an_unreadable_log_is_a_toolexpect_error(tmp_path: Path) -> None:
    """A log that cannot be opened raises a LogError, a ToolexpectError whose diagnostic names
    the path."""
    from toolexpect.logs import LogError, open_log

    missing = tmp_path / "missing.jsonl"
    with pytest.raises(ToolexpectError) as caught:
        open_log(missing)
    assert isinstance(caught.value, LogError)
    assert caught.value.diagnostic.path == str(missing)
