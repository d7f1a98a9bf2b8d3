"""docs/architecture.md names the modules that exist (tests/docs/test_imports.py keeps the import rules)."""

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
            if not here.exists():
                here = next(iter(sorted(PACKAGE.rglob(name))), PACKAGE / name)
            named.add(here)
    return named


def test_every_module_the_page_names_exists() -> None:
    """A file named in docs/architecture.md is a file of the package."""
    missing = sorted(str(p.relative_to(PACKAGE)) for p in _named() if not p.exists())
    assert missing == []
