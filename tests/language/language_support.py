"""Helpers shared by the language tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main


def typed(node: Any) -> Any:
    """A form of ``node`` in which types are part of equality: 1, 1.0 and true differ, and so
    do 0.0 and -0.0."""
    if isinstance(node, dict):
        return ("object", {k: typed(v) for k, v in node.items()})
    if isinstance(node, list):
        return ("list", [typed(v) for v in node])
    if isinstance(node, float):
        return ("float", repr(node))
    return (type(node).__name__, node)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``toolexpect`` with ``argv`` in this process: its exit code, stdout and stderr."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


LANGUAGE_DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"


def documented_example(heading: str) -> str:
    """The first code block after ``heading`` in docs/language.md."""
    text = LANGUAGE_DOC.read_text(encoding="utf-8")
    return text[text.index(heading) :].split("```", 2)[1]
