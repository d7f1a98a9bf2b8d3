"""``toolexpect server`` started in a project whose ``pyproject.toml`` is broken keeps serving:
the editor is told what is wrong, the defaults apply, and fixing the file brings the settings
back. Driven over stdio by the real LSP client."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types

from .editor import Editor

ROOT = Path(__file__).resolve().parents[2]
BROKEN = '[tool.toolexpect\ntools = "tools.json"\n'
FIXED = '[tool.toolexpect]\ntools = "tools.json"\n'
MISSPELLED = 'expect get_wether(city="Berlin")\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose pyproject.toml is not valid TOML, beside the example catalogue."""
    (tmp_path / "pyproject.toml").write_text(BROKEN, encoding="utf-8")
    shutil.copy(ROOT / "specs" / "tools.json", tmp_path / "tools.json")
    return tmp_path


@pytest.fixture
def editor(project: Path) -> Iterator[Editor]:
    """A server started in the project's folder, for a client that watches files."""
    started = Editor(project, cwd=project, watch_files=True)
    yield started
    started.close()


def test_a_broken_pyproject_is_told_the_defaults_apply_and_a_fix_is_taken_up(
    editor: Editor, project: Path
) -> None:
    """The server answers; the problem is one warning; without settings there is no catalogue;
    once the file is fixed (the client reports the change) the catalogue's findings arrive; broken
    again (seen on the next change of the spec), the warning comes again."""
    registration = editor.wait_until_registered(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    assert registration.register_options == {"watchers": [{"globPattern": "**/pyproject.toml"}]}
    spec = project / "weather.expect"
    assert editor.open(spec, MISSPELLED) == []
    [told] = editor.messages
    assert told.type == types.MessageType.Warning
    assert told.message.startswith(f"toolexpect: {project / 'pyproject.toml'}: not valid TOML: ")
    assert told.message.endswith("; the defaults apply")
    assert editor.format(spec) == []  # the defaults: formatting works, nothing to change

    (project / "pyproject.toml").write_text(FIXED, encoding="utf-8")
    diagnostics = editor.files_changed(project / "pyproject.toml", then=spec)
    assert [d.code for d in diagnostics] == ["T500"]
    assert len(editor.messages) == 1

    (project / "pyproject.toml").write_text(BROKEN, encoding="utf-8")
    assert editor.change(spec, MISSPELLED + "expect get_weather\n") == []
    assert [m.message for m in editor.messages] == [told.message, told.message]
