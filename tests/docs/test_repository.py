"""The repository works on any machine: no link it holds points outside it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tracked_links() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / line.split("\t", 1)[1] for line in listed.splitlines() if line.startswith("120000 ")]


def test_no_tracked_link_points_outside_the_repository() -> None:
    """Every symbolic link git tracks is relative and resolves inside the repository (a link to
    an absolute path dangles on every other machine)."""
    for link in _tracked_links():
        target = os.readlink(link)
        assert not os.path.isabs(target), f"{link.relative_to(ROOT)} points to the absolute path {target}"
        resolved = (link.parent / target).resolve()
        assert resolved.is_relative_to(ROOT.resolve()), f"{link.relative_to(ROOT)} points outside: {target}"


def test_the_repository_holds_links_that_the_test_sees() -> None:
    """The diagnostics fixture of a dangling link is found, so the check above reads git's list."""
    assert any(link.name == "P107-dangling-link.expect" for link in _tracked_links())


def test_the_set_up_waits_for_another_apt_get() -> None:
    """Every apt-get of the set-up scripts waits for dpkg's lock rather than failing at once
    when another apt-get (or unattended-upgrades) holds it."""
    for script in sorted((ROOT / ".ci").iterdir()):
        for line in script.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("apt-get "):
                assert '"${lock[@]}"' in line or "DPkg::Lock::Timeout" in line, f"{script.name}: {line}"


def test_every_install_line_names_extras_and_a_wheel_the_project_has() -> None:
    """The install lines of the README and docs name extras that ``pyproject.toml`` declares,
    and the wheel they install is the one ``pip wheel`` builds of this version."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = []
    for page in pages:
        for line in page.read_text(encoding="utf-8").splitlines():
            for found in re.finditer(r"toolexpect(?:-[\w.]+\.whl)?\[([\w,]+)\]", line):
                named.extend(found.group(1).split(","))
            for wheel in re.findall(r"toolexpect-([\w.]+)-py3-none-any\.whl", line):
                assert wheel == project["version"], f"{page.name}: {line}"
    assert named and set(named) <= extras, set(named) - extras
