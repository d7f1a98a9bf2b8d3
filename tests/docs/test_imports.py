"""The import rules of toolexpect's modules, read from the source with ``ast`` (bench/imports.py).

The rule: no import circle among the modules of the package, counting every import the code
writes, at module level, inside functions and under ``if TYPE_CHECKING:`` alike. A deferred
import still needs its module whenever the function runs, and a typing-only import still ties
the two modules' names together (mypy reads both), so neither removes a circle, it only hides
it; the one circle this test was written against (outcomes, scoring, toolcheck) ran through one
of each. Only the implicit import of a module's parent packages is left out (see
bench/imports.py).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import imports  # noqa: E402

import toolexpect  # noqa: E402

PACKAGE = Path(toolexpect.__file__).parent
"""The package imported (its source read, so the rules hold of the code that runs)."""


def test_no_import_circle_among_the_modules() -> None:
    """No module of toolexpect imports, directly or through others, a module that imports it."""
    assert imports.circles(imports.graph(PACKAGE)) == []


def test_no_module_imports_the_package_face() -> None:
    """The package face only re-exports: no module of the package imports from it."""
    assert sorted(name for name, targets in imports.graph(PACKAGE).items() if "toolexpect" in targets) == []


def test_the_version_is_read_from_one_module() -> None:
    """``toolexpect.__version__``, ``toolexpect._version`` and ``toolexpect --version`` say the
    version ``pyproject.toml`` declares."""
    from toolexpect._version import __version__

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert toolexpect.__version__ == __version__ == declared
    shown = subprocess.run(
        [sys.executable, "-m", "toolexpect", "--version"], capture_output=True, text=True, check=True
    )
    assert shown.stdout == f"toolexpect {declared}\n"


def test_the_findings_of_recorded_calls_keep_their_import_paths() -> None:
    """``CallFinding`` and ``SampleFinding`` live with the check that finds them
    (``toolexpect.toolcheck.findings``, below scoring, which carries them) and are the same
    classes under every path they were imported from before."""
    import toolexpect.scoring.outcomes as outcomes
    import toolexpect.scoring.partial as scoring
    import toolexpect.toolcheck as toolcheck
    import toolexpect.toolcheck.calls as calls
    import toolexpect.toolcheck.findings as findings

    assert (
        findings.CallFinding.__module__
        == findings.SampleFinding.__module__
        == "toolexpect.toolcheck.findings"
    )
    assert toolcheck.CallFinding is calls.CallFinding is scoring.CallFinding is outcomes.CallFinding
    assert findings.CallFinding is outcomes.CallFinding
    assert scoring.SampleFinding is outcomes.SampleFinding is findings.SampleFinding
