"""Where the grammar file is, found without importing lark (the spec cache hashes it)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["GRAMMAR_NAME", "grammar_path", "grammar_text"]

GRAMMAR_NAME = "toolexpect.lark"
"""The grammar's file name, in the package's ``grammar/`` folder or the repository's."""


def grammar_path() -> Path:
    """Where the grammar is read from: the packaged copy first, the repository's second."""
    here = Path(__file__).resolve()
    packaged = here.parents[1] / "grammar" / GRAMMAR_NAME
    if packaged.is_file():
        return packaged
    repository = here.parents[3] / "grammar" / GRAMMAR_NAME
    if repository.is_file():
        return repository
    raise FileNotFoundError(
        f"toolexpect's grammar {GRAMMAR_NAME} is neither in the package nor in the repository; "
        "reinstall toolexpect"
    )


def grammar_text() -> str:
    """The grammar's source text."""
    return grammar_path().read_text(encoding="utf-8")
