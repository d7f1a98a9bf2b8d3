"""docs/architecture.md names the modules that exist, and every module of the package is named."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "toolexpect"
DOC = ROOT / "docs" / "architecture.md"

# A section heading names a package or module; code spans in it name its files.
_HEADING = re.compile(r"^## .*\(`toolexpect\.([a-z_]+)`")
_FILE = re.compile(r"`([a-z_/]+\.(?:py|json))`")


def _named() -> set[Path]:
    """Every file the page names, resolved against the package (or the section's subpackage)."""
    named: set[Path] = set()
    folder = PACKAGE
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = _HEADING.match(line)
        if line.startswith("## "):
            sub = PACKAGE / heading.group(1) if heading else None
            folder = sub if sub is not None and sub.is_dir() else PACKAGE
        for name in _FILE.findall(line):
            here = folder / name
            named.add(here if here.exists() else PACKAGE / name)
    return named


def test_every_module_the_page_names_exists() -> None:
    """A file named in docs/architecture.md is a file of the package."""
    missing = sorted(str(p.relative_to(PACKAGE)) for p in _named() if not p.exists())
    assert missing == []


def test_every_module_of_the_package_is_named() -> None:
    """A new engineer finds every module of src/toolexpect on the page (dunder files aside)."""
    modules = {
        p
        for p in PACKAGE.rglob("*.py")
        if not p.name.startswith("__") and "__pycache__" not in p.parts and p.parent.name != "logs"
    }
    unnamed = sorted(str(p.relative_to(PACKAGE)) for p in modules - _named())
    assert unnamed == []
