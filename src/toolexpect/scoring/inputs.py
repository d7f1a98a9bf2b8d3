"""Checks on what a scoring run was given, as warnings (text): a log named twice, a case name
in two spec files. ``score`` prints them on standard error, the pytest plugin in its summary."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

__all__ = ["distinct_logs", "repeated_case_names"]


def distinct_logs(given: Sequence[str]) -> tuple[list[str], list[str]]:
    """``given`` without the logs named a second time (the same file once resolved, links
    followed), and a warning for each left out."""
    seen: dict[str, str] = {}
    paths: list[str] = []
    warnings: list[str] = []
    for path in given:
        key = os.path.realpath(path)
        if key in seen:
            also = "" if seen[key] == path else f" (as {seen[key]})"
            warnings.append(f"the log {path} is given twice{also}; it is read once")
            continue
        seen[key] = path
        paths.append(path)
    return paths, warnings


def repeated_case_names(files: Iterable[tuple[str, Iterable[str]]]) -> list[str]:
    """A warning for each case name found in more than one of ``files`` (path, case names)."""
    first: dict[str, str] = {}
    warnings: list[str] = []
    for path, names in files:
        for name in dict.fromkeys(names):
            if name in first:
                warnings.append(
                    f'case "{name}" is in both {first[name]} and {path}; the samples with that id '
                    "are scored against both"
                )
            else:
                first[name] = path
    return warnings
