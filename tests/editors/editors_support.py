"""Finding the editor tests' npm tools, installed by .ci/setup-editor (npm ci in editors/vscode)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EDITORS = ROOT / "editors"
VSCODE = EDITORS / "vscode"
TEXTMATE = EDITORS / "textmate"
NODE_BIN = VSCODE / "node_modules" / ".bin"


def require(path: Path | None, what: str) -> Path:
    """``path`` when it exists; otherwise fail (in CI, ``CI`` set) or skip (elsewhere), saying how
    to install ``what``."""
    if path is not None and path.exists():
        return path
    reason = f"{what} is not installed: run .ci/setup-editor (npm ci in editors/vscode; needs node and npm)"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def node() -> Path:
    """The ``node`` program."""
    found = shutil.which("node")
    return require(Path(found) if found else None, "node")
