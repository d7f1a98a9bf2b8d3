"""What the server's feature tests share: one project that names the example catalogue, one
server over stdio per module, and an open document each completion replaces. A module that
needs another project or server defines its own fixture of the same name."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .editor import Editor

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder whose pyproject.toml names the example catalogue."""
    folder = tmp_path_factory.mktemp("project")
    (folder / "pyproject.toml").write_text('[tool.toolexpect]\ntools = "tools.json"\n', encoding="utf-8")
    shutil.copy(ROOT / "specs" / "tools.json", folder / "tools.json")
    (folder / "specs").mkdir()
    return folder


@pytest.fixture(scope="module")
def editor(project: Path) -> Iterator[Editor]:
    """One server for the module."""
    started = Editor(project)
    yield started
    started.close()


@pytest.fixture(scope="module")
def typing(editor: Editor, project: Path) -> Path:
    """An open document whose text each completion replaces."""
    path = project / "specs" / "typing.expect"
    editor.open(path, "")
    return path
