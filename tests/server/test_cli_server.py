"""``toolexpect server`` without the ``lsp`` extra says what to install."""

from __future__ import annotations

import subprocess
import sys

WITHOUT_PYGLS = (
    "import sys; sys.modules['pygls'] = None; "  # as if pygls were not installed
    "from toolexpect.cli import main; sys.exit(main(['server']))"
)


def test_without_pygls_the_server_names_the_extra_and_exits_2() -> None:
    """No traceback: a one-line message naming ``toolexpect[lsp]``, exit code 2."""
    done = subprocess.run([sys.executable, "-c", WITHOUT_PYGLS], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "pip install 'toolexpect[lsp]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
