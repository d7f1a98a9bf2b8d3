"""The VS Code extension of editors/vscode: its manifest, its client, and the ``.vsix`` that
``npm run package`` (vsce) builds from them."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

from .editors_support import NODE_BIN, TEXTMATE, VSCODE, node, require

MANIFEST = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))


def test_the_manifest_contributes_the_language_and_its_grammar() -> None:
    """``.expect`` files are the language ``toolexpect`` with ``#`` comments and brackets; the
    grammar is the TextMate grammar of editors/textmate."""
    (language,) = MANIFEST["contributes"]["languages"]
    assert language["id"] == "toolexpect" and language["extensions"] == [".expect"]
    configuration = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"] == {"lineComment": "#"}
    assert ["(", ")"] in configuration["brackets"]
    (grammar,) = MANIFEST["contributes"]["grammars"]
    assert grammar == {
        "language": "toolexpect",
        "scopeName": "source.toolexpect",
        "path": "./syntaxes/toolexpect.tmLanguage.json",
    }
    default = MANIFEST["contributes"]["configuration"]["properties"]["toolexpect.server.command"]["default"]
    assert default == ["toolexpect", "server"]


def test_the_client_is_valid_javascript() -> None:
    """node parses the extension's client."""
    done = subprocess.run(
        [str(node()), "--check", str(VSCODE / MANIFEST["main"])], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_packaging_builds_a_vsix_with_the_grammar_and_the_language_client(tmp_path: Path) -> None:
    """``npm run package`` writes a .vsix holding the manifest, the client, the grammar of
    editors/textmate and the language client library, and none of the build tools."""
    require(NODE_BIN / "vsce", "vsce")
    out = tmp_path / "toolexpect.vsix"
    done = subprocess.run(
        [str(node()), "scripts/package.js", "--out", str(out)],
        cwd=VSCODE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(out) as vsix:
        names = set(vsix.namelist())
        grammar = vsix.read("extension/syntaxes/toolexpect.tmLanguage.json")
    assert {
        "extension/package.json",
        "extension/extension.js",
        "extension/language-configuration.json",
        "extension/node_modules/vscode-languageclient/package.json",
    } <= names
    assert grammar == (TEXTMATE / "toolexpect.tmLanguage.json").read_bytes()
    tools = ("extension/node_modules/@vscode/vsce", "extension/scripts")
    assert not any(name.startswith(tools) for name in names)
